/**
 * Limits per request (SPEC §25, seed 001's cost_threshold and time_threshold_minutes), against a
 * real `govflow start` on the loopback OpenAI wire: a JSON request's own `limits` tighten the
 * configured ones for its session only and are on its first audit entry as `[LIMITS]`; one above
 * its configured cap, or of a bad shape, sends the file to system/failed/ naming the setting and
 * its value (over HTTP: 400 saying the same).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, dropJson, readResult, runCli, waitFor, type DaemonProcess } from '../daemon/daemon-helpers.js';
import { httpUrlOf, postJson } from '../http/http-test-helpers.js';
import { REQUEST_TEXT } from '../providers/example-app-responder.js';
import type { ResponderLlmServer } from '../providers/responder-llm-server.js';
import { removeTempFolders } from '../support/temp-dirs.js';
import { modelRoot, startModel, startModelDaemon } from './control-helpers.js';

let server: ResponderLlmServer;
let root: string;
let daemon: DaemonProcess;
let api: string;

beforeAll(async () => {
  await buildDistOnce();
  server = await startModel(() => null);
  root = modelRoot(server, 'limits: { max_cost_usd_per_session: 5, max_steps: 20 }\nhttp: { listen: "127.0.0.1:0" }');
  daemon = await startModelDaemon(root);
  api = httpUrlOf(daemon.readyLine);
}, 240_000);

afterAll(async () => {
  await cleanupAll();
  await server?.close();
  removeTempFolders();
});

async function refusalOf(name: string): Promise<string> {
  const file = path.join(root, 'system', 'failed', `${name}.error.json`);
  return (
    await waitFor(`${name} refused`, () =>
      existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { reason: string }) : null,
    )
  ).reason;
}

function auditText(): string {
  const logs = path.join(root, 'system', 'logs');
  return readdirSync(logs)
    .filter((name) => name.endsWith('.log'))
    .map((name) => readFileSync(path.join(logs, name), 'utf8'))
    .join('');
}

describe("a request's own limits (§25)", () => {
  it('tighten the configured ones for that session only, recorded as [LIMITS] on its first entry', async () => {
    dropJson(root, 'lim-1.json', { request: REQUEST_TEXT, request_id: 'lim-1', limits: { max_steps: 2, cost_usd: 1 } });
    dropJson(root, 'lim-2.json', { request: REQUEST_TEXT, request_id: 'lim-2' });
    const tight = await waitFor('lim-1 to end', () => readResult(root, 'lim-1'), { timeoutMs: 30_000 });
    expect(tight).toMatchObject({ status: 'failed', messages: 3, error: { error_code: 'BUDGET_EXCEEDED' } });
    expect(tight.message).toMatch(/max_steps \(2 messages\)/);
    const free = await waitFor('lim-2 to end', () => readResult(root, 'lim-2'), { timeoutMs: 30_000 });
    expect(free.status).toBe('success');

    const log = auditText();
    const withLimits = log.split('\n---\n').filter((entry) => entry.includes('[LIMITS]: '));
    expect(withLimits).toHaveLength(1);
    expect(withLimits[0]).toContain('[LIMITS]: {"max_steps":2,"cost_usd":1}');
    expect(withLimits[0]).toContain('[SEQUENCE: 1]');
    expect(withLimits[0]).toContain('[REQUEST_ID: lim-1]');
    const verify = await runCli(['verify', '--root', root]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  }, 90_000);

  it('one above its configured cap, or of a bad shape, goes to system/failed/ naming the setting and its value', async () => {
    dropJson(root, 'lim-3.json', { request: REQUEST_TEXT, request_id: 'lim-3', limits: { cost_usd: 10 } });
    expect(await refusalOf('lim-3.json')).toMatch(
      /"limits\.cost_usd" 10 is above limits\.max_cost_usd_per_session = 5/,
    );
    dropJson(root, 'lim-4.json', { request: REQUEST_TEXT, request_id: 'lim-4', limits: { time_minutes: 31 } });
    expect(await refusalOf('lim-4.json')).toMatch(
      /"limits\.time_minutes" 31 is above limits\.session_timeout_ms = 1800000 ms/,
    );
    dropJson(root, 'lim-5.json', { request: REQUEST_TEXT, request_id: 'lim-5', limits: { max_steps: 1.5 } });
    expect(await refusalOf('lim-5.json')).toMatch(/"limits\.max_steps" must be a whole number/);
    dropJson(root, 'lim-6.json', { request: REQUEST_TEXT, request_id: 'lim-6', limits: { cost_usd: 0 } });
    expect(await refusalOf('lim-6.json')).toMatch(/"limits\.cost_usd" must be a number above 0/);
    expect(readResult(root, 'lim-3')).toBeNull();

    const http = await postJson(`${api}/v1/requests`, { request: REQUEST_TEXT, limits: { max_steps: 21 } });
    expect(http.status).toBe(400);
    expect(http.body.error.message).toMatch(/"limits\.max_steps" 21 is above limits\.max_steps = 20/);
    const ok = await postJson(`${api}/v1/requests`, {
      request: REQUEST_TEXT,
      request_id: 'lim-7',
      limits: { max_steps: 20 },
    });
    expect(ok.status).toBe(202);
    expect((await waitFor('lim-7 to end', () => readResult(root, 'lim-7'), { timeoutMs: 30_000 })).status).toBe(
      'success',
    );
  }, 90_000);
});
