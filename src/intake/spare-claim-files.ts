/**
 * Empty claim files created ahead, on the thread pool, for requests submitted by a program.
 *
 * Creating a file is the costliest step of an HTTP submission: under a load of syncs, ext4 makes
 * each create wait for its journal (about a millisecond here), and done in the request's handler
 * that wait stalls the event loop and every session on it. A spare is created beforehand off the
 * event loop, so a submission only writes into one (page cache: microseconds) and goes on.
 *
 * Spares are hidden temp files in system/processing/ (`.submit-spare-<random>.tmp`), the same
 * kind a submission writes: recovery never reads hidden names, and repairInterruptedSubmissions
 * removes the ones that own no request id (an empty spare owns none). The pool fills on first use,
 * so a daemon that takes no HTTP submissions never has any, and close() removes them.
 */
import { closeSync, constants, fstatSync, open, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBase36 } from './request-file.js';

const openAsync = promisify(open);

/** A file in processing/: its path and a descriptor open for writing at offset 0. */
export interface OpenFile {
  file: string;
  fd: number;
}

export class SpareClaimFiles {
  private readonly ready: OpenFile[] = [];
  private creating = 0;
  private failing = false;
  private closed = false;

  /** `size` spares are kept ready in `directory` (system/processing/). */
  constructor(
    private readonly directory: string,
    private readonly size = 16,
  ) {}

  /**
   * A spare to write into, or null when none is ready (the caller creates its own file); starts
   * creating its replacement. A spare whose folder was removed under the daemon is dropped.
   */
  take(): OpenFile | null {
    let spare = this.ready.pop() ?? null;
    while (spare && !isLinked(spare.fd)) {
      closeSync(spare.fd);
      spare = this.ready.pop() ?? null;
    }
    this.fill();
    return spare;
  }

  /** Closes and removes the spares not taken; later takes return null. Safe to call twice. */
  close(): void {
    this.closed = true;
    for (const spare of this.ready.splice(0)) discard(spare);
  }

  private fill(): void {
    // After a failed create (folder gone, disk full), one at a time until one succeeds.
    const limit = this.failing ? 1 : this.size;
    while (!this.closed && this.ready.length + this.creating < limit) void this.createOne();
  }

  private async createOne(): Promise<void> {
    this.creating += 1;
    const file = path.join(this.directory, `.submit-spare-${randomBase36(10)}.tmp`);
    let fd: number;
    try {
      fd = await openAsync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    } catch {
      this.failing = true; // the submission creates its own file and reports what is wrong
      return;
    } finally {
      this.creating -= 1;
    }
    if (this.closed) return discard({ file, fd });
    this.ready.push({ file, fd });
    if (this.failing) {
      this.failing = false;
      this.fill();
    }
  }
}

/** False once the file was unlinked (system/processing/ removed under the daemon). */
function isLinked(fd: number): boolean {
  try {
    return fstatSync(fd).nlink > 0;
  } catch {
    return false;
  }
}

function discard(spare: OpenFile): void {
  closeSync(spare.fd);
  rmSync(spare.file, { force: true });
}
