/**
 * Daily budgets per user across a cluster (SPEC §15, §20): two daemons on one Postgres schema add
 * every priced model call to `user_spend` atomically, so what alice spent through one daemon stops
 * her session on the other at the limit, and both then fail her new requests with BUDGET_EXCEEDED
 * without a model call, while bob goes on.
 */
import { describe, expect, it } from 'vitest';
import { EXAMPLE_ANSWERS, dropJson, waitFor, writeScript } from '../daemon/daemon-helpers.js';
import { Cluster, clusterForTests, type ClusterNode } from '../support/cluster.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_budgets');

/** Every call costs $1: one input token at $1,000,000 per million; a whole session is 6 calls. */
const PRICED = [
  'pricing: { gpt-4.1-mini: { input_per_mtok: 1000000, output_per_mtok: 0 } }',
  'limits: { user_daily_usd: { default: 1000, alice: 9 } }',
].join('\n');

function pricedScript(): string {
  const responses: Record<string, unknown[]> = {};
  for (const [agent, message] of Object.entries(EXAMPLE_ANSWERS))
    responses[agent] = [{ json: message, usage: { input_tokens: 1, output_tokens: 0 } }];
  return JSON.stringify({ loop: true, responses });
}

describe.skipIf(!pg)('cluster mode: daily budgets per user', () => {
  let cluster: Cluster;

  clusterForTests(pg, { nodes: 2, extraConfig: PRICED }, (created) => {
    cluster = created;
    for (const node of cluster.nodes) writeScript(node.root, pricedScript());
  });

  function submit(node: ClusterNode, requestId: string, user: string): void {
    dropJson(node.root, `${requestId}.json`, { request: `Summarise ${requestId}.`, request_id: requestId, user });
  }

  async function resultOf(requestId: string): Promise<any> {
    return waitFor(
      `the result of ${requestId}`,
      () => cluster.nodes.map((node) => node.results().get(requestId)).find((result) => result?.status !== undefined),
      { timeoutMs: 60_000, detail: () => cluster.describe([requestId]) },
    );
  }

  async function spent(user: string): Promise<number> {
    const rows = await pg!.query<{ usd: number }>('select usd from user_spend where user_name = $1', [user]);
    return rows.reduce((sum, row) => sum + row.usd, 0);
  }

  it("counts one user's spend across daemons: the second daemon stops her at the limit, and both refuse her after", async () => {
    const [first, second] = cluster.nodes;
    await first.start();
    submit(first, 'alice-1', 'alice');
    expect(await resultOf('alice-1')).toMatchObject({ status: 'success', messages: 6 });
    expect(await spent('alice')).toBe(6);
    await first.stop();

    // Only node1 runs now: it sees the $6 node0 recorded and stops alice after $9 (3 calls, then the failure message).
    await second.start();
    submit(second, 'alice-2', 'alice');
    const stopped = await resultOf('alice-2');
    expect(stopped).toMatchObject({ status: 'failed', messages: 4, error: { error_code: 'BUDGET_EXCEEDED' } });
    expect(stopped.message).toContain('limits.user_daily_usd.alice = $9');
    expect(await spent('alice')).toBe(9);

    await first.start();
    submit(first, 'alice-3', 'alice');
    submit(second, 'alice-4', 'alice');
    submit(first, 'bob-1', 'bob');
    for (const requestId of ['alice-3', 'alice-4'])
      expect(await resultOf(requestId)).toMatchObject({
        status: 'failed',
        messages: 1,
        error: { error_code: 'BUDGET_EXCEEDED' },
      });
    expect(await resultOf('bob-1')).toMatchObject({ status: 'success', messages: 6 });
    // No model call for alice's refused sessions: her spend did not move.
    expect(await spent('alice')).toBe(9);
    expect(await spent('bob')).toBe(6);
  }, 180_000);
});
