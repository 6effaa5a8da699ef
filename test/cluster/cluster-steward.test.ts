/**
 * A steward in cluster mode (SPEC §25 with §15, docs/run-control.md): a session that pauses in
 * `intervention_required` or halts `halted_cost` on one daemon waits in the store; the steward's
 * decision, dropped at the other daemon (CLI or control file), goes through the store like §18's
 * controls (from the CLI and over HTTP), and that daemon applies it and runs what follows to the end. A request's own `limits`
 * ride with it in the store (one above its cap is refused into system/failed/), and
 * `govflow verify --store` holds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dropJson, waitFor, writeScript } from '../daemon/daemon-helpers.js';
import { Cluster, clusterForTests, finalAnswerOf, nodeScript } from '../support/cluster.js';
import { pgTestSchema } from '../support/postgres.js';
import { postJson } from '../http/http-test-helpers.js';

const pg = await pgTestSchema('cluster_steward');
const ADVICE = 'Answer with one JSON message.';

/** Drops `<requestId>.json` into `root`'s inbox: the note to summarize, with the request's own `limits`. */
function dropRequest(root: string, requestId: string, limits: Record<string, number>): void {
  dropJson(root, `${requestId}.json`, { request: 'Summarize the note.', request_id: requestId, limits });
}

/** The reason system/failed/ gives for the file named `name…`, once it is there. */
function failedReason(root: string, name: string): string | undefined {
  const failed = path.join(root, 'system', 'failed');
  return readdirSync(failed)
    .filter((file) => file.startsWith(name) && file.endsWith('.error.json'))
    .map((file) => readFileSync(path.join(failed, file), 'utf8'))[0];
}

