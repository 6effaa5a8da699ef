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
 * rolldown then links dist/ into dist/bundle/ (about a second).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { REPOSITORY_ROOT } from '../support/example-app.js';

export { REPOSITORY_ROOT };

const key = createHash('sha256').update(REPOSITORY_ROOT).digest('hex').slice(0, 12);
const STALE_LOCK_MS = 180_000;
/** How often a waiting test process looks whether the work it waits for is done. */
const LOCK_POLL_MS = 200;

function runToken(): string {
  return `vitest-${process.ppid}`;
}

/**
 * Runs `work` once per vitest run across all workers, under a lock folder named after `name`; every
 * caller gets what it returned (a line of text, kept in the stamp file beside the run's token).
 */
async function oncePerRun(name: string, work: () => Promise<string>): Promise<string> {
  const lock = path.join(tmpdir(), `govflow-${name}-${key}.lock`);
  const stamp = path.join(tmpdir(), `govflow-${name}-${key}.stamp`);
  const done = (): string | null => {
    try {
      const [token, outcome] = readFileSync(stamp, 'utf8').split('\n');
      return token === runToken() ? (outcome ?? '') : null;
    } catch {
      return null;
    }
  };
  const deadline = Date.now() + STALE_LOCK_MS + 30_000;
  while (Date.now() < deadline) {
    const outcome = done();
    if (outcome !== null) return outcome;
    try {
      mkdirSync(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // the worker doing it just released it
      }
      await sleep(LOCK_POLL_MS);
      continue;
    }
    try {
      const again = done();
      if (again !== null) return again;
      const outcome = await work();
      writeFileSync(stamp, `${runToken()}\n${outcome}`);
      return outcome;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  throw new Error(`timed out waiting for another worker (${name}, lock ${lock})`);
}

/** Runs `command` in the repository; rejects with its output when it fails. */
function runStep(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPOSITORY_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(`${command} ${args.join(' ')} failed (exit ${code}); the tests run what it builds:\n${output}`),
        );
    });
  });
}

/** What `npm run build` does: tsc into dist/, then rolldown links it into dist/bundle/, which bin/govflow.js runs. */
async function compile(): Promise<void> {
  const script = (name: string) => path.join(REPOSITORY_ROOT, 'node_modules', name);
  await runStep(process.execPath, [script('typescript/bin/tsc'), '-b', 'tsconfig.json']);
  await runStep(process.execPath, [script('rolldown/bin/cli.mjs'), '-c', 'rolldown.config.mjs']);
}

/** Resolves once dist/ was built in this vitest run (by this worker or another one). */
export async function buildDistOnce(): Promise<void> {
  await oncePerRun('daemon-build', async () => {
    await compile();
    return '';
  });
}

/**
 * The package as `npm pack` writes it from this run's build, packed once per vitest run (the npm
 * package and deploy tests both install it): the tarball's path, in a folder kept until the next run.
 */
export async function packOnce(): Promise<string> {
  await buildDistOnce();
  return oncePerRun('pack', async () => {
    const folder = path.join(tmpdir(), `govflow-pack-${key}`);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder);
    // --ignore-scripts: dist/ is this run's one build; a second one could hand a running daemon half a module.
    await runStep('npm', ['pack', '--ignore-scripts', '--pack-destination', folder]);
    const tarball = readdirSync(folder).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`npm pack wrote no tarball into ${folder}`);
    return path.join(folder, tarball);
  });
}
