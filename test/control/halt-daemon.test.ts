/**
 * Halts instead of failures (SPEC §25), against a real `govflow start` on the loopback OpenAI wire:
 * with `limits.on_budget: halt` a session whose next call's worst case would cross its budget
 * pauses `halted_cost` before the call (no request reaches the model), with `on_deadline: halt` one
 * past its deadline pauses `halted_time`; each halt is an operator-form entry with `[STATUS:
 * pending]`; `continue` with new totals resumes it where it stopped (no message twice, verify
 * holds), an operator only up to the configured value; `fail` ends it as the limit would have. A
 * plan task halts the same way (its sibling task commits meanwhile).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, dropJson, runCli, waitFor, type DaemonProcess } from '../daemon/daemon-helpers.js';
import { httpUrlOf, postJson } from '../http/http-test-helpers.js';
import { REQUEST_TEXT } from '../providers/example-app-responder.js';
import type { ResponderLlmServer } from '../providers/responder-llm-server.js';
import { removeTempFolders } from '../support/temp-dirs.js';
import {
  addAgentLines,
  callsTo,
  controlRecords,
  modelRoot,
  sessionOfRequest,
  startModel,
  startModelDaemon,
  resultWith as waitForStatus,
  sessionLogEntries,
} from './control-helpers.js';

const TOKENS = { alice: 'alice-token', root: 'root-token' };
let server: ResponderLlmServer;
let root: string;
let daemon: DaemonProcess;
let api: string;

beforeAll(async () => {
  await buildDistOnce();
  server = await startModel(() => null);
  root = modelRoot(
    server,
    [
      'limits: { on_budget: halt, on_deadline: halt, max_cost_usd_per_session: 1 }',
      'pricing: { qwen2.5-7b-instruct: { input_per_mtok: 0.4, output_per_mtok: 1.6 } }',
      'http:',
      '  listen: "127.0.0.1:0"',
      '  tokens:',
      `    - { user: alice, sha256: "${tokenSha256(TOKENS.alice)}", role: operator }`,
      `    - { user: root, sha256: "${tokenSha256(TOKENS.root)}", role: admin }`,
    ].join('\n'),
  );
  // summarizer_agent's worst case (8000 output tokens, $0.0128) is above the others' ($0.0066 for 4096).
  addAgentLines(root, 'summarizer_agent', ['max_tokens: 8000']);
  daemon = await startModelDaemon(root);
  api = httpUrlOf(daemon.readyLine);
}, 240_000);

afterAll(async () => {
  await cleanupAll();
  await server?.close();
  removeTempFolders();
});

const cli = (...args: string[]) => runCli([...args, '--root', root], { timeoutMs: 60_000 });

const resultWith = (requestId: string, status: string) => waitForStatus(root, daemon, requestId, status, 30_000);

const entriesOf = (sessionId: string) => sessionLogEntries(root, sessionId);

describe('halts instead of failures (§25)', () => {
  it('on_budget: halt pauses before a call whose worst case crosses the budget; continue resumes it exactly there', async () => {
    const before = server.requests.length;
    const submitted = await postJson(
      `${api}/v1/requests`,
      { request: REQUEST_TEXT, request_id: 'h-1', limits: { cost_usd: 0.005 } },
      TOKENS.alice,
    );
    expect(submitted.status).toBe(202);
    const sessionId = submitted.body.session_id as string;
    const halted = await resultWith('h-1', 'halted_cost');
    expect(halted).toMatchObject({ messages: 0, error: null });
    expect(halted.message).toMatch(/halted before objective_agent's model call: \$0\.0000 spent plus its worst case/);
    expect(server.requests.length).toBe(before);
    const [haltEntry] = entriesOf(sessionId);
    expect(haltEntry).toContain('[AGENT: operator]');
    expect(haltEntry).toMatch(/\[STATUS: pending\] halted before objective_agent/);
    expect(haltEntry).toMatch(/\[CONTROL\]: \{"action":"halt","reason":"cost","by":"govflow"/);
    const listed = await cli('sessions', '--status', 'halted_cost', '--json');
    expect(JSON.parse(listed.stdout).sessions).toEqual([expect.objectContaining({ session_id: sessionId })]);
    expect((await cli('intervene', sessionId, '--retry')).code).toBe(1);

    // An operator may not go beyond the configured $1; an admin may.
    const beyond = await postJson(
      `${api}/v1/sessions/${sessionId}/intervene`,
      { decision: 'continue', limits: { cost_usd: 2 } },
      TOKENS.alice,
    );
    expect(beyond.status).toBe(403);
    const resumed = await postJson(
      `${api}/v1/sessions/${sessionId}/intervene`,
      { decision: 'continue', limits: { cost_usd: 1 } },
      TOKENS.alice,
    );
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(202);
    expect((await resultWith('h-1', 'success')).messages).toBe(6);
    const sequences = entriesOf(sessionId)
      .map((entry) => /\[SEQUENCE: (\d+)\]/.exec(entry)?.[1])
      .filter((sequence) => sequence !== undefined);
    expect(sequences).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(controlRecords(root, sessionId).map((record) => [record.action, record.decision ?? null])).toEqual([
      ['halt', null],
      ['intervene', 'continue'],
    ]);
    expect(controlRecords(root, sessionId)[1]).toMatchObject({ by: 'alice', limits: { cost_usd: 1 } });
    expect(controlRecords(root, sessionId)[1].beyond_configured).toBeUndefined();
    const verify = await cli('verify');
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  }, 90_000);

  it('on_deadline: halt pauses past the deadline; govflow intervene --continue --minutes resumes it; --fail ends a halt failed', async () => {
    dropJson(root, 'h-2.json', { request: REQUEST_TEXT, request_id: 'h-2', limits: { time_minutes: 0.00001 } });
    const late = await resultWith('h-2', 'halted_time');
    const lateId = late.session_id as string;
    expect(late.message).toMatch(/the session deadline/);
    // A kill -9 while it waits: the restart keeps it waiting, with no model call and no second halt.
    const calls = server.requests.length;
    await daemon.kill9();
    daemon = await startModelDaemon(root);
    api = httpUrlOf(daemon.readyLine);
    expect((await resultWith('h-2', 'halted_time')).messages).toBe(0);
    expect(server.requests.length).toBe(calls);
    expect(controlRecords(root, lateId).map((record) => record.action)).toEqual(['halt']);
    const resumed = await cli('intervene', lateId, '--continue', '--minutes', '30');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await resultWith('h-2', 'success')).messages).toBe(6);

    dropJson(root, 'h-3.json', { request: REQUEST_TEXT, request_id: 'h-3', limits: { cost_usd: 0.001 } });
    await waitFor('h-3 session', () => sessionOfRequest(root, 'h-3'));
    const stuck = (await resultWith('h-3', 'halted_cost')).session_id as string;
    const failed = await cli('intervene', stuck, '--fail', '--reason', 'too expensive');
    expect(failed.code, failed.stderr).toBe(0);
    expect(await resultWith('h-3', 'failed')).toMatchObject({
      messages: 1,
      error: { error_code: 'BUDGET_EXCEEDED' },
    });
  }, 90_000);

  it('a plan task whose worst case crosses the budget halts the session before its call; its sibling commits; continue runs it', async () => {
    const summarizer = callsTo(server, 'summarizer_agent');
    dropJson(root, 'h-5.json', { request: REQUEST_TEXT, request_id: 'h-5', limits: { cost_usd: 0.012 } });
    const halted = await resultWith('h-5', 'halted_cost');
    const sessionId = halted.session_id as string;
    expect(halted.message).toMatch(/halted before summarizer_agent's model call/);
    // objective, goal, planning and the sibling task (action items) ran within the budget; no summarizer call.
    expect(halted.messages).toBe(4);
    expect(callsTo(server, 'summarizer_agent')).toBe(summarizer);
    const resumed = await cli('intervene', sessionId, '--continue', '--cost-usd', '1');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await resultWith('h-5', 'success')).messages).toBe(6);
    expect(callsTo(server, 'summarizer_agent')).toBe(summarizer + 1);
    expect(controlRecords(root, sessionId).map((record) => record.action)).toEqual(['halt', 'intervene']);
    const verify = await cli('verify');
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  }, 90_000);

  it('the web view shows a halt and a form to continue under new totals', async () => {
    dropJson(root, 'h-4.json', { request: REQUEST_TEXT, request_id: 'h-4', limits: { cost_usd: 0.001 } });
    const sessionId = (await resultWith('h-4', 'halted_cost')).session_id as string;
    const headers = { authorization: `Bearer ${TOKENS.root}` };
    const html = await (await fetch(`${api}/ui/sessions/${sessionId}`, { headers })).text();
    expect(html).toContain('status-halted_cost');
    expect(html).toContain('Waiting for a steward');
    expect(html).toContain('name="cost_usd"');
    const decided = await fetch(`${api}/ui/sessions/${sessionId}/intervene`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=continue&cost_usd=0.5&time_minutes=',
      redirect: 'manual',
    });
    expect(decided.status).toBe(303);
    expect((await resultWith('h-4', 'success')).messages).toBe(6);
    expect(controlRecords(root, sessionId)[1]).toMatchObject({
      decision: 'continue',
      by: 'root',
      limits: { cost_usd: 0.5 },
    });
  }, 90_000);
});