describe.skipIf(!pg)('cluster mode: a steward decides through the store', () => {
  let cluster: Cluster;

  clusterForTests(
    pg,
    {
      nodes: 2,
      concurrency: 1,
      leaseMs: 3000,
      http: true,
      extraConfig: 'limits: { on_failure: intervene, on_budget: halt, max_cost_usd_per_session: 1 }',
    },
    async (created) => {
      cluster = created;
      // node0's goal agent answers text that is no message at all: VALIDATION_ERROR once its repairs ran out.
      writeScript(cluster.nodes[0].root, nodeScript('node0', { responses: { goal_agent: [{ text: 'no message' }] } }));
    },
  );

  async function journal(sessionId: string): Promise<Array<Record<string, any>>> {
    const rows = await pg!.query<{ record: string }>('select record from journal where session_id = $1 order by seq', [
      sessionId,
    ]);
    return rows.map((row) => JSON.parse(row.record) as Record<string, any>);
  }

  async function sessionRow(requestId: string): Promise<Record<string, any> | undefined> {
    return (
      await pg!.query(
        'select session_id, state, result_status, result_json, owner from sessions where request_id = $1',
        [requestId],
      )
    )[0];
  }

  async function reaches(requestId: string, state: string, status: string): Promise<Record<string, any>> {
    let last: Record<string, any> | undefined;
    return waitFor(
      `${requestId} ${state} ${status}`,
      async () => {
        last = await sessionRow(requestId);
        return last?.state === state && last.result_status === status ? last : null;
      },
      { timeoutMs: 60_000, intervalMs: 100, detail: () => `${JSON.stringify(last)}\n${cluster.describe()}` },
    );
  }

  it('a session waiting for its steward on node0 is retried with advice through node1, which runs it to the end', async () => {
    const [node0, node1] = cluster.nodes;
    await node0.start();
    dropRequest(node0.root, 'stuck', { max_steps: 20 });
    const waiting = await reaches('stuck', 'paused', 'intervention_required');
    const sessionId = waiting.session_id as string;
    const pending = JSON.parse(waiting.result_json);
    expect(pending).toMatchObject({
      status: 'intervention_required',
      intervention: { agent: 'goal_agent', error_code: 'VALIDATION_ERROR' },
    });
    await node0.stop();
    await node1.start();

    // The listing and a wrong decision read the store.
    const listed = await node1.cli(['sessions', '--status', 'intervention_required']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(sessionId);
    const status = await node1.cli(['status', '--json']);
    expect(JSON.parse(status.stdout).sessions_by_status).toMatchObject({ intervention_required: 1, paused: 0 });
    // A reply does not apply to it: refused at intake, never handed to a daemon.
    dropJson(node1.root, 'a-reply.json', { session_id: sessionId, reply: 'Try again.' });
    const refusedReply = await waitFor('the reply refused', () => failedReason(node1.root, 'a-reply'));
    expect(refusedReply).toContain("waits for a steward's decision (intervention_required)");
    const wrong = await node1.cli(['intervene', sessionId, '--continue', '--cost-usd', '2']);
    expect(wrong.code, wrong.stdout + wrong.stderr).toBe(1);
    expect(wrong.stderr).toContain('not a halt');

    const decided = await node1.cli(['intervene', sessionId, '--retry', '--advice', ADVICE]);
    expect(decided.code, decided.stdout + decided.stderr).toBe(0);
    const done = await reaches('stuck', 'finished', 'success');
    expect(JSON.parse(done.result_json).output).toEqual({ answer: finalAnswerOf('node1') });

    const records = await journal(sessionId);
    expect(records[0]).toMatchObject({ type: 'session', request: { limits: { max_steps: 20 } } });
    const decision = records.find((record) => record.type === 'control' && record.action === 'intervene');
    expect(decision).toMatchObject({ decision: 'retry', advice: ADVICE, advice_sha256: expect.any(String) });
    // The failed message stays; goal_agent's retry is the next message, run by node1 with the advice on its entry.
    const goal = records.filter((record) => record.type === 'message' && record.message.agent.name === 'goal_agent');
    expect(goal.map((record) => record.message.status.code)).toEqual(['failed', 'success']);
    await waitFor('the retried entry projected at node1', () =>
      node1.logText().includes(`[STEWARD_ADVICE: ${decision!.advice_sha256}]`),
    );
    expect(node1.logText()).toContain('[LIMITS]: {"max_steps":20}');
    const replies = await pg!.query('select 1 from replies where session_id = $1 and not applied', [sessionId]);
    expect(replies).toEqual([]);
    const chain = await node1.cli(['verify', '--store']);
    expect(chain.code, chain.stdout + chain.stderr).toBe(0);
  }, 240_000);

  it('a request halted at its own budget on node1 continues with a raised limit through node0; one above its cap is refused', async () => {
    const [node0, node1] = cluster.nodes;
    // The request's own budget is below the first call's worst case: it halts before any model call.
    dropRequest(node1.root, 'tight', { cost_usd: 0.000001 });
    dropRequest(node1.root, 'greedy', { cost_usd: 5 });
    const halted = await reaches('tight', 'paused', 'halted_cost');
    const sessionId = halted.session_id as string;
    expect(await journal(sessionId)).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'control', action: 'halt', reason: 'cost' })]),
    );
    const reason = await waitFor('greedy refused', () => failedReason(node1.root, 'greedy'));
    expect(reason).toContain('max_cost_usd_per_session');
    expect(await sessionRow('greedy')).toBeUndefined();

    await node1.stop();
    writeScript(node0.root, nodeScript('node0'));
    await node0.start();
    // Over HTTP at node0: a decision that does not fit a halt is refused (409); continue is taken (202).
    const url = `${node0.httpUrl}/v1/sessions/${sessionId}/intervene`;
    const wrong = await postJson(url, { decision: 'retry' });
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(409);
    expect(JSON.stringify(wrong.body)).toContain('nothing failed');
    const taken = await postJson(url, { decision: 'continue', limits: { cost_usd: 0.5 }, reason: 'worth it' });
    expect(taken.status, JSON.stringify(taken.body)).toBe(202);
    expect(taken.body).toMatchObject({ session_id: sessionId });
    const done = await reaches('tight', 'finished', 'success');
    expect(JSON.parse(done.result_json).output).toEqual({ answer: finalAnswerOf('node0') });
    const records = await journal(sessionId);
    expect(records.filter((record) => record.type === 'control').map((record) => record.action)).toEqual([
      'halt',
      'intervene',
    ]);
    expect(records.find((record) => record.action === 'intervene')).toMatchObject({
      decision: 'continue',
      limits: { cost_usd: 0.5 },
      reason: 'worth it',
    });
    // No message ran twice: one of each agent of the example chain.
    const agents = records.filter((record) => record.type === 'message').map((record) => record.message.agent.name);
    expect(new Set(agents).size).toBe(agents.length);
    expect(node0.inbox()).toEqual([]);
    const chain = await node0.cli(['verify', '--store']);
    expect(chain.code, chain.stdout + chain.stderr).toBe(0);
  }, 240_000);
});
