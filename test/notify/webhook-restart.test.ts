/**
 * Webhook deliveries are durable (SPEC §20): a daemon killed with -9 while its receiver is down
 * sends every waiting event after the restart, within 10 s, under the same webhook-id; a pause is
 * not told again at every restart; an event still failing after 24 h is given up and counted as
 * failed in `govflow status`; a secret that is not set stops `validate` and `start`, naming it.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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
  spawnCli,
  waitFor,
  writeScript,
} from '../daemon/daemon-helpers.js';
import { targetFolderOf } from '../../src/store/delivery-backlog.js';
import { webhookBacklogFolder } from '../../src/notify/webhook-notifier.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const SECRET = newWebhookSecret();
const ENV = { HOOK_SECRET: SECRET };
const QUESTION = 'Which quarter?';

let receiver: WebhookReceiver;

beforeAll(async () => {
  await buildDistOnce();
  receiver = await startWebhookReceiver(SECRET, () => 503);
}, 180_000);

afterAll(async () => {
  await cleanupAll();
  await receiver?.close();
});

function hookRoot(hookPath: string, script: Record<string, unknown[]>): string {
  const root = singleAgentRoot(
    scriptedConfig(
      `notify:\n  allow_private_targets: true\n  webhooks:\n    - { url: "${receiver.url}${hookPath}", secret_env: HOOK_SECRET }\nintake: { concurrency: 1 }\n`,
    ),
  );
  writeScript(root, JSON.stringify({ loop: true, responses: script }));
  return root;
}

const WORKER_OK = { worker_agent: [{ json: WORKER_DONE }] };

describe('durable webhook deliveries (SPEC §20)', () => {
  it('sends what waited when the daemon was killed -9, after the restart, within 10 s and under the same ids', async () => {
    receiver.answer((_index, at) => (at === '/killed' ? 503 : 204));
    const root = hookRoot('/killed', WORKER_OK);
    const first = await startDaemon(root, { env: ENV });
    dropJson(root, 'a.json', { request: 'first', request_id: 'killed-a' });
    dropJson(root, 'b.json', { request: 'second', request_id: 'killed-b' });
    await waitFor('both results', () => readResult(root, 'killed-a') && readResult(root, 'killed-b'));
    const failedTries = await waitFor('a failed try of each event', () => {
      const ids = new Set(receiver.received.filter((delivery) => delivery.path === '/killed').map((d) => d.id));
      return ids.size >= 2 ? ids : null;
    });
    await waitFor('status with 2 waiting', async () => {
      const status = await runCli(['status', '--root', root]);
      return status.stdout.includes('/killed: 2 waiting') ? status.stdout : null;
    });
    await first.kill9();

    receiver.answer(() => 204);
    const restarted = await startDaemon(root, { env: ENV });
    const readyAt = Date.now();
    const delivered = await waitFor(
      'both events delivered after the restart',
      () => {
        const taken = receiver
          .verified('/killed')
          .filter((delivery) => delivery.answer === 204 && delivery.at >= readyAt - 1000);
        return new Set(taken.map((delivery) => delivery.id)).size >= 2 ? taken : null;
      },
      { timeoutMs: 20_000, detail: () => restarted.stderrTail() },
    );
    expect(new Set(delivered.map((delivery) => delivery.id))).toEqual(failedTries);
    expect(Math.max(...delivered.map((delivery) => delivery.at)) - readyAt).toBeLessThan(10_000);
    expect(delivered.map((delivery) => delivery.payload!.data.request_id).sort()).toEqual(['killed-a', 'killed-b']);
    // Delivered means no longer waiting.
    await waitFor('the backlog empty', async () => {
      const status = await runCli(['status', '--root', root]);
      return status.stdout.includes('/killed: up to date') ? status.stdout : null;
    });
    await restarted.stop();
  }, 90_000);

  it('tells a pause once, not again at each restart while it waits', async () => {
    receiver.answer(() => 204);
    const ask = answer({ content: { q: QUESTION }, contentType: 'report', status: 'pending', message: QUESTION });
    const root = hookRoot('/paused', { worker_agent: [{ json: ask }] });
    const first = await startDaemon(root, { env: ENV });
    dropJson(root, 'ask.json', { request: 'ask me', request_id: 'paused-1' });
    await waitFor('the pause event', () => receiver.verified('/paused').length === 1);
    await first.stop();
    const second = await startDaemon(root, { env: ENV });
    // The restart resumes the paused session's claim, which records its pause again.
    await waitFor('the pause recorded again', () => second.stderr.includes('session paused for a reply'), {
      detail: () => second.stderrTail(),
    });
    expect(readResult(root, 'paused-1')?.status).toBe('pending');
    // Queued before that line is written, a second event would wait in the backlog until delivered.
    await waitFor('the backlog empty', async () => {
      const status = await runCli(['status', '--root', root]);
      return status.stdout.includes('/paused: up to date') ? status.stdout : null;
    });
    await second.stop();
    expect(receiver.verified('/paused').map((delivery) => delivery.payload!.type)).toEqual(['session_paused']);
  }, 60_000);

  it('gives up an event still failing 24 h after it was made, and counts it as failed', async () => {
    receiver.answer(() => 500);
    const root = hookRoot('/old', WORKER_OK);
    const url = `${receiver.url}/old`;
    const folder = targetFolderOf(webhookBacklogFolder(path.join(root, 'system', 'state')), url);
    mkdirSync(folder, { recursive: true });
    // What an earlier run left: an event made 25 hours ago, tried for a day.
    const body = JSON.stringify({ type: 'session_finished', timestamp: '2020-01-01T00:00:00.000Z', data: {} });
    writeFileSync(
      path.join(folder, 'backlog.jsonl'),
      `${JSON.stringify({
        add: {
          v: 1,
          id: 'msg_old',
          payload: { type: 'session_finished', body },
          created_at: new Date(Date.now() - 25 * 3_600_000).toISOString(),
          attempts: 300,
          last_error: 'HTTP 500',
        },
      })}\n`,
    );
    const daemon = await startDaemon(root, { env: ENV });
    const status = await waitFor(
      'the event counted as failed',
      async () => {
        const run = await runCli(['status', '--root', root]);
        return run.stdout.includes('/old: 0 waiting, 1 failed') ? run.stdout : null;
      },
      { detail: () => daemon.stderrTail() },
    );
    expect(status).toContain('last error: HTTP 500');
    expect(receiver.received.filter((delivery) => delivery.id === 'msg_old').map((d) => d.raw)).toEqual([body]);
    await waitFor('the failed record', () => existsSync(path.join(folder, 'failed', 'msg_old.json')));
    expect(daemon.stderr).toContain('webhook event msg_old given up');
    await daemon.stop();
  }, 60_000);

  it('refuses to validate or start while a webhook secret is not set, naming the variable', async () => {
    const root = hookRoot('/unset', WORKER_OK);
    const validate = await runCli(['validate', '--root', root]);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain('notify.webhooks[0].secret_env names HOOK_SECRET, which is not set');
    const bad = await runCli(['validate', '--root', root], { env: { HOOK_SECRET: 'not-a-secret' } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('HOOK_SECRET is not a Standard Webhooks secret');
    const start = spawnCli(root, ['start', '--root', root]);
    expect((await start.exited).code).toBe(2);
    expect(start.stderr).toContain('HOOK_SECRET');
    rmSync(path.join(root, 'system'), { recursive: true, force: true });
  }, 60_000);
});
