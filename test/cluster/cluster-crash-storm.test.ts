/**
 * The crash storm (SPEC §15, issue #17): three daemons, 300 requests dropped into their inboxes,
 * and every few hundred ms a random daemon killed with kill -9 and started again, for the whole
 * run. Afterwards: every request has exactly one result (in the outbox of the daemon that took
 * it), every session's sequence is 1..N once, `govflow verify --store` passes and the three
 * daemons' log files are identical.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Cluster, type ClusterNode, clusterForTests } from '../support/cluster.js';
import { assertClusterConsistent } from '../support/cluster-invariants.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_storm');
const REQUESTS = Number(process.env.GOVFLOW_STORM_REQUESTS ?? 300);
/** How long the storm may rage at most before the daemons are left alone to finish. */
const STORM_MS = 35_000;

/** A pseudo-random sequence from a printed seed, so a failing storm can be replayed. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

describe.skipIf(!pg)('cluster mode: the crash storm', () => {
  let cluster: Cluster;

  clusterForTests(pg, { nodes: 3, concurrency: 4, latencyMs: 5, leaseMs: 1000 }, async (created) => {
    cluster = created;
    await cluster.startAll();
  });

  it(`runs ${REQUESTS} requests exactly once while daemons are killed and restarted`, async () => {
    const seed = Number(process.env.GOVFLOW_STORM_SEED ?? Date.now() % 1_000_000);
    console.log(`crash storm: seed ${seed} (GOVFLOW_STORM_SEED replays it), ${REQUESTS} requests`);
    const random = randomFrom(seed);
    const takenBy = new Map<string, ClusterNode>();
    const ids = Array.from({ length: REQUESTS }, (_, index) => `storm-${String(index).padStart(3, '0')}`);

    const stormStarted = Date.now();
    let kills = 0;
    const restarts = new Set<Promise<unknown>>();
    const restarting = new Set<ClusterNode>();
    const restartFailures: string[] = [];
    const allDone = () => {
      const results = cluster.resultsByRequest();
      return ids.every((id) => results.has(id));
    };

    let dropped = 0;
    while (Date.now() - stormStarted < STORM_MS) {
      // Requests arrive over the first seconds, into any inbox (a dead daemon's waits for its restart).
      for (let batch = 0; batch < 25 && dropped < ids.length; batch += 1, dropped += 1) {
        const node = cluster.nodes[Math.floor(random() * cluster.nodes.length)];
        node.drop(ids[dropped]);
        takenBy.set(ids[dropped], node);
      }
      if (dropped === ids.length && restarting.size === 0 && allDone()) break;
      const victim = cluster.nodes[Math.floor(random() * cluster.nodes.length)];
      if (victim.running && !restarting.has(victim)) {
        await victim.kill9();
        kills += 1;
        restarting.add(victim);
        // Back after a short pause; meanwhile the storm goes on with the others.
        const restart = sleep(100 + random() * 400)
          .then(() => victim.start())
          .catch((error: unknown) => restartFailures.push(`${victim.name}: ${String(error)}`))
          .finally(() => restarting.delete(victim));
        restarts.add(restart);
        void restart.finally(() => restarts.delete(restart));
      }
      await sleep(200 + random() * 300); // the storm's pace, not a wait for anything
    }
    await Promise.all(restarts);
    const stormMs = Date.now() - stormStarted;
    const resultsAtCalm = cluster.resultsByRequest().size;
    expect(restartFailures, 'daemons that failed to restart').toEqual([]);
    for (const node of cluster.nodes) if (!node.running) await node.start();

    await cluster.waitForResults(ids, 90_000);
    const check = await assertClusterConsistent(cluster, takenBy);
    console.log(
      `crash storm: ${kills} kill -9 in ${stormMs} ms (${resultsAtCalm} of ${REQUESTS} results in the outboxes when it ended); ` +
        `${check.entries.length} audit entries over ${check.sequences.size} sessions; all invariants hold`,
    );
    expect(kills, 'the storm killed daemons').toBeGreaterThan(5);
  }, 300_000);
});
