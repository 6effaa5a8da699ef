/**
 * Who runs a `govflow run` session: `system/state/runs/<session_id>@<pid>`, an empty file created
 * when `govflow run` starts (or resumes) a session and removed once the session ended or paused.
 * A killed `govflow run` leaves its claim behind with a dead pid: `govflow status` shows such a
 * session as interrupted, and the next `govflow start` or `govflow run` on the root adopts it
 * (an atomic rename of the claim to its own pid, so only one process can) and resumes it from its
 * journal. Daemon sessions need no claim: their claimed files in system/processing/ play that part.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from './process-alive.js';

export interface RunClaim {
  sessionId: string;
  /** The process that runs (or ran) the session. */
  pid: number;
  alive: boolean;
}

const CLAIM_NAME = /^([A-Za-z0-9._-]{1,128})@(\d+)$/;

export class RunClaims {
  readonly directory: string;

  constructor(stateDir: string, private readonly pid: number = process.pid) {
    this.directory = path.join(stateDir, 'runs');
  }

  private fileOf(sessionId: string, pid: number): string {
    return path.join(this.directory, `${sessionId}@${pid}`);
  }

  /** Records that this process runs `sessionId` (before its journal exists). */
  register(sessionId: string): void {
    mkdirSync(this.directory, { recursive: true });
    writeFileSync(this.fileOf(sessionId, this.pid), '');
  }

  /** Removes this process's claim once the session ended or paused. */
  release(sessionId: string): void {
    rmSync(this.fileOf(sessionId, this.pid), { force: true });
  }

  /** Every claim on the root, with whether its process is alive. */
  list(): RunClaim[] {
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch {
      return [];
    }
    const claims: RunClaim[] = [];
    for (const name of names) {
      const match = CLAIM_NAME.exec(name);
      if (!match) continue;
      const pid = Number(match[2]);
      claims.push({ sessionId: match[1]!, pid, alive: pid === this.pid || isProcessAlive(pid) });
    }
    return claims;
  }

  /** Claims whose process died before its session ended: sessions nobody runs. */
  orphans(): RunClaim[] {
    return this.list().filter((claim) => !claim.alive);
  }

  /**
   * Takes over an orphan's claim: true when this process now owns it, false when another process
   * adopted it first (the rename of one file succeeds once).
   */
  adopt(orphan: RunClaim): boolean {
    try {
      renameSync(this.fileOf(orphan.sessionId, orphan.pid), this.fileOf(orphan.sessionId, this.pid));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
}
