/**
 * Webhooks (SPEC §20) from a real daemon to a loopback receiver that verifies every delivery with
 * the `standardwebhooks` library: each end of a session sends session_finished with its status, a
 * pause session_paused (and approval_requested when it waits for an approval), each endpoint gets
 * the events it subscribed to; a receiver that fails and then gives no answer for 10 s gets the same
 * event again under the same webhook-id, byte for byte, with a fresh timestamp and signature, until
 * it takes it — while the session has long ended, and `govflow status` and /metrics show the wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { singleAgentRoot, WORKER_DONE } from '../support/single-agent-root.js';
import {
  answer,
  cleanupAll,
  dropJson,
  readResult,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';
import {
  newWebhookSecret,
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '../support/webhook-receiver.js';

const SECRET = newWebhookSecret();
const DONE = WORKER_DONE;
const QUESTION = 'Which quarter do you mean?';
const ASK = answer({ content: { question: QUESTION }, contentType: 'report', status: 'pending', message: QUESTION });

let receiver: WebhookReceiver;
let daemon: DaemonProcess;
let root: string;
let httpUrl: string;

beforeAll(async () => {
  await buildDistOnce();
  receiver = await startWebhookReceiver(SECRET);
  root = singleAgentRoot(
    scriptedConfig(
      [
        'http: { listen: "127.0.0.1:0" }',
        'notify:',
        '  allow_private_targets: true # the receiver listens on loopback',
        '  webhooks:',
        `    - { url: "${receiver.url}/all", secret_env: HOOK_SECRET }`,
        `    - { url: "${receiver.url}/approvals", events: [approval_requested], secret_env: HOOK_SECRET }`,
        '',
      ].join('\n'),
    ),
    ['tools: [write_file]', 'approval: [write_file]'],
  );
  writeScript(
    root,
    JSON.stringify({
      responses: {
        worker_agent: [
          { json: DONE },
          { error: { status: 400, message: 'the model refused the request' } },
          { json: ASK },
          { json: DONE },
          { tool_calls: [{ id: 'w1', name: 'write_file', input: { path: 'out.md', content: 'text' } }] },
          { json: DONE },
          { json: DONE },
        ],
      },
    }),
  );
  daemon = await startDaemon(root, { env: { HOOK_SECRET: SECRET } });
  httpUrl = /HTTP API on (http:\/\/[^\s,)]+)/.exec(daemon.readyLine)![1];
}, 180_000);

afterAll(async () => {
  await cleanupAll();
  await receiver?.close();
});

/** The verified deliveries at `at` for `requestId`, once `count` arrived. */
async function eventsFor(requestId: string, count: number, at = '/all'): Promise<ReceivedWebhook[]> {
  return waitFor(
    `${count} webhook event(s) for ${requestId} at ${at}`,
    () => {
      const found = receiver.verified(at).filter((delivery) => delivery.payload!.data.request_id === requestId);
      return found.length >= count ? found : null;
    },
    {
      timeoutMs: 30_000,
      detail: () => `${JSON.stringify(receiver.received.map((r) => r.raw))}\n${daemon.stderrTail()}`,
    },
  );
}

function submit(requestId: string): void {
  dropJson(root, `${requestId}.json`, { request: `Work on ${requestId}.`, request_id: requestId });
}

