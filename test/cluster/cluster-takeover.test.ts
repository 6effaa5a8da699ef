/**
 * A daemon killed with kill -9 mid-session (SPEC §15): another daemon resumes its sessions within
 * cluster.lease_ms, on the governance version they started with although its own markdown is
 * newer, with no message run or logged twice; the dead daemon, once restarted, writes the results
 * of the requests it took to its own outbox.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, waitFor, type AuditEntryJson } from '../daemon/daemon-helpers.js';
import { Cluster, type ClusterNode } from '../support/cluster.js';
import { assertClusterConsistent } from '../support/cluster-invariants.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_takeover');
const LEASE_MS = 2000;
const LATENCY_MS = 400;

function governanceOf(node: ClusterNode): string {
  const match = /governance ([0-9a-f]{12})/.exec(node.daemon?.readyLine ?? '');
  if (!match) throw new Error(`${node.name}: no governance hash in the ready line ${JSON.stringify(node.daemon?.readyLine)}`);
  return match[1];
}

function bySession(entries: AuditEntryJson[], sessionId: string): AuditEntryJson[] {
  return entries.filter((entry) => entry.sessionId === sessionId);
}

describe.skipIf(!pg)('cluster mode: a daemon killed mid-session', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    await buildDistOnce();
    cluster = await Cluster.create(pg!, { nodes: 3, concurrency: 2, latencyMs: LATENCY_MS, leaseMs: LEASE_MS });
    // node2's governance is newer than the others': one more line of application context.
    appendFileSync(path.join(cluster.nodes[2].root, 'context', 'application.md'), '\nA newer line only node2 has.\n');
  }, 180_000);

  afterAll(async () => {
    await cluster?.destroy();
    await cleanupAll();
    await pg?.drop();
  });

  it('has its sessions resumed by another daemon within lease_ms, on their own governance version', async () => {
    const [node0, node1, node2] = cluster.nodes;
    await node0.start();
    const older = governanceOf(node0);
    const ids = ['killed-a', 'killed-b'];
    for (const id of ids) node0.drop(id);

    const started = await waitFor(
      'both sessions to log their first message on node0',
      async () => {
        const entries = await node0.auditEntries();
        const sessions = new Map(entries.map((entry) => [entry.requestId, entry.sessionId]));
        return ids.every((id) => sessions.has(id)) ? { entries, sessions } : null;
      },
      { timeoutMs: 20_000, intervalMs: 100, detail: () => cluster.describe(ids) },
    );
    await node2.start();
    const newer = governanceOf(node2);
    expect(newer, 'node2 has other markdown, so another governance version').not.toBe(older);

    const entriesAtKill = await node0.auditEntries();
    await node0.kill9();
    const killedAt = Date.now();
    const sessionIds = ids.map((id) => started.sessions.get(id)!);
    const lastSequence = new Map(sessionIds.map((id) => [id, Math.max(...bySession(entriesAtKill, id).map((entry) => entry.sequence))]));

    // Resumed: each session's next message is logged (its model call takes LATENCY_MS once resumed).
    await waitFor(
      `node2 to resume both sessions within lease_ms (${LEASE_MS} ms) plus a model call`,
      async () => {
        const entries = await node2.auditEntries();
        return sessionIds.every((id) => bySession(entries, id).some((entry) => entry.sequence > lastSequence.get(id)!));
      },
      { timeoutMs: LEASE_MS + LATENCY_MS + 4000, intervalMs: 100, detail: () => cluster.describe(ids) },
    );
    const resumedAfterMs = Date.now() - killedAt;

    const finished = await waitFor(
      'both sessions to finish on node2',
      async () => {
        const entries = await node2.auditEntries();
        return sessionIds.every((id) => bySession(entries, id).some((entry) => entry.agent === 'final_output_agent')) ? entries : null;
      },
      { timeoutMs: 30_000, intervalMs: 200, detail: () => cluster.describe(ids) },
    );
    for (const id of sessionIds) {
      const versions = new Set(bySession(finished, id).map((entry) => entry.governanceVersion.slice(0, 12)));
      expect([...versions], `governance versions of ${id} (resumed after ${resumedAfterMs} ms by a daemon with newer markdown)`).toEqual([older]);
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
