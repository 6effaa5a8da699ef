/**
 * `govflow start` as a real child process: the happy path in dry-run, bad request files, ignored
 * names and in-place writers, and a flood claimed at once whose claims survive kill -9 (SPEC §2,
 * §7, §8).
 */
import {
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  closeSync,
  writeSync,
  renameSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from './build-once.js';
import {
  cleanupAll,
  dropFile,
  dropJson,
  exampleScript,
  inboxOf,
  listDir,
  makeRoot,
  readAuditEntries,
  readResult,
  readResults,
  readSessions,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

/** Waits until the outbox holds a final (non-pending) result for the request dropped as `sourceFile`. */
async function resultFor(daemon: DaemonProcess, sourceFile: string, timeoutMs = 15_000) {
  return waitFor(
    `a result for ${sourceFile}`,
    () => readResults(daemon.root).find((result) => result.source_file === sourceFile),
    {
      timeoutMs,
      detail: () =>
        `outbox: ${listDir(path.join(daemon.root, 'system', 'outbox')).join(', ')}\nfailed: ` +
        `${listDir(path.join(daemon.root, 'system', 'failed')).join(', ')}\nstderr:\n${daemon.stderrTail()}`,
    },
  );
}

describe('govflow start: a request from drop to result (dry-run, no config)', () => {
  it('prints ready, runs the dropped file through the pipeline, archives it and logs 6 verified entries', async () => {
    const root = makeRoot(); // no govflow.config.yaml at all
    const daemon = await startDaemon(root);
    expect(daemon.readyLine).toMatch(/ready/);
    expect(daemon.stdout.split('\n').filter((line) => line !== '')).toHaveLength(1); // stdout carries only the ready line
    expect(daemon.stderr).toMatch(/dry-run/i); // it says so at start

    const started = Date.now();
    dropFile(root, 'meeting.txt', 'Meeting notes: Bob will send the report by Friday.\n');
    const result = await resultFor(daemon, 'meeting.txt', 10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.status).toBe('success');
    expect(result.messages).toBe(6);
    expect(readResult(root, result.request_id)).toEqual(result); // named <request_id>.json

    const report = readFileSync(path.join(root, 'system', 'outbox', `${result.request_id}.md`), 'utf8');
    expect(report).toMatch(/```mermaid\n[\s\S]*?\n```/);

    await waitFor('the request file archived', () => listDir(path.join(root, 'system', 'archive')).length > 0);
    const days = listDir(path.join(root, 'system', 'archive'));
    expect(days).toHaveLength(1);
    expect(days[0]).toMatch(/^\d{8}$/);
    expect(listDir(path.join(root, 'system', 'archive', days[0]))).toEqual(['meeting.txt']);
    expect(listDir(inboxOf(root))).toEqual([]);
    expect(listDir(path.join(root, 'system', 'failed'))).toEqual([]);

    const entries = await readAuditEntries(root);
    expect(entries).toHaveLength(6);
    expect(new Set(entries.map((entry) => entry.sessionId))).toEqual(new Set([result.session_id]));
    expect(entries.map((entry) => entry.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    const verify = await runCli(['verify', '--root', root]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);

    const exit = await daemon.stop('SIGTERM');
    expect(exit.code, daemon.stderrTail()).toBe(0);
    expect(daemon.stdout.split('\n').filter((line) => line.includes('ready'))).toHaveLength(1);
  });
});

describe('govflow start: files that cannot be requests', () => {
  it('moves each bad file to system/failed/ with an error record and keeps running', async () => {
    const root = makeRoot('timezone: UTC\nintake:\n  max_bytes: 200\n');
    const outside = path.join(root, 'outside-target.txt');
    writeFileSync(outside, 'the target of a symlink; must stay untouched');
    const daemon = await startDaemon(root);

    const bad: Record<string, string | Buffer> = {
      'empty.txt': '',
      'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0xff, 0xfe, 0x0a]),
      'broken.json': '{"request": "unterminated',
      'no-request.json': JSON.stringify({ user: 'alice', metadata: {} }),
      'bad-id.json': JSON.stringify({ request: 'Summarise this.', request_id: 'has spaces/and slash' }),
      'oversize.txt': 'x'.repeat(300),
    };
    for (const [name, content] of Object.entries(bad)) dropFile(root, name, content);
    symlinkSync(outside, path.join(inboxOf(root), 'link.txt'));
    const folderStaging = path.join(root, 'staging-folder');
    mkdirSync(folderStaging);
    writeFileSync(path.join(folderStaging, 'inside.txt'), 'a request inside a folder');
    renameSync(folderStaging, path.join(inboxOf(root), 'subfolder'));

    const failedDir = path.join(root, 'system', 'failed');
    const expected = [...Object.keys(bad), 'link.txt', 'subfolder'];
    await waitFor(
      'every bad file in system/failed/ with its error record',
      () => expected.every((name) => existsSync(path.join(failedDir, `${name}.error.json`))),
      {
        detail: () =>
          `failed/: ${listDir(failedDir).join(', ')}\ninbox/: ${listDir(inboxOf(root)).join(', ')}\nstderr:\n${daemon.stderrTail()}`,
      },
    );
    for (const name of expected) {
      expect(lstatSync(path.join(failedDir, name), { throwIfNoEntry: false }), `failed/${name}`).toBeDefined();
      const record = JSON.parse(readFileSync(path.join(failedDir, `${name}.error.json`), 'utf8')) as {
        file: string;
        reason: string;
        at: string;
      };
      expect(record.file).toBe(name);
      expect(record.reason.length, `reason for ${name}`).toBeGreaterThan(10);
      expect(Number.isNaN(Date.parse(record.at)), `at for ${name}`).toBe(false);
    }
    const reasonOf = (name: string) =>
      (JSON.parse(readFileSync(path.join(failedDir, `${name}.error.json`), 'utf8')) as { reason: string }).reason;
    expect(reasonOf('empty.txt')).toMatch(/empty/i);
    expect(reasonOf('latin1.txt')).toMatch(/utf-?8/i);
    expect(reasonOf('broken.json')).toMatch(/json/i);
    expect(reasonOf('no-request.json')).toMatch(/request/);
    expect(reasonOf('bad-id.json')).toMatch(/request_id/);
    expect(reasonOf('oversize.txt')).toMatch(/max_bytes/);
    expect(reasonOf('link.txt')).toMatch(/link/i);
    expect(reasonOf('subfolder')).toMatch(/folder|director/i);

    // The symlink itself was moved, never followed: its target is untouched.
    expect(lstatSync(path.join(failedDir, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(outside, 'utf8')).toBe('the target of a symlink; must stay untouched');
    expect(readResults(root)).toEqual([]);
    expect(daemon.hasExited).toBe(false);

    // A duplicate request_id is rejected and never runs twice.
    dropJson(root, 'first.json', { request: 'Summarise the first note.', request_id: 'dup-1' });
    const first = await resultFor(daemon, 'first.json');
    expect(first.status).toBe('success');
    dropJson(root, 'second.json', { request: 'Summarise the second note.', request_id: 'dup-1' });
    await waitFor('the duplicate in system/failed/', () => existsSync(path.join(failedDir, 'second.json.error.json')), {
      detail: () => daemon.stderrTail(),
    });
    expect(reasonOf('second.json')).toMatch(/duplicate/i);

    // And a good file after all that still runs.
    dropFile(root, 'good.txt', 'Summarise: the launch moved to May.');
    const good = await resultFor(daemon, 'good.txt');
    expect(good.status).toBe('success');

    const sessions = readSessions(root);
    expect(sessions.filter((session) => session.requestId === 'dup-1')).toHaveLength(1);
    expect(sessions).toHaveLength(2);
    expect(readResult(root, 'dup-1')?.source_file).toBe('first.json');
    expect(daemon.hasExited).toBe(false);
    expect((await daemon.stop()).code).toBe(0);
  });
});

describe('govflow start: ignored names and in-place writers', () => {
  it('leaves temporary names alone until they are renamed, and waits for a writer to finish', async () => {
    // settle_ms far above the writer's pause below: on a loaded 2-core CI machine this test's 200 ms
    // timer can fire seconds late (with settle_ms 600, then 1500, the daemon rightly took the
    // half-written file once each); the pause the writer really made is in the failure message.
    const root = makeRoot('timezone: UTC\nintake:\n  settle_ms: 5000\n');
    const daemon = await startDaemon(root);
    const ignored = ['.hidden', 'notes.tmp', 'notes.part', 'notes.swp', 'notes~'];
    for (const name of ignored) writeFileSync(path.join(inboxOf(root), name), `Summarise the note called ${name}.`);
    // A request dropped after them settles after them: once it has run, the intake has long passed them by.
    dropFile(root, 'after-ignored.txt', 'Summarise: the ignored names stay where they are.');
    expect((await resultFor(daemon, 'after-ignored.txt')).status).toBe('success');
    await waitFor('after-ignored.txt archived', () => listDir(path.join(root, 'system', 'processing')).length === 0, {
      detail: () => listDir(path.join(root, 'system', 'processing')).join(', '),
    });
    expect(listDir(inboxOf(root))).toEqual([...ignored].sort());
    for (const name of ignored)
      expect(readFileSync(path.join(inboxOf(root), name), 'utf8')).toBe(`Summarise the note called ${name}.`);
    expect(readResults(root).map((result) => result.source_file)).toEqual(['after-ignored.txt']);

    ignored.forEach((name, index) =>
      renameSync(path.join(inboxOf(root), name), path.join(inboxOf(root), `renamed-${index}.txt`)),
    );
    for (let index = 0; index < ignored.length; index++) {
      expect((await resultFor(daemon, `renamed-${index}.txt`)).status).toBe('success');
    }

    // An in-place writer: open, write half, pause shorter than settle_ms, write the rest.
    const whole = `In-place request: ${'alpha beta gamma '.repeat(40)}END`;
    const half = Math.floor(whole.length / 2);
    const fd = openSync(path.join(inboxOf(root), 'in-place.txt'), 'w');
    const writing = performance.now();
    writeSync(fd, whole.slice(0, half));
    await sleep(200); // the writer's pause (a 25th of settle_ms), not a wait for the daemon
    writeSync(fd, whole.slice(half));
    const pausedMs = Math.round(performance.now() - writing);
    closeSync(fd);
    const result = await resultFor(daemon, 'in-place.txt');
    expect(result.status).toBe('success');
    // A second claim of the file would have been made before a request dropped after its result runs.
    dropFile(root, 'after-in-place.txt', 'Summarise: one session for the in-place file.');
    expect((await resultFor(daemon, 'after-in-place.txt')).status).toBe('success');
    const sessions = readSessions(root).filter((session) => session.text.startsWith('In-place request'));
    expect(sessions).toHaveLength(1);
    expect(sessions[0].text, `the writer paused ${pausedMs} ms between its writes (settle_ms 5000)`).toBe(whole);
    expect(readResults(root).filter((entry) => entry.source_file === 'in-place.txt')).toHaveLength(1);
    expect(listDir(path.join(root, 'system', 'failed'))).toEqual([]);
    expect(readdirSync(inboxOf(root))).toEqual([]);
    expect((await daemon.stop()).code).toBe(0);
  });
});

describe('govflow start: a flood is claimed at once, and claims survive kill -9', () => {
  it('claims every dropped file while 2 sessions run; after kill -9 the next start runs each claim exactly once', async () => {
    const root = makeRoot(scriptedConfig('intake:\n  concurrency: 2\n'));
    writeScript(root, exampleScript({ latencyMs: 400, loop: true }));
    let daemon = await startDaemon(root);
    const count = 12;
    for (let index = 0; index < count; index++)
      dropJson(root, `flood-${index}.json`, { request: `Summarise note ${index}.`, request_id: `flood-${index}` });
    const processing = path.join(root, 'system', 'processing');
    // Every file leaves the inbox as a claim long before the 2 slots could have run them all.
    await waitFor(
      'every file claimed',
      () => listDir(inboxOf(root)).length === 0 && listDir(processing).length === count,
      { detail: () => daemon.stderrTail() },
    );
    expect(readSessions(root).length).toBeLessThanOrEqual(2);
    await daemon.kill9();
    expect(listDir(processing)).toHaveLength(count);
    expect(readResults(root)).toEqual([]);

    writeScript(root, exampleScript({ latencyMs: 0, loop: true }));
    daemon = await startDaemon(root);
    await waitFor(`${count} results`, () => readResults(root).length === count, {
      timeoutMs: 30_000,
      detail: () => daemon.stderrTail(),
    });
    await waitFor('nothing left in processing/', () => listDir(processing).length === 0, {
      detail: () => daemon.stderrTail(),
    });
    expect((await daemon.stop()).code).toBe(0);
    const results = readResults(root);
    expect(results.map((result) => result.request_id).sort()).toEqual(
      Array.from({ length: count }, (_, index) => `flood-${index}`).sort(),
    );
    expect(results.every((result) => result.status === 'success')).toBe(true);
    expect(readSessions(root)).toHaveLength(count);
    const archived = readdirSync(path.join(root, 'system', 'archive')).flatMap((day) =>
      readdirSync(path.join(root, 'system', 'archive', day)),
    );
    expect(archived.sort()).toEqual(Array.from({ length: count }, (_, index) => `flood-${index}.json`).sort());
    expect(listDir(path.join(root, 'system', 'failed'))).toEqual([]);
    const verify = await runCli(['verify', '--root', root]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  }, 60_000);
});
