/**
 * Status files in system/state/ that a running daemon writes for `govflow status`: replaced
 * atomically but not fsynced (the next daemon writes them again), and trusted only for the root's owner.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-file.js';

export function writeStatusFile(stateDir: string, name: string, status: unknown): void {
  writeFileAtomic(path.join(stateDir, name), `${JSON.stringify(status)}\n`, false);
}

/** The status in `name`, or null (no file, unreadable, or — with `pid` — written by another process). */
export function readStatusFile<T extends { pid?: number }>(stateDir: string, name: string, pid?: number): T | null {
  try {
    const status = JSON.parse(readFileSync(path.join(stateDir, name), 'utf8')) as T;
    return pid === undefined || status.pid === pid ? status : null;
  } catch {
    return null;
  }
}
