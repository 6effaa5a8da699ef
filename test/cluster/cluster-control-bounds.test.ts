/**
 * Issue 50's attacks on run control, in cluster mode (SPEC §18, §20, §15), against two real
 * daemons sharing one store: 40 simultaneous HTTP cancels of one running session, split between
 * the daemons, with control files dropped at both, all answer 202 and end with one cancel applied
 * and one operator entry, every control file archived and none in system/failed/ (a cancel after
 * the end too); with `max_queued: 3`, six simultaneous re-runs sent to both daemons get three
 * 202s and three 503s (counted in the store), and re-run control files past it are refused into
 * system/failed/ with the reason.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EXAMPLE_ANSWERS,
  dropJson,
  listDir,
  readAuditEntries,
  waitFor,
  writeScript,
} from '../daemon/daemon-helpers.js';
import { postJson } from '../http/http-test-helpers.js';
import { Cluster, clusterForTests, nodeScript, type ClusterNode } from '../support/cluster.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_control_bounds');

describe.skipIf(!pg)('cluster mode: concurrent cancels and max_queued for forks (SPEC §18, §20)', () => {
  let cluster: Cluster;

  clusterForTests(pg, { nodes: 2, concurrency: 1, http: true, maxQueued: 3, leaseMs: 3000 }, async (created) => {
    cluster = created;
    // Every session waits at goal_agent for ten minutes: it runs until cancelled.
    for (const node of cluster.nodes)
      writeScript(
        node.root,
        nodeScript(node.name, {
          responses: { goal_agent: [{ json: EXAMPLE_ANSWERS.goal_agent, delay_ms: 600_000 }] },
        }),
      );
  });

  const failedNames = (node: ClusterNode) =>
    listDir(path.join(node.root, 'system', 'failed')).filter((name) => name.endsWith('.error.json'));
  const processing = (node: ClusterNode) => listDir(path.join(node.root, 'system', 'processing'));

  async function sessionRow(sessionId: string): Promise<{ state: string; result_status: string | null } | undefined> {
    return (await pg!.query('select state, result_status from sessions where session_id = $1', [sessionId]))[0] as
      { state: string; result_status: string | null } | undefined;
  }

  async function queuedCount(): Promise<number> {
    return Number((await pg!.query("select count(*) as n from sessions where state = 'queued'"))[0].n);
  }

  /** Posts a request at `node` and waits until a daemon runs it at goal_agent. */
  async function running(node: ClusterNode, requestId: string): Promise<string> {
    const posted = await postJson(`${node.httpUrl}/v1/requests`, { request: 'Work long.', request_id: requestId });
    expect(posted.status).toBe(202);
    const sessionId = posted.body.session_id as string;
    await waitFor(
      `${requestId} running`,
      async () =>
        (
          await pg!.query("select 1 from journal where session_id = $1 and record::jsonb->>'type' = 'message'", [
            sessionId,
          ])
        ).length > 0,
      { timeoutMs: 30_000, intervalMs: 100, detail: () => cluster.describe() },
    );
    return sessionId;
  }

  let cancelled: string;

  it('applies one of 40 cancels over HTTP and control files on two daemons; every other is archived as applied', async () => {
    const [node0, node1] = cluster.nodes;
    await Promise.all([node0.start(), node1.start()]);
    cancelled = await running(node0, 'bounds-blocker');
    const files = ['cancel-0.json', 'cancel-1.json', 'cancel-2.json'];
    const [answers] = await Promise.all([
      Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          postJson(`${cluster.nodes[index % 2].httpUrl}/v1/sessions/${cancelled}/cancel`, {
            reason: `cancel ${index}`,
          }),
        ),
      ),
      Promise.resolve().then(() => {
        for (const node of cluster.nodes)
          for (const name of files)
            dropJson(node.root, name, { control: 'cancel', session_id: cancelled, reason: name });
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(202));
    await waitFor('the blocker cancelled', async () => (await sessionRow(cancelled))?.result_status === 'cancelled', {
      timeoutMs: 30_000,
      detail: () => cluster.describe(),
    });
    // One more at each daemon, after the end: 202 as well, archived as applied.
    for (const node of cluster.nodes)
      expect((await postJson(`${node.httpUrl}/v1/sessions/${cancelled}/cancel`, { reason: 'late' })).status).toBe(202);
    dropJson(node1.root, 'cancel-late.json', { control: 'cancel', session_id: cancelled, reason: 'late file' });
    await waitFor(
      'every cancel settled',
      () => cluster.nodes.every((node) => node.inbox().length === 0 && processing(node).length === 0),
      {
        timeoutMs: 30_000,
        detail: () => cluster.nodes.map((node) => `${node.name}: ${[...node.inbox(), ...processing(node)]}`).join('; '),
      },
    );
    for (const node of cluster.nodes) expect(failedNames(node)).toEqual([]);
    const archived = (node: ClusterNode) =>
      listDir(path.join(node.root, 'system', 'archive')).flatMap((day) =>
        listDir(path.join(node.root, 'system', 'archive', day)),
      );
    for (const node of cluster.nodes) expect(archived(node)).toEqual(expect.arrayContaining(files));
    expect(archived(node1)).toContain('cancel-late.json');
    // One cancel applied: one control record, one operator entry.
    const controls = await pg!.query(
      "select 1 from journal where session_id = $1 and record::jsonb->>'type' = 'control'",
      [cancelled],
    );
    expect(controls).toHaveLength(1);
    const entries = await waitFor(
      'the operator entry projected',
      async () => {
        const found = await readAuditEntries(node0.root, ['--session', cancelled, '--status', 'cancelled']);
        return found.length > 0 ? found : null;
      },
      { timeoutMs: 20_000 },
    );
    expect(entries).toHaveLength(1);
  }, 180_000);

  it('queues no more than max_queued retries, re-runs and forks across both daemons, counted in the store', async () => {
    const [node0, node1] = cluster.nodes;
    // Both daemons busy (one session each): whatever is queued now waits.
    await running(node0, 'bounds-busy-0');
    await running(node1, 'bounds-busy-1');
    expect(await queuedCount()).toBe(0);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        fetch(`${cluster.nodes[index % 2].httpUrl}/v1/sessions/${cancelled}/${index < 2 ? 'retry' : 'rerun'}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ reason: `again ${index}` }),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 202, 202, 503, 503, 503]);
    for (const answer of answers.filter((one) => one.status === 503)) {
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('queue_full');
    }
    expect(await queuedCount()).toBe(3);

    // Control files past the bound: taken and refused into system/failed/ with the reason, at either daemon.
    for (const node of cluster.nodes)
      dropJson(node.root, 'rerun-late.json', { control: 'rerun', session_id: cancelled });
    dropJson(node0.root, 'retry-late.json', { control: 'retry', session_id: cancelled });
    const refusals = [
      [node0, 'rerun-late.json'],
      [node1, 'rerun-late.json'],
      [node0, 'retry-late.json'],
    ] as const;
    for (const [node, name] of refusals) {
      const error = path.join(node.root, 'system', 'failed', `${name}.error.json`);
      await waitFor(`${node.name}'s ${name} refused`, () => existsSync(error), { timeoutMs: 20_000 });
      expect(JSON.parse(readFileSync(error, 'utf8')).reason).toMatch(
        /http\.max_queued \(3\) accepted requests are waiting to start, and a (rerun|retry) counts as a request/,
      );
    }
    expect(await queuedCount()).toBe(3);
  }, 180_000);
});
