/**
 * Listing sessions (SPEC §18) against the real `govflow start` child process and the real CLI:
 * 3,000 prepared sessions plus live ones (one running on a model call that hangs on the loopback
 * server, one queued behind it), walked page by page through the cursor while new requests arrive,
 * filtered by status, user and time, with the role rules; `govflow sessions` lists the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, runCli, startDaemon, waitFor, type DaemonProcess } from '../daemon/daemon-helpers.js';
import { startLoopbackLlmServer, type LoopbackLlmServer } from '../llm/loopback-llm-server.js';
import {
  PREPARED_USERS,
  preparedStatus,
  writePreparedSessions,
  type PreparedSession,
} from '../support/prepared-sessions.js';
import { getJson, httpUrlOf, postJson } from './http-test-helpers.js';

const COUNT = 3_000;
const TOKENS = {
  alice: 'alice-list-token',
  bob: 'bob-list-token',
  audrey: 'audrey-list-token',
  ada: 'ada-list-token',
};

let server: LoopbackLlmServer;
let daemon: DaemonProcess;
let root: string;
let url: string;
let prepared: PreparedSession[];
let live: { running: string; queued: string };

interface Listed {
  session_id: string;
  request_id: string;
  status: string;
  user: string;
  started_at: string | null;
  finished_at: string | null;
  lineage: unknown;
}

beforeAll(async () => {
  await buildDistOnce();
  server = await startLoopbackLlmServer();
  // The first model call never answers: its session stays running, and the next request queued behind it.
  server.reply({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
  root = makeRoot(
    [
      'timezone: UTC',
      'intake: { concurrency: 1 }',
      'provider:',
      '  kind: openai-compatible',
      '  model: "loopback-model"',
      `  base_url: "${server.url}/v1"`,
      '  api_key_env: GATEWAY_TOKEN',
      'llm: { max_attempts: 1, timeout_ms: 600000 }',
      'http:',
      '  listen: "127.0.0.1:0"',
      '  tokens:',
      `    - { user: alice, sha256: "${tokenSha256(TOKENS.alice)}", role: operator }`,
      `    - { user: bob, sha256: "${tokenSha256(TOKENS.bob)}", role: operator }`,
      `    - { user: audrey, sha256: "${tokenSha256(TOKENS.audrey)}", role: auditor }`,
      `    - { user: ada, sha256: "${tokenSha256(TOKENS.ada)}", role: admin }`,
      '',
    ].join('\n'),
    'govflow-listing-',
  );
  prepared = writePreparedSessions(root, COUNT);
  daemon = await startDaemon(root, { env: { GATEWAY_TOKEN: 'gw-listing-key' } });
  url = httpUrlOf(daemon.readyLine);
  const first = await postJson(
    `${url}/v1/requests`,
    { request: 'Summarize the budget.', request_id: 'live-1' },
    TOKENS.alice,
  );
  await waitFor('the first model call', () => server.requests.length === 1, { detail: () => daemon.stderrTail() });
  const second = await postJson(
    `${url}/v1/requests`,
    { request: 'Plan the offsite.', request_id: 'live-2' },
    TOKENS.bob,
  );
  live = { running: first.body.session_id, queued: second.body.session_id };
}, 120_000);

afterAll(async () => {
  await cleanupAll();
  await server?.close();
});

async function list(query: string, token: string = TOKENS.audrey): Promise<{ status: number; body: any }> {
  return getJson(`${url}/v1/sessions${query ? `?${query}` : ''}`, token);
}

/** Every page of a query, following next_cursor; `between` runs after each page. */
async function walk(query: string, token = TOKENS.audrey, between: (page: number) => Promise<void> = async () => {}) {
  const sessions: Listed[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const answer = await list(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    expect(answer.status).toBe(200);
    sessions.push(...(answer.body.sessions as Listed[]));
    cursor = answer.body.next_cursor;
    pages += 1;
    await between(pages);
  } while (cursor !== null);
  return { sessions, pages };
}

describe('GET /v1/sessions and govflow sessions', () => {
  it('walks thousands of sessions through the cursor with no repeat and no gap while new ones arrive', async () => {
    const { sessions, pages } = await walk('limit=400', TOKENS.audrey, async (page) => {
      // A new request lands on top mid-walk: the walk neither repeats nor skips anything.
      if (page === 2) await postJson(`${url}/v1/requests`, { request: 'Late.', request_id: 'live-3' }, TOKENS.alice);
    });
    expect(pages).toBe(Math.ceil((COUNT + 2) / 400));
    const ids = sessions.map((session) => session.session_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, 2).sort()).toEqual([live.running, live.queued].sort());
    // Prepared sessions, newest first, every one of them.
    expect(ids.slice(2)).toEqual(prepared.map((session) => session.sessionId).reverse());
    const oldest = sessions.at(-1)!;
    expect(oldest).toEqual({
      session_id: prepared[0].sessionId,
      request_id: prepared[0].requestId,
      status: 'success',
      user: 'alice',
      started_at: '2026-01-01T00:00:00.000+00:00',
      finished_at: '2026-01-01T00:00:00.500+00:00',
      lineage: null,
      // Outside a chat, a session is its own conversation (SPEC §23).
      conversation_id: prepared[0].sessionId,
      conversation_turn: 0,
    });
    // The late one is first on a new walk.
    expect((await list('limit=1')).body.sessions[0].request_id).toBe('live-3');
  });

  it('filters by status, user and time, and lists queued and running sessions', async () => {
    const expected = (pick: (session: PreparedSession) => boolean) =>
      prepared
        .filter(pick)
        .map((session) => session.sessionId)
        .reverse();
    const failed = await walk('status=failed&limit=1000');
    expect(failed.sessions.map((session) => session.session_id)).toEqual(
      expected((session) => preparedStatus(session.state) === 'failed'),
    );
    const since = prepared[2_500].createdAt;
    const bobsLate = await walk(`user=bob&since=${encodeURIComponent(since)}&status=success&limit=20`);
    expect(bobsLate.sessions.map((session) => session.session_id)).toEqual(
      expected((session) => session.user === 'bob' && session.createdAt >= since && session.state === 'SUCCESS'),
    );
    expect(bobsLate.pages).toBeGreaterThan(1);
    // A since written with another offset means the same instant.
    const offset = await walk(`since=${encodeURIComponent('2026-01-01T08:40:00+08:00')}&limit=1000&user=carol`);
    expect(offset.sessions.map((session) => session.session_id)).toEqual(
      expected((session) => session.user === 'carol' && session.createdAt >= '2026-01-01T00:40:00.000Z'),
    );

    const running = (await list('status=running')).body.sessions as Listed[];
    expect(running.map((session) => [session.session_id, session.request_id, session.user])).toEqual([
      [live.running, 'live-1', 'alice'],
    ]);
    expect(running[0].started_at).not.toBeNull();
    expect(running[0].finished_at).toBeNull();
    const queued = (await list('status=queued')).body.sessions as Listed[];
    expect(queued.map((session) => session.request_id).sort()).toEqual(['live-2', 'live-3']);
    expect(queued.find((session) => session.request_id === 'live-2')).toEqual({
      session_id: live.queued,
      request_id: 'live-2',
      status: 'queued',
      user: 'bob',
      started_at: null,
      finished_at: null,
      lineage: null,
      conversation_id: live.queued,
      conversation_turn: 0,
    });
  });

  it('shows an operator only its own sessions; an auditor and an admin everyone', async () => {
    const alices = await walk('limit=1000', TOKENS.alice);
    expect(new Set(alices.sessions.map((session) => session.user))).toEqual(new Set(['alice']));
    expect(alices.sessions).toHaveLength(prepared.filter((session) => session.user === 'alice').length + 2);
    expect((await list('user=bob', TOKENS.alice)).body).toEqual({ sessions: [], next_cursor: null });
    const everyone = new Set((await walk('limit=1000')).sessions.map((session) => session.user));
    expect(everyone).toEqual(new Set(PREPARED_USERS));
    const admins = await walk('limit=1000&user=bob', TOKENS.ada);
    expect(admins.sessions).toHaveLength(prepared.filter((session) => session.user === 'bob').length + 1);
    expect((await getJson(`${url}/v1/sessions`)).status).toBe(401);
  });

  it('answers a bad filter or cursor with 400 saying what to send', async () => {
    const bad = async (query: string, words: string) => {
      const answer = await list(query);
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toContain(words);
    };
    await bad(
      'status=done',
      'queued, running, paused, intervention_required, halted_cost, halted_time, success, partial, failed, cancelled',
    );
    await bad('since=yesterday', 'ISO 8601');
    await bad('limit=0', 'limit must be');
    await bad('cursor=not-a-cursor', 'next_cursor');
    await bad('status=failed&status=success', 'must appear once');
  });

  it('govflow status and /metrics count the sessions by status, cancelled ones included', async () => {
    const expected = {
      queued: 2,
      running: 1,
      paused: 0,
      intervention_required: 0,
      halted_cost: 0,
      halted_time: 0,
      success: 600,
      partial: 600,
      failed: 1200,
      cancelled: 600,
    };
    const status = await runCli(['status', '--root', root, '--json'], { env: { GATEWAY_TOKEN: 'unused' } });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).sessions_by_status).toEqual(expected);
    const text = await runCli(['status', '--root', root]);
    expect(text.stdout).toContain(
      'sessions (3003): 2 queued, 1 running, 0 paused, 0 intervention_required, 0 halted_cost, 0 halted_time, ' +
        '600 success, 600 partial, 1200 failed, 600 cancelled',
    );
    const metrics = await (
      await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKENS.audrey}` } })
    ).text();
    for (const [name, count] of Object.entries(expected))
      expect(metrics).toContain(`govflow_sessions{status="${name}"} ${count}`);
    expect(metrics).toContain('govflow_sessions_total{status="cancelled"} 0');
  }, 30_000);

  it('govflow sessions lists what the API lists, as JSON and as text', async () => {
    const env = { GATEWAY_TOKEN: 'unused' };
    const json = await runCli(['sessions', '--root', root, '--json', '--user', 'bob', '--status', 'failed'], { env });
    expect(json.code).toBe(0);
    const api = await walk('user=bob&status=failed&limit=1000');
    expect(JSON.parse(json.stdout)).toEqual({ sessions: api.sessions });
    const queued = await runCli(['sessions', '--root', root, '--status', 'queued', '--json'], { env });
    expect((JSON.parse(queued.stdout).sessions as Listed[]).map((session) => session.request_id).sort()).toEqual([
      'live-2',
      'live-3',
    ]);
    const text = await runCli(['sessions', '--root', root, '--since', prepared[COUNT - 3].createdAt], { env });
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe('6 sessions');
    expect(lines[0]).toMatch(/^sess-\S+\s+(running|queued)\s+(alice|bob)\s+started=/);
    const usage = await runCli(['sessions', '--root', root, '--status', 'done'], { env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('is not one of queued, running');
  }, 60_000);

  it('lists a re-run still queued with its lineage, the original named by session and request', async () => {
    const original = prepared[10];
    const rerun = await postJson(`${url}/v1/sessions/${original.sessionId}/rerun`, { reason: 'check it' }, TOKENS.ada);
    expect(rerun.status, JSON.stringify(rerun.body)).toBe(202);
    const queued = (await list('status=queued')).body.sessions as Listed[];
    expect(queued.find((session) => session.session_id === rerun.body.session_id)).toEqual({
      session_id: rerun.body.session_id,
      request_id: rerun.body.request_id,
      status: 'queued',
      user: original.user,
      started_at: null,
      finished_at: null,
      lineage: {
        action: 'rerun',
        of_session: original.sessionId,
        of_request: original.requestId,
        from: 1,
        by: 'ada',
        reason: 'check it',
      },
      conversation_id: rerun.body.session_id,
      conversation_turn: 0,
    });
  });
});
