/**
 * Load on the front door: a flood of files at once (bounded memory and file descriptors) and a
 * crash-left claim of a duplicate id. (One daemon per root: see root-owner.test.ts.)
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from './build-once.js';
import {
  cleanupAll,
  dropJson,
  inboxOf,
  listDir,
  makeRoot,
  readResult,
  readResults,
  readSessions,
  runCli,
  startDaemon,
  waitFor,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

/** Writes `count` small requests into a staging folder on the same filesystem, then renames them all in at once. */
function flood(root: string, count: number, prefix: string): string[] {
  const staging = path.join(root, 'staging');
  mkdirSync(staging, { recursive: true });
  const names: string[] = [];
  for (let index = 0; index < count; index++) {
    const name = `${prefix}-${String(index).padStart(4, '0')}.txt`;
    writeFileSync(path.join(staging, name), `Request ${index}: summarise note ${index}.`);
    names.push(name);
  }
  for (const name of names) renameSync(path.join(staging, name), path.join(inboxOf(root), name));
  return names;
}

describe('a flood of requests', () => {
  // Peak RSS, open file descriptors and wall time of this flood: bench/flood-resources.mjs.
  it('processes 1,000 files dropped at once, each exactly once', async () => {
    const root = makeRoot('timezone: UTC\nintake:\n  concurrency: 4\n');
    const daemon = await startDaemon(root);
    const names = flood(root, 1000, 'flood');
    // Counting names, not parsing every result at each poll: the test would take CPU from the daemon.
    const outbox = path.join(root, 'system', 'outbox');
    const written = () => listDir(outbox).filter((name) => name.endsWith('.json') && !name.startsWith('.')).length;
    await waitFor('1,000 results', () => written() >= 1000, {
      timeoutMs: 120_000,
      intervalMs: 500,
      detail: () => `results: ${written()}, inbox: ${listDir(inboxOf(root)).length}\nstderr:\n${daemon.stderrTail()}`,
    });
    const results = readResults(root);
    expect(results).toHaveLength(1000);
    expect(results.every((result) => result.status === 'success')).toBe(true);
    expect(new Set(results.map((result) => result.source_file))).toEqual(new Set(names));
    expect(listDir(path.join(root, 'system', 'failed'))).toEqual([]);
    expect((await daemon.stop()).code).toBe(0);
    const verify = await runCli(['verify', '--root', root]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/6000 entries/);
  }, 180_000);
});

describe('a duplicate request_id claimed just before a crash', () => {
  // Drives an internal state on purpose: a file the intake renamed into system/processing/ whose
  // id it had not yet checked when the process died. The next start must still reject it.
  it('is rejected at the next start, never run a second time', async () => {
    const root = makeRoot('timezone: UTC\n');
    let daemon = await startDaemon(root);
    dropJson(root, 'original.json', { request: 'Summarise the original.', request_id: 'dup-crash' });
    await waitFor('the original result', () => readResult(root, 'dup-crash')?.status === 'success', {
      detail: () => daemon.stderrTail(),
    });
    await daemon.kill9();
    writeFileSync(
      path.join(root, 'system', 'processing', `${Date.now()}-abc123-copy.json`),
      JSON.stringify({ request: 'Summarise the copy.', request_id: 'dup-crash' }),
    );
    daemon = await startDaemon(root);
    // The kill may have come between the original's result and its archive move: recovery then
    // finishes that too, so wait for processing/ to empty as well.
    await waitFor(
      'the copy in failed/ and processing/ empty',
      () =>
        listDir(path.join(root, 'system', 'failed')).includes('copy.json.error.json') &&
        listDir(path.join(root, 'system', 'processing')).length === 0,
      { detail: () => daemon.stderrTail() },
    );
    expect(readSessions(root).filter((session) => session.requestId === 'dup-crash')).toHaveLength(1);
    expect(readResult(root, 'dup-crash')?.source_file).toBe('original.json');
    expect(listDir(path.join(root, 'system', 'processing'))).toEqual([]);
    expect((await daemon.stop()).code).toBe(0);
  });
});

describe('a session folder a crash left with an empty journal', () => {
  // Drives an internal state on purpose: the daemon died between creating journal.jsonl and
  // writing its first record. Nothing was committed, so the request must simply run.
  it('is started over under the same session id and ends with one result', async () => {
    const root = makeRoot('timezone: UTC\n');
    const claimName = `${Date.now()}-k9k9k9-crashed.txt`;
    mkdirSync(path.join(root, 'system', 'processing'), { recursive: true });
    writeFileSync(path.join(root, 'system', 'processing', claimName), 'Summarise the crashed request.');
    const claimedAt = new Date(Number(claimName.split('-')[0]));
    const stamp = claimedAt.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    const sessionId = `sess-${stamp}-k9k9k9`;
    mkdirSync(path.join(root, 'system', 'sessions', sessionId), { recursive: true });
    writeFileSync(path.join(root, 'system', 'sessions', sessionId, 'journal.jsonl'), '');
    const daemon = await startDaemon(root);
    // The `finished` record comes a moment before the request file is archived (a folder
    // creation on the first archive of the day): wait for both.
    await waitFor(
      'a result for the crashed request, and its file archived',
      () =>
        readSessions(root).some(
          (session) => session.sessionId === sessionId && session.records.some((record) => record.type === 'finished'),
        ) && listDir(path.join(root, 'system', 'processing')).length === 0,
      { detail: () => daemon.stderrTail() },
    );
    expect(listDir(path.join(root, 'system', 'failed'))).toEqual([]);
    expect(listDir(path.join(root, 'system', 'processing'))).toEqual([]);
    expect((await daemon.stop()).code).toBe(0);
  });
});
