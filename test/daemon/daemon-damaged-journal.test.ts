/**
 * Silent failure #5 (issue 11) at restart: a journal damaged in the middle is not silently cut —
 * its request stays in system/processing/ with an error naming journal file and line — and it
 * does not keep the other unfinished sessions from being recovered.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from './build-once.js';
import {
  cleanupAll,
  dropJson,
  exampleScript,
  makeRoot,
  readResult,
  readSessions,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

describe('recovery with a damaged journal', () => {
  it('names the damaged journal line, keeps that request claimed, and recovers the others', async () => {
    const root = makeRoot(scriptedConfig('intake:\n  concurrency: 2\n'));
    writeScript(root, exampleScript({ latencyMs: 400, loop: true }));
    let daemon = await startDaemon(root);
    dropJson(root, 'damaged.json', { request: 'Summarise the damaged one.', request_id: 'damaged-1' });
    dropJson(root, 'healthy.json', { request: 'Summarise the healthy one.', request_id: 'healthy-1' });
    const started = () => readSessions(root).filter((session) => session.messages.length >= 1);
    await waitFor('both sessions under way', () => started().length === 2, {
      timeoutMs: 20_000,
      detail: () => daemon.stderrTail(),
    });
    await daemon.kill9();

    const damaged = readSessions(root).find((session) => session.requestId === 'damaged-1')!;
    const journal = path.join(root, 'system', 'sessions', damaged.sessionId, 'journal.jsonl');
    const lines = readFileSync(journal, 'utf8').split('\n');
    lines[1] = '{"v":1,"type":"exchange", damaged';
    writeFileSync(journal, lines.join('\n'));

    writeScript(root, exampleScript({ latencyMs: 10, loop: true }));
    daemon = await startDaemon(root);
    await waitFor('the healthy result', () => readResult(root, 'healthy-1')?.status === 'success', {
      timeoutMs: 30_000,
      detail: () => daemon.stderrTail(),
    });
    await waitFor('the recovery error', () => /cannot recover this request/.test(daemon.stderr), {
      detail: () => daemon.stderrTail(),
    });
    expect(daemon.stderr).toContain(`${journal}:2: not a journal record`);
    expect(readResult(root, 'damaged-1')).toBeNull();
    // The healthy request's file is archived right after its result is written.
    await waitFor(
      'the healthy request archived',
      () => readdirSync(path.join(root, 'system', 'processing')).length === 1,
      { detail: () => daemon.stderrTail() },
    );
    expect(readFileSync(journal, 'utf8')).toBe(lines.join('\n')); // nothing was cut
    expect((await daemon.stop()).code).toBe(0);
  }, 90_000);
});
