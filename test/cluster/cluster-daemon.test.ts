/**
 * Cluster mode end to end (SPEC §15): real `govflow start` child processes on separate roots
 * sharing one Postgres schema. One daemon runs requests from its inbox; two daemons survive a
 * kill -9 of the one running the sessions, which the other takes over within the lease.
 */
import { appendFileSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  answer,
  cleanupAll,
  dropJson,
  exampleScript,
  makeRoot,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
} from '../daemon/daemon-helpers.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('daemon');
afterAll(() => pg?.drop());
afterEach(() => cleanupAll());
beforeAll(() => buildDistOnce(), 180_000);

function clusterRoot(leaseMs: number, latencyMs: number): string {
  const root = makeRoot(
    scriptedConfig(
      `store:\n  kind: postgres\n  url: ${pg!.url}\n  schema: ${pg!.schema}\ncluster:\n  lease_ms: ${leaseMs}\nintake:\n  concurrency: 4\n`,
    ),
    'govflow-cluster-',
  );
  writeScript(root, exampleScript({ latencyMs, loop: true }));
  return root;
}

function outboxResults(root: string): string[] {
  const outbox = path.join(root, 'system', 'outbox');
  return existsSync(outbox) ? readdirSync(outbox).filter((name) => name.endsWith('.json')) : [];
}

function logText(root: string): string {
  const logs = path.join(root, 'system', 'logs');
  return readdirSync(logs)
    .sort()
    .map((name) => readFileSync(path.join(logs, name), 'utf8'))
    .join('');
}

async function chainText(): Promise<string> {
  const rows = await pg!.query<{ entry: string }>('select entry from audit_entries order by position');
  return rows.map((row) => row.entry).join('');
}

/** Every session's messages: sequence numbers 1..N, each once; no message id twice in the chain. */
async function expectExactlyOnce(): Promise<void> {
  const rows = await pg!.query<{ session_id: string; message_id: string; entry: string }>(
    'select session_id, message_id, entry from audit_entries order by position',
  );
  expect(new Set(rows.map((row) => row.message_id)).size).toBe(rows.length);
  const sequences = new Map<string, number[]>();
  for (const row of rows) {
    const sequence = Number(/^\[SEQUENCE: (\d+)\]$/m.exec(row.entry)?.[1]);
    sequences.set(row.session_id, [...(sequences.get(row.session_id) ?? []), sequence]);
  }
  for (const [session, list] of sequences) expect(list, session).toEqual(list.map((_, index) => index + 1));
}

/** Empties the store between tests (the daemons create the tables at their first start). */
async function resetStore(): Promise<void> {
  const [exists] = await pg!.query<{ table: string | null }>("select to_regclass('sessions')::text as table");
  if (!exists.table) return;
  await pg!.query('truncate sessions, journal, audit_entries, replies cascade');
  await pg!.query("update audit_head set position = 0, hash = repeat('0', 64)");
}

