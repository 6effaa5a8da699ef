/**
 * An append-only file whose fdatasyncs run on the thread pool, shared by the callers that ask while
 * one runs (group commit); writes stay synchronous, being small and ordered. A write the disk
 * refuses (issue 20) is cut back to the last whole record and waits in a backlog, retried with
 * backoff; {@link backlogWritten} lets the audit writer keep "journal record, then audit entry".
 */
import {
  close,
  closeSync,
  fdatasync,
  fstatSync,
  fsync,
  fsyncSync,
  ftruncateSync,
  open,
  openSync,
  statSync,
  writeSync,
} from 'node:fs';
import { diskCall, diskCallAsync, diskFailureCode, type DiskFaults } from './disk-io.js';
import { diskWaits } from './disk-waits.js';
import path from 'node:path';
import { promisify } from 'node:util';
import { errorCode, GovflowError } from '../errors.js';

/** open(2) on the thread pool, resolving with the descriptor. */
export const openAsync = promisify(open);
const fsyncAsync = promisify(fsync);

/** Group commit on one descriptor: at most one sync runs; requests arriving meanwhile share one more, queued behind it. */
export class FdatasyncQueue {
  private readonly flush: (fd: number) => Promise<void>;
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;

  /** `flush` is fsync for folders, whose entries are what must reach the disk; `label` names the path in faults and waits. */
  constructor(
    flush: typeof fdatasync = fdatasync,
    private readonly label = 'a file',
    private readonly faults?: DiskFaults,
  ) {
    this.flush = promisify(flush);
  }

  sync(fd: number): Promise<void> {
    if (this.queued) return this.queued;
    const queued = this.running.then(() => {
      // From here on, writes are not covered by this sync: later callers queue another.
      this.queued = null;
      return diskCallAsync(this.faults, 'sync', this.label, () => this.flush(fd));
    });
    this.queued = queued;
    this.running = queued.catch(() => undefined);
    return queued;
  }

  /** Resolves once every sync asked for so far has finished (successfully or not). */
  settled(): Promise<void> {
    return this.running;
  }
}

const flushes = new Set<Promise<void>>();

/** Null when no file waits for the disk; else resolves once the backlogs waiting now are written (or abandoned). */
export function backlogWritten(): Promise<void> | null {
  return flushes.size === 0 ? null : Promise.all([...flushes]).then(() => undefined);
}

export interface AppendOnlyFileOptions {
  /** A descriptor already opened for appending to the file, to adopt. */
  fd?: number;
  faults?: DiskFaults;
}

export class AppendOnlyFile {
  private fd: number | null;
  private readonly faults: DiskFaults | undefined;
  private readonly syncs: FdatasyncQueue;
  /** Bytes of whole records in the file (what a failed write is cut back to). */
  private size: number;
  /** Records the disk has not taken yet, in order. */
  private readonly backlog: string[] = [];
  private flushing: Promise<void> | null = null;

  /** Bytes of whole records written so far: always where an entry ends. */
  get writtenBytes(): number {
    return this.size;
  }

  constructor(
    readonly file: string,
    private readonly durable: boolean,
    options: AppendOnlyFileOptions = {},
  ) {
    this.faults = options.faults;
    this.fd = options.fd ?? diskCall(this.faults, 'open', file, () => openSync(file, 'a'));
    this.size = fstatSync(this.fd).size;
    this.syncs = new FdatasyncQueue(fdatasync, file, this.faults);
  }

  /** The same, with the open (a file creation, the costly part) on the thread pool. */
  static async open(file: string, durable: boolean, faults?: DiskFaults): Promise<AppendOnlyFile> {
    diskCall(faults, 'open', file, () => undefined); // the seam's hook (tests inject refused creations)
    return new AppendOnlyFile(file, durable, { fd: await openAsync(file, 'a'), faults });
  }

  /** Durable with the next `sync`. A write the disk refuses goes to the backlog; other errors throw, leaving nothing behind. */
  append(text: string): void {
    if (this.fd === null) throw new GovflowError('internal', `${this.file} is closed`);
    this.backlog.push(text);
    if (this.backlog.length > 1) return;
    try {
      this.writeBacklog(this.fd);
    } catch (error) {
      if (diskFailureCode(error) === null) {
        this.backlog.length = 0;
        throw error;
      }
      this.flushing = diskWaits.retry(this.file, () => {
        if (this.fd === null) return;
        if (fstatSync(this.fd).size > this.size) ftruncateSync(this.fd, this.size);
        this.writeBacklog(this.fd);
      });
      const settled: Promise<void> = this.flushing
        .catch(() => undefined)
        .finally(() => {
          this.flushing = null;
          flushes.delete(settled);
        });
      flushes.add(settled);
    }
  }

