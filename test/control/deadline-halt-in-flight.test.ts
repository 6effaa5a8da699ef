/**
 * `limits.on_deadline: halt` with a model call in flight at the deadline (SPEC §25), against a
 * real `govflow start` on the loopback OpenAI wire: the call is aborted at the deadline, the
 * session halts `halted_time` with no failed message committed, and `continue` with a new total
 * makes the call again; every message runs once and `govflow verify` holds. The same for a plan
 * task, whose sibling task commits meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { dropJson, runCli, type DaemonProcess } from '../daemon/daemon-helpers.js';
import { REQUEST_TEXT } from '../providers/example-app-responder.js';
import type { ResponderLlmServer } from '../providers/responder-llm-server.js';
import {
  callsTo,
  controlRecords,
  modelRoot,
  startModel,
  startModelDaemon,
  resultWith as waitForStatus,
  sessionLogEntries,
  stopModelTests,
} from './control-helpers.js';

let server: ResponderLlmServer;
let root: string;
let daemon: DaemonProcess;
/** Agents whose next call never answers: only the deadline ends it. */
const hangNext = new Set<string>(['objective_agent']);

beforeAll(async () => {
  await buildDistOnce();
  server = await startModel(() => (agent) => {
    if (!hangNext.delete(agent)) return undefined;
    return { kind: 'hang' };
  });
  root = modelRoot(server, 'limits: { on_deadline: halt }');
  daemon = await startModelDaemon(root);
}, 240_000);

afterAll(() => stopModelTests(server));

const resultWith = (requestId: string, status: string) => waitForStatus(root, daemon, requestId, status, 60_000);

const entriesOf = (sessionId: string) => sessionLogEntries(root, sessionId);

describe('a deadline halt aborts the call in flight (§25)', () => {
  it('aborts the call at the deadline, halts halted_time without a failed message, and makes the call again after continue', async () => {
    const started = Date.now();
    // A 3 s deadline of the request's own; objective_agent's call hangs past it.
    dropJson(root, 'slow.json', { request: REQUEST_TEXT, request_id: 'slow', limits: { time_minutes: 0.05 } });
    const halted = await resultWith('slow', 'halted_time');
    console.log(`deadline halt: request dropped → halted_time result in ${Date.now() - started} ms (deadline 3000 ms)`);
    const sessionId = halted.session_id as string;
    expect(halted).toMatchObject({ messages: 0, error: null });
    expect(halted.message).toMatch(/halted during objective_agent's model call: the session deadline .* passed/);
    expect(callsTo(server, 'objective_agent')).toBe(1);
    expect(controlRecords(root, sessionId).map((record) => [record.action, record.reason])).toEqual([['halt', 'time']]);
    const [haltEntry] = entriesOf(sessionId);
    expect(haltEntry).toContain('[AGENT: operator]');
    expect(haltEntry).toMatch(/\[CONTROL\]: \{"action":"halt","reason":"time"/);
    expect(entriesOf(sessionId)).toHaveLength(1);

    const resumed = await runCli(['intervene', sessionId, '--continue', '--minutes', '30', '--root', root], {
      timeoutMs: 60_000,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await resultWith('slow', 'success')).messages).toBe(6);
    // The aborted call was made again, once; no message ran twice and none failed.
    expect(callsTo(server, 'objective_agent')).toBe(2);
    const sequences = entriesOf(sessionId)
      .map((entry) => /\[SEQUENCE: (\d+)\]/.exec(entry)?.[1])
      .filter((sequence) => sequence !== undefined);
    expect(sequences).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(entriesOf(sessionId).some((entry) => entry.includes('[STATUS: failed]'))).toBe(false);
    const verify = await runCli(['verify', '--root', root], { timeoutMs: 60_000 });
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  }, 120_000);

  it('a plan task in flight at the deadline halts the session; its sibling task commits, and continue runs the halted one again', async () => {
    hangNext.add('summarizer_agent');
    const summarizer = callsTo(server, 'summarizer_agent');
    const actionItems = callsTo(server, 'action_item_agent');
    // Time for the chain to reach the plan; summarizer_agent's task (t1) then hangs past the deadline.
    dropJson(root, 'task.json', { request: REQUEST_TEXT, request_id: 'task', limits: { time_minutes: 0.15 } });
    const halted = await resultWith('task', 'halted_time');
    const sessionId = halted.session_id as string;
    expect(halted.message).toMatch(/halted during summarizer_agent's model call: the session deadline .* passed/);
    // objective, goal, planning and the sibling task t2 (action items) committed; t1 did not fail.
    expect(halted.messages).toBe(4);
    expect(callsTo(server, 'summarizer_agent')).toBe(summarizer + 1);
    expect(entriesOf(sessionId).some((entry) => entry.includes('[STATUS: failed]'))).toBe(false);
    const resumed = await runCli(['intervene', sessionId, '--continue', '--minutes', '30', '--root', root], {
      timeoutMs: 60_000,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await resultWith('task', 'success')).messages).toBe(6);
    expect(callsTo(server, 'summarizer_agent')).toBe(summarizer + 2);
    expect(callsTo(server, 'action_item_agent')).toBe(actionItems + 1);
    expect(controlRecords(root, sessionId).map((record) => [record.action, record.decision ?? null])).toEqual([
      ['halt', null],
      ['intervene', 'continue'],
    ]);
    const verify = await runCli(['verify', '--root', root], { timeoutMs: 60_000 });
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  }, 120_000);
});
