/**
 * A daemon killed with kill -9 mid-session (SPEC §15): another daemon resumes its sessions within
 * cluster.lease_ms, on the governance version they started with although its own markdown is
 * newer, with no message run or logged twice; the dead daemon, once restarted, writes the results
 * of the requests it took to its own outbox.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor, type AuditEntryJson } from '../daemon/daemon-helpers.js';
import { Cluster, type ClusterNode, clusterForTests } from '../support/cluster.js';
import { assertClusterConsistent } from '../support/cluster-invariants.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_takeover');
const LEASE_MS = 2000;
const LATENCY_MS = 400;

function governanceOf(node: ClusterNode): string {
  const match = /governance ([0-9a-f]{12})/.exec(node.daemon?.readyLine ?? '');
  if (!match)
    throw new Error(`${node.name}: no governance hash in the ready line ${JSON.stringify(node.daemon?.readyLine)}`);
  return match[1];
}

function bySession(entries: AuditEntryJson[], sessionId: string): AuditEntryJson[] {
  return entries.filter((entry) => entry.sessionId === sessionId);
}

describe.skipIf(!pg)('cluster mode: a daemon killed mid-session', () => {
  let cluster: Cluster;

  clusterForTests(pg, { nodes: 3, concurrency: 2, latencyMs: LATENCY_MS, leaseMs: LEASE_MS }, async (created) => {
    cluster = created;
    // node2's governance is newer than the others': one more line of application context.
    appendFileSync(path.join(cluster.nodes[2].root, 'context', 'application.md'), '\nA newer line only node2 has.\n');
  });

  it('has its sessions resumed by another daemon within lease_ms, on their own governance version', async () => {
    const [node0, node1, node2] = cluster.nodes;
    await node0.start();
    await node2.start();
    const older = governanceOf(node0);
    const newer = governanceOf(node2);
    expect(newer, 'node2 has other markdown, so another governance version').not.toBe(older);
    // node2 frozen (SIGSTOP) while node0 starts both sessions: it can claim nothing until it wakes.
    node2.daemon!.signal('SIGSTOP');
    const ids = ['killed-a', 'killed-b'];
    for (const id of ids) node0.drop(id);
    try {
      await waitFor(
        'both sessions to log their first message on node0',
        () => ids.every((id) => node0.logText().includes(`[REQUEST_ID: ${id}]`)),
        {
          timeoutMs: 20_000,
          intervalMs: 20,
          detail: () => cluster.describe(ids),
        },
      );
    } finally {
      await node0.kill9();
      node2.daemon!.signal('SIGCONT');
    }
    const killedAt = Date.now();
    const entriesAtKill = await node0.auditEntries();
    const sessionOf = new Map(entriesAtKill.map((entry) => [entry.requestId, entry.sessionId]));
    const sessionIds = ids.map((id) => sessionOf.get(id)!);
    const finishedAtKill = entriesAtKill
      .filter((entry) => entry.agent === 'final_output_agent')
      .map((entry) => entry.requestId);
    expect(finishedAtKill, 'sessions node0 had finished before it was killed: nothing left to take over').toEqual([]);

    // Resumed within the lease: the sessions finish on node2 within lease_ms plus their remaining
    // model calls (at most 5 on the critical path) plus slack for a loaded machine.
    const finished = await waitFor(
      `node2 to resume and finish both sessions within lease_ms (${LEASE_MS} ms) + 5 model calls`,
      async () => {
        const entries = await node2.auditEntries();
        return sessionIds.every((id) => bySession(entries, id).some((entry) => entry.agent === 'final_output_agent'))
          ? entries
          : null;
      },
      { timeoutMs: LEASE_MS + 5 * LATENCY_MS + 6000, intervalMs: 100, detail: () => cluster.describe(ids) },
    );
    const resumedAfterMs = Date.now() - killedAt;
    for (const id of sessionIds) {
      const versions = new Set(bySession(finished, id).map((entry) => entry.governanceVersion.slice(0, 12)));
      expect(
        [...versions],
        `governance versions of ${id} (finished ${resumedAfterMs} ms after the kill by a daemon with newer markdown)`,
      ).toEqual([older]);
    }

    // A session node2 starts itself runs on node2's governance.
    node2.drop('on-newer');
    await cluster.waitForResults(['on-newer'], 30_000);
    const newerEntries = bySession(await node2.auditEntries(), node2.results().get('on-newer')!.session_id);
    expect(new Set(newerEntries.map((entry) => entry.governanceVersion.slice(0, 12)))).toEqual(new Set([newer]));

    // The killed daemon, restarted, writes the results of the requests it took.
    await node0.start();
    await cluster.waitForResults(ids, 30_000);
    await node1.start();
    await assertClusterConsistent(cluster, new Map([...ids.map((id) => [id, node0] as const), ['on-newer', node2]]));
  }, 150_000);
});
