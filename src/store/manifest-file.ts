/**
 * A small file rewritten in place, for caches such as manifest.json: nothing is synced, and readers
 * may meet a rewrite in progress and retry. Only creating the file (costly on some filesystems)
 * runs off the event loop; the latest content written meanwhile lands once it is open.
 */
import { closeSync, ftruncateSync, open, writeSync } from 'node:fs';

export class ManifestFile {
  private fd: number | null = null;
  private opening: Promise<void> | null = null;
  private latest: string | null = null;
  private failure: Error | null = null;
  private closed = false;
  /** Bytes in the file as last written: only a shorter rewrite needs the rest cut. */
  private size = 0;

  constructor(readonly file: string) {}

  write(content: string): void {
    if (this.closed || this.failure) return;
    this.latest = content;
    if (this.fd !== null) return this.flush(this.fd);
    this.opening ??= new Promise<void>((resolve) =>
      open(this.file, 'w', (error, fd) => {
        if (error) this.failure ??= error;
        else if (this.closed) closeSync(fd);
        else this.flush((this.fd = fd));
        resolve();
      }),
    );
  }

  private flush(fd: number): void {
    if (this.latest === null) return;
    const bytes = Buffer.from(this.latest);
    this.latest = null;
    try {
      writeSync(fd, bytes, 0, bytes.length, 0);
      if (bytes.length < this.size) ftruncateSync(fd, bytes.length);
      this.size = bytes.length;
    } catch (error) {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    }
  }

  /** Waits for the latest content to land, then releases the descriptor; resolves with the first error met. Safe to call twice. */
  async close(): Promise<Error | null> {
    await this.opening;
    this.closed = true;
    const fd = this.fd;
    this.fd = null;
    try {
      if (fd !== null) closeSync(fd);
    } catch {
      // already closed
    }
    return this.failure;
  }
}
