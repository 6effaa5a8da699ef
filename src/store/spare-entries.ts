/**
 * Empty files and folders made ahead of need, so that a session's own files appear by rename.
 *
 * Why: every session creates a folder and four files (journal, manifest, two result files), and
 * on some filesystems creating an inode is far costlier than anything else a step does (about
 * 1 ms of kernel time each, serialized across the process, on the VMs the benchmarks ran on),
 * while a rename costs a few microseconds. When many sessions start or end at once, their
 * creations queue behind each other; spares made in the quiet moments in between (sessions
 * waiting on their models) take that work off the path of every step.
 *
 * The spares live in system/state/spare/<pid>/, one folder per process, so two daemons on a root
 * never hand out the same entry. A folder left by a process that is gone is adopted whole (one
 * rename) by the next process that starts. Everything here is best effort: when no spare is left,
 * or moving one fails, the caller's entry is created the ordinary way.
 */
import { constants, copyFile, existsSync, linkSync, mkdir, readdirSync, renameSync, rmSync, unlinkSync, writeFile } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { isProcessAlive } from './process-alive.js';

const mkdirAsync = promisify(mkdir);
const copyFileAsync = promisify(copyFile);
const writeFileAsync = promisify(writeFile);

/**
 * Where a session's files and folders come from. Both calls are synchronous and cheap: they
 * either move a spare into place (true) or do nothing (false), and then the caller creates the
 * entry itself, off the event loop.
 */
export interface EntryMaker {
  /**
   * Called before a new file is opened for writing; true when an empty file is there already.
   * `knownNew`: the caller knows nothing is at `target` (then a spare may simply be renamed there).
   */
  placeFile(target: string, knownNew?: boolean): boolean;
  /** True when an empty folder was put at `target`. */
  placeFolder(target: string): boolean;
}

/** No spares: every entry is created by its caller. */
export const PLAIN_ENTRIES: EntryMaker = {
  placeFile: () => false,
  placeFolder: () => false,
};

/** How long no spare must be taken before the refill starts (see refillSoon). */
const QUIET_MS = 20;

export interface SpareEntriesOptions {
  /** Empty files kept ready. */
  files: number;
  /** Empty folders kept ready. */
  folders: number;
}

export class SpareEntries implements EntryMaker {
  private readonly directory: string;
  private readonly files: string[] = [];
  private readonly folders: string[] = [];
  private counter = 0;
  /** Part of every spare's name, so names never repeat those of an adopted folder. */
  private readonly startedAt = Date.now().toString(36);
  private refilling: Promise<void> | null = null;
  /** The spare folder and its template file, made by the first refill. */
  private prepared: Promise<void> | null = null;
  private quietTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    stateDir: string,
    private readonly options: SpareEntriesOptions,
  ) {
    this.directory = path.join(stateDir, 'spare', String(process.pid));
  }

  /** Adopts the spares of a process that is gone (if any) and starts filling up in the background. */
  start(): void {
    const parent = path.dirname(this.directory);
    try {
      for (const name of readdirSync(parent)) {
        const pid = Number(name);
        if (!Number.isInteger(pid) || pid === process.pid || isProcessAlive(pid)) continue;
        const orphan = path.join(parent, name);
        try {
          renameSync(orphan, this.directory);
          break;
        } catch {
          rmSync(orphan, { recursive: true, force: true });
        }
      }
      for (const entry of readdirSync(this.directory, { withFileTypes: true })) {
        if (entry.name === 'template') continue;
        (entry.isDirectory() ? this.folders : this.files).push(path.join(this.directory, entry.name));
      }
    } catch {
      // nothing to adopt
    }
    this.refill();
  }

  /**
   * Puts a spare file at `target` when `target` is new (an existing file is never replaced) and
   * returns true; false without a spare, when the caller's own open creates the file. `known new`
   * (a name in a folder that was itself just placed, or a unique temporary name) allows a plain
   * rename; otherwise link + unlink, since link refuses an existing name. Either costs
   * microseconds, so it runs right here rather than on the thread pool.
   */
  placeFile(target: string, knownNew = false): boolean {
    return this.place(this.files, target, (spare) => {
      if (knownNew) {
        renameSync(spare, target);
        return;
      }
      linkSync(spare, target);
      try {
        unlinkSync(spare);
      } catch {
        // a stray spare name is harmless
      }
    });
  }

  /**
   * Renames a spare folder to `target` when `target` is new and returns true; false when there
   * was none (or `target` exists already): then the caller makes the folder itself.
   */
  placeFolder(target: string): boolean {
    return this.place(this.folders, target, (spare) => renameSync(spare, target));
  }

  /**
   * Moves the next spare of `spares` to `target`. A spare that vanished is skipped; any other
   * failure (the target exists, its folder is missing) keeps the spare and answers false.
   */
  private place(spares: string[], target: string, move: (spare: string) => void): boolean {
    try {
      for (let spare = spares.pop(); spare !== undefined; spare = spares.pop()) {
        try {
          move(spare);
          return true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync(path.dirname(target))) continue;
          spares.push(spare);
          return false;
        }
      }
      return false;
    } finally {
      this.refillSoon();
    }
  }

  /** Stops filling up; the spares left stay for the next process on this root. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.quietTimer) clearTimeout(this.quietTimer);
    await this.refilling;
  }

  /**
   * Refills once no spare was taken for QUIET_MS: entries are taken in bursts (sessions that start
   * and end together), and creating spares during a burst would delay the very work they are for.
   * Below a quarter of the target the refill starts at once.
   */
  private refillSoon(): void {
    if (this.closed) return;
    const low = this.files.length < this.options.files / 4 || this.folders.length < this.options.folders / 4;
    if (low) {
      this.refill();
      return;
    }
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null;
      this.refill();
    }, QUIET_MS);
    this.quietTimer.unref();
  }

  /** Spares ready right now (for tests and benchmarks). */
  get ready(): { files: number; folders: number } {
    return { files: this.files.length, folders: this.folders.length };
  }

  /** One creation at a time, so the refill never crowds the thread pool the sessions use. */
  private refill(): void {
    if (this.closed || this.refilling) return;
    this.refilling = (async () => {
      try {
        // Files are copies of one empty template: a single thread-pool call each (open + close
        // would be two), and COPYFILE_EXCL never overwrites.
        const template = path.join(this.directory, 'template');
        this.prepared ??= mkdirAsync(this.directory, { recursive: true }).then(async () => {
          if (!existsSync(template)) await writeFileAsync(template, '');
        });
        await this.prepared;
        while (!this.closed && (this.files.length < this.options.files || this.folders.length < this.options.folders)) {
          const wantsFolder = this.folders.length < this.options.folders && this.folders.length * this.options.files <= this.files.length * this.options.folders;
          const entry = path.join(this.directory, `${wantsFolder ? 'd' : 'f'}-${this.startedAt}-${++this.counter}`);
          if (wantsFolder) {
            await mkdirAsync(entry);
            this.folders.push(entry);
          } else {
            await copyFileAsync(template, entry, constants.COPYFILE_EXCL);
            this.files.push(entry);
          }
        }
      } catch {
        // The state folder is not writable or full: callers create their entries themselves.
        this.prepared = null;
      } finally {
        this.refilling = null;
      }
    })();
  }
}
