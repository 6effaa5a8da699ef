/**
 * Webhooks and the bounded queue in cluster mode (SPEC §15, §20), two daemons on one schema: each
 * session's events are delivered once, by the daemon that ran it, and verify; with `max_queued`
 * sessions queued in Postgres, POST /v1/requests on either daemon answers 503 with Retry-After and
 * inbox files wait in their inbox until the cluster's queue drains.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXAMPLE_ANSWERS, INBOX_WAITS, dropJson, loggedLine, waitFor } from '../daemon/daemon-helpers.js';
import { Cluster, clusterForTests } from '../support/cluster.js';
import { pgTestSchema } from '../support/postgres.js';
import { newWebhookSecret, startWebhookReceiver } from '../support/webhook-receiver.js';

const pg = await pgTestSchema('cluster_notify');
const SECRET = newWebhookSecret();
const ENV = { HOOK_SECRET: SECRET };
const receiver = await startWebhookReceiver(SECRET);
afterAll(() => receiver.close());

describe.skipIf(!pg)('cluster mode: webhooks and max_queued', () => {
  let cluster: Cluster;

  clusterForTests(
    pg,
    {
      nodes: 2,
      concurrency: 1,
      // Each daemon's first session (q-1 and q-2) holds its one place for 8 s with its first model
      // call, while the queue fills and the file is told waiting in the inbox; every later call
      // answers at once (1.5 s on each of the 30 calls made the five sessions take 27 s).
      responses: {
        objective_agent: [
          { json: EXAMPLE_ANSWERS.objective_agent, delay_ms: 8000 },
          ...Array(4).fill({ json: EXAMPLE_ANSWERS.objective_agent }),
        ],
      },
      extraConfig: [
        'notify:',
        '  allow_private_targets: true',
        `  webhooks: [{ url: "${receiver.url}/hook", events: [session_finished], secret_env: HOOK_SECRET }]`,
        'http: { listen: "127.0.0.1:0", max_queued: 2 }',
      ].join('\n'),
    },
    async (created) => {
      cluster = created;
      for (const node of cluster.nodes) await node.start(ENV);
    },
  );

  const post = (url: string, requestId: string) =>
    fetch(`${url}/v1/requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: `Summarise ${requestId}.`, request_id: requestId }),
    });

  it('answers 503 while max_queued sessions wait in the store, leaves inbox files waiting, and tells each end once', async () => {
    const [first, second] = cluster.nodes;
    const accepted: string[] = [];
    for (const requestId of ['q-1', 'q-2']) {
      expect((await post(first.httpUrl, requestId)).status).toBe(202);
      accepted.push(requestId);
    }
    // One session runs on each daemon; the next two wait in the store.
    await waitFor('both daemons running a session', async () => {
      const status = await first.cli(['status', '--json']);
      return (JSON.parse(status.stdout) as { running: unknown[] }).running.length === 2;
    });
    for (const requestId of ['q-3', 'q-4']) {
      expect((await post(second.httpUrl, requestId)).status).toBe(202);
      accepted.push(requestId);
    }
    const full = await post(first.httpUrl, 'q-refused');
    expect(full.status).toBe(503);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await full.json()) as { error: { code: string } }).error.code).toBe('queue_full');
    expect((await post(second.httpUrl, 'q-refused')).status).toBe(503);

    dropJson(second.root, 'file-1.json', { request: 'From a file.', request_id: 'file-1' });
    // The daemon has seen the file and left it waiting: it says so once, naming the file.
    await waitFor(
      'file-1.json told waiting in the inbox',
      () => loggedLine(second.output(), INBOX_WAITS, { file: 'file-1.json' }),
      { detail: () => second.stderrTail() },
    );
    expect(existsSync(path.join(second.root, 'system', 'inbox', 'file-1.json'))).toBe(true);
    accepted.push('file-1');

    await cluster.waitForResults(accepted, 120_000);
    for (const [requestId, results] of cluster.resultsByRequest())
      if (accepted.includes(requestId)) expect(results[0].result.status).toBe('success');
    const delivered = await waitFor('one verified session_finished per request', () => {
      const verified = receiver.verified('/hook');
      const requests = new Set(verified.map((delivery) => delivery.payload!.data.request_id));
      return accepted.every((id) => requests.has(id)) ? verified : null;
    });
    expect(receiver.received.filter((delivery) => delivery.error !== null)).toEqual([]);
    expect(delivered.map((delivery) => delivery.payload!.data.request_id).sort()).toEqual([...accepted].sort());
    expect(new Set(delivered.map((delivery) => delivery.id)).size).toBe(accepted.length);
  }, 180_000);
});
