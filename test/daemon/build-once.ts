/**
 * Builds dist/ once per vitest run, however many daemon test files run in parallel workers.
 *
 * Why a lock: every test file here spawns `node bin/govflow.js`, which runs dist/. Workers are
 * separate processes (pool: forks), so "once" needs a file lock: the first worker to create the
 * lock folder builds, the others wait for its stamp. The stamp names the vitest main process
 * (every worker's parent), so a later run builds again and never uses a stale dist/.
 *
 * `tsc -b` with tsconfig.json's `incremental` (its build info in dist/, so `rm -rf dist` rebuilds
 * all): when dist/ is current (as after `npm run build` or `npm install`), the build is a check of
 * the sources against that info, a fraction of a second instead of a full compile (~20 s of CPU).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { REPOSITORY_ROOT } from '../support/example-app.js';

export { REPOSITORY_ROOT };

const key = createHash('sha256').update(REPOSITORY_ROOT).digest('hex').slice(0, 12);
const LOCK = path.join(tmpdir(), `govflow-daemon-build-${key}.lock`);
const STAMP = path.join(tmpdir(), `govflow-daemon-build-${key}.stamp`);
const STALE_LOCK_MS = 180_000;
/** How often a waiting test process looks whether the build it waits for is done. */
const LOCK_POLL_MS = 200;

function runToken(): string {
  return `vitest-${process.ppid}`;
}

function stampMatches(): boolean {
  try {
    return readFileSync(STAMP, 'utf8') === runToken();
  } catch {
    return false;
  }
}

function compile(): Promise<void> {
  const tsc = path.join(REPOSITORY_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-b', 'tsconfig.json'], {
      cwd: REPOSITORY_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else
        reject(new Error(`building dist/ failed (tsc exit ${code}); the daemon tests run the built CLI:\n${output}`));
    });
  });
}

/** Resolves once dist/ was built in this vitest run (by this worker or another one). */
export async function buildDistOnce(): Promise<void> {
  const deadline = Date.now() + STALE_LOCK_MS + 30_000;
  while (Date.now() < deadline) {
    if (stampMatches()) return;
    try {
      mkdirSync(LOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // the builder just released it
      }
      await sleep(LOCK_POLL_MS);
      continue;
    }
    try {
      if (!stampMatches()) {
        await compile();
        writeFileSync(STAMP, runToken());
      }
      return;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
  throw new Error(`timed out waiting for another worker to build dist/ (lock ${LOCK})`);
}
