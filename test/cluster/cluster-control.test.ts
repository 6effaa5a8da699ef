/**
 * Run control in cluster mode (docs/run-control.md, docs/cluster.md): a control is a work item of
 * the store's queue, whichever daemon's inbox it is dropped into. A cancel dropped at node1 stops
 * the model call of the session node0 runs within 1 s of its claim; a queued session with a cancel
 * waiting ends cancelled with no model call when a daemon claims it; a retry and a fork of an
 * ended session are queued, run by any daemon, and carry their lineage.
 */
import { describe, expect, it } from 'vitest';
import { EXAMPLE_ANSWERS, dropJson, waitFor, writeScript } from '../daemon/daemon-helpers.js';
import { Cluster, clusterForTests, nodeScript } from '../support/cluster.js';
import { pgTestSchema } from '../support/postgres.js';
import { dropFolder } from '../daemon/attachments-support.js';

const pg = await pgTestSchema('cluster_control');

interface Row {
  record: string;
}

describe.skipIf(!pg)('cluster mode: cancel, retry and fork through the store', () => {
  let cluster: Cluster;

  clusterForTests(pg, { nodes: 2, concurrency: 1, leaseMs: 3000 }, async (created) => {
    cluster = created;
    // node0's goal agent answers after ten minutes: whatever it runs waits there until cancelled.
    writeScript(
      cluster.nodes[0].root,
      nodeScript('node0', { responses: { goal_agent: [{ json: EXAMPLE_ANSWERS.goal_agent, delay_ms: 600_000 }] } }),
    );
  });

  /** The journal records of a session, from the store. */
  async function journal(sessionId: string): Promise<Array<Record<string, any>>> {
    const rows = await pg!.query<Row & Record<string, unknown>>(
      'select record from journal where session_id = $1 order by seq',
      [sessionId],
    );
    return rows.map((row) => JSON.parse(row.record) as Record<string, any>);
  }

  async function sessionRow(sessionId: string): Promise<Record<string, any> | undefined> {
    return (
      await pg!.query('select state, result_status, result_json from sessions where session_id = $1', [sessionId])
    )[0];
  }

  async function ended(sessionId: string, status: string): Promise<Record<string, any>> {
    return waitFor(
      `${sessionId} ${status}`,
      async () => {
        const row = await sessionRow(sessionId);
        return row?.state === 'finished' && row.result_status === status ? JSON.parse(row.result_json) : null;
      },
      { timeoutMs: 30_000, intervalMs: 100, detail: () => cluster.describe() },
    );
  }

  it('stops the model call of a session another daemon runs within 1 s of the claim; a queued one ends with no call', async () => {
    const [node0, node1] = cluster.nodes;
    await node0.start();
    dropJson(node0.root, 'long.json', {
      request: 'Summarize the long note.',
      request_id: 'long',
      session_id: 'sess-long',
    });
    await waitFor(
      'sess-long at goal_agent on node0',
      async () => (await journal('sess-long')).some((record) => record.type === 'message'),
      {
        timeoutMs: 30_000,
        intervalMs: 100,
        detail: () => cluster.describe(),
      },
    );
    // node0 runs one session at a time: this one waits in the queue behind it.
    dropJson(node0.root, 'next.json', {
      request: 'Summarize the next note.',
      request_id: 'next',
      session_id: 'sess-next',
    });
    await waitFor('sess-next queued', async () => (await sessionRow('sess-next'))?.state === 'queued');
    // Dropped into node1's inbox while it is down: at its start they reach the store before it claims any work,
    // in the order of their names. The queued session's cancel goes first: were the running one's first, node0's
    // freed slot could start sess-next before its cancel reached the store (a cancel then ends it after a step).
    dropJson(node1.root, 'a-stop-next.json', { control: 'cancel', session_id: 'sess-next', reason: 'not needed' });
    dropJson(node1.root, 'b-stop-long.json', { control: 'cancel', session_id: 'sess-long', reason: 'hangs' });
    await node1.start();

    const long = await ended('sess-long', 'cancelled');
    expect(long.control).toMatchObject({ action: 'cancel', reason: 'hangs' });
    const control = (await journal('sess-long')).find((record) => record.type === 'control')!;
    const latency = Date.parse(control.at) - Date.parse(control.claimed_at);
    console.log(`cluster cancel: claim at node1 → node0 stopped the call and recorded the cancel in ${latency} ms`);
    expect(latency).toBeLessThan(1_000);
    const owner = (await pg!.query('select owner from sessions where session_id = $1', ['sess-long']))[0];
    expect(owner).toBeDefined();

    const next = await ended('sess-next', 'cancelled');
    expect(next).toMatchObject({ messages: 0, control: { reason: 'not needed' } });
    expect((await journal('sess-next')).filter((record) => record.type === 'exchange')).toEqual([]);
    // The control files were archived where they were dropped; nothing waits.
    expect(node1.inbox()).toEqual([]);
  }, 120_000);

  it('retries and forks an ended session through the store, the new sessions carrying their lineage', async () => {
    const [node0, node1] = cluster.nodes;
    // node0's script waits at goal forever: only node1 may run these.
    await node0.stop();
    // A request with a file: the fork brings it, from the store, to whichever daemon runs it.
    dropFolder(node1.root, 'done', {
      'request.json': JSON.stringify({
        request: 'Summarize a short note.',
        request_id: 'short',
        session_id: 'sess-short',
      }),
      'notes/a.txt': 'hello',
    });
    const original = await ended('sess-short', 'success');
    expect(original.messages).toBe(6);
    dropJson(node1.root, 'retry-long.json', { control: 'retry', session_id: 'sess-long', reason: 'again' });
    dropJson(node1.root, 'fork-short.json', {
      control: 'fork',
      session_id: 'sess-short',
      from: 4,
      request_id: 'short-forked',
    });
    const retried = await waitFor(
      'the retry queued',
      async () =>
        (
          await pg!.query<{ session_id: string }>("select session_id from sessions where request_id = 'long-retry-1'")
        )[0],
    );
    const retryResult = await ended(retried.session_id, 'success');
    expect(retryResult.lineage).toMatchObject({
      action: 'retry',
      of_session: 'sess-long',
      of_request: 'long',
      from: 2,
      reason: 'again',
    });
    // The two controls are claimed one after the other: the fork may be queued after the retry ended.
    const forked = await waitFor(
      'the fork queued',
      async () =>
        (
          await pg!.query<{ session_id: string }>("select session_id from sessions where request_id = 'short-forked'")
        )[0],
    );
    const forkResult = await ended(forked.session_id, 'success');
    expect(forkResult.lineage).toMatchObject({ action: 'fork', of_session: 'sess-short', from: 4 });
    expect(original.attachments).toEqual([expect.objectContaining({ path: 'notes/a.txt', bytes: 5 })]);
    expect(forkResult.attachments).toEqual(original.attachments);
    // Messages 1–3 reused: no model call for them; the fork asked only from message 4 on.
    const records = await journal(forked.session_id);
    expect(
      records
        .filter((record) => record.type === 'message' && record.reused)
        .map((record) => record.message.metadata.sequence_number),
    ).toEqual([1, 2, 3]);
    const asked = records.filter((record) => record.type === 'exchange').map((record) => record.agent);
    expect(asked).not.toContain('objective_agent');
    expect(asked).not.toContain('goal_agent');
    expect(asked).not.toContain('planning_agent');
    const chain = await node1.cli(['verify', '--store']);
    expect(chain.code, chain.stdout + chain.stderr).toBe(0);
  }, 120_000);
});
