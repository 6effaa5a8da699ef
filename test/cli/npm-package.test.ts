/**
 * A project of one's own (SPEC §17), as a new user gets there: the package packed with `npm pack`,
 * installed from its tarball into an empty folder (its dependencies from the registry, as for any
 * user), then `govflow init`, `validate`, `test` and one request through `start` in dry-run mode,
 * with no clone of this repository. Also `init` itself: what it writes, and that it refuses a folder
 * that is not empty unless --force.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce, packOnce } from '../daemon/build-once.js';
import { runCli, waitFor } from '../daemon/daemon-helpers.js';
import { REPOSITORY_ROOT } from '../support/example-app.js';

const made: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

beforeAll(buildDistOnce, 180_000);
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('govflow init', () => {
  it('writes a working root: config, the agent chain, context, schemas, a passing test, a .gitignore', async () => {
    const target = path.join(tempDir('govflow-init-'), 'project');
    const created = await runCli(['init', target]);
    expect(created.code, created.stderr).toBe(0);
    expect(readdirSync(target).sort()).toEqual([
      '.gitignore',
      'context',
      'governance',
      'govflow.config.yaml',
      'schemas',
      'tests',
    ]);
    expect(readdirSync(path.join(target, 'governance', 'agents'))).toEqual(
      expect.arrayContaining(['objective_agent.md', 'goal_agent.md', 'planning_agent.md', 'final_output_agent.md']),
    );
    expect(readFileSync(path.join(target, '.gitignore'), 'utf8')).toMatch(/^\/system\/$/m);
    expect(readFileSync(path.join(target, 'govflow.config.yaml'), 'utf8')).toMatch(/dry-run/);
    expect((await runCli(['validate', '--root', target])).code).toBe(0);
    const tested = await runCli(['test', '--root', target]);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/1 passed, 0 failed/);
  }, 60_000);

  it('suggests next commands that work from where the user is (issue 39: no "cd .", no bare npx elsewhere)', async () => {
    const here = tempDir('govflow-init-here-');
    const inPlace = await runCli(['init'], { cwd: here });
    expect(inPlace.code, inPlace.stderr).toBe(0);
    expect(inPlace.stderr).toContain('next: npx govflow validate && npx govflow test && npx govflow start\n');
    expect(inPlace.stderr).not.toMatch(/\bcd /);
    expect(inPlace.stderr).toContain('> system/inbox/note.txt');

    // Another folder, named from here: every command names it, so npx still finds this install.
    const elsewhere = await runCli(['init', 'my pipeline'], { cwd: here });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.stderr).toContain(
      "next: npx govflow validate --root 'my pipeline' && npx govflow test --root 'my pipeline' && npx govflow start --root 'my pipeline'\n",
    );
    expect(elsewhere.stderr).not.toMatch(/\bcd /);
    expect(elsewhere.stderr).toContain("> 'my pipeline/system/inbox/note.txt'");
    // And what it suggests runs as written, from here (npx as a shell function running this checkout's CLI).
    const suggested = /next: (.*) && npx govflow start/.exec(elsewhere.stderr)![1];
    const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(REPOSITORY_ROOT, 'bin', 'govflow.js'))}`;
    const ran = spawnSync('bash', ['-e', '-c', `npx() { shift; ${cli} "$@"; }\n${suggested}`], {
      cwd: here,
      encoding: 'utf8',
    });
    expect(ran.status, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/1 passed, 0 failed/);
  }, 60_000);

  it('refuses a folder that is not empty unless --force, naming what is there', async () => {
    const target = tempDir('govflow-init-full-');
    writeFileSync(path.join(target, 'notes.txt'), 'mine');
    const refused = await runCli(['init', target]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is not empty \(notes\.txt\).*--force/);
    expect(existsSync(path.join(target, 'governance'))).toBe(false);
    expect((await runCli(['init', target, '--force'])).code).toBe(0);
    expect(readFileSync(path.join(target, 'notes.txt'), 'utf8')).toBe('mine');
    expect(existsSync(path.join(target, 'governance', 'agents', 'objective_agent.md'))).toBe(true);
  }, 60_000);
});

describe('the npm package, installed from its tarball into an empty folder', () => {
  it('installs, inits, validates, tests and runs one request through start in dry-run', async () => {
    const tarball = await packOnce();
    const listed = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.split('\n');
    expect(listed).toContain('package/dist/bundle/main.js');
    // Only the bundle of dist/ ships: bin/govflow.js runs nothing else of it.
    expect(
      listed.filter((name) => name.startsWith('package/dist/') && !name.startsWith('package/dist/bundle/')),
    ).toEqual([]);
    expect(listed.some((name) => name.startsWith('package/test/') || name.startsWith('package/src/'))).toBe(false);
    // The README's screenshots ship with it (issue 39).
    for (const match of readFileSync(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8').matchAll(
      /\]\((docs\/screenshots\/[^)]+)\)/g,
    ))
      expect(listed).toContain(`package/${match[1]}`);
    // No install-time script: none could run from a tarball, and npm warns about each (issue 39).
    const manifest = JSON.parse(
      spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout,
    ) as { scripts: Record<string, string> };
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(manifest.scripts).not.toHaveProperty(script);

    const app = tempDir('govflow-app-');
    // --prefer-offline: the registry's packages, from npm's cache where it holds them (checked against
    // their integrity as always), without asking the registry again for each one's metadata: 12 s
    // instead of 29 s here. A package the cache lacks still comes from the registry.
    const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
      cwd: app,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stderr).not.toMatch(/install-scripts|prepare/);
    const bin = path.join(app, 'node_modules', '.bin', 'govflow');
    const cli = (args: string[]) => spawnSync(bin, args, { cwd: app, encoding: 'utf8', timeout: 60_000 });
    expect(cli(['init']).status).toBe(0);
    expect(cli(['validate']).status).toBe(0);
    const tested = cli(['test']);
    expect(tested.status, tested.stdout + tested.stderr).toBe(0);

    const daemon = spawn(bin, ['start'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    daemon.stdout.on('data', (chunk) => (output += chunk));
    daemon.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => daemon.on('exit', (code) => resolve(code)));
    try {
      await waitFor('the ready line', () => output.includes('ready'), { timeoutMs: 30_000, detail: () => output });
      mkdirSync(path.join(app, 'system', 'inbox'), { recursive: true });
      writeFileSync(
        path.join(app, 'system', 'inbox', 'note.json'),
        JSON.stringify({ request: 'Summarize: Ana sends the budget by Friday.', request_id: 'packaged-1' }),
      );
      const result = await waitFor(
        'the result',
        () => {
          const file = path.join(app, 'system', 'outbox', 'packaged-1.json');
          return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { status: string }) : null;
        },
        { timeoutMs: 30_000, detail: () => output },
      );
      expect(result.status).toBe('success');
    } finally {
      daemon.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 300_000);
});
