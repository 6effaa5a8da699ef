/**
 * Three daemons on one Postgres schema (SPEC §15), each a real `govflow start` with its own root:
 * any daemon runs any session, results land in the outbox of the daemon that took the request,
 * intake is not bound by concurrency, status and HTTP read from the database on every daemon, and
 * every daemon projects the same audit chain byte for byte.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listDir, waitFor } from '../daemon/daemon-helpers.js';
import { Cluster, finalAnswerOf, type ClusterNode, clusterForTests } from '../support/cluster.js';
import { assertClusterConsistent } from '../support/cluster-invariants.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_daemons');

function post(node: ClusterNode, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${node.httpUrl}/v1/requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe.skipIf(!pg)('cluster mode: three daemons, one store', () => {
  let cluster: Cluster;
  const takenBy = new Map<string, ClusterNode>();

  // Concurrency 1 and a slow model: one daemon alone could not keep up, the queue must spread, and
  // node0's six sessions run for seconds (two rounds of six 600 ms calls), long enough for a
  // `govflow status` CLI started on a loaded machine to see them (with 250 ms, all six once
  // finished before it read the store).
  clusterForTests(pg, { nodes: 3, concurrency: 1, latencyMs: 600, http: true }, async (created) => {
    cluster = created;
    await cluster.startAll();
  });

  it("runs requests dropped into one inbox on every daemon, with the results in that inbox's outbox", async () => {
    const [first] = cluster.nodes;
    const ids = Array.from({ length: 6 }, (_, index) => `one-inbox-${index}`);
    for (const id of ids) {
      first.drop(id);
      takenBy.set(id, first);
    }
    // Intake is bounded by the store, not by concurrency 1: every file is committed and archived
    // while sessions still run.
    const archived = () =>
      listDir(path.join(first.root, 'system', 'archive')).flatMap((day) =>
        listDir(path.join(first.root, 'system', 'archive', day)),
      );
    await waitFor('all six request files archived', () => archived().length === ids.length, {
      timeoutMs: 10_000,
      detail: () => `archived: ${archived().join(', ')}\n${cluster.describe(ids)}`,
    });
    expect(first.results().size, 'sessions still running when the last file was archived').toBeLessThan(ids.length);
    expect(first.inbox()).toEqual([]);
    expect(archived().sort()).toEqual(ids.map((id) => `${id}.json`).sort());
    // A daemon that took none of them shows them running in `govflow status` (asked again while
    // some still run: on a loaded machine one CLI start can take as long as a session).
    let status = await cluster.nodes[2].cli(['status']);
    while (!/running \([1-9]\d*\)/.test(status.stdout) && first.results().size < ids.length)
      status = await cluster.nodes[2].cli(['status']);
    expect(
      Number(/running \((\d+)\)/.exec(status.stdout)?.[1] ?? 0),
      `govflow status on node2 while node0's requests run:\n${status.stdout}`,
    ).toBeGreaterThan(0);
    expect(status.stdout).toMatch(/request=one-inbox-\d/);

    await cluster.waitForResults(ids, 60_000);
    const finishers = new Set(
      [...first.results().values()].map((result) => (result.output as { answer?: string }).answer),
    );
    expect(
      finishers.size,
      `final steps ran on ${[...finishers].join(', ')}: the other daemons took none of node0's queue`,
    ).toBeGreaterThan(1);
    for (const answer of finishers) expect(cluster.nodes.map((node) => finalAnswerOf(node.name))).toContain(answer);
  }, 90_000);

  it("runs a request from each daemon's inbox and keeps every invariant", async () => {
    const ids = cluster.nodes.map((node) => `from-${node.name}`);
    cluster.nodes.forEach((node, index) => {
      node.drop(ids[index]);
      takenBy.set(ids[index], node);
    });
    await cluster.waitForResults(ids, 60_000);
    await assertClusterConsistent(cluster, takenBy);
  }, 120_000);

  it('shows every session in `govflow status` and over HTTP on every daemon', async () => {
    const results = cluster.resultsByRequest();
    const sessions = [...takenBy.keys()].map((id) => results.get(id)![0].result);
    const statuses = await Promise.all(cluster.nodes.map((node) => node.cli(['status'])));
    for (const [index, node] of cluster.nodes.entries()) {
      const status = statuses[index];
      expect(status.code, status.stderr).toBe(0);
      const missing = sessions
        .filter((result) => !status.stdout.includes(result.session_id))
        .map((result) => result.session_id);
      expect(missing, `sessions missing from govflow status on ${node.name}:\n${status.stdout}`).toEqual([]);
      for (const result of sessions) {
        const response = await fetch(`${node.httpUrl}/v1/requests/${result.request_id}`);
        expect(response.status, `GET /v1/requests/${result.request_id} on ${node.name}`).toBe(200);
        const body = (await response.json()) as { status: string; session_id: string; output: unknown };
        expect(body).toMatchObject({ status: 'success', session_id: result.session_id, output: result.output });
      }
    }
    // The event stream of a session that ran elsewhere, from every daemon: every message, then the end.
    const finished = sessions[0];
    for (const node of cluster.nodes) {
      const response = await fetch(`${node.httpUrl}/v1/requests/${finished.request_id}/events`, {
        signal: AbortSignal.timeout(15_000),
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      const events = [...text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
      expect(
        events.filter((name) => name === 'message'),
        `message events from ${node.name}:\n${text}`,
      ).toHaveLength(finished.messages);
      expect(events.at(-1), `last event from ${node.name}`).toBe('session_finished');
    }
  }, 60_000);

  it('lists every session in the web view on every daemon (§14, §15: read from the database)', async () => {
    const results = cluster.resultsByRequest();
    const sessionIds = [...takenBy.keys()].map((id) => results.get(id)![0].result.session_id);
    for (const node of cluster.nodes) {
      const page = await fetch(`${node.httpUrl}/ui/sessions`);
      expect(page.status, `GET /ui/sessions on ${node.name}`).toBe(200);
      const html = await page.text();
      const missing = sessionIds.filter((id) => !html.includes(`>${id}<`));
      expect(missing, `sessions missing from the web view's list on ${node.name}`).toEqual([]);
    }
  }, 60_000);

  it("accepts a request over HTTP on one daemon and writes its result to that daemon's outbox", async () => {
    const node = cluster.nodes[2];
    const response = await post(node, { request: 'Summarise the HTTP request.', request_id: 'over-http' });
    expect(response.status).toBe(202);
    takenBy.set('over-http', node);
    await cluster.waitForResults(['over-http'], 60_000);
    const duplicate = await post(cluster.nodes[0], {
      request: 'The same id on another daemon.',
      request_id: 'over-http',
    });
    expect(duplicate.status, 'a request_id accepted by one daemon is a duplicate on every other').toBe(409);
    await assertClusterConsistent(cluster, takenBy);
  }, 120_000);

  it('rejects a request_id already accepted by another daemon (§2: never run twice)', async () => {
    const [, second] = cluster.nodes;
    second.drop('one-inbox-0', 'the same request_id again, through another daemon');
    await waitFor(
      'the duplicate to move to system/failed',
      () => listDir(path.join(second.root, 'system', 'failed')).some((name) => name.startsWith('one-inbox-0')),
      {
        timeoutMs: 15_000,
        detail: () => cluster.describe(),
      },
    );
    expect(second.results().has('one-inbox-0')).toBe(false);
    await assertClusterConsistent(cluster, takenBy);
  }, 60_000);

  it('accepts one request_id posted to all three daemons at once exactly once: one 202, two 409 (§2, §11)', async () => {
    const responses = await Promise.all(
      cluster.nodes.map((node) => post(node, { request: `Posted to ${node.name}.`, request_id: 'posted-thrice' })),
    );
    const statuses = responses.map((response) => response.status);
    const accepted = cluster.nodes.filter((_, index) => statuses[index] === 202);
    // Whatever the answer, the request must run once, with its result where the 202 came from.
    if (accepted.length === 1) takenBy.set('posted-thrice', accepted[0]);
    await cluster.waitForResults(['posted-thrice'], 60_000);
    const holders = (cluster.resultsByRequest().get('posted-thrice') ?? []).map((holder) => holder.node.name);
    expect(
      { statuses: [...statuses].sort(), holders },
      `202 from ${accepted.map((node) => node.name).join(', ')}; results in ${holders.join(', ')}`,
    ).toEqual({
      statuses: [202, 409, 409],
      holders: accepted.slice(0, 1).map((node) => node.name),
    });
    await assertClusterConsistent(cluster, takenBy);
  }, 120_000);

  // Last: it leaves one daemon's log file edited.
  it("names a daemon's edited log file in `govflow verify --store`, while the database chain stays intact", async () => {
    const [first, second] = cluster.nodes;
    const logs = path.join(second.root, 'system', 'logs');
    const [day] = listDir(logs).filter((name) => name.endsWith('.log'));
    const file = path.join(logs, day);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('[STATUS: success]', '[STATUS: failed]'));
    const [edited, intact] = await Promise.all([second.cli(['verify', '--store']), first.cli(['verify', '--store'])]);
    expect(edited.code, `verify --store on the edited root: ${edited.stdout}${edited.stderr}`).toBe(1);
    expect(`${edited.stdout}${edited.stderr}`).toContain(day);
    expect(intact.code, `verify --store on an untouched root: ${intact.stdout}${intact.stderr}`).toBe(0);
  }, 60_000);
});
