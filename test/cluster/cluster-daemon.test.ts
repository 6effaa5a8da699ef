/**
 * Cluster mode end to end (SPEC §15): real `govflow start` child processes on separate roots
 * sharing one Postgres schema. One daemon runs requests from its inbox; two daemons survive a
 * kill -9 of the one running the sessions, which the other takes over within the lease.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, dropJson, exampleScript, makeRoot, runCli, scriptedConfig, startDaemon, waitFor, writeScript } from '../daemon/daemon-helpers.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('daemon');
afterAll(() => pg?.drop());
afterEach(() => cleanupAll());
beforeAll(() => buildDistOnce(), 180_000);

function clusterRoot(leaseMs: number, latencyMs: number): string {
  const root = makeRoot(scriptedConfig(`store:\n  kind: postgres\n  url: ${pg!.url}\n  schema: ${pg!.schema}\ncluster:\n  lease_ms: ${leaseMs}\nintake:\n  concurrency: 4\n`), 'govflow-cluster-');
  writeScript(root, exampleScript({ latencyMs, loop: true }));
  return root;
}

function outboxResults(root: string): string[] {
  const outbox = path.join(root, 'system', 'outbox');
  return existsSync(outbox) ? readdirSync(outbox).filter((name) => name.endsWith('.json')) : [];
}

function logText(root: string): string {
  const logs = path.join(root, 'system', 'logs');
  return readdirSync(logs).sort().map((name) => readFileSync(path.join(logs, name), 'utf8')).join('');
}

async function chainText(): Promise<string> {
  const rows = await pg!.query<{ entry: string }>('select entry from audit_entries order by position');
  return rows.map((row) => row.entry).join('');
}

/** Every session's messages: sequence numbers 1..N, each once; no message id twice in the chain. */
async function expectExactlyOnce(): Promise<void> {
  const rows = await pg!.query<{ session_id: string; message_id: string; entry: string }>('select session_id, message_id, entry from audit_entries order by position');
  expect(new Set(rows.map((row) => row.message_id)).size).toBe(rows.length);
  const sequences = new Map<string, number[]>();
  for (const row of rows) {
    const sequence = Number(/^\[SEQUENCE: (\d+)\]$/m.exec(row.entry)?.[1]);
    sequences.set(row.session_id, [...(sequences.get(row.session_id) ?? []), sequence]);
  }
  for (const [session, list] of sequences) expect(list, session).toEqual(list.map((_, index) => index + 1));
}

describe.skipIf(!pg)('cluster daemon on Postgres', () => {
  it('runs inbox requests through the store: one result each, files archived, logs a verified projection of the chain', async () => {
    const root = clusterRoot(5000, 0);
    const daemon = await startDaemon(root);
    expect(daemon.readyLine).toMatch(/cluster mode/);
    for (let index = 0; index < 5; index++) dropJson(root, `r${index}.json`, { request: `request ${index}`, request_id: `single-${index}` });
    await waitFor('five results in the outbox', () => outboxResults(root).filter((name) => name.startsWith('single-')).length === 5, { timeoutMs: 30_000 });
    const sessions = await pg!.query<{ state: string; result_status: string }>("select state, result_status from sessions where request_id like 'single-%'");
    expect(sessions).toHaveLength(5);
    expect(sessions.every((row) => row.state === 'finished' && row.result_status === 'success')).toBe(true);
    expect(readdirSync(path.join(root, 'system', 'inbox')).filter((name) => !name.startsWith('.'))).toEqual([]);
    await waitFor('the projection to catch up', async () => logText(root) === (await chainText()));
    // A duplicate request id is refused by the store, even though this inbox never saw it.
    dropJson(root, 'dup.json', { request: 'again', request_id: 'single-0' });
    await waitFor('the duplicate in failed/', () => readdirSync(path.join(root, 'system', 'failed')).some((name) => name.startsWith('dup.json')));
    await daemon.stop();
    const verify = await runCli(['verify', '--root', root]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    await expectExactlyOnce();
  }, 60_000);

  it('a daemon killed with kill -9 has its sessions taken over within the lease; its outbox gets the results when it is back', async () => {
    await pg!.query('truncate sessions, journal, audit_entries, replies cascade');
    await pg!.query("update audit_head set position = 0, hash = repeat('0', 64)");
    const leaseMs = 2000;
    const rootA = clusterRoot(leaseMs, 300);
    const rootB = clusterRoot(leaseMs, 300);
    const a = await startDaemon(rootA);
    for (let index = 0; index < 4; index++) dropJson(rootA, `t${index}.json`, { request: `takeover ${index}`, request_id: `takeover-${index}` });
    await waitFor('A to commit messages', async () => (await pg!.query<{ n: number }>('select count(*)::int as n from audit_entries'))[0].n >= 4, { timeoutMs: 20_000 });
    await a.kill9();
    const killedAt = Date.now();
    const b = await startDaemon(rootB);
    await waitFor('every session finished by B', async () => (await pg!.query<{ n: number }>("select count(*)::int as n from sessions where state = 'finished'"))[0].n === 4, { timeoutMs: 40_000 });
    const takeovers = b.stderr.split('\n').filter((line) => line.includes('took over a session'));
    expect(takeovers.length).toBeGreaterThan(0);
    expect(Date.now() - killedAt).toBeLessThan(leaseMs + 20_000);
    await expectExactlyOnce();
    expect(outboxResults(rootB)).toEqual([]);
    const again = await startDaemon(rootA);
    await waitFor('A writes the results of its requests', () => outboxResults(rootA).length === 4, { timeoutMs: 20_000 });
    const chain = await chainText();
    await waitFor('both projections to catch up', () => logText(rootA) === chain && logText(rootB) === chain, { timeoutMs: 10_000 });
    await again.stop();
    await b.stop();
    for (const root of [rootA, rootB]) expect((await runCli(['verify', '--root', root])).code).toBe(0);
  }, 120_000);
});
