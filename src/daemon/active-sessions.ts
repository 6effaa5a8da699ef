/**
 * Small indexes under system/state/: which sessions are unfinished (running or paused), and which
 * daemons are alive on this root.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { writeFileAtomic } from '../store/atomic-file.js';

export interface ActiveSessionEntry {
  session_id: string;
  request_id: string;
  claimed_path: string | null;
  source_file: string;
}

/**
 * The unfinished sessions (running or paused), for `govflow status`. A cache only — crash
 * recovery works from the claimed files in system/processing/ — so it is written plainly, never
 * synced.
 */
export class ActiveSessions {
  private readonly directory: string;

  constructor(paths: SystemPaths) {
    this.directory = path.join(paths.state, 'active');
  }

  add(entry: ActiveSessionEntry): void {
    mkdirSync(this.directory, { recursive: true });
    writeFileSync(path.join(this.directory, `${entry.session_id}.json`), JSON.stringify(entry));
  }

  remove(sessionId: string): void {
    rmSync(path.join(this.directory, `${sessionId}.json`), { force: true });
  }

  list(): ActiveSessionEntry[] {
    const entries: ActiveSessionEntry[] = [];
    if (!existsSync(this.directory)) return entries;
    for (const name of readdirSync(this.directory)) {
      if (!name.endsWith('.json')) continue;
      try {
        entries.push(JSON.parse(readFileSync(path.join(this.directory, name), 'utf8')) as ActiveSessionEntry);
      } catch {
        // a torn index file: the session's journal still has everything; skip it here
      }
    }
    return entries;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Pid files of the daemons on a root: system/state/daemons/<pid>. */
export class DaemonRegistry {
  private readonly directory: string;

  constructor(paths: SystemPaths) {
    this.directory = path.join(paths.state, 'daemons');
  }

  /** Other live daemons on this root (stale pid files of killed daemons are removed). */
  others(): number[] {
    if (!existsSync(this.directory)) return [];
    const alive: number[] = [];
    for (const name of readdirSync(this.directory)) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid === process.pid) continue;
      if (isAlive(pid)) alive.push(pid);
      else rmSync(path.join(this.directory, name), { force: true });
    }
    return alive;
  }

  register(): void {
    mkdirSync(this.directory, { recursive: true });
    writeFileAtomic(path.join(this.directory, String(process.pid)), new Date().toISOString(), false);
  }

  unregister(): void {
    rmSync(path.join(this.directory, String(process.pid)), { force: true });
  }
}
