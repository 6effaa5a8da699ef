/**
 * A daemon that loses its lease while a model call runs (SPEC §15): its link to Postgres cut
 * (connections reset), its link stalled (a black hole: no reset, no answer), or the process
 * itself frozen (SIGSTOP, as in a long GC pause or a suspended VM) for longer than lease_ms.
 * Another daemon takes the session over; when the first comes back its finished model call must
 * not be committed (fencing), and it reconnects and keeps running. A request dropped into its
 * inbox while it is cut off is neither lost nor failed.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_ANSWERS, listDir, waitFor, writeScript } from '../daemon/daemon-helpers.js';
import { Cluster, type ClusterNode, clusterForTests, finalAnswerOf, nodeScript } from '../support/cluster.js';
import { assertClusterConsistent } from '../support/cluster-invariants.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_partition');
const LEASE_MS = 2000;
/**
 * The goal agent's model call on the cut-off daemon: longer than the takeover of its session
 * (a lease and a poll after the outage begins, with room for a loaded machine), so the call is
 * still running, or its answer not yet committed, when the other daemon takes over.
 */
const GOAL_CALL_MS = 5000;
/** In every daemon's store URL; the server trusts local connections, so it is only there to leak. */
const PASSWORD = 'n0t-To-Be-Printed';

describe.skipIf(!pg)('cluster mode: a daemon cut off from Postgres', () => {
  let cluster: Cluster;
  let victim: ClusterNode;
  let other: ClusterNode;
  const takenBy = new Map<string, ClusterNode>();

  clusterForTests(pg, { nodes: 2, latencyMs: 100, leaseMs: LEASE_MS, password: PASSWORD }, async (created) => {
    cluster = created;
    [victim, other] = cluster.nodes;
    // Only the victim's goal agent is slow: the daemon that takes its session over answers at once.
    writeScript(
      victim.root,
      nodeScript(victim.name, {
        latencyMs: 100,
        responses: { goal_agent: [{ json: EXAMPLE_ANSWERS.goal_agent, delay_ms: GOAL_CALL_MS }] },
      }),
    );
    await cluster.startAll();
  });

  /** True once a daemon other than the first claimant holds or held `requestId`'s session (its epoch moved past 1). */
  async function takenOver(requestId: string): Promise<boolean> {
    const rows = await pg!.query<{ epoch: string }>('select epoch from sessions where request_id = $1', [requestId]);
    return Number(rows[0]?.epoch ?? 0) > 1;
  }

  /**
   * Runs `requestId` on `victim` while `other` is frozen (SIGSTOP: it can claim nothing) until
   * the first message is logged — the goal agent's long call is then running on `victim` — then
   * wakes `other` and disrupts `victim` until `other` has taken the session over (the victim's
   * lease ran out). `victim` is restored then, before its call ends (it reconnects and must find
   * its lease gone), or with `afterCall` once that call's time is up (the frozen daemon wakes with
   * its answer in hand and tries to commit at once). The session must end on `other`, and every
   * invariant hold; with `thenRuns`, `victim` must also run a new request as usual.
   */
  async function outage(
    requestId: string,
    disrupt: () => void,
    restore: () => void,
    options: { afterCall?: boolean; thenRuns?: boolean } = {},
  ): Promise<void> {
    for (const node of cluster.nodes) if (!node.running) await node.start();
    other.daemon!.signal('SIGSTOP');
    victim.drop(requestId);
    takenBy.set(requestId, victim);
    try {
      await waitFor(
        `the first message of ${requestId} on ${victim.name}`,
        () => victim.logText().includes(`[REQUEST_ID: ${requestId}]`),
        {
          timeoutMs: 20_000,
          intervalMs: 20,
          detail: () => cluster.describe([requestId]),
        },
      );
    } finally {
      other.daemon!.signal('SIGCONT');
    }
    const goalCallStartedBy = Date.now();
    disrupt();
    try {
      await waitFor(`${other.name} to take ${requestId} over`, () => takenOver(requestId), {
        timeoutMs: 30_000,
        intervalMs: 50,
        detail: () => cluster.describe([requestId]),
      });
      if (options.afterCall) {
        // Not a wait for anything: the freeze itself must outlast the model call.
        await sleep(Math.max(0, GOAL_CALL_MS + 500 - (Date.now() - goalCallStartedBy)));
      } else {
        expect(
          Date.now() - goalCallStartedBy,
          'the takeover came after the model call ended; the fencing case was not reached',
        ).toBeLessThan(GOAL_CALL_MS);
      }
    } finally {
      restore();
    }

    await cluster.waitForResults([requestId], 60_000);
    expect(victim.running, `${victim.name} exited:\n${victim.stderrTail()}`).toBe(true);
    const [{ result }] = cluster.resultsByRequest().get(requestId)!;
    expect(result.output, `${requestId} did not end on the daemon that took it over`).toEqual({
      answer: finalAnswerOf(other.name),
    });
    if (options.thenRuns) {
      victim.drop(`${requestId}-after`);
      takenBy.set(`${requestId}-after`, victim);
      await cluster.waitForResults([`${requestId}-after`], 30_000);
    }
    await assertClusterConsistent(cluster, takenBy);
  }

  it('link cut (connections reset): loses the session, cannot commit it, keeps running', async () => {
    await outage(
      'cut',
      () => victim.link.cut(),
      () => victim.link.heal(),
      { thenRuns: true },
    );
  }, 150_000);

  it('link stalled (no reset, no answer): loses the session, cannot commit it, keeps running', async () => {
    await outage(
      'stall',
      () => victim.link.stall(),
      () => victim.link.heal(),
    );
  }, 150_000);

  it('process frozen (SIGSTOP) past its lease: its overdue commit is fenced when it wakes', async () => {
    await outage(
      'frozen',
      () => victim.daemon!.signal('SIGSTOP'),
      () => victim.daemon!.signal('SIGCONT'),
      { afterCall: true },
    );
  }, 150_000);

  it('keeps a request dropped while the link is cut, and runs it once the link is back', async () => {
    for (const node of cluster.nodes) if (!node.running) await node.start();
    victim.link.cut();
    victim.drop('during-cut');
    takenBy.set('during-cut', victim);
    try {
      const daemon = victim.daemon!;
      await waitFor(
        `${victim.name} to find the store unreachable for during-cut.json`,
        () =>
          daemon.stderr
            .split('\n')
            .some((line) => line.includes('cannot commit a request to the store') && line.includes('during-cut.json')),
        {
          timeoutMs: 20_000,
          detail: () => victim.stderrTail(),
        },
      );
      expect(victim.running, `${victim.name} exited:\n${victim.stderrTail()}`).toBe(true);
      expect(
        listDir(path.join(victim.root, 'system', 'failed')),
        'a request failed because the store was unreachable',
      ).toEqual([]);
    } finally {
      victim.link.heal();
    }
    await cluster.waitForResults(['during-cut'], 30_000);
    await assertClusterConsistent(cluster, takenBy);
  }, 90_000);

  it('never printed the store password, through every cut, stall and freeze above', () => {
    for (const node of cluster.nodes) {
      const output = node.output();
      expect(output.length, `${node.name} printed nothing at all`).toBeGreaterThan(0);
      expect(output.includes(PASSWORD), `${node.name} printed the password of store.url`).toBe(false);
    }
  });
});
