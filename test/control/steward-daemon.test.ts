/**
 * A steward instead of a dead end (SPEC §25, docs/run-control.md), against a real `govflow start`
 * whose model is the loopback server speaking the OpenAI wire through the real AI SDK adapter:
 * `on_failure: intervene` (in an agent's frontmatter, then `limits.on_failure` for all) pauses a
 * failed session in `intervention_required` — result, listing, webhooks, the live `session_paused`
 * event — and the steward decides by CLI, control file or HTTP: retry (the advice reaches the
 * agent's prompt, its hash is on the entry), fail; a kill -9 while it waits keeps it waiting.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  cleanupAll,
  dropJson,
  listDir,
  readResult,
  runCli,
  waitFor,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';
import { getJson, httpUrlOf, postJson, SseReader } from '../http/http-test-helpers.js';
import { REQUEST_TEXT } from '../providers/example-app-responder.js';
import type { ResponderLlmServer } from '../providers/responder-llm-server.js';
import { removeTempFolders } from '../support/temp-dirs.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import {
  addAgentLines,
  answerWithStatus,
  controlRecords,
  dropControl,
  modelRoot,
  sessionOfRequest,
  startModel,
  startModelDaemon,
  resultWith as waitForStatus,
} from './control-helpers.js';

/** goal_agent answers `failed` to a request tagged so, unless its prompt carries a steward's advice. */
const FAIL_GOAL = '(goal fails)';
/** objective_agent answers text that is no message at all (VALIDATION_ERROR once its repairs ran out). */
const GARBAGE = '(objective garbage)';
/** goal_agent's provider answers 503 (a DEPENDENCY_ERROR once its one attempt is spent). */
const DOWN = '(goal provider down)';
const ADVICE = 'Name an owner for every action item, UNASSIGNED when none is given.';
/** goal_agent's failure to a request tagged so waits until `streamOpen` is called (session_paused is live only). */
const AFTER_STREAM = '(fails once watched)';
let streamOpen: () => void = () => undefined;
const watched = new Promise<void>((resolve) => (streamOpen = resolve));
const TOKENS = { alice: 'alice-token', bob: 'bob-token' };

let server: ResponderLlmServer;
let root: string;
let daemon: DaemonProcess;
let receiver: WebhookReceiver;
let api: string;
const SECRET = newWebhookSecret();
const me = userInfo().username;

beforeAll(async () => {
  await buildDistOnce();
  server = await startModel(() => (agent, request) => {
    const text = JSON.stringify(request.body);
    if (agent === 'goal_agent' && text.includes(FAIL_GOAL) && !text.includes('Steward advice')) {
      const failed = answerWithStatus('goal_agent', 'failed', 'the objectives name no meeting date');
      return text.includes(AFTER_STREAM) ? watched.then(() => failed) : failed;
    }
    if (agent === 'goal_agent' && text.includes(DOWN)) return { kind: 'status', status: 503 };
    if (agent === 'objective_agent' && text.includes(GARBAGE))
      return { kind: 'text', text: 'I cannot answer in JSON today.' };
    return undefined;
  });
  receiver = await startWebhookReceiver(SECRET);
  root = modelRoot(
    server,
    [
      'intake: { concurrency: 2 }',
      'notify:',
      '  allow_private_targets: true',
      '  webhooks:',
      `    - { url: "${receiver.url}/hooks", secret_env: HOOK_SECRET, events: [session_paused, intervention_required, session_finished] }`,
      'http:',
      '  listen: "127.0.0.1:0"',
      '  tokens:',
      `    - { user: alice, sha256: "${tokenSha256(TOKENS.alice)}", role: operator }`,
      `    - { user: bob, sha256: "${tokenSha256(TOKENS.bob)}", role: operator }`,
    ].join('\n'),
  );
  addAgentLines(root, 'goal_agent', ['on_failure: intervene']);
  daemon = await startModelDaemon(root, { HOOK_SECRET: SECRET });
  api = httpUrlOf(daemon.readyLine);
}, 240_000);

afterAll(async () => {
  await cleanupAll();
  await server?.close();
  await receiver?.close();
  removeTempFolders();
});

const cli = (...args: string[]) => runCli([...args, '--root', root], { timeoutMs: 60_000 });

