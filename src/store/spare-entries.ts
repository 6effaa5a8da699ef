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
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { link, mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/** Where a session's files and folders come from: spares, or plain creation. */
export interface EntryMaker {
  /** Called before a new file is opened for writing; may put an empty file there already. */
  prepareFile(target: string): Promise<void>;
  /** Makes sure a folder exists at `target` (mkdir -p). */
  ensureFolder(target: string): Promise<void>;
}

/** No spares: files are created by their first open, folders by mkdir. */
export const PLAIN_ENTRIES: EntryMaker = {
  prepareFile: () => Promise.resolve(),
  ensureFolder: async (target) => {
    await mkdir(target, { recursive: true });
  },
};

export interface SpareEntriesOptions {
  /** Empty files kept ready. */
  files: number;
  /** Empty folders kept ready. */
  folders: number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class SpareEntries implements EntryMaker {
  private readonly directory: string;
  private readonly files: string[] = [];
  private readonly folders: string[] = [];
  private counter = 0;
  /** Part of every spare's name, so names never repeat those of an adopted folder. */
  private readonly startedAt = Date.now().toString(36);
  private refilling: Promise<void> | null = null;
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
        if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
        const orphan = path.join(parent, name);
        try {
          renameSync(orphan, this.directory);
          break;
        } catch {
          rmSync(orphan, { recursive: true, force: true });
        }
      }
      for (const entry of readdirSync(this.directory, { withFileTypes: true })) {
        (entry.isDirectory() ? this.folders : this.files).push(path.join(this.directory, entry.name));
      }
    } catch {
      // nothing to adopt
    }
    this.refill();
  }

  /**
   * Links a spare file to `target` when `target` is new (an existing file is never replaced).
   * Without a spare it does nothing: the caller's own open creates the file.
   */
  async prepareFile(target: string): Promise<void> {
    for (let spare = this.files.pop(); spare !== undefined; spare = this.files.pop()) {
      try {
        await link(spare, target);
        await unlink(spare).catch(() => undefined);
        this.refill();
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && existsSync(path.dirname(target))) continue; // the spare vanished: try the next
        this.files.push(spare);
        if (code === 'EEXIST') return;
        break;
      }
    }
    this.refill();
  }

  /** Makes sure a folder exists at `target`: a spare renamed there when `target` is new, else mkdir -p. */
  async ensureFolder(target: string): Promise<void> {
    for (let spare = this.folders.pop(); spare !== undefined; spare = this.folders.pop()) {
      try {
        await rename(spare, target);
        this.refill();
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && existsSync(path.dirname(target))) continue;
        this.folders.push(spare);
        break; // EEXIST / ENOTEMPTY: the folder is there already (mkdir -p below is a no-op)
      }
    }
    this.refill();
    await mkdir(target, { recursive: true });
  }

  /** Stops filling up; the spares left stay for the next process on this root. */
  async close(): Promise<void> {
    this.closed = true;
    await this.refilling;
  }

  /** Spares ready right now (for tests and benchmarks). */
  get ready(): { files: number; folders: number } {
    return { files: this.files.length, folders: this.folders.length };
  }

  private async placeSpare(list: string[], target: string): Promise<boolean> {
    for (let spare = list.pop(); spare !== undefined; spare = list.pop()) {
      try {
        await rename(spare, target);
        this.refill();
        return true;
      } catch (error) {
        // The target exists (the caller's error to report) or the spare vanished: stop using it.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
          list.push(spare);
          return false;
        }
      }
    }
    this.refill();
    return false;
  }

  /** One creation at a time, so the refill never crowds the thread pool the sessions use. */
  private refill(): void {
    if (this.closed || this.refilling) return;
    this.refilling = (async () => {
      try {
        await mkdir(this.directory, { recursive: true });
        while (!this.closed && (this.files.length < this.options.files || this.folders.length < this.options.folders)) {
          const wantsFolder = this.folders.length < this.options.folders && this.folders.length * this.options.files <= this.files.length * this.options.folders;
          const entry = path.join(this.directory, `${wantsFolder ? 'd' : 'f'}-${this.startedAt}-${++this.counter}`);
          if (wantsFolder) {
            await mkdir(entry);
            this.folders.push(entry);
          } else {
            const handle = await open(entry, 'wx');
            await handle.close();
            this.files.push(entry);
          }
        }
      } catch {
        // The state folder is not writable or full: callers create their entries themselves.
      } finally {
        this.refilling = null;
      }
    })();
  }
}
