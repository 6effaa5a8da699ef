/**
 * A small file rewritten in place and off the event loop, for caches such as a session's
 * manifest.json: the latest content wins, writes that arrive while one runs are folded into the
 * next, and nothing is synced. Readers may meet a rewrite in progress and retry.
 */
import { close, ftruncate, open, write } from 'node:fs';
import { promisify } from 'node:util';

const openAsync = promisify(open);
const writeAsync = promisify(write);
const ftruncateAsync = promisify(ftruncate);
const closeAsync = promisify(close);

export class ManifestFile {
  private fd: number | null = null;
  private latest: string | null = null;
  private writing: Promise<void> | null = null;
  private failure: Error | null = null;

  /** `ready`: settles once the file may be opened (a spare being linked into place). */
  constructor(
    readonly file: string,
    private readonly ready: Promise<void> = Promise.resolve(),
  ) {}

  /** Schedules `content` to replace the file's content. */
  write(content: string): void {
    this.latest = content;
    this.writing ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.latest !== null) {
        const bytes = Buffer.from(this.latest);
        this.latest = null;
        if (this.fd === null) {
          await this.ready.catch(() => undefined);
          this.fd = await openAsync(this.file, 'w');
        }
        await writeAsync(this.fd, bytes, 0, bytes.length, 0);
        await ftruncateAsync(this.fd, bytes.length);
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.latest = null;
    } finally {
      this.writing = null;
    }
  }

  /** Resolves once the latest content is written (or failed: the first error is returned). */
  async flush(): Promise<Error | null> {
    while (this.writing) await this.writing;
    return this.failure;
  }

  /** Flushes, then releases the descriptor; safe to call twice. */
  async close(): Promise<Error | null> {
    const failure = await this.flush();
    if (this.fd !== null) {
      const fd = this.fd;
      this.fd = null;
      await closeAsync(fd).catch(() => undefined);
    }
    return failure;
  }
}
