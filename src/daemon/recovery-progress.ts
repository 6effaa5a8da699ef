/**
 * How far crash recovery has got, for `govflow status`: system/state/recovery.json, rewritten at
 * most twice a second and at the end, trusted only for the pid that owns the root.
 */
import { readStatusFile, writeStatusFile } from '../store/status-file.js';
import type { SystemPaths } from '../config/system-paths.js';

const RECOVERY_STATUS_FILE = 'recovery.json';
const WRITE_EVERY_MS = 500;

export interface RecoveryStatus {
  pid: number;
  /** Requests and replies an earlier run left claimed in system/processing/. */
  total: number;
  done: number;
  started_at: string;
  updated_at: string;
  /** Items finished per second since recovery started. */
  per_second: number;
}

export function readRecoveryStatus(paths: SystemPaths): RecoveryStatus | null {
  return readStatusFile<RecoveryStatus>(paths.state, RECOVERY_STATUS_FILE);
}

/** Counts recovered items and keeps the status file current; never fails the recovery. */
export class RecoveryProgress {
  private done = 0;
  private readonly started = Date.now();
  private lastWrite = 0;

  constructor(
    private readonly paths: SystemPaths,
    private readonly total: number,
    private readonly onWriteError: (error: unknown) => void,
  ) {
    if (total > 0) this.write();
  }

  /** One item (a request or a reply) is finished, failed or moved aside. */
  advance(): void {
    this.done += 1;
    if (Date.now() - this.lastWrite >= WRITE_EVERY_MS) this.write();
  }

  /** Recovery ended (all done, or the daemon is stopping). */
  finish(): void {
    if (this.total > 0) this.write();
  }

  private write(): void {
    this.lastWrite = Date.now();
    const seconds = Math.max(0.001, (this.lastWrite - this.started) / 1000);
    const status: RecoveryStatus = {
      pid: process.pid,
      total: this.total,
      done: this.done,
      started_at: new Date(this.started).toISOString(),
      updated_at: new Date(this.lastWrite).toISOString(),
      per_second: Math.round((this.done / seconds) * 10) / 10,
    };
    try {
      writeStatusFile(this.paths.state, RECOVERY_STATUS_FILE, status);
    } catch (error) {
      this.onWriteError(error);
    }
  }
}
