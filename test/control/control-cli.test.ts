/**
 * `govflow cancel|retry|rerun|fork` as a user types them (docs/run-control.md, docs/exit-codes.md),
 * beside a real daemon on the loopback OpenAI wire: cancel exits 0 cancelled, 1 already ended
 * (printing how), 2 unknown session, 3 no daemon runs (the file waits in the inbox and applies at
 * the next start); the bulk form with --dry-run; retry, rerun and fork print the new session's ids
 * as the daemon assigned them. The outcome record a command read is removed; the daemon sweeps
 * those a day old at its start.
 */
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  EXAMPLE_ANSWERS,
  dropJson,
  exampleScript,
  listDir,
  makeRoot,
  readResult,
  readSessions,
  runCli,
  scriptedConfig,
  spawnCli,
  waitFor,
  writeScript,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';
import { REQUEST_TEXT } from '../providers/example-app-responder.js';
import type { ResponderLlmServer } from '../providers/responder-llm-server.js';
import { modelRoot, sessionOfRequest, startModel, startModelDaemon, stopModelTests } from './control-helpers.js';

const HANG = '(hang at goal)';

let server: ResponderLlmServer;
let root: string;
let daemon: DaemonProcess;
/** While true, goal_agent hangs on a request tagged HANG (a retry of it copies the tag: it is switched off first). */
let hanging = true;

beforeAll(async () => {
  await buildDistOnce();
  server = await startModel(
    () => (agent, request) =>
      agent === 'goal_agent' && hanging && JSON.stringify(request.body).includes(HANG) ? { kind: 'hang' } : undefined,
  );
  root = modelRoot(server, 'intake: { concurrency: 3 }\ndaemon: { shutdown_grace_ms: 500 }');
  daemon = await startModelDaemon(root);
}, 240_000);

afterAll(() => stopModelTests(server));

const cli = (...args: string[]) => runCli([...args, '--root', root], { timeoutMs: 60_000 });
/** The control outcome records left in system/state/controls/. */
const outcomes = () => listDir(path.join(root, 'system', 'state', 'controls'));

async function sessionOf(requestId: string): Promise<string> {
  return (await waitFor(`the session of ${requestId}`, () => sessionOfRequest(root, requestId))).sessionId;
}

async function ended(requestId: string): Promise<Record<string, unknown>> {
  return waitFor(`${requestId} to end`, () => {
    const result = readResult(root, requestId) as Record<string, unknown> | null;
    return result && result.status !== 'pending' ? result : null;
  });
}

