/**
 * Durable writes that wait for the disk (issue 20). A write failing with ENOSPC, EDQUOT, EROFS
 * or EIO is not an error for the session: the store layer retries it with govflow's backoff
 * (backoff.ts: full jitter under a ceiling of 100 ms doubling to 5 s) until the disk takes it, and the session goes on from
 * where it was — no restart. Meanwhile this registry says what waits (`waiting: ENOSPC on
 * <path>`), for the operational log and `govflow status`.
 *
 * One registry per process (the root lock makes the process the root's one writer); the daemon
 * plugs its log and its status file in with {@link DiskWaits.listen}.
 */
import { abortableSleep, backoffDelayMs, type BackoffOptions } from '../backoff.js';
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
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('interrupted', message, { retryable: true, cause: options.cause });
  }
}

/** The wait between attempts: a ceiling of 100 ms doubling to 5 s. */
export const DISK_BACKOFF: Readonly<Pick<BackoffOptions, 'baseMs' | 'maxMs'>> = Object.freeze({ baseMs: 100, maxMs: 5_000 });

export class DiskWaits {
  private readonly current = new Set<DiskWait>();
  private readonly listeners = new Set<DiskWaitListener>();
  /** Ends every wait in progress (abandonAll aborts it and puts a new one in its place). */
  private abandon = new AbortController();
  /** Tests shorten it with {@link setBackoff}. */
  private backoff: Pick<BackoffOptions, 'baseMs' | 'maxMs'> = DISK_BACKOFF;

  /** What waits right now (oldest first). */
  list(): DiskWait[] {
    return [...this.current].map((wait) => ({ ...wait }));
  }

  listen(listener: DiskWaitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setBackoff(backoff: Pick<BackoffOptions, 'baseMs' | 'maxMs'>): void {
    this.backoff = backoff;
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
          await abortableSleep(backoffDelayMs(wait.attempts, this.backoff), this.abandon.signal).catch(() => {
            throw new DiskWaitAbandonedError('stopped while waiting for the disk; the write is retried from the journal at the next start', { cause: error });
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
    this.abandon.abort();
    this.abandon = new AbortController();
  }
}

/** The process's registry (the store layer's files all report here). */
export const diskWaits = new DiskWaits();
