/**
 * The exact system prompts sent to models, stored once per root under
 * system/snapshots/prompts/<sha256>.md and named by hash in each exchange record. A system prompt
 * depends only on the governance snapshot and the agent, so storing it per call (or per session)
 * would repeat the same tens of kilobytes thousands of times.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-file.js';
import { diskFailureCode, type DiskFaults } from './disk-io.js';
import { diskWaits } from './disk-waits.js';

export class PromptStore {
  private readonly known = new Set<string>();

  constructor(
    private readonly directory: string,
    private readonly durable: boolean,
    private readonly faults?: DiskFaults,
  ) {}

  /**
   * Stores the prompt unless it already is (checked on disk once per process and hash). When the
   * disk refuses it (ENOSPC, EDQUOT, EROFS, EIO) the write is retried in the background (the
   * prompt can also be rebuilt from the governance snapshot it came from); the session goes on.
   */
  ensure(sha256: string, text: string): void {
    if (this.known.has(sha256)) return;
    const file = path.join(this.directory, `${sha256}.md`);
    const store = () => {
      if (existsSync(file)) return;
      mkdirSync(this.directory, { recursive: true });
      writeFileAtomic(file, text, this.durable, this.faults);
    };
    this.known.add(sha256);
    try {
      store();
    } catch (error) {
      if (diskFailureCode(error) === null) {
        this.known.delete(sha256);
        throw error;
      }
      void diskWaits.retry(file, store).catch(() => this.known.delete(sha256));
    }
  }

  static read(snapshotsDir: string, sha256: string): string {
    return readFileSync(path.join(snapshotsDir, 'prompts', `${sha256}.md`), 'utf8');
  }
}
