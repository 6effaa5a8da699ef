/**
 * The exact system prompts sent to models, stored once per root under
 * system/snapshots/prompts/<sha256>.md and named by hash in each exchange record. A system prompt
 * depends only on the governance snapshot and the agent, so storing it per call (or per session)
 * would repeat the same tens of kilobytes thousands of times.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-file.js';

export class PromptStore {
  private readonly known = new Set<string>();

  constructor(
    private readonly directory: string,
    private readonly durable: boolean,
  ) {}

  static pathOf(snapshotsDir: string, sha256: string): string {
    return path.join(snapshotsDir, 'prompts', `${sha256}.md`);
  }

  /** Stores the prompt unless it already is (checked on disk once per process and hash). */
  ensure(sha256: string, text: string): void {
    if (this.known.has(sha256)) return;
    const file = path.join(this.directory, `${sha256}.md`);
    if (!existsSync(file)) {
      mkdirSync(this.directory, { recursive: true });
      writeFileAtomic(file, text, this.durable);
    }
    this.known.add(sha256);
  }

  static read(snapshotsDir: string, sha256: string): string {
    return readFileSync(PromptStore.pathOf(snapshotsDir, sha256), 'utf8');
  }
}
