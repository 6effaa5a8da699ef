/**
 * The daemon's watch on its disk (issue 20), after RabbitMQ's disk-free alarm: below
 * `intake.min_free_bytes` nothing new is claimed while running sessions go on; removed system/
 * folders are made again; what waits for the disk is kept in system/state/disk.json for
 * `govflow status` — written in place through a descriptor kept open, padded to a fixed size, so
 * an update needs no new disk block even on a full disk.
 */
import { DISK_STATUS_FILE, type DiskStatus } from '../store/status-file.js';
import { closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, statfsSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import type { OperationalLog } from '../log-contract.js';
import { diskWaits } from '../store/disk-waits.js';

const STATUS_FILE_SIZE = 4096;

export interface DiskGuardOptions {
  paths: SystemPaths;
  minFreeBytes: number;
  log: OperationalLog;
  /** Called when the alarm rises (false: stop claiming) or clears (true: claim again). */
  onClaimingChange: (mayClaim: boolean) => void;
  /** Free bytes of the filesystem holding `folder` (tests replace it). */
  freeBytes?: (folder: string) => number;
}

function statfsFreeBytes(folder: string): number {
  const stats = statfsSync(folder);
  return Number(stats.bavail) * Number(stats.bsize);
}

export class DiskGuard {
  private timer: NodeJS.Timeout | null = null;
  private alarmSince: string | null = null;
  private free: number | null = null;
  private statusFd: number | null = null;
  private readonly stopListening: () => void;
  private readonly freeBytes: (folder: string) => number;

  constructor(private readonly options: DiskGuardOptions) {
    this.freeBytes = options.freeBytes ?? statfsFreeBytes;
    const log = options.log;
    this.stopListening = diskWaits.listen({
      waiting: (wait) => {
        log.error(
          `waiting: ${wait.errno} on ${wait.path}; the write is retried (every ${'≤'}5 s) and the session continues once the disk takes it`,
          { ...wait },
        );
        this.writeStatus();
      },
      resumed: (wait) => {
        log.info(`disk write taken after ${wait.attempts} attempt(s): ${wait.path}`, { ...wait });
        this.writeStatus();
      },
      recreated: (folder) => log.warn(`folder ${folder} was removed while the daemon ran; made it again`, { folder }),
    });
  }

  get alarm(): boolean {
    return this.alarmSince !== null;
  }

  /** First check now (before the intake starts), then every second. */
  start(): void {
    this.check();
    this.timer = setInterval(() => this.check(), 1000);
    this.timer.unref();
  }

  check(): void {
    this.recreateFolders();
    const { minFreeBytes, log, paths } = this.options;
    try {
      this.free = this.freeBytes(paths.system);
    } catch (error) {
      this.free = null;
      log.warn(`cannot read the free space of ${paths.system}: ${(error as Error).message}`);
    }
    const below = minFreeBytes > 0 && this.free !== null && this.free < minFreeBytes;
    if (below && this.alarmSince === null) {
      this.alarmSince = new Date().toISOString();
      log.error(
        `disk alarm: ${this.free} bytes free on ${paths.system}, below intake.min_free_bytes (${minFreeBytes}); ` +
          'no new request is claimed (they wait in the inbox), running sessions go on: free some space',
        { free_bytes: this.free, min_free_bytes: minFreeBytes },
      );
      this.options.onClaimingChange(false);
    } else if (!below && this.alarmSince !== null && this.free !== null) {
      this.alarmSince = null;
      log.info(`disk alarm cleared: ${this.free} bytes free; claiming requests again`, {
        free_bytes: this.free,
        min_free_bytes: minFreeBytes,
      });
      this.options.onClaimingChange(true);
    }
    this.writeStatus();
  }

  private recreateFolders(): void {
    const { paths } = this.options;
    for (const folder of [
      paths.inbox,
      paths.outbox,
      paths.logs,
      paths.sessions,
      paths.archive,
      paths.failed,
      paths.processing,
      paths.state,
    ]) {
      if (existsSync(folder)) continue;
      try {
        mkdirSync(folder, { recursive: true });
        diskWaits.noteRecreated(folder);
      } catch (error) {
        this.options.log.error(`folder ${folder} was removed and cannot be made again: ${(error as Error).message}`);
      }
    }
  }

  private status(): DiskStatus {
    return {
      v: 1,
      pid: process.pid,
      updated_at: new Date().toISOString(),
      free_bytes: this.free,
      min_free_bytes: this.options.minFreeBytes,
      alarm: this.alarmSince !== null,
      alarm_since: this.alarmSince,
      waiting: diskWaits.list(),
    };
  }

  /** Best effort: a full or read-only disk may refuse even this; the log says it all too. */
  private writeStatus(status: DiskStatus = this.status()): void {
    try {
      if (this.statusFd !== null && fstatSync(this.statusFd).nlink === 0) this.closeStatus();
      if (this.statusFd === null) {
        this.statusFd = openSync(path.join(this.options.paths.state, DISK_STATUS_FILE), 'w');
        writeSync(this.statusFd, Buffer.alloc(STATUS_FILE_SIZE, ' '), 0, STATUS_FILE_SIZE, 0);
      }
      const json = Buffer.from(JSON.stringify(status));
      if (json.length + 1 <= STATUS_FILE_SIZE) {
        const padded = Buffer.alloc(STATUS_FILE_SIZE, ' ');
        json.copy(padded);
        padded[STATUS_FILE_SIZE - 1] = 0x0a;
        writeSync(this.statusFd, padded, 0, STATUS_FILE_SIZE, 0);
      } else {
        writeSync(this.statusFd, json, 0, json.length, 0);
        ftruncateSync(this.statusFd, json.length);
      }
    } catch {
      /* see above */
    }
  }

  private closeStatus(): void {
    if (this.statusFd === null) return;
    try {
      closeSync(this.statusFd);
    } catch {
      /* already closed */
    }
    this.statusFd = null;
  }

  /** Stops checking; the status file says nothing waits any more. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopListening();
    this.writeStatus({ ...this.status(), alarm: false, alarm_since: null, waiting: [] });
    this.closeStatus();
  }
}
