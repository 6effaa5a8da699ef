/**
 * An append-only file with optional fdatasync. Writes are synchronous calls — appends are small
 * and must keep their order — and durability is awaited: the fdatasync runs on the thread pool,
 * and callers that ask while one runs share the next one (group commit).
 */
import { close, closeSync, fdatasync, fsync, fsyncSync, open, openSync, writeSync } from 'node:fs';
import { open as openHandle } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const openAsync = promisify(open);

/**
 * Group commit on one file descriptor: `sync()` resolves once everything written to the
 * descriptor before the call is on disk. At most one fdatasync runs at a time; requests that
 * arrive while it runs are served by one more, queued behind it.
 */
export class FdatasyncQueue {
  /** `flush`: fdatasync (files) or fsync (folders, whose entries are what must reach the disk). */
  constructor(private readonly flush: typeof fdatasync = fdatasync) {}

  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  private queuedFd: number | null = null;
  private unfinished = 0;

  /** `fd` is the descriptor to sync; a queued sync for another descriptor is not shared. */
  sync(fd: number): Promise<void> {
    if (this.queued && this.queuedFd === fd) return this.queued;
    this.queuedFd = fd;
    const queued = this.running.then(() => {
      // From here on, writes are not covered by this sync: later callers queue another.
      if (this.queued === queued) this.queued = null;
      return new Promise<void>((resolve, reject) => this.flush(fd, (error) => (error ? reject(error) : resolve())));
    });
    this.queued = queued;
    this.unfinished += 1;
    this.running = queued.catch(() => undefined).finally(() => {
      this.unfinished -= 1;
    });
    return queued;
  }

  /** True while a sync is queued or running (its descriptor must stay open). */
  get busy(): boolean {
    return this.unfinished > 0;
  }

  /** Resolves once every sync asked for so far has finished (successfully or not). */
  settled(): Promise<void> {
    return this.running;
  }
}

export class AppendOnlyFile {
  private fd: number | null;
  private readonly syncs = new FdatasyncQueue();

  /** Opens (creating) `file` for appending; `fd` adopts a descriptor already opened that way. */
  constructor(
    readonly file: string,
    private readonly durable: boolean,
    fd?: number,
  ) {
    this.fd = fd ?? openSync(file, 'a');
  }

  /** The same, with the open (a file creation, the costly part) on the thread pool. */
  static async open(file: string, durable: boolean): Promise<AppendOnlyFile> {
    return new AppendOnlyFile(file, durable, await openAsync(file, 'a'));
  }

  /** Appends text to the page cache (durable with the next `sync`). */
  append(text: string): void {
    if (this.fd === null) throw new Error(`${this.file} is closed`);
    writeSync(this.fd, text);
  }

  /** Resolves once everything appended so far is on disk (at once when not durable). */
  sync(): Promise<void> {
    if (this.fd === null) return Promise.reject(new Error(`${this.file} is closed`));
    if (!this.durable) return Promise.resolve();
    return this.syncs.sync(this.fd);
  }

  /** Appends text and resolves once it (and everything before it) is on disk. */
  appendDurable(text: string): Promise<void> {
    try {
      this.append(text);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.sync();
  }

  /** Closes the file once the syncs asked for have finished. */
  async close(): Promise<void> {
    if (this.fd === null) return;
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

/** Folders many sessions add entries to (sessions/, outbox/, …), each with an open descriptor. */
const sharedDirectories = new Map<string, { fd: Promise<number>; syncs: FdatasyncQueue }>();
const MAX_SHARED_DIRECTORIES = 32;

/**
 * fsyncDirectoryAsync for a folder that many sessions add entries to at once: its descriptor
 * stays open, and callers that arrive while a sync runs share the next one (group commit), so a
 * burst of sessions ending together costs one or two folder syncs instead of one each.
 */
export async function fsyncSharedDirectory(directory: string): Promise<void> {
  const key = path.resolve(directory);
  let shared = sharedDirectories.get(key);
  if (!shared) {
    if (sharedDirectories.size >= MAX_SHARED_DIRECTORIES) {
      const [oldestKey, oldest] = sharedDirectories.entries().next().value!;
      sharedDirectories.delete(oldestKey);
      void Promise.all([oldest.fd, oldest.syncs.settled()]).then(([fd]) => close(fd, () => undefined), () => undefined);
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

/** fsyncDirectory on the thread pool. */
export async function fsyncDirectoryAsync(directory: string): Promise<void> {
  try {
    const handle = await openHandle(path.resolve(directory), 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // As above: the data itself is already synced.
  }
}