describe.skipIf(!pg)('cluster daemon on Postgres', () => {
  it(
    'runs inbox requests through the store: one result each, files archived, logs a verified projection of the chain; new sessions run on ' +
      'markdown edited meanwhile',
    async () => {
      const root = clusterRoot(5000, 0);
      const daemon = await startDaemon(root);
      expect(daemon.readyLine).toMatch(/cluster mode/);
      for (let index = 0; index < 5; index++)
        dropJson(root, `r${index}.json`, { request: `request ${index}`, request_id: `single-${index}` });
      await waitFor(
        'five results in the outbox',
        () => outboxResults(root).filter((name) => name.startsWith('single-')).length === 5,
        { timeoutMs: 30_000 },
      );
      const sessions = await pg!.query<{ state: string; result_status: string }>(
        "select state, result_status from sessions where request_id like 'single-%'",
      );
      expect(sessions).toHaveLength(5);
      expect(sessions.every((row) => row.state === 'finished' && row.result_status === 'success')).toBe(true);
      expect(readdirSync(path.join(root, 'system', 'inbox')).filter((name) => !name.startsWith('.'))).toEqual([]);
      await waitFor('the projection to catch up', async () => logText(root) === (await chainText()));
      // A duplicate request id is refused by the store, even though this inbox never saw it.
      dropJson(root, 'dup.json', { request: 'again', request_id: 'single-0' });
      await waitFor('the duplicate in failed/', () =>
        readdirSync(path.join(root, 'system', 'failed')).some((name) => name.startsWith('dup.json')),
      );
      // Governance hot reload: a session that starts after an edit runs on the new version.
      const before = /governance ([0-9a-f]{12})\)/.exec(daemon.readyLine)![1];
      appendFileSync(path.join(root, 'context', 'application.md'), '\nAn edit made while the daemon runs.\n');
      await waitFor('the reload', () => daemon.stderr.includes('governance reloaded'));
      dropJson(root, 'after-edit.json', { request: 'after the edit', request_id: 'after-edit' });
      await waitFor('its result', () => outboxResults(root).includes('after-edit.json'));
      const entries = await pg!.query<{ entry: string }>(
        "select entry from audit_entries where entry like '%[REQUEST_ID: after-edit]%'",
      );
      const versions = new Set(entries.map((row) => /^\[GOVERNANCE_VERSION: ([0-9a-f]{12})/m.exec(row.entry)?.[1]));
      expect(versions.size).toBe(1);
      expect(versions.has(before)).toBe(false);
      await daemon.stop();
      const verify = await runCli(['verify', '--root', root]);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      expect(verify.stdout).not.toContain('no audit head record');
      expect(verify.stdout).toContain('govflow verify --store');
      await expectExactlyOnce();
    },
    60_000,
  );

  it('a daemon killed with kill -9 has its sessions taken over within the lease; its outbox gets the results when it is back', async () => {
    await resetStore();
    const leaseMs = 2000;
    const rootA = clusterRoot(leaseMs, 300);
    const rootB = clusterRoot(leaseMs, 300);
    const a = await startDaemon(rootA);
    for (let index = 0; index < 4; index++)
      dropJson(rootA, `t${index}.json`, { request: `takeover ${index}`, request_id: `takeover-${index}` });
    await waitFor(
      'A to commit messages',
      async () => (await pg!.query<{ n: number }>('select count(*)::int as n from audit_entries'))[0].n >= 4,
      { timeoutMs: 20_000 },
    );
    await a.kill9();
    const killedAt = Date.now();
    const b = await startDaemon(rootB);
    await waitFor(
      'every session finished by B',
      async () =>
        (await pg!.query<{ n: number }>("select count(*)::int as n from sessions where state = 'finished'"))[0].n === 4,
      { timeoutMs: 40_000 },
    );
    const takeovers = b.stderr.split('\n').filter((line) => line.includes('took over a session'));
    expect(takeovers.length).toBeGreaterThan(0);
    expect(Date.now() - killedAt).toBeLessThan(leaseMs + 20_000);
    await expectExactlyOnce();
    expect(outboxResults(rootB)).toEqual([]);
    const again = await startDaemon(rootA);
    await waitFor('A writes the results of its requests', () => outboxResults(rootA).length === 4, {
      timeoutMs: 20_000,
    });
    const chain = await chainText();
    await waitFor('both projections to catch up', () => logText(rootA) === chain && logText(rootB) === chain, {
      timeoutMs: 10_000,
    });
    await Promise.all([again.stop(), b.stop()]);
    for (const verify of await Promise.all([rootA, rootB].map((root) => runCli(['verify', '--root', root]))))
      expect(verify.code, verify.stdout).toBe(0);
  }, 120_000);
});

