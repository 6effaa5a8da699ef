/**
 * Listing sessions in cluster mode (SPEC §18 over §15): a real `govflow start` on Postgres runs
 * requests, 2,000 ended sessions are written into the store beside them (some sharing a start
 * time to the microsecond, so the cursor's tie-break by session id is exercised), and
 * `GET /v1/sessions` and `govflow sessions` page through all of them from the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  cleanupAll,
  exampleScript,
  makeRoot,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';
import { getJson, httpUrlOf, postJson } from '../http/http-test-helpers.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('listing');
const BULK = 2_000;
const TOKENS = { alice: 'alice-cluster-list', audrey: 'audrey-cluster-list' };

let root: string;
let daemon: DaemonProcess;
let url: string;
const live: string[] = [];

beforeAll(async () => {
  if (!pg) return;
  await buildDistOnce();
  root = makeRoot(
    scriptedConfig(
      [
        `store: { kind: postgres, url: "${pg.url}", schema: ${pg.schema} }`,
        'http:',
        '  listen: "127.0.0.1:0"',
        '  tokens:',
        `    - { user: alice, sha256: "${tokenSha256(TOKENS.alice)}", role: operator }`,
        `    - { user: audrey, sha256: "${tokenSha256(TOKENS.audrey)}", role: auditor }`,
        '',
      ].join('\n'),
    ),
    'govflow-cluster-listing-',
  );
  writeScript(root, exampleScript({ loop: true }));
  daemon = await startDaemon(root);
  url = httpUrlOf(daemon.readyLine);
  // Written first, so they are older than every live session; pairs share their start time.
  await pg.query(
    `insert into sessions (session_id, request_id, state, request, user_name, intake_daemon, result_status, result_json, created_at, updated_at)
     select 'sess-bulk-' || lpad(i::text, 5, '0'), 'bulk-' || i, 'finished',
       jsonb_build_object('text', 'bulk request ' || i), (array['alice','bob'])[i % 2 + 1], 'bulk',
       (array['success','failed','cancelled','partial'])[i % 4 + 1],
       jsonb_build_object('status', (array['success','failed','cancelled','partial'])[i % 4 + 1], 'messages', 3,
         'started_at', to_char((timestamptz '2026-01-01 00:00:00.000001+00' + (i / 2) * interval '1.000001 second') at time zone 'UTC', ` +
      `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
         'finished_at', '2026-02-01T00:00:00.000Z')::text,
       timestamptz '2026-01-01 00:00:00.000001+00' + (i / 2) * interval '1.000001 second', now()
     from generate_series(0, ${BULK - 1}) as i`,
  );
  for (const id of ['c-live-1', 'c-live-2']) {
    const answer = await postJson(`${url}/v1/requests`, { request: `Summarize ${id}.`, request_id: id }, TOKENS.alice);
    live.push(answer.body.session_id);
  }
  await waitFor(
    'both live sessions to end',
    async () =>
      (await pg.query(`select 1 from sessions where request_id like 'c-live-%' and state = 'finished'`)).length === 2,
    { timeoutMs: 30_000, detail: () => daemon.stderrTail() },
  );
}, 120_000);

afterAll(async () => {
  await cleanupAll();
  await pg?.drop();
});

interface Listed {
  session_id: string;
  status: string;
  user: string;
  started_at: string | null;
  finished_at: string | null;
}

async function walk(query: string, token = TOKENS.audrey): Promise<Listed[]> {
  const sessions: Listed[] = [];
  let cursor: string | null = null;
  do {
    const answer = await getJson(
      `${url}/v1/sessions?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      token,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    sessions.push(...(answer.body.sessions as Listed[]));
    cursor = answer.body.next_cursor;
  } while (cursor !== null);
  return sessions;
}

/** Bulk ids newest first: by start time, then by session id (descending), as the listing orders them. */
function bulkNewestFirst(pick: (index: number) => boolean = () => true): string[] {
  const ids: string[] = [];
  for (let index = 0; index < BULK; index++) if (pick(index)) ids.push(`sess-bulk-${String(index).padStart(5, '0')}`);
  return ids.reverse();
}