describe('webhooks from a real daemon (SPEC §20)', () => {
  it('sends session_finished with the status, session_paused and approval_requested, each verified and to the endpoints that asked', async () => {
    submit('ok-1');
    const [finished] = await eventsFor('ok-1', 1);
    const result = readResult(root, 'ok-1')!;
    expect(finished.payload).toEqual({
      type: 'session_finished',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: {
        session_id: result.session_id,
        request_id: 'ok-1',
        status: 'success',
        user: 'local',
        links: {
          self: '/v1/requests/ok-1',
          events: '/v1/requests/ok-1/events',
          session_events: `/v1/sessions/${result.session_id}/events`,
        },
      },
    });
    expect(finished.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Number(finished.timestamp)).toBeGreaterThan(Date.now() / 1000 - 120);
    expect(finished.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(finished.headers['content-type']).toBe('application/json');

    submit('fail-1');
    const [failed] = await eventsFor('fail-1', 1);
    expect(failed.payload).toMatchObject({ type: 'session_finished', data: { status: 'failed' } });

    submit('ask-1');
    const [paused] = await eventsFor('ask-1', 1);
    expect(paused.payload).toMatchObject({ type: 'session_paused', data: { request_id: 'ask-1', status: 'pending' } });
    const asked = readResult(root, 'ask-1')!;
    dropJson(root, 'reply-ask-1.json', { session_id: asked.session_id, reply: 'Q3' });
    const askEvents = await eventsFor('ask-1', 2);
    expect(askEvents.map((event) => event.payload!.type)).toEqual(['session_paused', 'session_finished']);
    expect(askEvents[1].payload!.data.status).toBe('success');

    submit('approve-1');
    const pausedForApproval = await eventsFor('approve-1', 2);
    expect(pausedForApproval.map((event) => event.payload!.type).sort()).toEqual([
      'approval_requested',
      'session_paused',
    ]);
    expect(pausedForApproval.every((event) => event.payload!.data.status === 'pending')).toBe(true);
    const waiting = readResult(root, 'approve-1')!;
    dropJson(root, 'approve-1-yes.json', { session_id: waiting.session_id, approve: true });
    const approvalEvents = await eventsFor('approve-1', 3);
    expect(approvalEvents[2].payload).toMatchObject({ type: 'session_finished', data: { status: 'success' } });

    // The second endpoint subscribed to approval_requested only.
    const approvalsOnly = await eventsFor('approve-1', 1, '/approvals');
    expect(approvalsOnly.map((event) => event.payload!.type)).toEqual(['approval_requested']);
    expect(receiver.verified('/approvals')).toHaveLength(1);
    // Every delivery verified, and every event has its own id.
    expect(receiver.received.filter((delivery) => delivery.error !== null)).toEqual([]);
    const ids = receiver.verified('/all').map((delivery) => delivery.id);
    expect(new Set(ids).size).toBe(ids.length);
  }, 90_000);

  it('retries one event under one id, byte for byte, through an error and a receiver that does not answer in 10 s, never holding the session', async () => {
    const start = receiver.received.length;
    // The next deliveries to /all: an error, then no answer at all, then taken.
    receiver.answer((index, at) => (at !== '/all' ? 204 : index === start ? 500 : index === start + 1 ? 'hang' : 204));
    submit('retry-1');
    const first = await eventsFor('retry-1', 1);
    // The session ended long before its event is taken.
    expect(readResult(root, 'retry-1')).toMatchObject({ status: 'success' });
    expect(first[0].answer).toBe(500);
    const during = await waitFor('status with the delivery waiting', async () => {
      const status = await runCli(['status', '--root', root]);
      return /webhook .*\/all: 1 waiting \(last error: HTTP 500/.test(status.stdout) ? status.stdout : null;
    });
    expect(during).toContain(`webhook ${receiver.url}/approvals: up to date`);
    const metrics = await (await fetch(`${httpUrl}/metrics`)).text();
    expect(metrics).toContain(`govflow_webhook_deliveries_waiting{url="${receiver.url}/all"} 1`);
    expect(metrics).toMatch(new RegExp(`govflow_webhook_last_error\\{url="${receiver.url}/all",error="HTTP 500"\\} 1`));

    const tries = await eventsFor('retry-1', 3);
    expect(tries.map((delivery) => delivery.answer)).toEqual([500, 'hang', 204]);
    expect(new Set(tries.map((delivery) => delivery.id)).size).toBe(1);
    expect(new Set(tries.map((delivery) => delivery.raw)).size).toBe(1);
    // The first retry within 10 s; the one after the hang once govflow gave up waiting (10 s), soon after.
    expect(tries[1].at - tries[0].at).toBeLessThan(10_000);
    expect(tries[2].at - tries[1].at).toBeGreaterThanOrEqual(9_500);
    expect(tries[2].at - tries[1].at).toBeLessThan(25_000);
    // Each try signed anew: timestamps never go back, and the signatures differ when the second changed.
    const stamps = tries.map((delivery) => Number(delivery.timestamp));
    expect(stamps[2]).toBeGreaterThan(stamps[1]);
    expect(tries[2].signature).not.toBe(tries[1].signature);
    await waitFor('status up to date', async () => {
      const status = await runCli(['status', '--root', root, '--json']);
      const webhooks = (JSON.parse(status.stdout) as { webhooks: Array<{ url: string; waiting: number }> }).webhooks;
      return webhooks.every((lag) => lag.waiting === 0) ? webhooks : null;
    });
    receiver.answer(() => 204);
  }, 90_000);
});
