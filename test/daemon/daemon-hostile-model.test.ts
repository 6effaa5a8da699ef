/**
 * The daemon (a real `govflow start` child process) against a hostile or broken model: a
 * 100,000-deep answer and a provider adapter that crashes the step each end with a result, the
 * daemon stays up, and the next request runs normally. Before issue 18 the deep answer crashed
 * the session at every start and the request never got a result.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from './build-once.js';
import {
  EXAMPLE_ANSWERS,
  cleanupAll,
  dropJson,
  exampleScript,
  listDir,
  makeRoot,
  readResult,
  readSessions,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const DEEP = '{"output":{"content":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}}';

function detail(daemon: DaemonProcess) {
  return () =>
    `outbox: ${listDir(path.join(daemon.root, 'system', 'outbox')).join(', ')}\nprocessing: ` +
    `${listDir(path.join(daemon.root, 'system', 'processing')).join(', ')}\nstderr:\n${daemon.stderrTail()}`;
}

describe('daemon: a hostile model cannot crash a session forever', () => {
  it('deep answer, then a crashing adapter: each request gets a failed result, the daemon serves the next one', async () => {
    const root = makeRoot(scriptedConfig());
    writeScript(
      root,
      exampleScript({
        responses: {
          objective_agent: [
            DEEP,
            DEEP,
            DEEP,
            { text: 42 },
            { text: 42 },
            { text: 42 },
            { json: EXAMPLE_ANSWERS.objective_agent },
          ],
        },
      }),
    );
    const daemon = await startDaemon(root);

    dropJson(root, 'deep.json', { request: 'Summarize the deep thing.', request_id: 'deep' });
    const deep = await waitFor('the deep request result', () => readResult(root, 'deep'), {
      timeoutMs: 30_000,
      detail: detail(daemon),
    });
    expect(deep).toMatchObject({ status: 'failed', error: { error_code: 'VALIDATION_ERROR' } });
    expect(deep.message).toContain('nests deeper than message.max_depth (64)');

    dropJson(root, 'broken.json', { request: 'Summarize the broken thing.', request_id: 'broken' });
    const broken = await waitFor('the broken request result', () => readResult(root, 'broken'), {
      timeoutMs: 30_000,
      detail: detail(daemon),
    });
    expect(broken).toMatchObject({ status: 'failed', error: { error_code: 'PROCESSING_ERROR', recoverable: false } });
    expect(broken.message).toContain('(limits.max_crash_retries = 2)');
    const brokenSession = readSessions(root).find((session) => session.sessionId === broken.session_id)!;
    expect(brokenSession.records.filter((record) => record.type === 'crash')).toHaveLength(3);

    dropJson(root, 'fine.json', { request: 'Summarize the fine thing.', request_id: 'fine' });
    const fine = await waitFor('the fine request result', () => readResult(root, 'fine'), {
      timeoutMs: 30_000,
      detail: detail(daemon),
    });
    expect(fine.status).toBe('success');
    expect(daemon.hasExited).toBe(false);
    await waitFor('processing/ to empty', () => listDir(path.join(root, 'system', 'processing')).length === 0, {
      detail: detail(daemon),
    });
    expect(daemon.stderrTail()).toContain('crash retries are used up');
  }, 90_000);
});
