/**
 * Durable writes that wait for the disk (issue 20): a write failing with ENOSPC, EDQUOT, EROFS or
 * EIO is retried with backoff until the disk takes it, and the session goes on where it was. The
 * registry says what waits, for the log and `govflow status`: one per process, since the root lock
 * makes the process the root's one writer.
 */
import { abortableSleep, backoffDelayMs, type BackoffOptions } from '../backoff.js';
import { GovflowError } from '../errors.js';
import { diskFailureCode } from './disk-io.js';

export interface DiskWait {
  errno: string;
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

export const DISK_BACKOFF: Readonly<Pick<BackoffOptions, 'baseMs' | 'maxMs'>> = Object.freeze({
  baseMs: 100,
  maxMs: 5_000,
});

export class DiskWaits {
  private readonly current = new Set<DiskWait>();
  private readonly listeners = new Set<DiskWaitListener>();
  /** Ends every wait in progress (abandonAll aborts it and puts a new one in its place). */
  private abandon = new AbortController();
  private backoff: Pick<BackoffOptions, 'baseMs' | 'maxMs'> = DISK_BACKOFF;

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

  /** Runs `attempt` until the disk takes it; other errors throw at once. It must be safe to repeat after a partial failure. */
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
            throw new DiskWaitAbandonedError(
              'stopped while waiting for the disk; the write is retried from the journal at the next start',
              { cause: error },
            );
          });
        }
      }
    } finally {
      if (wait !== null) this.current.delete(wait);
    }
  }

  noteRecreated(folder: string): void {
    for (const listener of this.listeners) listener.recreated?.(folder);
  }

  /** Ends every wait (shutdown): waiting writes reject with DiskWaitAbandonedError. */
  abandonAll(): void {
    this.abandon.abort();
    this.abandon = new AbortController();
  }
}

export const diskWaits = new DiskWaits();
