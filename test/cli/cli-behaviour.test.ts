/**
 * The CLI behaves like one: `govflow logs | head` ends quietly when the reader closes the pipe
 * (exit 0, nothing on stderr, as `git log | head`), `--version` prints the version, a --root that
 * does not exist is bad usage (exit 2), help fits in 80 columns with examples, and the
 * foreground daemon logs each session's end once.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, dropJson, makeRoot, readResult, runCli, startDaemon, waitFor } from '../daemon/daemon-helpers.js';
import { REPOSITORY_ROOT } from '../support/example-app.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

/** Runs the CLI with stdout read until the first chunk, then closed (what `| head -1` does). */
function firstChunkThenClose(args: string[]): Promise<{ code: number | null; stderr: string; first: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPOSITORY_ROOT, 'bin', 'govflow.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let first = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.once('data', (chunk) => {
      first = String(chunk);
      child.stdout.destroy();
    });
    child.on('exit', (code) => resolve({ code, stderr, first }));
  });
}

describe('the govflow CLI', () => {
  it('ends quietly with exit 0 when the reader of its output closes the pipe (govflow logs | head)', async () => {
    const root = makeRoot('timezone: UTC\n');
    const daemon = await startDaemon(root);
    dropJson(root, 'one.json', { request: 'Summarize the note.', request_id: 'pipe-1' });
    await waitFor('the result', () => readResult(root, 'pipe-1')?.status === 'success');
    await daemon.stop();
    // Many copies of the day: far more than a pipe buffer holds, so the writer meets the closed pipe.
    const logs = path.join(root, 'system', 'logs');
    const day = path.join(logs, `${new Date().toISOString().slice(0, 10).replace(/-/g, '')}.log`);
    writeFileSync(day, readFileSync(day, 'utf8').repeat(2000));
    for (const args of [
      ['logs', '--root', root],
      ['logs', '--root', root, '--json'],
    ]) {
      const run = await firstChunkThenClose(args);
      expect(run.first.length).toBeGreaterThan(0);
      expect(run.stderr, args.join(' ')).toBe('');
      expect(run.code, args.join(' ')).toBe(0);
    }
  }, 60_000);

  it('logs how each session ended once (the daemon does not repeat the runner)', async () => {
    const root = makeRoot('timezone: UTC\n');
    const daemon = await startDaemon(root);
    dropJson(root, 'one.json', { request: 'Summarize the note.', request_id: 'once-1' });
    dropJson(root, 'two.json', { request: 'Summarize the other note.', request_id: 'once-2' });
    await waitFor(
      'the results',
      () => readResult(root, 'once-1')?.status === 'success' && readResult(root, 'once-2')?.status === 'success',
    );
    await daemon.stop();
    const ends = daemon.stderr.split('\n').filter((line) => line.includes('"message":"session finished"'));
    expect(ends).toHaveLength(2);
    expect(ends.map((line) => JSON.parse(line).request).sort()).toEqual(['once-1', 'once-2']);
  }, 60_000);

  it('prints its version with --version', async () => {
    const { version } = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const run = await runCli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`govflow ${version}\n`);
  });

  it('exits 2 naming the folder when --root does not exist', async () => {
    const missing = path.join(makeRoot(), 'no-such-root');
    for (const command of ['status', 'verify', 'logs', 'validate']) {
      const run = await runCli([command, '--root', missing]);
      expect(run.code, command).toBe(2);
      expect(run.stderr).toContain(`the root folder ${missing} does not exist`);
      expect(run.stderr).toContain('not a govflow root');
    }
    // init makes its folder.
    const made = path.join(makeRoot(), 'new-root');
    mkdirSync(path.dirname(made), { recursive: true });
    expect((await runCli(['init', made])).code).toBe(0);
    // --root names it as for every other command; two different folders are refused.
    const byFlag = path.join(path.dirname(made), 'by-flag');
    const flagged = await runCli(['init', '--root', byFlag], { cwd: made });
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(existsSync(path.join(byFlag, 'govflow.config.yaml'))).toBe(true);
    const both = await runCli(['init', made, '--root', byFlag]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('name one folder');
  }, 60_000);

  it('verify: a folder that is not a govflow root exits 2 saying so; an empty real root verifies 0 entries (SPEC §21)', async () => {
    // An auditor pointing verify at the wrong folder must not get a pass (issue 39).
    const empty = makeRoot();
    for (const folder of ['governance', 'context', 'schemas']) rmSync(path.join(empty, folder), { recursive: true });
    writeFileSync(path.join(empty, 'notes.txt'), 'not a root');
    const elsewhere = await runCli(['verify', '--root', empty]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(`${empty} is not a govflow root`);
    expect(elsewhere.stdout).not.toContain('intact');
    // The current folder, with no --root, is judged the same way.
    const here = await runCli(['verify'], { cwd: empty });
    expect(here.code).toBe(2);
    expect(here.stderr).toContain('is not a govflow root');
    expect((await runCli(['verify', '--root', '/not/a/root'])).stderr).toContain('not a govflow root');

    // Any one of system/, the config or governance/ makes a root: a new one verifies with 0 entries.
    for (const made of ['governance', 'govflow.config.yaml', 'system']) {
      const root = makeRoot();
      for (const folder of ['governance', 'context', 'schemas']) rmSync(path.join(root, folder), { recursive: true });
      if (made.endsWith('.yaml')) writeFileSync(path.join(root, made), '# nothing set\n');
      else mkdirSync(path.join(root, made));
      const run = await runCli(['verify', '--root', root]);
      expect(run.code, `${made}: ${run.stderr}`).toBe(0);
      expect(run.stdout, made).toContain('audit chain intact: 0 entries in 0 files');
    }
  }, 60_000);

  it('keeps help within 80 columns, with examples', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
    expect(run.stdout).toMatch(/examples:\n {2}govflow init/);
    const usage = await runCli(['verify', '--help']);
    expect(usage.stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
  });
});
