/**
 * The seam between the store layer and the disk, for the durable writes issue 20 is about
 * (journal appends, audit appends, result files, archive moves, their syncs). Store code runs
 * each such call through {@link diskCall}; tests inject failures there (the Nth write fails with a
 * given errno, optionally after the write reached the file), so disk-full, read-only and I/O
 * errors are tested everywhere without privileges or a real small filesystem.
 */

export type DiskOperation = 'write' | 'sync' | 'open' | 'rename';

/** Errors that mean "the disk cannot take this now": waited out and retried, never fatal. */
export const DISK_FAILURE_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);

export function diskFailureCode(error: unknown): string | null {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code !== undefined && DISK_FAILURE_CODES.has(code)) return code;
  }
  return null;
}

export interface InjectedFailure {
  operation: DiskOperation;
  /** The first call (1-based, counting calls of this operation that `match`) that fails. */
  nth: number;
  errno: 'ENOSPC' | 'EDQUOT' | 'EROFS' | 'EIO';
  /** How many calls in a row fail from the Nth on (default 1). */
  times?: number;
  /** Only calls on paths for which this is true count (default: every path). */
  match?: (file: string) => boolean;
  /** Make the call first, then report the error (a write that reached the file, then failed). */
  afterCall?: boolean;
}

interface ActiveInjection extends InjectedFailure {
  seen: number;
  failed: number;
}

const injections: ActiveInjection[] = [];

/** The error an injection makes this call fail with, if any (counts the call), and whether the call runs first. */
function dueInjection(operation: DiskOperation, file: string): { error: NodeJS.ErrnoException; afterCall: boolean } | null {
  for (const injection of injections) {
    if (injection.operation !== operation || (injection.match && !injection.match(file))) continue;
    injection.seen += 1;
    if (injection.seen >= injection.nth && injection.failed < (injection.times ?? 1)) {
      injection.failed += 1;
      const error = Object.assign(new Error(`${injection.errno}: injected ${operation} failure, ${file}`), { code: injection.errno, path: file });
      return { error, afterCall: injection.afterCall === true };
    }
  }
  return null;
}

/** Runs one synchronous durable call on `file` through the seam. */
export function diskCall<T>(operation: DiskOperation, file: string, call: () => T): T {
  if (injections.length === 0) return call();
  const injection = dueInjection(operation, file);
  if (injection === null) return call();
  if (injection.afterCall) call();
  throw injection.error;
}

/** The same for a call on the thread pool (fdatasync). */
export async function diskCallAsync<T>(operation: DiskOperation, file: string, call: () => Promise<T>): Promise<T> {
  const injection = injections.length === 0 ? null : dueInjection(operation, file);
  if (injection === null) return call();
  if (injection.afterCall) await call();
  throw injection.error;
}

/** Makes matching calls fail (tests); returns the function that removes the injection. */
export function injectDiskFailure(failure: InjectedFailure): () => void {
  const active: ActiveInjection = { ...failure, seen: 0, failed: 0 };
  injections.push(active);
  return () => {
    const index = injections.indexOf(active);
    if (index !== -1) injections.splice(index, 1);
  };
}

/** Removes every injection (tests' afterEach). */
export function clearDiskFailures(): void {
  injections.length = 0;
}