describe.skipIf(!pg)('cluster daemon when its link to Postgres is cut', () => {
  it('keeps running while its connections are reset again and again for two leases; no message is committed twice', async () => {
    await resetStore();
    const leaseMs = 1500;
    const rootA = clusterRoot(leaseMs, 200);
    const rootB = clusterRoot(leaseMs, 200);
    const a = await startDaemon(rootA);
    const b = await startDaemon(rootB);
    const daemonA = readFileSync(path.join(rootA, 'system', 'state', 'cluster-daemon-id'), 'utf8').trim();
    for (let index = 0; index < 6; index++)
      dropJson(rootA, `p${index}.json`, { request: `partition ${index}`, request_id: `partition-${index}` });
    await waitFor(
      'A to commit messages',
      async () => (await pg!.query<{ n: number }>('select count(*)::int as n from audit_entries'))[0].n >= 3,
      { timeoutMs: 20_000 },
    );
    // A partition: every connection of A is cut, again and again, for longer than a lease.
    const cutUntil = Date.now() + leaseMs * 2;
    while (Date.now() < cutUntil) {
      await pg!.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [
        `govflow:${daemonA}`,
      ]);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the pace of the cuts, not a wait for anything
    }
    let rows = '';
    await waitFor(
      'every session finished',
      async () => {
        const sessions = await pg!.query<{
          session_id: string;
          state: string;
          owner: string | null;
          epoch: string;
          lease_expires_at: Date | null;
        }>('select session_id, state, owner, epoch, lease_expires_at from sessions order by session_id');
        rows = sessions
          .map(
            (row) =>
              `${row.session_id} ${row.state} owner=${row.owner} epoch=${row.epoch} lease=${row.lease_expires_at?.toISOString()}`,
          )
          .join('\n');
        return sessions.filter((row) => row.state === 'finished').length === 6;
      },
      {
        timeoutMs: 40_000,
        detail: () =>
          `sessions:\n${rows}\n--- A (${daemonA}) stderr, last lines:\n${a.stderr.split('\n').slice(-40).join('\n')}\n--- B stderr, last ` +
          `lines:\n${b.stderr.split('\n').slice(-40).join('\n')}`,
      },
    );
    await expectExactlyOnce();
    expect(a.hasExited).toBe(false);
    // The cut reached A (its connections were reset under it).
    expect(a.stderr).toMatch(
      /did not take the write|dropped here|cannot renew leases|postgres connection error|cannot claim work|terminat/i,
    );
    // A keeps running: a new request through its inbox gets its result.
    dropJson(rootA, 'after.json', { request: 'after the partition', request_id: 'after-partition' });
    await waitFor("A's outbox to hold every result", () => outboxResults(rootA).length === 7, { timeoutMs: 30_000 });
    const chain = await chainText();
    await waitFor('both projections to catch up', () => logText(rootA) === chain && logText(rootB) === chain, {
      timeoutMs: 10_000,
    });
    await Promise.all([a.stop(), b.stop()]);
    for (const verify of await Promise.all([rootA, rootB].map((root) => runCli(['verify', '--store', '--root', root]))))
      expect(verify.code, verify.stdout).toBe(0);
  }, 120_000);
});

describe.skipIf(!pg)('cluster daemon: a paused session answered on another daemon', () => {
  it('resumes on any daemon, on the governance version it started with; the result reaches the intake daemon', async () => {
    await resetStore();
    const question = 'Which meeting: Monday or Tuesday?';
    const pending = answer({
      content: { question },
      contentType: 'objectives',
      status: 'pending',
      message: question,
      next: null,
    });
    const rootA = clusterRoot(5000, 0);
    writeScript(
      rootA,
      exampleScript({
        responses: {
          objective_agent: [{ json: pending }],
          goal_agent: [],
          planning_agent: [],
          summarizer_agent: [],
          action_item_agent: [],
          final_output_agent: [],
        },
      }),
    );
    const rootB = clusterRoot(5000, 0);
    // B's markdown is newer than the version the session starts with on A.
    appendFileSync(path.join(rootB, 'context', 'application.md'), '\nA newer paragraph only daemon B has.\n');
    const a = await startDaemon(rootA);
    dropJson(rootA, 'q.json', { request: 'Summarise the meeting.', request_id: 'paused-1' });
    await waitFor(
      'the pending result in A',
      () =>
        existsSync(path.join(rootA, 'system', 'outbox', 'paused-1.json')) &&
        JSON.parse(readFileSync(path.join(rootA, 'system', 'outbox', 'paused-1.json'), 'utf8')).status === 'pending',
    );
    const sessionId = JSON.parse(readFileSync(path.join(rootA, 'system', 'outbox', 'paused-1.json'), 'utf8'))
      .session_id as string;
    const status = await runCli(['status', '--root', rootA]);
    expect(status.stdout).toContain('paused (1)');
    expect(status.stdout).toContain(question);
    await a.stop();
    const b = await startDaemon(rootB);
    dropJson(rootB, 'bad-reply.json', { session_id: 'sess-nobody', reply: 'hello?' });
    dropJson(rootB, 'reply.json', { session_id: sessionId, reply: 'Monday.' });
    await waitFor(
      'the session to finish on B',
      async () =>
        (await pg!.query<{ state: string }>('select state from sessions where session_id = $1', [sessionId]))[0]
          ?.state === 'finished',
      { timeoutMs: 30_000 },
    );
    await waitFor('the unknown session reply in failed/', () =>
      readdirSync(path.join(rootB, 'system', 'failed')).some((name) => name.startsWith('bad-reply.json')),
    );
    const entries = await pg!.query<{ entry: string }>(
      'select entry from audit_entries where session_id = $1 order by position',
      [sessionId],
    );
    const versions = new Set(entries.map((row) => /^\[GOVERNANCE_VERSION: (.*)\]$/m.exec(row.entry)?.[1]));
    expect(entries.length).toBe(7);
    expect(versions.size).toBe(1);
    const [pinned] = await pg!.query<{ governance_hash: string }>(
      'select governance_hash from sessions where session_id = $1',
      [sessionId],
    );
    expect(versions.has(pinned.governance_hash)).toBe(true);
    expect(b.readyLine).not.toContain(pinned.governance_hash.slice(0, 12));
    await b.stop();
    const again = await startDaemon(rootA);
    await waitFor(
      'the final result in A',
      () =>
        JSON.parse(readFileSync(path.join(rootA, 'system', 'outbox', 'paused-1.json'), 'utf8')).status === 'success',
    );
    await again.stop();
  }, 90_000);
});