describe('govflow cancel|retry|rerun|fork', () => {
  it('cancel: 0 once cancelled, 1 when already ended, 2 for an unknown session', async () => {
    dropJson(root, 'hang-1.json', { request: `${REQUEST_TEXT} ${HANG}`, request_id: 'cli-1' });
    const sessionId = await sessionOf('cli-1');
    await waitFor('the goal call in flight', () => server.arrivedAt.length >= 2);
    const cancelled = await cli('cancel', sessionId, '--reason', 'not this one');
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain(`session ${sessionId} cancelled`);
    expect(readResult(root, 'cli-1')).toMatchObject({ status: 'cancelled' });
    expect(outcomes()).toEqual([]);

    const again = await cli('cancel', sessionId);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('has already ended: cancelled');
    const unknown = await cli('cancel', 'sess-nowhere');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no session "sess-nowhere"/);
    expect((await cli('cancel')).code).toBe(2);
    expect((await cli('cancel', '--status', 'done')).code).toBe(2);
  }, 60_000);

  it('retry, rerun and fork print the ids the daemon assigned (--json: that object alone)', async () => {
    const original = await sessionOf('cli-1');
    hanging = false;
    const retried = await cli('retry', original, '--reason', 'go on', '--json');
    expect(retried.code, retried.stderr).toBe(0);
    const made = JSON.parse(retried.stdout) as { session_id: string; request_id: string };
    expect(made).toEqual({ session_id: expect.stringMatching(/^sess-/), request_id: 'cli-1-retry-1' });
    expect(outcomes()).toEqual([]);
    expect(await ended('cli-1-retry-1')).toMatchObject({ status: 'success', session_id: made.session_id });

    const forked = await cli('fork', made.session_id, '--from', '2', '--request-id', 'cli-fork');
    expect(forked.code, forked.stderr).toBe(0);
    expect(forked.stdout).toMatch(/^session_id: sess-.*\nrequest_id: cli-fork\n$/);
    expect(outcomes()).toEqual([]);
    expect(await ended('cli-fork')).toMatchObject({ status: 'success', lineage: { action: 'fork', from: 2 } });

    const refused = await cli('fork', made.session_id, '--from', '99');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused: "from" 99/);
    expect((await cli('fork', made.session_id)).code).toBe(2);
    expect((await cli('rerun', 'sess-nowhere')).code).toBe(2);
    const rerun = await cli('rerun', original);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain('request_id: cli-1-rerun-1');
    expect((await ended('cli-1-rerun-1')).status).toBe('success');
  }, 90_000);

  it('bulk: --dry-run lists the matches and cancels none; then every match is cancelled', async () => {
    hanging = true;
    for (const id of ['bulk-1', 'bulk-2'])
      dropJson(root, `${id}.json`, { request: `${REQUEST_TEXT} ${HANG}`, request_id: id });
    const first = await sessionOf('bulk-1');
    const second = await sessionOf('bulk-2');
    await waitFor('both running', async () => {
      const listed = await cli('cancel', '--status', 'running', '--dry-run', '--json');
      return (JSON.parse(listed.stdout) as { matched: number }).matched === 2;
    });
    const dry = await cli('cancel', '--status', 'running', '--dry-run', '--json');
    expect(JSON.parse(dry.stdout)).toEqual({
      matched: 2,
      cancelled: [],
      would_cancel: expect.arrayContaining([first, second]),
    });
    expect(readResult(root, 'bulk-1')).toBeNull();
    const none = await cli('cancel', '--status', 'running', '--user', 'nobody', '--dry-run', '--json');
    expect(JSON.parse(none.stdout).matched).toBe(0);

    const all = await cli('cancel', '--status', 'running', '--reason', 'end of day');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain(`cancelling ${first}`);
    expect((await ended('bulk-1')).status).toBe('cancelled');
    expect((await ended('bulk-2')).status).toBe('cancelled');
  }, 90_000);

  it('govflow run stops its own session on SIGINT: the session ends cancelled and run exits 1', async () => {
    const own = makeRoot(scriptedConfig());
    writeScript(
      own,
      exampleScript({ responses: { goal_agent: [{ json: EXAMPLE_ANSWERS.goal_agent, delay_ms: 600_000 }] } }),
    );
    const request = path.join(own, 'request.txt');
    writeFileSync(request, 'Summarize: Ana sends the budget.');
    const run = spawnCli(own, ['run', request, '--root', own, '--json']);
    await waitFor('its first message', () => readSessions(own)[0]?.messages.length === 1, {
      detail: () => run.stderrTail(),
    });
    run.signal('SIGINT');
    const status = await run.exited;
    expect(status.code).toBe(1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      status: 'cancelled',
      messages: 1,
      control: { action: 'cancel', reason: 'govflow run was interrupted (SIGINT)' },
    });
    expect(run.stderr).toMatch(/SIGINT: cancelling the session/);
  }, 60_000);

  it('exits 3 when no daemon runs: the control waits in the inbox and applies at the next start', async () => {
    dropJson(root, 'hang-3.json', { request: `${REQUEST_TEXT} ${HANG}`, request_id: 'cli-3' });
    const sessionId = await sessionOf('cli-3');
    const ended1 = await sessionOf('cli-fork');
    expect((await daemon.stop()).code).toBe(0);
    const waiting = await cli('cancel', sessionId, '--reason', 'while down');
    expect(waiting.code).toBe(3);
    expect(waiting.stderr).toMatch(/no govflow daemon runs on this root: the control waits in system\/inbox\/cancel-/);
    expect(listDir(path.join(root, 'system', 'inbox')).filter((name) => name.startsWith('cancel-'))).toHaveLength(1);
    const retry = await cli('retry', ended1);
    expect(retry.code).toBe(3);
    hanging = false;
    // Outcomes nobody read: the one a day old goes at the daemon's start, the younger one stays.
    mkdirSync(path.join(root, 'system', 'state', 'controls'), { recursive: true });
    for (const [name, ageMs] of [
      ['cancel-unread-old.json', 25 * 3_600_000],
      ['cancel-unread-young.json', 3_600_000],
    ] as const) {
      const file = path.join(root, 'system', 'state', 'controls', name);
      writeFileSync(file, '{}\n');
      const when = new Date(Date.now() - ageMs);
      utimesSync(file, when, when);
    }
    daemon = await startModelDaemon(root);
    expect(outcomes()).not.toContain('cancel-unread-old.json');
    expect(outcomes()).toContain('cancel-unread-young.json');
    expect(await ended('cli-3')).toMatchObject({ status: 'cancelled', control: { reason: 'while down' } });
    await waitFor('the waiting retry applied', () => readResult(root, 'cli-fork-retry-1') !== null);
    expect(existsSync(path.join(root, 'system', 'inbox'))).toBe(true);
    expect(listDir(path.join(root, 'system', 'inbox'))).toEqual([]);
    expect((await daemon.stop()).code).toBe(0);
  }, 90_000);
});
