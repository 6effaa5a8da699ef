/**
 * A `govflow run` killed mid-session (SIGKILL) leaves its session unfinished: `govflow status`
 * shows it as interrupted (not running for ever), and the next `govflow run` or `govflow start`
 * on the root resumes it from its journal and writes its one result.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from './build-once.js';
import {
  EXAMPLE_ANSWERS,
  cleanupAll,
  exampleScript,
  makeRoot,
  readResult,
  readSessions,
  runCli,
  scriptedConfig,
  spawnCli,
  startDaemon,
  waitFor,
  writeScript,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const HANG = { json: EXAMPLE_ANSWERS.goal_agent, delay_ms: 600_000 };

/** Starts `govflow run` on a request that hangs in the goal agent, and SIGKILLs it there. */
async function killRunInGoalAgent(root: string, requestId: string): Promise<string> {
  writeScript(root, exampleScript({ responses: { goal_agent: [HANG] } }));
  const request = path.join(root, `${requestId}.json`);
  writeFileSync(request, JSON.stringify({ request: 'Summarise the meeting.', request_id: requestId }));
  const run = spawnCli(root, ['run', request, '--root', root, '--json']);
  try {
    const session = await waitFor(
      'the objective message, committed before the goal agent hangs',
      () =>
        readSessions(root).find((candidate) => candidate.requestId === requestId && candidate.messages.length === 1),
      { detail: () => run.stderrTail() },
    );
    const claims = path.join(root, 'system', 'state', 'runs');
    expect(readdirSync(claims)).toEqual([session.sessionId]);
    expect((await run.stop('SIGKILL')).signal).toBe('SIGKILL');
    return session.sessionId;
  } finally {
    await run.kill9();
  }
}

async function expectInterrupted(root: string, sessionId: string): Promise<void> {
  const status = await runCli(['status', '--root', root, '--json']);
  expect(status.code, status.stderr).toBe(0);
  const parsed = JSON.parse(status.stdout) as {
    running: Array<{ session_id: string }>;
    interrupted: Array<{ session_id: string }>;
  };
  expect(parsed.running).toEqual([]);
  expect(parsed.interrupted.map((entry) => entry.session_id)).toEqual([sessionId]);
  const text = await runCli(['status', '--root', root]);
  expect(text.stdout).toMatch(new RegExp(`interrupted \\(1; .*\\n  ${sessionId}`));
}

describe('a govflow run killed mid-session', () => {
  it('is interrupted in status, and the next govflow run resumes it and writes its result', async () => {
    const root = makeRoot(scriptedConfig());
    const sessionId = await killRunInGoalAgent(root, 'killed-run');
    expect(readResult(root, 'killed-run')).toBeNull();
    await expectInterrupted(root, sessionId);

    // The resumed session needs goal → final once; the new request the whole chain.
    const twice = Object.fromEntries(
      Object.entries(EXAMPLE_ANSWERS).map(([agent, message]) => [
        agent,
        agent === 'objective_agent' ? [{ json: message }] : [{ json: message }, { json: message }],
      ]),
    );
    writeScript(root, exampleScript({ responses: twice }));
    const next = path.join(root, 'next.json');
    writeFileSync(next, JSON.stringify({ request: 'Another one.', request_id: 'next-run' }));
    const second = await runCli(['run', next, '--root', root, '--json'], { timeoutMs: 60_000 });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(`resumed session ${sessionId} of a killed govflow run: success`);
    expect(JSON.parse(second.stdout).request_id).toBe('next-run');

    const resumed = readResult(root, 'killed-run');
    expect(resumed?.status).toBe('success');
    expect(resumed?.session_id).toBe(sessionId);
    // One objective message: the resumed session went on from the goal agent, it did not start over.
    const journal = readSessions(root).find((session) => session.sessionId === sessionId)!;
    expect(journal.messages.map((message) => message.agent).sort()).toEqual(Object.keys(EXAMPLE_ANSWERS).sort());
    expect(journal.messages.filter((message) => message.agent === 'objective_agent')).toHaveLength(1);
    expect(journal.records.at(-1)?.type).toBe('finished');
    expect(readdirSync(path.join(root, 'system', 'state', 'runs'))).toEqual([]);
    const after = JSON.parse((await runCli(['status', '--root', root, '--json'])).stdout) as {
      interrupted: unknown[];
      running: unknown[];
    };
    expect(after.interrupted).toEqual([]);
    expect(after.running).toEqual([]);
    expect((await runCli(['verify', '--root', root])).code).toBe(0);
  });

  it('a daemon killed mid-session leaves its session interrupted too, until the next start', async () => {
    const root = makeRoot(scriptedConfig());
    writeScript(root, exampleScript({ responses: { goal_agent: [HANG] } }));
    const daemon = await startDaemon(root, { env: { GOVFLOW_LOG_LEVEL: 'debug' } });
    const request = path.join(root, 'system', 'inbox', 'daemon-killed.json');
    writeFileSync(request, JSON.stringify({ request: 'Summarise the meeting.', request_id: 'daemon-killed' }));
    const session = await waitFor(
      'the goal step running',
      () =>
        daemon.stderr.includes('"step":"step 2"')
          ? readSessions(root).find((candidate) => candidate.requestId === 'daemon-killed')
          : undefined,
      { detail: () => daemon.stderrTail() },
    );
    const running = JSON.parse((await runCli(['status', '--root', root, '--json'])).stdout) as {
      running: Array<{ session_id: string }>;
    };
    expect(running.running.map((entry) => entry.session_id)).toEqual([session.sessionId]);
    await daemon.kill9();
    await expectInterrupted(root, session.sessionId);
    writeScript(root, exampleScript());
    const next = await startDaemon(root);
    expect(
      (
        await waitFor('the recovered result', () => readResult(root, 'daemon-killed'), {
          detail: () => next.stderrTail(),
        })
      ).status,
    ).toBe('success');
    expect((await next.stop('SIGTERM')).code).toBe(0);
  });

  it('is resumed by the next govflow start', async () => {
    const root = makeRoot(scriptedConfig());
    const sessionId = await killRunInGoalAgent(root, 'killed-then-daemon');
    await expectInterrupted(root, sessionId);
    writeScript(root, exampleScript());
    const daemon = await startDaemon(root);
    const result = await waitFor('the resumed result', () => readResult(root, 'killed-then-daemon'), {
      detail: () => daemon.stderrTail(),
    });
    expect(result.status).toBe('success');
    expect(result.session_id).toBe(sessionId);
    await waitFor('the released run claim', () => readdirSync(path.join(root, 'system', 'state', 'runs')).length === 0);
    expect(daemon.stderr).toContain('resuming a session whose govflow run was killed');
    expect((await daemon.stop('SIGTERM')).code).toBe(0);
    expect(existsSync(path.join(root, 'system', 'outbox', 'killed-then-daemon.json'))).toBe(true);
  });
});