describe.skipIf(!pg)('cluster daemon: HTTP API from the store', () => {
  it("any daemon's API serves any request: submit to A, stream and read the result from B while A runs it", async () => {
    await resetStore();
    const withHttp = (root: string) =>
      appendFileSync(path.join(root, 'govflow.config.yaml'), 'http:\n  listen: 127.0.0.1:0\n');
    const rootA = clusterRoot(5000, 500);
    const rootB = clusterRoot(5000, 500);
    withHttp(rootA);
    withHttp(rootB);
    const a = await startDaemon(rootA);
    const urlOf = (line: string) => /HTTP API on (http:\/\/\S+?)[,\s]/.exec(line)![1];
    const apiA = urlOf(a.readyLine);
    const submitted = await fetch(`${apiA}/v1/requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: 'over http', request_id: 'http-1' }),
    });
    expect(submitted.status).toBe(202);
    const { session_id: sessionId } = (await submitted.json()) as { session_id: string };
    // Read where the session runs, its model text streams (only the calls begun once this reads).
    const streamA = fetch(`${apiA}/v1/requests/http-1/events`).then((response) => response.text());
    const daemonA = readFileSync(path.join(rootA, 'system', 'state', 'cluster-daemon-id'), 'utf8').trim();
    await waitFor(
      'A to lease the session',
      async () =>
        (await pg!.query<{ owner: string | null }>('select owner from sessions where session_id = $1', [sessionId]))[0]
          ?.owner === daemonA,
    );
    // B never sees this session run: everything it serves comes from the store.
    const b = await startDaemon(rootB);
    const apiB = urlOf(b.readyLine);
    const duplicate = await fetch(`${apiB}/v1/requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: 'again', request_id: 'http-1' }),
    });
    expect(duplicate.status).toBe(409);
    const stream = await fetch(`${apiB}/v1/requests/http-1/events`);
    expect(stream.status).toBe(200);
    const text = await stream.text(); // the stream closes after session_finished
    const sequences = [...text.matchAll(/^id: (\d+)\nevent: message$/gm)].map((match) => Number(match[1]));
    expect(sequences).toEqual([1, 2, 3, 4, 5, 6]);
    expect(text).toMatch(/event: session_finished\ndata: \{"session_id":"[^"]+","status":"success"\}/);
    expect(text).not.toMatch(/event: content_chunk/); // model text streams only where the session runs
    const textA = await streamA;
    expect(textA).toMatch(/event: session_finished/);
    expect(textA).toMatch(/event: content_chunk\ndata: \{"agent":"[a-z_]+","chunk":/);
    const result = await fetch(`${apiB}/v1/requests/http-1`);
    expect(result.status).toBe(200);
    expect(await result.json()).toMatchObject({
      request_id: 'http-1',
      session_id: sessionId,
      status: 'success',
      messages: 6,
    });
    const session = await fetch(`${apiB}/v1/sessions/${sessionId}/events`);
    expect((await session.text()).match(/event: message/g)).toHaveLength(6);
    // The web view on B lists the session and shows its page, both from the store.
    const list = await fetch(`${apiB}/ui/sessions`);
    expect(await list.text()).toContain(sessionId);
    const page = await fetch(`${apiB}/ui/sessions/${sessionId}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('final_output_agent');
    await waitFor("A's outbox", () => outboxResults(rootA).includes('http-1.json'));
    expect(outboxResults(rootB)).toEqual([]);
    const owners = await pg!.query<{ owner: string | null; epoch: string }>(
      'select owner, epoch from sessions where session_id = $1',
      [sessionId],
    );
    expect(owners[0].epoch).toBe('1'); // A ran it start to end
    await a.stop();
    await b.stop();
  }, 90_000);
});
