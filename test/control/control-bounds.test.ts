/**
 * Issue 50's attacks on run control, against a real `govflow start` (SPEC §20, §18): with
 * `max_queued: 3`, six simultaneous re-runs over HTTP get three 202s and three 503s; six re-run
 * control files queue three and refuse the others into system/failed/, and one dropped while the
 * queue is full is taken and refused too (a request file waits in the inbox); 50 simultaneous
 * cancels of one running session over HTTP, with control files beside them, all answer 202 and
 * make one operator entry, none of the control files in system/failed/.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  cleanupAll,
  dropJson,
  inboxOf,
  listDir,
  readAuditEntries,
  readResult,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';
import { getJson, httpUrlOf, postJson } from '../http/http-test-helpers.js';
import { singleAgentRoot, WORKER_DONE } from '../support/single-agent-root.js';

let root: string;
let daemon: DaemonProcess;
let api: string;
let original: string;
let blocker: string;

const failedFolder = () => path.join(root, 'system', 'failed');

async function queuedSessions(): Promise<string[]> {
  const { body } = await getJson(`${api}/v1/sessions?status=queued`);
  return (body.sessions as Array<{ session_id: string }>).map((session) => session.session_id);
}

beforeAll(async () => {
  await buildDistOnce();
  root = singleAgentRoot(
    scriptedConfig('intake: { concurrency: 1, settle_ms: 200 }\nhttp: { listen: "127.0.0.1:0", max_queued: 3 }\n'),
  );
  // The first session ends at once; every later one holds its slot (a cancel ends it).
  const held = Array.from({ length: 40 }, () => ({ json: WORKER_DONE, delay_ms: 600_000 }));
  writeScript(root, JSON.stringify({ responses: { worker_agent: [{ json: WORKER_DONE }, ...held] } }));
  daemon = await startDaemon(root);
  api = httpUrlOf(daemon.readyLine);
  const first = await postJson(`${api}/v1/requests`, { request: 'Work once.', request_id: 'bounds-original' });
  expect(first.status).toBe(202);
  original = first.body.session_id;
  await waitFor('the original ended', () => readResult(root, 'bounds-original'), { timeoutMs: 30_000 });
  const second = await postJson(`${api}/v1/requests`, { request: 'Work long.', request_id: 'bounds-blocker' });
  blocker = second.body.session_id;
  await waitFor('the blocker running', async () => {
    const { body } = await getJson(`${api}/v1/requests/bounds-blocker`);
    return body.status === 'running';
  });
}, 180_000);

afterAll(cleanupAll);

describe('max_queued and run control (SPEC §20)', () => {
  it('gives six simultaneous re-runs over HTTP three 202s and three 503s with Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(`${api}/v1/sessions/${original}/rerun`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ reason: 'again' }),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([202, 202, 202, 503, 503, 503]);
    for (const answer of answers.filter((one) => one.status === 503)) {
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('queue_full');
    }
    expect(await queuedSessions()).toHaveLength(3);
  }, 60_000);

  it('queues no more than max_queued re-runs from control files: the others are refused into failed/ or wait', async () => {
    // Empty the queue first: the three re-runs above end cancelled.
    const bulk = await postJson(`${api}/v1/sessions/cancel`, { status: 'queued' });
    expect(bulk.body.matched).toBe(3);
    await waitFor('the queue empty', async () => (await queuedSessions()).length === 0, { timeoutMs: 20_000 });
    // Their claims archived too: a claim counts against max_queued until it leaves system/processing/.
    await waitFor(
      'the cancelled re-runs archived',
      () => listDir(path.join(root, 'system', 'processing')).every((name) => !name.includes('rerun-bounds-original')),
      { timeoutMs: 20_000 },
    );
    const names = Array.from({ length: 6 }, (_, index) => `rerun-${index}.json`);
    for (const name of names) dropJson(root, name, { control: 'rerun', session_id: original, reason: 'file' });
    const settled = () => {
      const refused = names.filter((name) => existsSync(path.join(failedFolder(), `${name}.error.json`)));
      const waiting = names.filter((name) => existsSync(path.join(inboxOf(root), name)));
      return { refused, waiting };
    };
    await waitFor(
      'three queued, the rest refused or waiting',
      async () => {
        const { refused, waiting } = settled();
        return (await queuedSessions()).length === 3 && refused.length + waiting.length === 3;
      },
      { timeoutMs: 20_000, detail: () => JSON.stringify(settled()) },
    );
    for (const name of settled().refused)
      expect(JSON.parse(readFileSync(path.join(failedFolder(), `${name}.error.json`), 'utf8')).reason).toMatch(
        /http\.max_queued \(3\) accepted requests are waiting to start, and a rerun counts as a request/,
      );
    expect(await queuedSessions()).toHaveLength(3);

    // The queue is full: a request file waits in the inbox, a re-run control file is taken and refused.
    dropJson(root, 'waits.json', { request: 'Wait for a place.', request_id: 'bounds-waits' });
    dropJson(root, 'late-rerun.json', { control: 'rerun', session_id: original });
    const late = path.join(failedFolder(), 'late-rerun.json.error.json');
    await waitFor('the late re-run refused', () => existsSync(late), { timeoutMs: 20_000 });
    expect(JSON.parse(readFileSync(late, 'utf8')).reason).toMatch(/http\.max_queued \(3\)/);
    expect(existsSync(path.join(inboxOf(root), 'waits.json'))).toBe(true);
  }, 60_000);
});

describe('concurrent cancels of one session (SPEC §18)', () => {
  it('answers every one of 50 HTTP cancels 202 and makes one operator entry; control files beside them are archived', async () => {
    const files = Array.from({ length: 5 }, (_, index) => `cancel-${index}.json`);
    const [answers] = await Promise.all([
      Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          postJson(`${api}/v1/sessions/${blocker}/cancel`, { reason: `cancel ${index}` }),
        ),
      ),
      Promise.resolve().then(() => {
        for (const name of files) dropJson(root, name, { control: 'cancel', session_id: blocker, reason: name });
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(202));
    for (const answer of answers) expect(answer.body).toEqual({ session_id: blocker, status: 'cancelling' });
    const result = await waitFor('the blocker cancelled', () => readResult(root, 'bounds-blocker'), {
      timeoutMs: 30_000,
    });
    expect(result.status).toBe('cancelled');
    // Every control file settled: none in the inbox or processing/, none in failed/.
    const archive = path.join(root, 'system', 'archive');
    await waitFor(
      'every cancel file archived',
      () =>
        files.every((name) => listDir(archive).some((day) => existsSync(path.join(archive, day, name)))) &&
        listDir(path.join(root, 'system', 'processing')).every((name) => !name.includes('control-cancel')),
      { timeoutMs: 20_000, detail: () => listDir(path.join(root, 'system', 'processing')).join(', ') },
    );
    const failed = readdirSync(failedFolder()).filter((name) => name.endsWith('.error.json'));
    expect(failed.filter((name) => name.includes('cancel'))).toEqual([]);
    const entries = (await readAuditEntries(root, ['--session', blocker, '--status', 'cancelled'])) as unknown[];
    expect(entries).toHaveLength(1);
    // One more, after the end: 202 as well.
    expect((await postJson(`${api}/v1/sessions/${blocker}/cancel`, {})).status).toBe(202);
  }, 90_000);
});
