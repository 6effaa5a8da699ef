/**
 * An append-only file with optional fdatasync, written with synchronous calls: appends are tiny
 * and ordered, and a sync write keeps "on disk before the message moves on" trivially true.
 */
import { closeSync, fdatasyncSync, fsyncSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

export class AppendOnlyFile {
  private fd: number | null;

  constructor(
    readonly file: string,
    private readonly durable: boolean,
  ) {
    this.fd = openSync(file, 'a');
  }

  /** Appends text; with `sync` (and durability on) it is on disk when this returns. */
  append(text: string, sync: boolean): void {
    if (this.fd === null) throw new Error(`${this.file} is closed`);
    writeSync(this.fd, text);
    if (sync && this.durable) fdatasyncSync(this.fd);
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