describe.skipIf(!pg)('listing sessions from the Postgres store', () => {
  it('pages through every session with a stable cursor, ties broken by session id', async () => {
    const sessions = await walk('limit=333');
    expect(sessions.slice(0, 2).map((session) => session.session_id)).toEqual([...live].reverse());
    expect(sessions.slice(0, 2).every((session) => session.status === 'success' && session.finished_at !== null)).toBe(
      true,
    );
    expect(sessions.slice(2).map((session) => session.session_id)).toEqual(bulkNewestFirst());
    expect(sessions[2]).toMatchObject({ status: 'partial', user: 'bob', finished_at: '2026-02-01T00:00:00.000+00:00' });
  });

  it('filters by status, user and time, and keeps an operator to its own sessions', async () => {
    const cancelled = await walk('status=cancelled&limit=100');
    expect(cancelled.map((session) => session.session_id)).toEqual(bulkNewestFirst((index) => index % 4 === 2));
    const since = '2026-01-01T00:15:00Z'; // index 1800 on (pairs: 900 s in)
    const bobsSince = await walk(`user=bob&since=${since}&limit=50`);
    expect(bobsSince.map((session) => session.session_id)).toEqual(
      bulkNewestFirst((index) => index % 2 === 1 && index >= 1800),
    );
    const alices = await walk('limit=500', TOKENS.alice);
    expect(new Set(alices.map((session) => session.user))).toEqual(new Set(['alice']));
    expect(alices).toHaveLength(BULK / 2 + 2);
    expect((await getJson(`${url}/v1/sessions?user=bob`, TOKENS.alice)).body.sessions).toEqual([]);
  });

  it("shows a re-run with its lineage in the listing and on both sessions' pages", async () => {
    const rerun = await postJson(`${url}/v1/sessions/${live[0]}/rerun`, { reason: 'once more' }, TOKENS.alice);
    expect(rerun.status, JSON.stringify(rerun.body)).toBe(202);
    const lineage = {
      action: 'rerun',
      of_session: live[0],
      of_request: 'c-live-1',
      from: 1,
      by: 'alice',
      reason: 'once more',
    };
    const listedLineage = async () =>
      (
        (await walk('limit=5', TOKENS.alice)).find((session) => session.session_id === rerun.body.session_id) as
          (Listed & { lineage: unknown }) | undefined
      )?.lineage;
    expect(await listedLineage()).toEqual(lineage);
    await waitFor(
      'the re-run to end',
      async () =>
        (await getJson(`${url}/v1/requests/${rerun.body.request_id}`, TOKENS.alice)).body.status === 'success',
    );
    expect(await listedLineage()).toEqual(lineage);
    const cookie = { cookie: `govflow_token=${TOKENS.alice}` };
    const original = await (await fetch(`${url}/ui/sessions/${live[0]}`, { headers: cookie })).text();
    expect(original).toContain(`href="/ui/sessions/${rerun.body.session_id}"`);
    const made = await (await fetch(`${url}/ui/sessions/${rerun.body.session_id}`, { headers: cookie })).text();
    expect(made).toContain(`A re-run of session <a href="/ui/sessions/${live[0]}">`);
  }, 60_000);

  it('govflow sessions, govflow status and /metrics read the same store', async () => {
    const cli = await runCli(['sessions', '--root', root, '--json', '--status', 'cancelled', '--user', 'alice']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout).sessions).toEqual(await walk('status=cancelled&user=alice&limit=1000'));
    const status = await runCli(['status', '--root', root, '--json']);
    expect(JSON.parse(status.stdout).sessions_by_status).toEqual({
      queued: 0,
      running: 0,
      paused: 0,
      intervention_required: 0,
      halted_cost: 0,
      halted_time: 0,
      success: BULK / 4 + 3,
      partial: BULK / 4,
      failed: BULK / 4,
      cancelled: BULK / 4,
    });
    const metrics = await (
      await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKENS.audrey}` } })
    ).text();
    expect(metrics).toContain(`govflow_sessions{status="cancelled"} ${BULK / 4}`);
    const text = await runCli(['sessions', '--root', root, '--limit', '3']);
    expect(text.stdout.trim().split('\n')).toHaveLength(4);
    expect(text.stdout).toContain(live[1]);
    expect(text.stdout).toMatch(/rerun of sess-\S+ by alice/);
  }, 60_000);
});