  /** Writes the backlog's records in order, each in full or not at all (a partial write is cut back). */
  private writeBacklog(fd: number): void {
    while (this.backlog.length > 0) {
      const text = this.backlog[0]!;
      const length = Buffer.byteLength(text, 'utf8');
      try {
        // The string as it is (Node encodes it outside the heap); a short write, rare on a file, goes on from its bytes.
        let written = diskCall(this.faults, 'write', this.file, () => writeSync(fd, text));
        if (written < length) {
          const bytes = Buffer.from(text, 'utf8');
          while (written < length)
            written += diskCall(this.faults, 'write', this.file, () => writeSync(fd, bytes, written, length - written));
        }
      } catch (error) {
        try {
          ftruncateSync(fd, this.size);
        } catch {
          /* the retry (or the next open) cuts it */
        }
        throw error;
      }
      this.size += length;
      this.backlog.shift();
    }
  }

  /** Resolves once everything appended so far is on disk (at once when not durable). */
  async sync(): Promise<void> {
    const fd = this.fd;
    if (fd === null) throw new GovflowError('internal', `${this.file} is closed`);
    await this.flushing;
    if (this.durable) await diskWaits.retry(this.file, () => this.syncs.sync(fd));
  }

  /** How the file at this path changed under the open descriptor (removed, renamed away, replaced), or null. */
  replacedAt(): string | null {
    if (this.fd === null) return null;
    const open = fstatSync(this.fd);
    try {
      const atPath = statSync(this.file);
      if (atPath.ino === open.ino && atPath.dev === open.dev) return null;
      return open.nlink === 0
        ? 'removed and another file put at its path'
        : 'renamed away and another file put at its path';
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      return open.nlink === 0 ? 'removed' : 'renamed away (or its folder was removed)';
    }
  }

  /** Closes the file once the syncs asked for have finished. Safe to call twice. */
  async close(): Promise<void> {
    if (this.fd === null) return;
    await this.flushing?.catch(() => undefined);
    const fd = this.fd;
    this.fd = null;
    await this.syncs.settled();
    await new Promise<void>((resolve) => close(fd, () => resolve()));
  }
}

/** Makes a new directory entry durable (after creating or renaming a file in it). */
export function fsyncDirectory(directory: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path.resolve(directory), 'r');
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on directories; the data itself is already synced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const sharedDirectories = new Map<string, { fd: Promise<number>; syncs: FdatasyncQueue }>();
const MAX_SHARED_DIRECTORIES = 32;

/** For a folder many sessions add entries to at once (sessions/, outbox/): its descriptor stays open and callers share syncs, so a burst costs one or two. */
export async function fsyncSharedDirectory(directory: string): Promise<void> {
  const key = path.resolve(directory);
  let shared = sharedDirectories.get(key);
  if (!shared) {
    if (sharedDirectories.size >= MAX_SHARED_DIRECTORIES) {
      const [oldestKey, oldest] = sharedDirectories.entries().next().value!;
      sharedDirectories.delete(oldestKey);
      void Promise.all([oldest.fd, oldest.syncs.settled()]).then(
        ([fd]) => close(fd, () => undefined),
        () => undefined,
      );
    }
    const fd = openAsync(key, 'r');
    shared = { fd, syncs: new FdatasyncQueue(fsync) };
    sharedDirectories.set(key, shared);
    fd.catch(() => sharedDirectories.get(key) === shared && sharedDirectories.delete(key));
  }
  try {
    await shared.syncs.sync(await shared.fd);
  } catch {
    // As in fsyncDirectory: some filesystems refuse fsync on folders.
  }
}

/**
 * fsyncDirectory with the fsync on the thread pool: opening and closing a folder just made is a
 * lookup, not worth two more trips to the pool (a session's folder, at its first durable write).
 */
export async function fsyncDirectoryAsync(directory: string): Promise<void> {
  let fd: number;
  try {
    fd = openSync(path.resolve(directory), 'r');
  } catch {
    return; // as in fsyncDirectory
  }
  try {
    await fsyncAsync(fd);
  } catch {
    // As above: some filesystems refuse it; the data itself is already synced.
  } finally {
    closeSync(fd);
  }
}
