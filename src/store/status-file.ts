/**
 * Status files in system/state/ that a running daemon writes for `govflow status`: replaced
 * atomically but not fsynced (the next daemon writes them again), and trusted only for the root's owner.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { writeFileAtomic } from './atomic-file.js';
import type { DiskWait } from './disk-waits.js';

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

/** What the daemon's disk guard (src/daemon/disk-guard.ts) keeps in system/state/disk.json. */
export const DISK_STATUS_FILE = 'disk.json';

export interface DiskStatus {
  v: 1;
  pid: number;
  updated_at: string;
  /** Bytes available to the daemon on the root's filesystem (null when statfs failed). */
  free_bytes: number | null;
  min_free_bytes: number;
  alarm: boolean;
  alarm_since: string | null;
  waiting: DiskWait[];
}

/** The last status a daemon wrote, or null (no file, unreadable). */
export function readDiskStatus(paths: SystemPaths): DiskStatus | null {
  return readStatusFile<DiskStatus>(paths.state, DISK_STATUS_FILE);
}
