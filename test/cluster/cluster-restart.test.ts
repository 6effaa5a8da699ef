/**
 * A daemon killed with kill -9 and started again on the same root (SPEC §15): the sessions it held
 * are its own previous run's, which is dead (it holds the root's lock now), so it resumes them at
 * once instead of waiting for cluster.lease_ms — with no message run or logged twice.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../daemon/daemon-helpers.js';
import { Cluster, clusterForTests } from '../support/cluster.js';
import { assertClusterConsistent } from '../support/cluster-invariants.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_restart');
const LEASE_MS = 60_000;
const LATENCY_MS = 300;

describe.skipIf(!pg)('cluster mode: a daemon restarted after kill -9', () => {
  let cluster: Cluster;

  clusterForTests(pg, { nodes: 1, concurrency: 2, latencyMs: LATENCY_MS, leaseMs: LEASE_MS }, (created) => {
    cluster = created;
  });

  it('resumes the sessions it held at once, not after cluster.lease_ms', async () => {
    const [node] = cluster.nodes;
    await node.start();
    const ids = ['held-a', 'held-b'];
    for (const id of ids) node.drop(id);
    await waitFor(
      'both sessions to log their first message',
      () => ids.every((id) => node.logText().includes(`[REQUEST_ID: ${id}]`)),
      {
        timeoutMs: 20_000,
        intervalMs: 20,
        detail: () => cluster.describe(ids),
      },
    );
    await node.kill9();
    const restartedAt = Date.now();
    const daemon = await node.start();
    await cluster.waitForResults(ids, 30_000);
    const tookMs = Date.now() - restartedAt;
    expect(tookMs, `both results ${tookMs} ms after the restart; the lease is ${LEASE_MS} ms`).toBeLessThan(
      LEASE_MS / 2,
    );
    expect(daemon.stderr).toMatch(/2 session\(s\) this daemon ran when it last stopped resume now/);
    await assertClusterConsistent(cluster, new Map(ids.map((id) => [id, node] as const)));
  }, 120_000);
});
