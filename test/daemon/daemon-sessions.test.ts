/**
 * Sessions across the daemon's life: pausing for a person and resuming on a reply (also across a
 * restart), hot reload of governance, and `govflow status` / `--help` (SPEC §3, §5, §8).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from './build-once.js';
import {
  EXAMPLE_ANSWERS,
  answer,
  cleanupAll,
  dropFile,
  dropJson,
  exampleScript,
  listDir,
  makeRoot,
  readAuditEntries,
  readResult,
  readResults,
  readSessions,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const QUESTION = 'Which meeting do you mean: Monday or Tuesday?';
const PENDING = answer({
  content: { question: QUESTION },
  contentType: 'objectives',
  status: 'pending',
  message: QUESTION,
  next: null,
});

function stderrDetail(daemon: DaemonProcess) {
  return () =>
    `outbox: ${listDir(path.join(daemon.root, 'system', 'outbox')).join(', ')}\nfailed: ` +
    `${listDir(path.join(daemon.root, 'system', 'failed')).join(', ')}\nstderr:\n${daemon.stderrTail()}`;
}

describe('pending sessions and replies', () => {
  it('pauses on a question, survives a restart, resumes at the same agent on a reply and ends with one final result', async () => {
    const root = makeRoot(scriptedConfig());
    // First daemon: the objective agent asks a question; nothing else may be called.
    writeScript(
      root,
      exampleScript({
        responses: {
          objective_agent: [{ json: PENDING }],
          goal_agent: [],
          planning_agent: [],
          summarizer_agent: [],
          action_item_agent: [],
          final_output_agent: [],
        },
      }),
    );
    let daemon = await startDaemon(root);
    dropJson(root, 'question.json', { request: 'Summarise the meeting.', request_id: 'pend-1' });
    const pending = await waitFor('a pending result', () => readResult(root, 'pend-1'), {
      detail: stderrDetail(daemon),
    });
    expect(pending.status).toBe('pending');
    expect(pending.message).toContain(QUESTION);
    const sessionId = pending.session_id;
    expect(sessionId).toBeTruthy();

    const status = await runCli(['status', '--root', root]);
    expect(status.code).toBe(0);
    const pausedBlock = status.stdout.slice(
      status.stdout.indexOf('paused ('),
      status.stdout.indexOf('recently finished'),
    );
    expect(pausedBlock).toContain('paused (1)');
    expect(pausedBlock).toContain(sessionId);
    expect(pausedBlock).toContain('agent=objective_agent');
    expect(pausedBlock).toContain(QUESTION);

    expect((await daemon.stop('SIGTERM')).code, daemon.stderrTail()).toBe(0);
    // Second daemon: the rest of the chain, after the person answers; the objective agent's list goes
    // on after the question the journal shows.
    writeScript(
      root,
      exampleScript({ responses: { objective_agent: [{ json: PENDING }, { json: EXAMPLE_ANSWERS.objective_agent }] } }),
    );
    daemon = await startDaemon(root);
    // A reply for a session that does not exist goes to failed/ with a reason that says so. A reply
    // is looked at only after crash recovery: once this one is in failed/, recovery has run.
    dropJson(root, 'stray-reply.json', { session_id: 'sess-does-not-exist', reply: 'hello?' });
    const errorFile = path.join(root, 'system', 'failed', 'stray-reply.json.error.json');
    await waitFor('the stray reply in failed/', () => existsSync(errorFile), { detail: stderrDetail(daemon) });
    const record = JSON.parse(readFileSync(errorFile, 'utf8')) as { file: string; reason: string };
    expect(record.file).toBe('stray-reply.json');
    expect(record.reason).toMatch(/sess-does-not-exist/);
    expect(record.reason).toMatch(/no session|unknown|not exist/i);
    expect(existsSync(path.join(root, 'system', 'failed', 'stray-reply.json'))).toBe(true);
    // Recovery has run; the session must still wait for its person.
    expect(readResult(root, 'pend-1')?.status).toBe('pending');
    const afterRestart = await runCli(['status', '--root', root]);
    expect(
      afterRestart.stdout.slice(
        afterRestart.stdout.indexOf('paused ('),
        afterRestart.stdout.indexOf('recently finished'),
      ),
    ).toContain(sessionId);
    expect(afterRestart.stdout).toContain('paused (1)');

    dropJson(root, 'answer.json', { session_id: sessionId, reply: 'The Monday meeting.' });
    const final = await waitFor(
      'the final result',
      () => (readResult(root, 'pend-1')?.status === 'success' ? readResult(root, 'pend-1') : null),
      { detail: stderrDetail(daemon) },
    );
    expect(final.session_id).toBe(sessionId);
    expect(final.messages).toBe(7);
    expect(readResults(root)).toHaveLength(1); // replaced, not added

    const entries = await readAuditEntries(root, ['--session', sessionId]);
    expect(entries.map((entry) => entry.agent)).toEqual([
      'objective_agent',
      'objective_agent',
      'goal_agent',
      'planning_agent',
      expect.stringMatching(/^(summarizer|action_item)_agent$/),
      expect.stringMatching(/^(summarizer|action_item)_agent$/),
      'final_output_agent',
    ]);
    expect(entries[0].status.code).toBe('pending');
    expect(entries[1].inputSource).toBe('user');
    expect(JSON.stringify(entries[1].input)).toContain('The Monday meeting.');
    expect(entries.map((entry) => entry.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(readSessions(root)).toHaveLength(1);
    const archived = readdirSync(path.join(root, 'system', 'archive')).flatMap((day) =>
      listDir(path.join(root, 'system', 'archive', day)),
    );
    expect(archived.sort()).toEqual(['answer.json', 'question.json']);

    expect((await daemon.stop()).code).toBe(0);
    const verify = await runCli(['verify', '--root', root]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  });
});

describe('hot reload of governance', () => {
  it('runs later sessions on an edited agent, and keeps the last good snapshot when an edit is broken', async () => {
    const root = makeRoot('timezone: UTC\n');
    const daemon = await startDaemon(root);
    dropFile(root, 'before.txt', 'Summarise: before the edit.');
    const before = await waitFor(
      'the first result',
      () => readResults(root).find((result) => result.source_file === 'before.txt'),
      { detail: stderrDetail(daemon) },
    );
    const firstVersion = new Set(
      (await readAuditEntries(root, ['--session', before.session_id])).map((entry) => entry.governanceVersion),
    );
    expect(firstVersion.size).toBe(1);
    const [oldHash] = [...firstVersion];

    const agentFile = path.join(root, 'governance', 'agents', 'summarizer_agent.md');
    const original = readFileSync(agentFile, 'utf8');
    const marker = 'Hot-reload marker: always mention the reporting period.';
    writeFileSync(agentFile, `${original.trimEnd()}\n- ${marker}\n`);
    const snapshots = path.join(root, 'system', 'snapshots');
    const newSnapshot = await waitFor(
      'a new governance snapshot',
      () => listDir(snapshots).find((name) => name.endsWith('.json') && !name.startsWith(oldHash)),
      { detail: stderrDetail(daemon) },
    );
    const newHash = newSnapshot.replace(/\.json$/, '');
    expect(readFileSync(path.join(snapshots, newSnapshot), 'utf8')).toContain(marker.replace(/"/g, '\\"'));

    dropFile(root, 'after.txt', 'Summarise: after the edit.');
    const after = await waitFor(
      'the second result',
      () => readResults(root).find((result) => result.source_file === 'after.txt'),
      { detail: stderrDetail(daemon) },
    );
    const afterEntries = await readAuditEntries(root, ['--session', after.session_id]);
    expect(new Set(afterEntries.map((entry) => entry.governanceVersion))).toEqual(new Set([newHash]));
    expect(newHash).not.toBe(oldHash);

    // A broken edit: the frontmatter no longer parses.
    writeFileSync(agentFile, original.replace(/^type: executional$/m, 'type: [executional'));
    await waitFor('an error naming the broken file and line', () => /summarizer_agent\.md:\d+/.test(daemon.stderr), {
      detail: () => daemon.stderrTail(),
    });
    const errorLine = daemon.stderr.split('\n').find((line) => /summarizer_agent\.md:\d+/.test(line))!;
    expect(errorLine).toMatch(/error/i);
    expect(errorLine).toMatch(/yaml|frontmatter/i);

    dropFile(root, 'broken.txt', 'Summarise: while the governance is broken.');
    const whileBroken = await waitFor(
      'the third result',
      () => readResults(root).find((result) => result.source_file === 'broken.txt'),
      { detail: stderrDetail(daemon) },
    );
    expect(whileBroken.status).toBe('success');
    const brokenEntries = await readAuditEntries(root, ['--session', whileBroken.session_id]);
    expect(new Set(brokenEntries.map((entry) => entry.governanceVersion))).toEqual(new Set([newHash]));
    expect(listDir(snapshots).filter((name) => name.endsWith('.json'))).toHaveLength(2);
    expect((await daemon.stop()).code).toBe(0);
  });
});

describe('govflow status and --help', () => {
  it('lists running, paused and finished sessions with their agent and age', async () => {
    const root = makeRoot(scriptedConfig('intake:\n  concurrency: 3\n'));
    const slowGoal = { json: EXAMPLE_ANSWERS.goal_agent, delay_ms: 8000 };
    writeScript(
      root,
      exampleScript({
        responses: {
          // finished first, then paused, then running (stuck in the goal agent for a while)
          objective_agent: [
            { json: EXAMPLE_ANSWERS.objective_agent },
            { json: PENDING },
            { json: EXAMPLE_ANSWERS.objective_agent },
          ],
          goal_agent: [{ json: EXAMPLE_ANSWERS.goal_agent }, slowGoal],
        },
      }),
    );
    const daemon = await startDaemon(root);
    dropJson(root, 'done.json', { request: 'Finish me.', request_id: 'st-done' });
    await waitFor('the finished session', () => readResult(root, 'st-done')?.status === 'success', {
      detail: stderrDetail(daemon),
    });
    dropJson(root, 'ask.json', { request: 'Ask me.', request_id: 'st-paused' });
    await waitFor('the paused session', () => readResult(root, 'st-paused')?.status === 'pending', {
      detail: stderrDetail(daemon),
    });
    dropJson(root, 'slow.json', { request: 'Take your time.', request_id: 'st-running' });
    const running = await waitFor(
      'the running session in the goal agent',
      () => readSessions(root).find((session) => session.requestId === 'st-running' && session.messages.length === 1),
      { detail: stderrDetail(daemon) },
    );
    const manifest = path.join(root, 'system', 'sessions', running.sessionId, 'manifest.json');
    await waitFor(
      'its manifest naming the goal agent',
      () =>
        (JSON.parse(readFileSync(manifest, 'utf8')) as { current_agent: string | null }).current_agent === 'goal_agent',
      { detail: stderrDetail(daemon) },
    );

    const status = await runCli(['status', '--root', root]);
    expect(status.code).toBe(0);
    const out = status.stdout;
    expect(out).toMatch(new RegExp(`daemon: running \\(pid [^)]*${daemon.pid}`));
    const section = (title: string, next: string | null) =>
      out.slice(out.indexOf(title), next ? out.indexOf(next) : undefined);
    const runningBlock = section('running (', 'paused (');
    const pausedBlock = section('paused (', 'recently finished (');
    const finishedBlock = section('recently finished (', null);
    const byRequest = Object.fromEntries(readSessions(root).map((session) => [session.requestId, session.sessionId]));

    expect(runningBlock).toContain('running (1)');
    expect(runningBlock).toContain(running.sessionId);
    expect(runningBlock).toMatch(/agent=goal_agent/);
    expect(pausedBlock).toContain('paused (1)');
    expect(pausedBlock).toContain(byRequest['st-paused']);
    expect(pausedBlock).toMatch(/agent=objective_agent/);
    expect(pausedBlock).toContain(QUESTION);
    expect(finishedBlock).toContain(byRequest['st-done']);
    // A finished session names its last agent (issue 39: it showed agent=-).
    expect(finishedBlock).toMatch(new RegExp(`${byRequest['st-done']}\\s+SUCCESS\\s+agent=final_output_agent `));
    for (const block of [runningBlock, pausedBlock, finishedBlock]) expect(block).toMatch(/age=\d+[smhd]/);

    const json = await runCli(['status', '--root', root, '--json']);
    const parsed = JSON.parse(json.stdout) as {
      running: Array<{ session_id: string }>;
      paused: Array<{ session_id: string }>;
      recent: Array<{ session_id: string }>;
    };
    expect(parsed.running.map((entry) => entry.session_id)).toEqual([running.sessionId]);
    expect(parsed.paused.map((entry) => entry.session_id)).toEqual([byRequest['st-paused']]);
    expect(parsed.recent.map((entry) => entry.session_id)).toContain(byRequest['st-done']);

    // A second SIGINT stops at once, even with the slow step in flight.
    daemon.signal('SIGINT');
    await waitFor('the daemon draining', () => daemon.stderr.includes('daemon running → draining'), {
      detail: stderrDetail(daemon),
    });
    const exit = await daemon.stop('SIGINT', 5000);
    expect(exit.code).toBe(0);
    const stopped = await runCli(['status', '--root', root]);
    expect(stopped.stdout).toMatch(/daemon: not running/);
  });

  it('answers --help for start and status', async () => {
    for (const command of ['start', 'status']) {
      const help = await runCli([command, '--help']);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toContain(`govflow ${command}`);
      expect(help.stdout).toContain('--root');
    }
  });
});
