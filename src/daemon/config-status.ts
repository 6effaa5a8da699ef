/**
 * system/state/config.json: what the running daemon made of govflow.config.yaml, for
 * `govflow status` (changed keys that wait for a restart) and `govflow token add` (whether the
 * daemon serves the HTTP API, so picks a new token up by itself).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../store/atomic-file.js';

const CONFIG_STATUS_FILE = 'config.json';

export interface ConfigStatus {
  /** The daemon that wrote it: a status whose pid is not the root's owner is stale. */
  pid: number;
  /** The HTTP API's address, or null when this daemon serves none. */
  http: string | null;
  /** Top-level keys edited since the daemon started that only a restart applies, in file order. */
  restart_needed: string[];
}

export function writeConfigStatus(stateDir: string, status: ConfigStatus): void {
  // Not fsynced: the next daemon writes its own at start, so a lost write costs nothing.
  writeFileAtomic(path.join(stateDir, CONFIG_STATUS_FILE), `${JSON.stringify(status)}\n`, false);
}

/** The status `pid` wrote, or null (none, unreadable, or written by another process). */
export function readConfigStatus(stateDir: string, pid: number): ConfigStatus | null {
  try {
    const status = JSON.parse(readFileSync(path.join(stateDir, CONFIG_STATUS_FILE), 'utf8')) as ConfigStatus;
    return status.pid === pid ? status : null;
  } catch {
    return null;
  }
}
