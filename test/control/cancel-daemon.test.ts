/**
 * Cancel through control files, against a real `govflow start` whose model is the loopback server
 * speaking the OpenAI wire through the real AI SDK adapter (docs/run-control.md): the model request
 * in flight is closed within moments of the claim and no call starts after it; a paused session's
 * approval is withdrawn (a later one is refused into failed/); a queued session ends cancelled
 * with no call; and a cancel survives kill -9 after its claim, or being dropped while no daemon
 * runs — it applies before the session would resume.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimNameFor } from '../../src/intake/claim-name.js';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  cleanupAll,
  dropJson,
  listDir,
  readAuditEntries,
  readResult,
  runCli,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';
import type { ResponderLlmServer } from '../providers/responder-llm-server.js';
import { REQUEST_TEXT } from '../providers/example-app-responder.js';
import { removeTempFolders } from '../support/temp-dirs.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import {
  addAgentLines,
  agentOfArrival,
  callsTo,
  controlRecords,
  dropControl,
  hasToolResults,
  modelRoot,
  sessionOfRequest,
  startModel,
  startModelDaemon,
} from './control-helpers.js';

const HANG = '(hang at goal)';
const WRITE_FIRST = '(write first)';

let server: ResponderLlmServer;
let root: string;
let daemon: DaemonProcess;
let receiver: WebhookReceiver;
const SECRET = newWebhookSecret();

beforeAll(async () => {
  await buildDistOnce();
  server = await startModel(() => (agent, request) => {
    const text = JSON.stringify(request.body);
    if (agent === 'goal_agent' && text.includes(HANG)) return { kind: 'hang' };
    if (agent === 'objective_agent' && text.includes(WRITE_FIRST) && !hasToolResults(request))
      return {
        kind: 'tool_calls',
        calls: [{ id: 'call-w1', name: 'write_file', arguments: JSON.stringify({ path: 'note.md', content: 'x' }) }],
      };
    return undefined;
  });
  receiver = await startWebhookReceiver(SECRET);
  root = modelRoot(
    server,
    `intake: { concurrency: 2 }\nnotify:\n  allow_private_targets: true\n  webhooks:\n    - { url: "${receiver.url}/hooks", secret_env: HOOK_SECRET }`,
  );
  addAgentLines(root, 'objective_agent', ['tools: [write_file]', 'approval: [write_file]']);
  daemon = await startModelDaemon(root, { HOOK_SECRET: SECRET });
}, 240_000);

afterAll(async () => {
  await cleanupAll();
  await server?.close();
  await receiver?.close();
  removeTempFolders();
});

/** The result of `requestId` once it has `status`. */
async function resultWith(requestId: string, status: string, timeoutMs = 20_000) {
  const { waitFor } = await import('../daemon/daemon-helpers.js');
  return waitFor(
    `${requestId} to be ${status}`,
    () => {
      const result = readResult(root, requestId) as (ReturnType<typeof readResult> & Record<string, unknown>) | null;
      return result?.status === status ? result : null;
    },
    { timeoutMs, detail: () => daemon.stderrTail(30) },
  );
}

async function waitUntil(what: string, probe: () => boolean, timeoutMs = 20_000): Promise<void> {
  const { waitFor } = await import('../daemon/daemon-helpers.js');
  await waitFor(what, probe, { timeoutMs, detail: () => daemon.stderrTail(30) });
}

