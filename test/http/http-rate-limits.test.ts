/**
 * Holding the line over real HTTP (SPEC §20), against `govflow start` as a child process: a user past
 * `per_user_per_minute` gets 429 with Retry-After while other users go on, and an edit of the limit
 * applies without a restart; an address past `auth_failures_per_minute` failed tokens gets 429 for
 * every call, a right token included, while another address is not held; `max_queued` accepted
 * requests make POST /v1/requests answer 503 with Retry-After and leave inbox files in the inbox
 * until the queue drains.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { singleAgentRoot, WORKER_DONE } from '../support/single-agent-root.js';
import {
  cleanupAll,
  dropJson,
  INBOX_WAITS,
  loggedLine,
  makeRoot,
  readResult,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';

const ALICE = 'alice-token-rate-limits';
const BOB = 'bob-token-rate-limits';
const TOKENS = `[{ user: alice, sha256: "${tokenSha256(ALICE)}" }, { user: bob, sha256: "${tokenSha256(BOB)}" }]`;

beforeAll(buildDistOnce, 180_000);
afterAll(cleanupAll);

function urlOf(daemon: DaemonProcess): string {
  return /HTTP API on (http:\/\/[^\s,)]+)/.exec(daemon.readyLine)![1];
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One call from a chosen local address (127.0.0.x), so tests can be two clients. */
function call(
  url: string,
  route: string,
  options: { token?: string; from?: string; method?: string; body?: unknown } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const outgoing = httpRequest(
      `${url}${route}`,
      {
        method: options.method ?? 'GET',
        localAddress: options.from ?? '127.0.0.1',
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (incoming) => {
        let text = '';
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode!, headers: incoming.headers, body: text ? JSON.parse(text) : null }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

describe('rate limits over real HTTP (SPEC §20)', () => {
  let daemon: DaemonProcess;
  let url: string;
  let root: string;

  beforeAll(async () => {
    root = makeRoot(
      `timezone: UTC\nhttp:\n  listen: "127.0.0.1:0"\n  tokens: ${TOKENS}\n  rate_limit: { per_user_per_minute: 5, auth_failures_per_minute: 4 }\n`,
    );
    daemon = await startDaemon(root);
    url = urlOf(daemon);
  });

  it('answers 429 with Retry-After to a user past per_user_per_minute; other users go on; an edit applies at once', async () => {
    const answers: Answer[] = [];
    for (let index = 0; index < 6; index++) answers.push(await call(url, '/v1/logs', { token: ALICE }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers[0].headers['x-ratelimit-limit']).toBe('5');
    const limited = answers[5];
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(limited.body.error).toMatchObject({ code: 'too_many_requests' });
    expect(limited.body.error.message).toContain('per_user_per_minute');
    expect((await call(url, '/v1/requests', { token: ALICE, method: 'POST', body: { request: 'x' } })).status).toBe(
      429,
    );
    expect((await call(url, '/v1/logs', { token: BOB })).status).toBe(200);
    expect((await call(url, '/healthz')).status).toBe(200);

    const config = path.join(root, 'govflow.config.yaml');
    writeFileSync(config, readFileSync(config, 'utf8').replace('per_user_per_minute: 5', 'per_user_per_minute: 100'));
    await waitFor('the edit applied', () => daemon.stderr.includes('http.rate_limit applied'), {
      detail: () => daemon.stderrTail(),
    });
    expect((await call(url, '/v1/logs', { token: ALICE })).status).toBe(200);
    const status = await runCli(['status', '--root', root, '--json']);
    expect(JSON.parse(status.stdout).config).toEqual({ restart_needed: [] });
  });

  it('holds an address past auth_failures_per_minute failed tokens with 429 for every call, not another address', async () => {
    const wrong: number[] = [];
    for (let index = 0; index < 4; index++)
      wrong.push((await call(url, '/v1/logs', { token: `guess-${index}` })).status);
    expect(wrong).toEqual([401, 401, 401, 401]);
    const held = await call(url, '/v1/logs', { token: 'guess-5' });
    expect(held.status).toBe(429);
    const retryAfter = Number(held.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(held.body.error.message).toContain('auth_failures_per_minute');
    // A right guess from that address is refused too: the limit slows guessing.
    expect((await call(url, '/v1/logs', { token: ALICE })).status).toBe(429);
    expect((await call(url, '/healthz')).status).toBe(200);
    // Another client address is not held.
    expect((await call(url, '/v1/logs', { token: ALICE, from: '127.0.0.2' })).status).toBe(200);
    expect((await call(url, '/v1/logs', { token: 'guess', from: '127.0.0.2' })).status).toBe(401);
  });
});

describe('a bounded queue (SPEC §20 max_queued)', () => {
  it('answers 503 with Retry-After while max_queued requests wait, leaves inbox files in the inbox, and takes them once it drains', async () => {
    const root = singleAgentRoot(
      scriptedConfig(
        `intake: { concurrency: 1 }\nhttp:\n  listen: "127.0.0.1:0"\n  tokens: ${TOKENS}\n  max_queued: 2\n`,
      ),
    );
    writeScript(
      root,
      // Only q-1, the first call, is slow: it holds the one running place while the queue fills and
      // the file waits; the others run at once (five 5 s calls were 25 s of this test's wall).
      JSON.stringify({
        responses: { worker_agent: [{ json: WORKER_DONE, delay_ms: 5000 }, ...Array(4).fill({ json: WORKER_DONE })] },
      }),
    );
    const daemon = await startDaemon(root);
    const url = urlOf(daemon);
    const post = (requestId: string) =>
      call(url, '/v1/requests', {
        token: ALICE,
        method: 'POST',
        body: { request: `Work ${requestId}.`, request_id: requestId },
      });
    expect((await post('q-1')).status).toBe(202);
    await waitFor(
      'q-1 running',
      async () => (await call(url, '/v1/requests/q-1', { token: ALICE })).body?.status === 'running',
    );
    expect((await post('q-2')).status).toBe(202);
    expect((await post('q-3')).status).toBe(202);
    const full = await post('q-4');
    expect(full.status).toBe(503);
    expect(full.body.error).toMatchObject({ code: 'queue_full' });
    expect(Number(full.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Not accepted: its id is free for a later try.
    expect((await call(url, '/v1/requests/q-4', { token: ALICE })).status).toBe(404);

    dropJson(root, 'file-1.json', { request: 'From a file.', request_id: 'file-1' });
    // The daemon has seen the file and left it waiting: it says so once, naming the file.
    await waitFor(
      'file-1.json told waiting in the inbox',
      () => loggedLine(daemon.stderr, INBOX_WAITS, { file: 'file-1.json' }),
      {
        detail: () => daemon.stderrTail(),
      },
    );
    const inbox = path.join(root, 'system', 'inbox');
    expect(readResult(root, 'q-1')).toBeNull();
    expect(readdirSync(inbox)).toContain('file-1.json');

    // q-1 ends, q-2 starts: one place frees, the file is claimed and runs after q-3.
    await waitFor('the file claimed once the queue drained', () => !existsSync(path.join(inbox, 'file-1.json')), {
      timeoutMs: 30_000,
    });
    await waitFor(
      'every accepted request done',
      () => ['q-1', 'q-2', 'q-3', 'file-1'].every((id) => readResult(root, id)?.status === 'success'),
      { timeoutMs: 60_000, detail: () => daemon.stderrTail() },
    );
    expect(readResult(root, 'q-4')).toBeNull();
    expect((await post('q-4')).status).toBe(202);
    await daemon.stop();
  }, 120_000);
});
