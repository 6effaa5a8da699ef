/**
 * Daily budgets per user (SPEC §20) on the real adapter path: `govflow start` with the
 * openai-compatible provider against a loopback server that returns usage, priced through
 * `pricing`. Once alice's spend for the day (in the configured zone) reaches her limit, her
 * session's next model call is not made and it ends failed with BUDGET_EXCEEDED; her new requests
 * are still accepted and fail the same way without a call, also after a kill -9 and restart; bob,
 * under `default`, goes on; spend of another day does not count.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { compactInTimeZone } from '../../src/message/zoned-time.js';
import { exampleAppReply } from '../providers/example-app-responder.js';
import { startResponderLlmServer, type ResponderLlmServer } from '../providers/responder-llm-server.js';
import { buildDistOnce } from './build-once.js';
import { cleanupAll, makeRoot, readResult, startDaemon, waitFor, type DaemonProcess } from './daemon-helpers.js';

const ZONE = 'Pacific/Kiritimati';
const MODEL = 'qwen2.5-7b-instruct';
const ALICE = 'alice-budget-token';
const BOB = 'bob-budget-token';
const ENV = { GATEWAY_TOKEN: 'gw-budget-key' };
/** USD per million tokens: a call of the example app costs (input + output tokens) / 1000 USD, about $1–1.6. */
const PRICE = 1000;

let server: ResponderLlmServer;
let root: string;
let daemon: DaemonProcess;

beforeAll(async () => {
  await buildDistOnce();
  server = await startResponderLlmServer(({ system }) => exampleAppReply(system));
  root = makeRoot(
    [
      `timezone: ${ZONE}`,
      'provider:',
      '  kind: openai-compatible',
      `  model: ${MODEL}`,
      `  base_url: ${server.url}/v1`,
      '  api_key_env: GATEWAY_TOKEN',
      `pricing: { ${MODEL}: { input_per_mtok: ${PRICE}, output_per_mtok: ${PRICE} } }`,
      'limits:',
      '  user_daily_usd: { default: 100, alice: 10 }',
      'http:',
      '  listen: "127.0.0.1:0"',
      `  tokens: [{ user: alice, sha256: "${tokenSha256(ALICE)}" }, { user: bob, sha256: "${tokenSha256(BOB)}" }]`,
      '',
    ].join('\n'),
  );
  // Yesterday bob spent far past his limit: another day, so it does not count today.
  const spend = path.join(root, 'system', 'state', 'spend');
  mkdirSync(spend, { recursive: true });
  const yesterday = compactInTimeZone(new Date(Date.now() - 86_400_000), ZONE);
  writeFileSync(
    path.join(spend, `${yesterday}.jsonl`),
    `${JSON.stringify({ day: yesterday, user: 'bob', usd: 5000, at: new Date().toISOString() })}\n`,
  );
  daemon = await startDaemon(root, { env: ENV });
}, 180_000);

afterAll(async () => {
  await cleanupAll();
  await server?.close();
});

function urlOf(process: DaemonProcess): string {
  return /HTTP API on (http:\/\/[^\s,)]+)/.exec(process.readyLine)![1];
}

async function submit(token: string, requestId: string, process = daemon): Promise<void> {
  const response = await fetch(`${urlOf(process)}/v1/requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ request: `Summarise meeting ${requestId}.`, request_id: requestId }),
  });
  expect(response.status).toBe(202);
}

async function resultOf(requestId: string, process = daemon) {
  return waitFor(`the result of ${requestId}`, () => readResult(root, requestId), {
    timeoutMs: 60_000,
    detail: () => process.stderrTail(),
  });
}

/** USD of the model calls the server answered, from the usage it returned. */
function costOf(from: number, to = server.replies.length): number {
  return server.replies
    .slice(from, to)
    .reduce(
      (sum, reply) =>
        sum +
        (reply.kind === 'text' ? ((reply.usage!.inputTokens + reply.usage!.outputTokens) * PRICE) / 1_000_000 : 0),
      0,
    );
}

describe('limits.user_daily_usd (SPEC §20)', () => {
  it(
    "stops a user's session at the call that would follow the limit, fails her next requests without a call, and keeps counting across a " +
      'kill -9',
    async () => {
      await submit(ALICE, 'alice-1');
      const first = await resultOf('alice-1');
      expect(first).toMatchObject({ status: 'success', messages: 6 });
      const firstCost = costOf(0);
      expect(firstCost).toBeCloseTo(7.92, 6);

      const before = server.requests.length;
      await submit(ALICE, 'alice-2');
      const second = (await resultOf('alice-2')) as any;
      expect(second.status).toBe('failed');
      expect(second.error).toMatchObject({ error_code: 'BUDGET_EXCEEDED' });
      expect(second.message).toContain('limits.user_daily_usd.alice = $10');
      // Two calls passed the limit's line ($7.92 + $1.05 + $1.158 = $10.128); the third was not made.
      expect(server.requests.length - before).toBe(2);
      const spent = firstCost + costOf(before);
      expect(spent).toBeGreaterThanOrEqual(10);
      expect(spent - 10).toBeLessThan(1.6);

      // Still accepted, failed the same way, and no model call at all.
      const calls = server.requests.length;
      await submit(ALICE, 'alice-3');
      expect(await resultOf('alice-3')).toMatchObject({ status: 'failed', error: { error_code: 'BUDGET_EXCEEDED' } });
      expect(server.requests.length).toBe(calls);

      // The day's ledger, named for the day in the configured zone, holds every priced call.
      const today = compactInTimeZone(new Date(), ZONE);
      const lines = readFileSync(path.join(root, 'system', 'state', 'spend', `${today}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { user: string; usd: number });
      expect(lines.filter((line) => line.user === 'alice')).toHaveLength(8);
      expect(lines.reduce((sum, line) => sum + line.usd, 0)).toBeCloseTo(spent, 6);

      await daemon.kill9();
      daemon = await startDaemon(root, { env: ENV });
      await submit(ALICE, 'alice-4');
      expect(await resultOf('alice-4')).toMatchObject({ status: 'failed', error: { error_code: 'BUDGET_EXCEEDED' } });
      expect(server.requests.length).toBe(calls);
    },
    120_000,
  );

  it('lets another user under `default` go on, whatever they spent on another day', async () => {
    const before = server.requests.length;
    await submit(BOB, 'bob-1');
    expect(await resultOf('bob-1')).toMatchObject({ status: 'success', messages: 6 });
    expect(server.requests.length - before).toBe(6);
  }, 60_000);
});