describe('cancel through a control file, real daemon and OpenAI wire', () => {
  it('closes the model request in flight within moments of the claim, and no call starts after it', async () => {
    dropJson(root, 'long.json', { request: `${REQUEST_TEXT} ${HANG}`, request_id: 'long-1' });
    await waitUntil('the goal call in flight', () => callsTo(server, 'goal_agent') === 1);
    const goalCall = server.arrivedAt.length - 1;
    const session = sessionOfRequest(root, 'long-1')!;
    dropControl(root, 'stop-long.json', {
      control: 'cancel',
      session_id: session.sessionId,
      reason: 'wrong request',
      by: 'mallory',
    });
    const result = await resultWith('long-1', 'cancelled');
    const [control] = controlRecords(root, session.sessionId);
    const claimedAt = Date.parse(control!.claimed_at as string);
    const closedAt = server.closedByClientAt[goalCall];
    expect(closedAt, 'the goal request was closed by the daemon').toBeDefined();
    const latency = closedAt! - claimedAt;
    console.log(`cancel: claim → model HTTP request closed in ${latency} ms`);
    // A wide margin on a busy machine; it is a few milliseconds when nothing else runs.
    expect(latency).toBeGreaterThanOrEqual(0);
    expect(latency).toBeLessThan(2_000);
    // No model or tool call starts after the claim.
    const calls = server.arrivedAt.length;
    await sleep(1_000); // a silence window: a call that should not start has no event to wait for
    expect(server.arrivedAt).toHaveLength(calls);
    expect(server.arrivedAt.filter((at) => at >= claimedAt)).toEqual([]);

    const owner = userInfo().username;
    expect(result).toMatchObject({
      status: 'cancelled',
      messages: 1,
      error: null,
      control: { action: 'cancel', by: owner, reason: 'wrong request' },
    });
    expect(control).toMatchObject({ action: 'cancel', by: owner, claimed_by: 'mallory', reason: 'wrong request' });
    // The control file is archived like a request; nothing is left claimed.
    const day = listDir(path.join(root, 'system', 'archive')).at(-1)!;
    expect(listDir(path.join(root, 'system', 'archive', day))).toContain('stop-long.json');
    expect(listDir(path.join(root, 'system', 'processing')).filter((name) => name.includes('long'))).toEqual([]);

    // The operator's entry: in the chain, found by status, no sequence, not a message.
    const entries = (await readAuditEntries(root, ['--session', session.sessionId])) as unknown as Array<
      Record<string, unknown>
    >;
    expect(entries.map((entry) => entry.agent)).toEqual(['objective_agent', 'operator']);
    expect(entries[1]).toMatchObject({
      inputSource: 'operator',
      input: 'wrong request',
      outputType: 'control',
      status: { code: 'cancelled', message: `Cancelled by ${owner}: wrong request` },
      sequence: null,
      control: { action: 'cancel', by: owner, claimed_by: 'mallory', reason: 'wrong request' },
    });
    // Webhooks (docs/webhooks.md): the end, and the cancel as such.
    await waitUntil('the cancel webhooks', () =>
      ['session_finished', 'session_cancelled'].every((type) =>
        receiver.received.some(
          (hook) => hook.payload?.type === type && hook.payload.data.session_id === session.sessionId,
        ),
      ),
    );
    const byStatus = (await readAuditEntries(root, ['--status', 'cancelled'])) as unknown as Array<{
      sessionId: string;
    }>;
    expect(byStatus.map((entry) => entry.sessionId)).toContain(session.sessionId);

    // A second cancel of the session a cancel ended is archived as applied (SPEC §18), with no second entry.
    dropControl(root, 'stop-again.json', { control: 'cancel', session_id: session.sessionId });
    const archive = path.join(root, 'system', 'archive');
    await waitUntil('the second cancel archived', () =>
      readdirSync(archive).some((day) => existsSync(path.join(archive, day, 'stop-again.json'))),
    );
    expect(existsSync(path.join(root, 'system', 'failed', 'stop-again.json.error.json'))).toBe(false);
    const cancels = (await readAuditEntries(root, [
      '--session',
      session.sessionId,
      '--status',
      'cancelled',
    ])) as unknown[];
    expect(cancels).toHaveLength(1);
  }, 60_000);

  it('withdraws a waiting approval: the session ends cancelled, and a later approval is refused', async () => {
    dropJson(root, 'approve-me.json', { request: `${REQUEST_TEXT} ${WRITE_FIRST}`, request_id: 'approval-1' });
    const pending = await resultWith('approval-1', 'pending');
    expect(pending).toMatchObject({ awaiting: 'approval' });
    const calls = server.arrivedAt.length;
    dropControl(root, 'stop-approval.json', { control: 'cancel', session_id: pending.session_id });
    const result = await resultWith('approval-1', 'cancelled');
    expect(result.messages).toBe(0);
    dropJson(root, 'late-approval.json', { session_id: pending.session_id, approve: true });
    const refusal = path.join(root, 'system', 'failed', 'late-approval.json.error.json');
    await waitUntil('the late approval refused', () => existsSync(refusal));
    expect(JSON.parse(readFileSync(refusal, 'utf8')).reason).toMatch(
      /was cancelled by .*: its question or approval was withdrawn/,
    );
    expect(server.arrivedAt).toHaveLength(calls);
    expect(readResult(root, 'approval-1')!.status).toBe('cancelled');
  }, 60_000);

  it('ends a queued session cancelled with no model call, while the sessions ahead of it still run', async () => {
    const before = server.arrivedAt.length;
    dropJson(root, 'busy-1.json', { request: `${REQUEST_TEXT} ${HANG}`, request_id: 'busy-1' });
    dropJson(root, 'busy-2.json', { request: `${REQUEST_TEXT} ${HANG}`, request_id: 'busy-2' });
    // Both slots in a model call, and no further call to come. The loopback server answers one call
    // at a time in arrival order, so the first goal call (it hangs) holds every call behind it:
    // busy-2's objective call when it arrived after that goal call (under load), else busy-2's goal call.
    await waitUntil('both sessions in a model call that does not answer', () => {
      const agents = server.arrivedSystems.slice(before).map((_, index) => agentOfArrival(server, before + index));
      const count = (agent: string, upTo = agents.length) =>
        agents.slice(0, upTo).filter((name) => name === agent).length;
      const firstGoal = agents.indexOf('goal_agent');
      if (firstGoal < 0) return false;
      return count('objective_agent', firstGoal) >= 2 ? count('goal_agent') >= 2 : count('objective_agent') >= 2;
    });
    dropJson(root, 'waiting.json', { request: REQUEST_TEXT, request_id: 'queued-1', session_id: 'sess-queued-1' });
    await waitUntil('the queued request claimed', () =>
      readdirSync(path.join(root, 'system', 'processing')).some((name) => name.endsWith('waiting.json')),
    );
    const calls = server.arrivedAt.length;
    dropControl(root, 'stop-queued.json', { control: 'cancel', session_id: 'sess-queued-1', reason: 'not needed' });
    const result = await resultWith('queued-1', 'cancelled');
    expect(result).toMatchObject({ session_id: 'sess-queued-1', messages: 0, control: { reason: 'not needed' } });
    expect(server.arrivedAt).toHaveLength(calls);
    // The files move to the archive once the result is written: wait for that move, do not race it.
    const archived = () =>
      listDir(path.join(root, 'system', 'archive')).flatMap((day) =>
        listDir(path.join(root, 'system', 'archive', day)),
      );
    await waitUntil('the request and its cancel archived', () =>
      ['waiting.json', 'stop-queued.json'].every((name) => archived().includes(name)),
    );
  }, 60_000);

  it('applies a cancel claimed before a kill -9, and one dropped while no daemon runs, before either session resumes', async () => {
    const busy1 = sessionOfRequest(root, 'busy-1')!;
    const busy2 = sessionOfRequest(root, 'busy-2')!;
    await daemon.kill9();
    // The state a kill -9 right after a claim leaves: the control file claimed in system/processing/.
    writeFileSync(
      path.join(root, 'system', 'processing', claimNameFor('stop-busy-1.json')),
      JSON.stringify({ control: 'cancel', session_id: busy1.sessionId, reason: 'claimed, then killed' }),
    );
    // And one dropped into the inbox while no daemon runs.
    dropControl(root, 'stop-busy-2.json', { control: 'cancel', session_id: busy2.sessionId, reason: 'while down' });
    const calls = server.arrivedAt.length;
    const restartedAt = Date.now();
    daemon = await startModelDaemon(root, { HOOK_SECRET: SECRET });
    expect((await resultWith('busy-1', 'cancelled')).control).toMatchObject({ reason: 'claimed, then killed' });
    expect((await resultWith('busy-2', 'cancelled')).control).toMatchObject({ reason: 'while down' });
    // Neither session resumed: no model call since the restart.
    // Recovery is over (system/state/recovery.json: every item the kill left claimed is done): a
    // session it resumed would have had to end first, calling the model on the way.
    await waitUntil('the recovery done', () => {
      const file = path.join(root, 'system', 'state', 'recovery.json');
      if (!existsSync(file)) return false;
      const recovery = JSON.parse(readFileSync(file, 'utf8')) as { started_at: string; done: number; total: number };
      return Date.parse(recovery.started_at) >= restartedAt - 1000 && recovery.done === recovery.total;
    });
    expect(server.arrivedAt).toHaveLength(calls);
    for (const session of [busy1, busy2]) {
      expect(controlRecords(root, session.sessionId)).toHaveLength(1);
      const entries = (await readAuditEntries(root, ['--session', session.sessionId])) as unknown as Array<{
        agent: string;
      }>;
      expect(entries.filter((entry) => entry.agent === 'operator')).toHaveLength(1);
    }
    const verify = await runCli(['verify', '--root', root]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(listDir(path.join(root, 'system', 'processing'))).toEqual([]);
    expect((await daemon.stop()).code).toBe(0);
  }, 90_000);
});
