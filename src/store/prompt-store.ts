/**
 * The exact system prompts sent to models, stored once per root as system/snapshots/prompts/<sha256>.md:
 * a prompt depends only on the governance snapshot and the agent, so storing it per call would
 * repeat the same tens of kilobytes thousands of times.
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

  /** A write the disk refuses is retried in the background: the session goes on (the prompt can be rebuilt from its snapshot). */
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
