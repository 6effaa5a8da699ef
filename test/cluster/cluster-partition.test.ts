/**
 * A network partition (SPEC §15): one daemon's link to Postgres is cut (every connection severed,
 * new ones refused) while its model call runs. Another daemon takes the session over after
 * lease_ms; when the link comes back, the partitioned daemon's finished model call cannot be
 * committed (fencing), and the daemon reconnects and keeps running: a request dropped into its
 * inbox during the partition waits there and runs once the link is back.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { EXAMPLE_ANSWERS, cleanupAll, waitFor } from '../daemon/daemon-helpers.js';
import { Cluster } from '../support/cluster.js';
import { assertClusterConsistent } from '../support/cluster-invariants.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_partition');
const LEASE_MS = 2000;
/** The goal agent's model call: longer than the partition, so the cut daemon finishes it after the takeover. */
const GOAL_CALL_MS = 8000;

describe.skipIf(!pg)('cluster mode: a daemon cut off from Postgres', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    await buildDistOnce();
    cluster = await Cluster.create(pg!, {
      nodes: 2,
      latencyMs: 100,
      leaseMs: LEASE_MS,
      responses: { goal_agent: [{ json: EXAMPLE_ANSWERS.goal_agent, delay_ms: GOAL_CALL_MS }] },
    });
  }, 180_000);

  afterAll(async () => {
    await cluster?.destroy();
    await cleanupAll();
    await pg?.drop();
  });

  it('loses the session to another daemon, cannot commit it, and keeps running', async () => {
    const [cut, other] = cluster.nodes;
    await cut.start();
    cut.drop('partitioned');
    await waitFor('the first message on the daemon to be cut', async () => (await cut.auditEntries()).some((entry) => entry.requestId === 'partitioned'), {
      timeoutMs: 20_000,
      intervalMs: 100,
      detail: () => cluster.describe(['partitioned']),
    });
    // The goal agent's call is now running on `cut`.
    const goalCallStartedBy = Date.now();
    await other.start();
    cut.link.cut();
    const cutAt = Date.now();

    // A request dropped while cut off stays in the inbox: not lost, not failed.
    cut.drop('during-partition');
    await sleep(2 * LEASE_MS);
    expect(cut.running, `the cut daemon exited:\n${cut.stderrTail()}`).toBe(true);
    expect(cut.inbox(), 'a request the daemon could not commit to the store').toContain('during-partition.json');

    // Back before its model call ends: it must find its lease gone and drop that step.
    cut.link.heal();
    expect(Date.now() - goalCallStartedBy, `the partition (${Date.now() - cutAt} ms) outlasted the model call; the fencing case was not reached`).toBeLessThan(GOAL_CALL_MS);

    await cluster.waitForResults(['partitioned', 'during-partition'], 60_000);
    expect(cut.running, `the cut daemon exited:\n${cut.stderrTail()}`).toBe(true);

    // It keeps running: a new request on it runs as usual.
    cut.drop('after-partition');
    await cluster.waitForResults(['after-partition'], 30_000);
    await assertClusterConsistent(
      cluster,
      new Map([
        ['partitioned', cut],
        ['during-partition', cut],
        ['after-partition', cut],
      ]),
    );
  }, 150_000);
});
