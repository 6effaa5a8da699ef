/**
 * Files and folders created ahead of need, on the thread pool, for writes on a request's path.
 *
 * Creating a file or a folder is the costliest metadata step there is on ext4 under a load of
 * syncs: each create waits for the journal (about a millisecond here). Done on the event loop,
 * that wait stalls every session; done on the thread pool when needed, it queues behind the
 * sessions' own syncs (10–20 ms at 16 sessions). A spare is made beforehand, so the path only
 * renames it (or writes into it) and goes on. Two kinds are kept:
 * - an HTTP submission's claim file: `.submit-spare-<random>.tmp` in system/processing/;
 * - a new session's folder with its empty journal: `.spare-<random>/journal.jsonl` in
 *   system/sessions/.
 * Both are hidden names that nothing lists; spares left by a crash are removed at the next start
 * (repairInterruptedSubmissions, removeSpareFolders), and close() removes the rest.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdir, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { openAsync } from './append-only-file.js';

const mkdirAsync = promisify(mkdir);

/** A spare: its path, and a descriptor of the file to write, open at offset 0. */
export interface Spare {
  path: string;
  fd: number;
}

interface SpareKind {
  /** A new, unused path for a spare. */
  name: () => string;
  /** Makes the spare at `target`; resolves with the descriptor of the file to write. */
  create: (target: string) => Promise<number>;
}

const SPARE_FOLDER = /^\.spare-[0-9a-f]+$/;

/** Spare claim files for HTTP submissions in `processing` (system/processing/). */
export function spareClaimFiles(processing: string): Spares {
  return new Spares({
    name: () => path.join(processing, `.submit-spare-${randomBytes(6).toString('hex')}.tmp`),
    create: (file) => openAsync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644),
  });
}

/** Spare session folders, each holding its empty `journal.jsonl` open for appending, in `sessionsDir`. */
export function spareSessionFolders(sessionsDir: string): Spares {
  return new Spares({
    name: () => path.join(sessionsDir, `.spare-${randomBytes(6).toString('hex')}`),
    create: async (folder) => {
      await mkdirAsync(folder);
      return openAsync(path.join(folder, 'journal.jsonl'), 'a');
    },
  });
}

/** Removes the spare session folders a crash left in `sessionsDir` (the daemon's start). */
export function removeSpareFolders(sessionsDir: string): void {
  let names: string[];
  try {
    names = readdirSync(sessionsDir);
  } catch {
    return;
  }
  for (const name of names) if (SPARE_FOLDER.test(name)) rmSync(path.join(sessionsDir, name), { recursive: true, force: true });
}

export class Spares {
  private readonly ready: Spare[] = [];
  private readonly creating = new Set<Promise<void>>();
  private failing = false;
  private closed = false;

  /** Keeps `size` spares of `kind` ready, from the first take() on. */
  constructor(
    private readonly kind: SpareKind,
    private readonly size = 16,
  ) {}

  /**
   * A spare, or null when none is ready (the caller makes its own); starts making its
   * replacement. A spare whose folder was removed under the daemon is dropped.
   */
  take(): Spare | null {
    let spare = this.ready.pop() ?? null;
    while (spare && !isLinked(spare.fd)) {
      closeSync(spare.fd);
      spare = this.ready.pop() ?? null;
    }
    this.fill();
    return spare;
  }

  /**
   * Closes and removes the spares not taken, and those still being made once they are; later
   * takes return null. Safe to call twice.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const spare of this.ready.splice(0)) discard(spare);
    await Promise.all(this.creating);
  }

  private fill(): void {
    // After a failed create (folder gone, disk full), one at a time until one succeeds.
    const limit = this.failing ? 1 : this.size;
    while (!this.closed && this.ready.length + this.creating.size < limit) {
      const creating: Promise<void> = this.createOne()
        .catch(() => false)
        .then((recovered) => {
          this.creating.delete(creating);
          if (recovered) this.fill();
        });
      this.creating.add(creating);
    }
  }

  /** Makes one spare; true when it is the first after failures (the rest can be made now). */
  private async createOne(): Promise<boolean> {
    const target = this.kind.name();
    let fd: number;
    try {
      fd = await this.kind.create(target);
    } catch {
      // The caller makes its own and reports what is wrong; a half-made spare is removed.
      this.failing = true;
      rmSync(target, { recursive: true, force: true });
      return false;
    }
    if (this.closed) {
      discard({ path: target, fd });
      return false;
    }
    this.ready.push({ path: target, fd });
    const recovered = this.failing;
    this.failing = false;
    return recovered;
  }
}

/** False once the file was unlinked (its folder removed under the daemon). */
function isLinked(fd: number): boolean {
  try {
    return fstatSync(fd).nlink > 0;
  } catch {
    return false;
  }
}

/** Closes the spare's descriptor and removes it (a file, or a folder with its file). */
export function discard(spare: Spare): void {
  closeSync(spare.fd);
  rmSync(spare.path, { recursive: true, force: true });
}
