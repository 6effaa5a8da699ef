/**
 * A paused session in cluster mode (SPEC §5, §15): the pending result lands in the outbox of the
 * daemon that took the request; a reply dropped into ANOTHER daemon's inbox (the first one
 * stopped) resumes it there, and the final result replaces the pending one in the first daemon's
 * outbox once it is back — one result per request, one audit chain.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_ANSWERS, answer, dropJson, waitFor, writeScript } from '../daemon/daemon-helpers.js';
import { Cluster, finalAnswerOf, clusterForTests, nodeScript } from '../support/cluster.js';
import { assertClusterConsistent } from '../support/cluster-invariants.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_pending');
const QUESTION = 'Which meeting do you mean?';

describe.skipIf(!pg)('cluster mode: a paused session answered through another daemon', () => {
  let cluster: Cluster;

  clusterForTests(pg, { nodes: 2 }, async (created) => {
    cluster = created;
    // node0's objective agent asks a question; node1's answers (so whoever resumes, it goes on).
    const pending = answer({
      content: { question: QUESTION },
      contentType: 'objectives',
      status: 'pending',
      message: QUESTION,
      next: null,
    });
    writeScript(cluster.nodes[0].root, nodeScript('node0', { responses: { objective_agent: [{ json: pending }] } }));
    writeScript(
      cluster.nodes[1].root,
      nodeScript('node1', { responses: { objective_agent: [{ json: EXAMPLE_ANSWERS.objective_agent }] } }),
    );
  });

  /** Drops `name` on node0 (running alone), waits for its pending result, then stops node0 and starts node1. */
  async function pendingOnNode0ThenNode1(name: string) {
    const [first, second] = cluster.nodes;
    first.drop(name);
    const pending = await waitFor("the pending result in node0's outbox", () => first.results().get(name), {
      timeoutMs: 20_000,
      detail: () => cluster.describe([name]),
    });
    expect(pending.status).toBe('pending');
    await first.stop();
    await second.start();
    return pending;
  }

  it('resumes on the daemon that got the reply and delivers the result to the one that took the request', async () => {
    const [first, second] = cluster.nodes;
    await first.start();
    const pending = await pendingOnNode0ThenNode1('asks-back');
    dropJson(second.root, 'reply.json', { session_id: pending.session_id, reply: 'The weekly sync.' });
    await waitFor(
      'the session to finish on node1',
      async () =>
        (await second.auditEntries()).some(
          (entry) => entry.sessionId === pending.session_id && entry.agent === 'final_output_agent',
        ),
      {
        timeoutMs: 30_000,
        intervalMs: 200,
        detail: () => cluster.describe(['asks-back']),
      },
    );
    expect(second.results().has('asks-back'), 'the result went to the outbox of the daemon that got the reply').toBe(
      false,
    );

    await first.start();
    const final = await waitFor(
      "the final result in node0's outbox",
      () => (first.results().get('asks-back')?.status === 'success' ? first.results().get('asks-back') : null),
      {
        timeoutMs: 30_000,
        detail: () => cluster.describe(['asks-back']),
      },
    );
    expect(final.session_id).toBe(pending.session_id);
    expect(final.output).toEqual({ answer: finalAnswerOf('node1') });
    const entries = (await second.auditEntries()).filter((entry) => entry.sessionId === pending.session_id);
    expect(
      entries.find((entry) => entry.inputSource === 'user' && entry.sequence > 1),
      'the reply resumes at the same agent with input.source user',
    ).toMatchObject({ agent: 'objective_agent' });
    await assertClusterConsistent(cluster, new Map([['asks-back', first]]));
  }, 120_000);

  it("govflow run with a reply on another daemon's root resumes the session and prints its result, read from the store", async () => {
    const [first, second] = cluster.nodes;
    // Only node0 runs while the request comes in, so node0's script asks back.
    await second.stop();
    // node0 stops: node1 resumes the session, and the run reads a result no outbox has yet.
    const pending = await pendingOnNode0ThenNode1('asks-again');
    const replyFile = path.join(second.root, 'reply-again.json');
    writeFileSync(replyFile, JSON.stringify({ session_id: pending.session_id, reply: 'The weekly sync.' }));
    const run = await second.cli(['run', replyFile, '--json'], 60_000);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { status: string; session_id: string; output: unknown };
    expect(result).toMatchObject({
      status: 'success',
      session_id: pending.session_id,
      output: { answer: finalAnswerOf('node1') },
    });
    // The result is filed where the request came in: node0's outbox (once it is back), not node1's.
    await first.start();
    await waitFor("the final result in node0's outbox", () => first.results().get('asks-again')?.status === 'success', {
      timeoutMs: 20_000,
    });
    expect(second.results().has('asks-again')).toBe(false);

    // A reply to a session that is not paused any more is refused with the daemon's reason.
    const again = await second.cli(['run', replyFile], 60_000);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/has already finished/);
    const unknown = path.join(second.root, 'reply-unknown.json');
    writeFileSync(unknown, JSON.stringify({ session_id: 'sess-nobody', reply: 'Hello?' }));
    const nobody = await second.cli(['run', unknown], 60_000);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain('session "sess-nobody" does not exist');
  }, 120_000);
});
