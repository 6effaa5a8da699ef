/**
 * Durable writes that wait for the disk (issue 20). A write failing with ENOSPC, EDQUOT, EROFS
 * or EIO is not an error for the session: the store layer retries it with capped exponential
 * backoff (100 ms doubling to at most 5 s) until the disk takes it, and the session goes on from
 * where it was — no restart. Meanwhile this registry says what waits (`waiting: ENOSPC on
 * <path>`), for the operational log and `govflow status`.
 *
 * One registry per process (the root lock makes the process the root's one writer); the daemon
 * plugs its log and its status file in with {@link DiskWaits.listen}.
 */
import { GovflowError } from '../errors.js';
import { diskFailureCode } from './disk-io.js';

export interface DiskWait {
  /** The errno the disk answered with (ENOSPC, EDQUOT, EROFS, EIO). */
  errno: string;
  /** The file or folder the write was for. */
  path: string;
  /** ISO time of the first failure of this write. */
  since: string;
  attempts: number;
}

export interface DiskWaitListener {
  /** A write started waiting (once per write), or was taken after waiting. */
  waiting?(wait: DiskWait): void;
  resumed?(wait: DiskWait): void;
  /** A folder the store needs was missing (removed under the daemon) and was made again. */
  recreated?(folder: string): void;
}

/** Thrown into a waiting write when the process shuts down: the journal lets the next start finish it. */
export class DiskWaitAbandonedError extends GovflowError {
  override readonly name = 'DiskWaitAbandonedError';
  constructor(message: string) {
    super('interrupted', message, { retryable: true });
  }
}

export class DiskWaits {
  private readonly current = new Set<DiskWait>();
  private readonly listeners = new Set<DiskWaitListener>();
  /** Timers of waiting writes, each with how to end its wait at shutdown. */
  private readonly sleepers = new Map<NodeJS.Timeout, (error: Error) => void>();
  /** The backoff: 100 ms doubling to at most 5 s (tests shorten it with {@link setBackoff}). */
  private firstRetryMs = 100;
  private maxRetryMs = 5_000;

  /** What waits right now (oldest first). */
  list(): DiskWait[] {
    return [...this.current].map((wait) => ({ ...wait }));
  }

  listen(listener: DiskWaitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setBackoff(firstMs: number, maxMs: number): void {
    this.firstRetryMs = firstMs;
    this.maxRetryMs = maxMs;
  }

  /**
   * Runs `attempt` until it succeeds. A disk failure (see DISK_FAILURE_CODES) is waited out and
   * retried; any other error is thrown at once. `attempt` must be safe to repeat: it is called
   * again after a failure that may have left part of its work on disk.
   */
  async retry<T>(file: string, attempt: () => T | Promise<T>): Promise<T> {
    let wait: DiskWait | null = null;
    try {
      for (;;) {
        try {
          const value = await attempt();
          if (wait !== null) for (const listener of this.listeners) listener.resumed?.({ ...wait });
          return value;
        } catch (error) {
          const errno = diskFailureCode(error);
          if (errno === null) throw error;
          if (wait === null) {
            wait = { errno, path: file, since: new Date().toISOString(), attempts: 1 };
            this.current.add(wait);
            for (const listener of this.listeners) listener.waiting?.({ ...wait });
          } else {
            Object.assign(wait, { attempts: wait.attempts + 1, errno });
          }
          const ms = Math.min(this.firstRetryMs * 2 ** Math.min(wait.attempts - 1, 16), this.maxRetryMs);
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => this.sleepers.delete(timer) && resolve(), ms);
            this.sleepers.set(timer, (abandoned) => reject(Object.assign(abandoned, { cause: error })));
          });
        }
      }
    } finally {
      if (wait !== null) this.current.delete(wait);
    }
  }

  /** Reports a needed folder that was removed and made again (a warning, never a crash). */
  noteRecreated(folder: string): void {
    for (const listener of this.listeners) listener.recreated?.(folder);
  }

  /** Ends every wait (shutdown): waiting writes reject with DiskWaitAbandonedError. */
  abandonAll(): void {
    for (const [timer, reject] of [...this.sleepers]) {
      clearTimeout(timer);
      this.sleepers.delete(timer);
      reject(new DiskWaitAbandonedError('stopped while waiting for the disk; the write is retried from the journal at the next start'));
    }
  }
}

/** The process's registry (the store layer's files all report here). */
export const diskWaits = new DiskWaits();
