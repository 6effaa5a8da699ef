/**
 * Webhook targets (SPEC §20, docs/webhooks.md), issue 50's SSRF finding: a URL whose host is, or
 * resolves to, a loopback, link-local (169.254.169.254), private or unspecified address — or this
 * machine's own — is a `govflow validate` error naming it unless `notify.allow_private_targets:
 * true`; a host that does not resolve is a warning; and a daemon whose webhook's host name resolves
 * to loopback at delivery time sends nothing there, saying why in `govflow status`.
 */
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  cleanupAll,
  dropJson,
  readResult,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
} from '../daemon/daemon-helpers.js';
import { singleAgentRoot, WORKER_DONE } from '../support/single-agent-root.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { isInternalAddress } from '../../src/tools/http-get-tool.js';

const SECRET = newWebhookSecret();
const ENV = { HOOK_SECRET: SECRET };
let receiver: WebhookReceiver;

beforeAll(async () => {
  await buildDistOnce();
  receiver = await startWebhookReceiver(SECRET, () => 204);
}, 180_000);

afterAll(async () => {
  await cleanupAll();
  await receiver?.close();
});

function hookRoot(urls: string[], allow = false): string {
  const root = singleAgentRoot(
    scriptedConfig(
      [
        'notify:',
        ...(allow ? ['  allow_private_targets: true'] : []),
        '  webhooks:',
        ...urls.map((url) => `    - { url: "${url}", secret_env: HOOK_SECRET }`),
        '',
      ].join('\n'),
    ),
  );
  writeScript(root, JSON.stringify({ loop: true, responses: { worker_agent: [{ json: WORKER_DONE }] } }));
  return root;
}

/** This machine's name, when it resolves to one of its own or a loopback address (as on most hosts). */
async function ownHostName(): Promise<string | null> {
  try {
    const { address } = await lookup(hostname());
    return isInternalAddress(address) ? hostname() : null;
  } catch {
    return null;
  }
}

describe('govflow validate and webhook targets', () => {
  it('is an error for the metadata address, loopback, private ranges and localhost, naming each URL', async () => {
    const urls = [
      'http://169.254.169.254/latest/meta-data',
      'http://127.0.0.1:7070/v1/requests',
      'http://localhost:9/hook',
      'http://10.1.2.3/hook',
      'http://[::1]:8080/hook',
      'http://0.0.0.0/hook',
    ];
    const root = hookRoot(urls);
    const validated = await runCli(['validate', '--root', root], { env: ENV });
    expect(validated.code).toBe(1);
    for (const url of urls) expect(validated.stderr).toContain(`url ${url}`);
    expect(validated.stderr).toContain('notify.allow_private_targets: true');
    expect(validated.stderr).toMatch(/169\.254\.169\.254, a loopback, link-local, private or unspecified address/);
    // The daemon refuses to start on them too.
    const started = await runCli(['start', '--root', root], { env: ENV });
    expect(started.code).not.toBe(0);
    expect(started.stderr).toContain('169.254.169.254');

    const allowed = await runCli(['validate', '--root', hookRoot(urls, true)], { env: ENV });
    expect(allowed.code, allowed.stderr).toBe(0);
  }, 60_000);

  it('is an error for a host name that resolves to this machine, and a warning for one that does not resolve', async () => {
    const own = await ownHostName();
    const unresolvable = 'http://no-such-host.invalid/hook';
    const urls = own ? [`http://${own}:7070/hook`, unresolvable] : [unresolvable];
    const validated = await runCli(['validate', '--root', hookRoot(urls)], { env: ENV });
    expect(validated.stderr).toMatch(
      /warning: notify\.webhooks\[\d\]\.url http:\/\/no-such-host\.invalid\/hook: .*cannot be resolved/,
    );
    if (own) {
      expect(validated.code).toBe(1);
      expect(validated.stderr).toContain(`notify.webhooks[0].url http://${own}:7070/hook: its host ${own} resolves to`);
    } else expect(validated.code).toBe(0);
  }, 60_000);
});

describe('deliveries to a private target', () => {
  it('are not made when the host name resolves to loopback at delivery; govflow status says why', async (context) => {
    const own = await ownHostName();
    if (!own) {
      context.skip();
      return;
    }
    const url = receiver.url.replace('127.0.0.1', own);
    const root = hookRoot([`${url}/own`]);
    const daemon = await startDaemon(root, { env: ENV });
    dropJson(root, 'a.json', { request: 'Work.', request_id: 'private-a' });
    await waitFor('the result', () => readResult(root, 'private-a'), { timeoutMs: 30_000 });
    const status = await waitFor(
      'status naming the refusal',
      async () => {
        const shown = await runCli(['status', '--root', root]);
        return shown.stdout.includes('not sent:') ? shown.stdout : null;
      },
      { timeoutMs: 20_000 },
    );
    expect(status).toMatch(new RegExp(`not sent: ${own} resolves to [^ ]+, `));
    expect(receiver.received.filter((delivery) => delivery.path === '/own')).toEqual([]);
    await daemon.stop();
  }, 90_000);
});
