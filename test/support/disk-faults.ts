/**
 * Disk failures injected through the store's seam (src/store/disk-io.ts): pass an instance as
 * `faults` to the store, audit writer, file or function under test, then `inject` what should fail.
 */
import type { DiskFaults, DiskOperation } from '../../src/store/disk-io.js';

export interface InjectedFailure {
  operation: DiskOperation;
  /** The first call (1-based, counting calls of this operation that `match`) that fails. */
  nth: number;
  /** A disk-full code is waited out (src/store/disk-waits.ts); EBADF is not, and fails the call for good. */
  errno: 'ENOSPC' | 'EDQUOT' | 'EROFS' | 'EIO' | 'EBADF';
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

export class InjectedDiskFaults implements DiskFaults {
  private readonly injections: ActiveInjection[] = [];

  /** Makes matching calls fail; returns the function that removes the injection. */
  inject(failure: InjectedFailure): () => void {
    const active: ActiveInjection = { ...failure, seen: 0, failed: 0 };
    this.injections.push(active);
    return () => {
      const index = this.injections.indexOf(active);
      if (index !== -1) this.injections.splice(index, 1);
    };
  }

  /** Removes every injection: later calls run. */
  clear(): void {
    this.injections.length = 0;
  }

  failureFor(operation: DiskOperation, file: string): { error: Error; afterCall: boolean } | null {
    for (const injection of this.injections) {
      if (injection.operation !== operation || (injection.match && !injection.match(file))) continue;
      injection.seen += 1;
      if (injection.seen >= injection.nth && injection.failed < (injection.times ?? 1)) {
        injection.failed += 1;
        const error = Object.assign(new Error(`${injection.errno}: injected ${operation} failure, ${file}`), {
          code: injection.errno,
          path: file,
        });
        return { error, afterCall: injection.afterCall === true };
      }
    }
    return null;
  }
}
