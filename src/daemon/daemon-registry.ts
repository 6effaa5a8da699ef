/**
 * Which daemons are alive on this root (system/state/daemons/<pid>). Which sessions are
 * unfinished needs no index of its own: their claimed files stay in system/processing/ (what
 * recovery works from) and their manifests say RUNNING or PAUSED (what `govflow status` reads).
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { isProcessAlive } from '../store/process-alive.js';


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
      if (isProcessAlive(pid)) alive.push(pid);
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