async function sessionOf(requestId: string): Promise<string> {
  return (await waitFor(`the session of ${requestId}`, () => sessionOfRequest(root, requestId))).sessionId;
}

const resultWith = (requestId: string, status: string) => waitForStatus(root, daemon, requestId, status, 30_000);

/** Every audit log line of the root. */
function auditText(): string {
  const logs = path.join(root, 'system', 'logs');
  return readdirSync(logs)
    .filter((name) => name.endsWith('.log'))
    .map((name) => readFileSync(path.join(logs, name), 'utf8'))
    .join('');
}

/** The request bodies goal_agent was sent, as text. */
const goalPrompts = () =>
  server.requests
    .map((request) => JSON.stringify(request.body))
    .filter((body) => body.includes('You are \\"goal_agent\\"'));

describe('a steward instead of a dead end (§25)', () => {
  it('on_failure: intervene pauses a failed session: result, listing, webhooks; a reply or continue does not apply', async () => {
    dropJson(root, 'st-1.json', { request: `${REQUEST_TEXT} ${FAIL_GOAL}`, request_id: 'st-1' });
    const sessionId = await sessionOf('st-1');
    const result = await resultWith('st-1', 'intervention_required');
    expect(result).toMatchObject({
      messages: 2,
      error: { has_error: true, error_code: 'PROCESSING_ERROR', error_message: 'the objectives name no meeting date' },
      intervention: { agent: 'goal_agent', sequence: 2, error_code: 'PROCESSING_ERROR' },
    });
    const intervention = result.intervention as { summary_for_supervisor: string };
    expect(intervention.summary_for_supervisor).toMatch(/^goal_agent failed at message 2 \(PROCESSING_ERROR/);
    expect(intervention.summary_for_supervisor).toContain('govflow intervene');

    const listed = await cli('sessions', '--status', 'intervention_required', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { sessions: Array<{ session_id: string; status: string }> }).sessions).toEqual(
      [expect.objectContaining({ session_id: sessionId, status: 'intervention_required' })],
    );
    const status = await cli('status');
    expect(status.stdout).toMatch(/1 intervention_required/);

    const hooks = await waitFor('both webhooks of the pause', () => {
      const types = receiver
        .verified('/hooks')
        .filter((hook) => hook.payload?.data.session_id === sessionId)
        .map((hook) => hook.payload!.type);
      return types.includes('session_paused') && types.includes('intervention_required') ? types : null;
    });
    expect(hooks).not.toContain('session_finished');
    expect(
      receiver.verified('/hooks').find((hook) => hook.payload?.type === 'intervention_required')?.payload?.data,
    ).toMatchObject({ session_id: sessionId, request_id: 'st-1', status: 'intervention_required' });

    // A reply is no decision: refused into failed/ with the reason; the session keeps waiting.
    dropJson(root, 'reply-st-1.json', { session_id: sessionId, reply: 'go on' });
    const refusal = await waitFor('the reply refused', () => {
      const file = path.join(root, 'system', 'failed', 'reply-st-1.json.error.json');
      return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { reason: string }) : null;
    });
    expect(refusal.reason).toMatch(/waits for a steward's decision/);
    const cont = await cli('intervene', sessionId, '--continue');
    expect(cont.code).toBe(1);
    expect(cont.stderr).toMatch(/not a halt: decide "retry" or "fail"/);
    expect((await cli('intervene', 'sess-nowhere', '--retry')).code).toBe(2);
    expect((await cli('intervene', sessionId)).code).toBe(2);
    expect(readResult(root, 'st-1')?.status).toBe('intervention_required');
  }, 90_000);

  it('a kill -9 while it waits keeps it waiting; govflow intervene --retry runs the agent again with the advice', async () => {
    const sessionId = await sessionOf('st-1');
    await daemon.kill9();
    // From now on every agent intervenes (limits.on_failure), not goal_agent alone.
    writeFileSync(
      path.join(root, 'govflow.config.yaml'),
      `${readFileSync(path.join(root, 'govflow.config.yaml'), 'utf8')}\nlimits: { on_failure: intervene }\n`,
    );
    daemon = await startModelDaemon(root, { HOOK_SECRET: SECRET });
    api = httpUrlOf(daemon.readyLine);
    expect((await resultWith('st-1', 'intervention_required')).messages).toBe(2);
    const calls = goalPrompts().length;

    const retried = await cli('intervene', sessionId, '--retry', '--advice', ADVICE, '--reason', 'date is in the note');
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toContain(`session ${sessionId}: retry applied`);
    const result = await resultWith('st-1', 'success');
    expect(result.messages).toBeGreaterThan(3);
    expect(result.intervention).toBeUndefined();
    const prompts = goalPrompts();
    expect(prompts.length).toBe(calls + 1);
    expect(prompts.at(-1)).toContain('Steward advice');
    expect(prompts.at(-1)).toContain(ADVICE.slice(0, 40));

    const sha = createHash('sha256').update(ADVICE).digest('hex');
    const [decision] = controlRecords(root, sessionId);
    expect(decision).toMatchObject({ action: 'intervene', decision: 'retry', by: me, advice_sha256: sha });
    const log = auditText();
    expect(log).toContain(`[STEWARD_ADVICE: ${sha}]`);
    expect(log).toMatch(
      new RegExp(
        `\\[CONTROL\\]: \\{"action":"intervene","decision":"retry","by":"${me}","reason":"date is in the note","advice_sha256":"${sha}"`,
      ),
    );
    // The retried step is the next message (3), on the same input; one entry per message, no sequence twice.
    const entries = JSON.parse((await cli('logs', '--session', sessionId, '--json')).stdout) as Array<{
      agent: string;
      sequence: number | null;
      status: { code: string };
    }>;
    const goal = entries.filter((entry) => entry.agent === 'goal_agent');
    expect(goal.map((entry) => [entry.sequence, entry.status.code])).toEqual([
      [2, 'failed'],
      [3, 'success'],
    ]);
    expect(entries.filter((entry) => entry.agent === 'operator')).toHaveLength(1);
    const verify = await cli('verify');
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    const again = await cli('intervene', sessionId, '--fail');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not waiting for a steward: it has ended/);
  }, 120_000);

  it('limits.on_failure: a VALIDATION_ERROR waits too; a control file decides fail; cancel and §18 retry apply to a waiting session', async () => {
    dropJson(root, 'st-3.json', { request: `${REQUEST_TEXT} ${GARBAGE}`, request_id: 'st-3' });
    const garbled = await sessionOf('st-3');
    const waiting = await resultWith('st-3', 'intervention_required');
    expect(waiting.intervention).toMatchObject({
      agent: 'objective_agent',
      sequence: 1,
      error_code: 'VALIDATION_ERROR',
    });
    expect((waiting.intervention as { summary_for_supervisor: string }).summary_for_supervisor).toMatch(
      /raw_output of message 1 in system\/sessions\/.*\/journal\.jsonl/,
    );
    dropControl(root, 'decide-st-3.json', {
      control: 'intervene',
      session_id: garbled,
      decision: 'fail',
      reason: 'the request is not for this desk',
    });
    const failed = await resultWith('st-3', 'failed');
    expect(failed.error).toMatchObject({ error_code: 'VALIDATION_ERROR' });
    expect(failed.messages).toBe(1);
    await waitFor('the control file archived', () =>
      listDir(path.join(root, 'system', 'archive')).some((day) =>
        listDir(path.join(root, 'system', 'archive', day)).some((name) => name.includes('decide-st-3')),
      ),
    );
    expect(controlRecords(root, garbled)).toEqual([
      expect.objectContaining({ action: 'intervene', decision: 'fail', reason: 'the request is not for this desk' }),
    ]);

    dropJson(root, 'st-down.json', { request: `${REQUEST_TEXT} ${DOWN}`, request_id: 'st-down' });
    expect((await resultWith('st-down', 'intervention_required')).intervention).toMatchObject({
      agent: 'goal_agent',
      sequence: 2,
      error_code: 'DEPENDENCY_ERROR',
    });

    dropJson(root, 'st-4.json', { request: `${REQUEST_TEXT} ${FAIL_GOAL}`, request_id: 'st-4' });
    const stuck = await sessionOf('st-4');
    await resultWith('st-4', 'intervention_required');
    const retry = await cli('retry', stuck, '--request-id', 'st-4-again', '--json');
    expect(retry.code, retry.stderr).toBe(0);
    expect(await resultWith('st-4-again', 'intervention_required')).toMatchObject({
      lineage: { action: 'retry', of_session: stuck, from: 2 },
    });
    const cancelled = await cli('cancel', stuck, '--reason', 'handled by phone');
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(await resultWith('st-4', 'cancelled')).toMatchObject({ control: { action: 'cancel', by: me } });
  }, 120_000);

  it('POST /v1/sessions/:id/intervene: 404 for another operator, 202 for its own, 409 once it no longer waits; session_paused live', async () => {
    const submitted = await postJson(
      `${api}/v1/requests`,
      { request: `${REQUEST_TEXT} ${FAIL_GOAL} ${AFTER_STREAM}`, request_id: 'st-5' },
      TOKENS.alice,
    );
    expect(submitted.status).toBe(202);
    const sessionId = submitted.body.session_id as string;
    const stream = await SseReader.open(`${api}/v1/requests/st-5/events`, { token: TOKENS.alice });
    streamOpen(); // the pause comes after the stream is open, however fast the run
    const events = await stream.until((seen) => seen.some((event) => event.event === 'session_paused'), 30_000);
    expect(events.find((event) => event.event === 'session_paused')?.data).toMatchObject({
      session_id: sessionId,
      status: 'intervention_required',
    });
    await stream.close();
    await resultWith('st-5', 'intervention_required');
    expect((await getJson(`${api}/v1/sessions?status=intervention_required`, TOKENS.alice)).body.sessions).toEqual([
      expect.objectContaining({ session_id: sessionId, status: 'intervention_required' }),
    ]);

    const bobs = await postJson(`${api}/v1/sessions/${sessionId}/intervene`, { decision: 'retry' }, TOKENS.bob);
    expect(bobs.status).toBe(404);
    const bad = await postJson(`${api}/v1/sessions/${sessionId}/intervene`, { decision: 'maybe' }, TOKENS.alice);
    expect(bad.status).toBe(400);
    const own = await postJson(
      `${api}/v1/sessions/${sessionId}/intervene`,
      { decision: 'retry', advice: ADVICE },
      TOKENS.alice,
    );
    expect(own.status, JSON.stringify(own.body)).toBe(202);
    expect(own.body).toMatchObject({ session_id: sessionId, status: expect.any(String) });
    await resultWith('st-5', 'success');
    const late = await postJson(`${api}/v1/sessions/${sessionId}/intervene`, { decision: 'fail' }, TOKENS.alice);
    expect(late.status).toBe(409);
    expect(controlRecords(root, sessionId)).toEqual([
      expect.objectContaining({ action: 'intervene', decision: 'retry', by: 'alice' }),
    ]);
  }, 120_000);

  it("the web view shows the summary and a steward form to the session's operator; the form decides", async () => {
    const submitted = await postJson(
      `${api}/v1/requests`,
      { request: `${REQUEST_TEXT} ${FAIL_GOAL}`, request_id: 'st-6' },
      TOKENS.alice,
    );
    const sessionId = submitted.body.session_id as string;
    await resultWith('st-6', 'intervention_required');
    const page = await fetch(`${api}/ui/sessions/${sessionId}`, {
      headers: { authorization: `Bearer ${TOKENS.alice}` },
    });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('status-intervention_required');
    expect(html).toContain('Waiting for a steward');
    expect(html).toContain('goal_agent failed at message 2');
    expect(html).toContain(`action="/ui/sessions/${sessionId}/intervene"`);
    const post = (token: string, body: string) =>
      fetch(`${api}/ui/sessions/${sessionId}/intervene`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
      });
    expect((await post(TOKENS.bob, 'decision=fail')).status).toBe(404);
    const decided = await post(TOKENS.alice, `decision=retry&advice=${encodeURIComponent(ADVICE)}&reason=web`);
    expect(decided.status).toBe(303);
    expect(decided.headers.get('location')).toContain('sent=intervene');
    await resultWith('st-6', 'success');
    expect(controlRecords(root, sessionId)).toEqual([
      expect.objectContaining({ action: 'intervene', decision: 'retry', by: 'alice', reason: 'web' }),
    ]);
  }, 120_000);
});
