/**
 * The sessions `govflow run` runs: an empty system/state/runs/<session_id> while one runs. Only the
 * root's owner runs sessions, so a claim this process did not make is a killed run's, resumed by
 * the next start or run. (A daemon's sessions have their claimed files in system/processing/.)
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export class RunClaims {
  readonly directory: string;
  /** Claims this process made. */
  private readonly mine = new Set<string>();

  constructor(stateDir: string) {
    this.directory = path.join(stateDir, 'runs');
  }

  /** Records that this process runs `sessionId` (before its journal exists). */
  register(sessionId: string): void {
    mkdirSync(this.directory, { recursive: true });
    writeFileSync(path.join(this.directory, sessionId), '');
    this.mine.add(sessionId);
  }

  /** Removes the claim once the session ended or paused. */
  release(sessionId: string): void {
    rmSync(path.join(this.directory, sessionId), { force: true });
    this.mine.delete(sessionId);
  }

  /** The sessions with a claim (read-only: `govflow status` calls it without owning the root). */
  list(): string[] {
    return this.names();
  }

  /** Claims of killed runs: those this process did not make (it must own the root). */
  orphans(): string[] {
    return this.list().filter((sessionId) => !this.mine.has(sessionId));
  }

  private names(): string[] {
    try {
      return readdirSync(this.directory);
    } catch {
      return [];
    }
  }
}
