/**
 * system/state/config.json: what the running daemon made of its config, for `govflow status`
 * (keys waiting for a restart) and `govflow token add` (whether an HTTP API picks a token up).
 */
import { readStatusFile, writeStatusFile } from '../store/status-file.js';

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
  writeStatusFile(stateDir, CONFIG_STATUS_FILE, status);
}

/** The status `pid` wrote, or null (none, unreadable, or written by another process). */
export function readConfigStatus(stateDir: string, pid: number): ConfigStatus | null {
  return readStatusFile<ConfigStatus>(stateDir, CONFIG_STATUS_FILE, pid);
}
