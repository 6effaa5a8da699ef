/**
 * An append-only file with optional fdatasync. Writes are synchronous calls — appends are small
 * and must keep their order — and durability is either synchronous or awaited.
 */
import { closeSync, fdatasync, fsyncSync, openSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';

export class AppendOnlyFile {
  private fd: number | null;

  constructor(
    readonly file: string,
    private readonly durable: boolean,
  ) {
    this.fd = openSync(file, 'a');
  }

  /** Appends text to the page cache (durable with the next `appendDurable`). */
  append(text: string): void {
    if (this.fd === null) throw new Error(`${this.file} is closed`);
    writeSync(this.fd, text);
  }

  /**
   * Appends text and resolves once it is on disk. The write is synchronous (so appends keep their
   * order); the fdatasync runs on the thread pool, leaving the event loop free for other sessions.
   */
  appendDurable(text: string): Promise<void> {
    if (this.fd === null) return Promise.reject(new Error(`${this.file} is closed`));
    writeSync(this.fd, text);
    if (!this.durable) return Promise.resolve();
    const fd = this.fd;
    return new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
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

/** fsyncDirectory on the thread pool. */
export async function fsyncDirectoryAsync(directory: string): Promise<void> {
  try {
    const handle = await open(path.resolve(directory), 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // As above: the data itself is already synced.
  }
}
