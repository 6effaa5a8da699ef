/**
 * The seam between the store layer and the disk for the durable writes of issue 20: tests inject
 * failures through {@link DiskFaults} (test/support/disk-faults.ts), so disk-full, read-only and
 * I/O errors are tested everywhere without privileges or a small filesystem.
 */
import { errorCode } from '../errors.js';

export type DiskOperation = 'write' | 'sync' | 'open' | 'rename';

/** Errors that mean "the disk cannot take this now": waited out and retried, never fatal. */
export const DISK_FAILURE_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);

export function diskFailureCode(error: unknown): string | null {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = errorCode(current);
    if (code !== undefined && DISK_FAILURE_CODES.has(code)) return code;
  }
  return null;
}

/** Failures to inject into durable calls (tests). */
export interface DiskFaults {
  /** The error this call fails with, or null to let it run; `afterCall`: the call runs first. Counts the call. */
  failureFor(operation: DiskOperation, file: string): { error: Error; afterCall: boolean } | null;
}

export function diskCall<T>(faults: DiskFaults | undefined, operation: DiskOperation, file: string, call: () => T): T {
  const failure = faults?.failureFor(operation, file) ?? null;
  if (failure === null) return call();
  if (failure.afterCall) call();
  throw failure.error;
}

/** The same for a call on the thread pool (fdatasync). */
export async function diskCallAsync<T>(
  faults: DiskFaults | undefined,
  operation: DiskOperation,
  file: string,
  call: () => Promise<T>,
): Promise<T> {
  const failure = faults?.failureFor(operation, file) ?? null;
  if (failure === null) return call();
  if (failure.afterCall) await call();
  throw failure.error;
}
