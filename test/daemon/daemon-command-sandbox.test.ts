/**
 * The payloads of issue 50 against a real daemon (SPEC §19 "Commands run in a sandbox"): a
 * model-written `.git/config` whose core.fsmonitor writes a file, run by an auto-approved
 * `git status`, and a model-written package.json whose `npm test` script writes outside the
 * workspace and copies /etc/shadow, both run inside bubblewrap only; an `npm test` whose script
 * leaves a `setsid` loop behind ends at `timeout_ms`, a `govflow cancel` of it returns at once, and
 * a daemon stop with a cancel and a control in flight ends within `shutdown_grace_ms` + 5 s.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/store/process-alive.js';
import { buildDistOnce } from './build-once.js';
import {
  answer,
  cleanupAll,
  dropJson,
  makeRoot,
  readAuditEntries,
  readResult,
  readSessions,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const DONE = answer({ content: { report: 'done' }, contentType: 'report' });
const write = (id: string, file: string, content: string) => ({
  tool_calls: [{ id, name: 'write_file', input: { path: file, content } }],
});
const run = (id: string, command: string) => ({ tool_calls: [{ id, name: 'run_command', input: { command } }] });

/** A root whose only agent, `worker_agent`, writes files and runs commands. */
function commandRoot(config: string): string {
  const root = makeRoot(scriptedConfig(config));
  const agents = path.join(root, 'governance', 'agents');
  for (const file of readdirSync(agents)) rmSync(path.join(agents, file));
  writeFileSync(
    path.join(agents, 'worker_agent.md'),
    [
      '---',
      'name: worker_agent',
      'type: executional',
      'description: Works in its workspace.',
      'entry: true',
      'next: []',
      'content_type: report',
      'tools: [write_file, run_command]',
      '---',
      '# Worker\nUse the tools.\n',
    ].join('\n'),
  );
  return root;
}

function toolResults(root: string, requestId: string): Array<Record<string, any>> {
  const session = readSessions(root).find((candidate) => candidate.requestId === requestId);
  return (session?.records ?? []).filter((record) => record.type === 'tool_result') as Array<Record<string, any>>;
}

function sessionIdOf(root: string, requestId: string): string | null {
  return readSessions(root).find((candidate) => candidate.requestId === requestId)?.sessionId ?? null;
}

/** An npm package whose test script leaves a detached loop beating into `heartbeat`, then waits. */
const ESCAPING_PACKAGE = JSON.stringify({
  name: 'escape',
  version: '1.0.0',
  scripts: {
    test: "echo started > started.txt; setsid sh -c 'while true; do echo beat >> heartbeat; sleep 0.2; done' & sleep 120",
  },
});

/** How often stopsGrowing samples the file's size. */
const SAMPLE_MS = 100;

/** Resolves once `file` in `folder` has stopped growing for 1.5 s; true when it does so within `ms`. */
async function stopsGrowing(file: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  let last = -1;
  let since = Date.now();
  while (Date.now() < until) {
    const size = existsSync(file) ? statSync(file).size : 0;
    if (size !== last) {
      last = size;
      since = Date.now();
    } else if (Date.now() - since >= 1500) return true;
    await sleep(SAMPLE_MS);
  }
  return false;
}

describe('run_command in bubblewrap under a real daemon', () => {
  it('runs the .git/config fsmonitor and package.json payloads inside the sandbox only', async () => {
    const outside = path.join(tmpdir(), `govflow-pwned-${process.pid}-${Date.now()}`);
    const root = commandRoot(
      'tools: { commands: { allow: ["Bash(git status)", "Bash(npm test)", "Bash(cp:*)"], auto_approve: ["Bash(git status)", "Bash(npm test)", "Bash(cp:*)"], ' +
        'timeout_ms: 60000 } }\n',
    );
    const inRoot = path.join(root, 'PWNED-by-npm');
    const gitConfig = `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch ${outside}-git; id > fsmonitor-ran"\n`;
    const npmPackage = JSON.stringify({
      name: 'payload',
      version: '1.0.0',
      scripts: { test: `id > ${outside}-npm; id > ${inRoot}; cat /etc/shadow > shadow-copy; id > npm-ran.txt` },
    });
    writeScript(
      root,
      JSON.stringify({
        responses: {
          worker_agent: [
            write('c1', '.git/HEAD', 'ref: refs/heads/main\n'),
            write('c2', '.git/objects/info/.keep', ''),
            write('c3', '.git/refs/heads/.keep', ''),
            write('c4', '.git/config', gitConfig),
            run('c5', 'git status'),
            write('c6', 'package.json', npmPackage),
            run('c7', 'npm test'),
            run('c8', 'cp /etc/shadow stolen'),
            { json: DONE },
          ],
        },
      }),
    );
    const daemon = await startDaemon(root);
    dropJson(root, 'job.json', { request: 'Check the repository and run the tests.', request_id: 'payloads' });
    const result = await waitFor('the result', () => readResult(root, 'payloads'), {
      timeoutMs: 60_000,
      detail: () => daemon.stderrTail(),
    });
    expect(result.status, daemon.stderrTail()).toBe('success');
    const workspace = path.join(root, 'workspace', result.session_id);
    // Both payloads ran — inside: what they wrote in the workspace is there, nothing outside it.
    expect(readFileSync(path.join(workspace, 'fsmonitor-ran'), 'utf8')).toMatch(/^uid=/);
    expect(readFileSync(path.join(workspace, 'npm-ran.txt'), 'utf8')).toMatch(/^uid=/);
    expect(existsSync(`${outside}-git`)).toBe(false);
    expect(existsSync(`${outside}-npm`)).toBe(false);
    expect(existsSync(inRoot)).toBe(false);
    expect(readFileSync(path.join(workspace, 'shadow-copy'), 'utf8')).toBe('');
    const npm = toolResults(root, 'payloads').find((record) => record.id === 'c7')!;
    expect(npm.output).toMatch(/\/etc\/shadow: No such file or directory/);
    expect(npm.command).not.toHaveProperty('sandbox');
    const copy = toolResults(root, 'payloads').find((record) => record.id === 'c8')!;
    expect(copy).toMatchObject({ is_error: true, command: { exit_code: 1 } });
    expect(existsSync(path.join(workspace, 'stolen'))).toBe(false);
    expect((await daemon.stop()).code).toBe(0);
  }, 120_000);

  it('a setsid escape ends at timeout_ms; a cancel returns at once; a stop with a cancel and a control in flight is bounded', async () => {
    const timed = commandRoot(
      'tools: { commands: { allow: ["Bash(npm test)"], auto_approve: ["Bash(npm test)"], timeout_ms: 3000 } }\n',
    );
    writeScript(
      timed,
      JSON.stringify({
        responses: {
          worker_agent: [write('c1', 'package.json', ESCAPING_PACKAGE), run('c2', 'npm test'), { json: DONE }],
        },
      }),
    );
    const first = await startDaemon(timed);
    dropJson(timed, 'job.json', { request: 'Run the tests.', request_id: 'timed' });
    const result = await waitFor('the result', () => readResult(timed, 'timed'), {
      timeoutMs: 60_000,
      detail: () => first.stderrTail(),
    });
    expect(result.status).toBe('success');
    const [, npm] = toolResults(timed, 'timed');
    expect(npm.command).toMatchObject({ stopped: 'timeout', exit_code: null });
    expect(npm.ms).toBeLessThan(5000);
    const workspace = path.join(timed, 'workspace', result.session_id);
    expect(existsSync(path.join(workspace, 'heartbeat'))).toBe(true);
    expect(await stopsGrowing(path.join(workspace, 'heartbeat'), 5000)).toBe(true);
    expect((await first.stop()).code).toBe(0);

    // No timeout to help: a cancel ends the command and its escape, and `govflow cancel` returns at once.
    const graceMs = 1500;
    const escapeRoot = () => {
      const root = commandRoot(
        'tools: { commands: { allow: ["Bash(npm test)"], auto_approve: ["Bash(npm test)"], timeout_ms: 600000 } }\n' +
          `daemon: { shutdown_grace_ms: ${graceMs} }\n`,
      );
      const script = [write('c1', 'package.json', ESCAPING_PACKAGE), run('c2', 'npm test'), { json: DONE }];
      writeScript(root, JSON.stringify({ loop: true, responses: { worker_agent: script } }));
      return root;
    };
    const startedIn = async (root: string, requestId: string) => {
      dropJson(root, `${requestId}.json`, { request: 'Run the tests.', request_id: requestId });
      const sessionId = await waitFor(
        `${requestId} to run its command`,
        () => {
          const id = sessionIdOf(root, requestId);
          return id && existsSync(path.join(root, 'workspace', id, 'heartbeat')) ? id : null;
        },
        { timeoutMs: 60_000 },
      );
      return { sessionId, heartbeat: path.join(root, 'workspace', sessionId, 'heartbeat') };
    };
    const root = escapeRoot();
    const daemon = await startDaemon(root);
    const running = await startedIn(root, 'cancel-me');
    const cancelAt = performance.now();
    const cancelled = await runCli(['cancel', running.sessionId, '--root', root, '--reason', 'too long'], {
      timeoutMs: 60_000,
    });
    const cancelMs = performance.now() - cancelAt;
    expect(cancelled.code, cancelled.stderr).toBe(0);
    // The CLI's own start (a Node process) is part of this: generous on a loaded machine.
    expect(cancelMs).toBeLessThan(10_000);
    const ended = readResult(root, 'cancel-me')!;
    expect(ended.status).toBe('cancelled');
    // In the daemon, from the claim of the cancel to the session's end: under a second.
    const control = readSessions(root)
      .find((session) => session.requestId === 'cancel-me')!
      .records.find((record) => record.type === 'control') as unknown as { claimed_at: string };
    expect(Date.parse(ended.finished_at) - Date.parse(control.claimed_at)).toBeLessThan(1000);
    expect(await stopsGrowing(running.heartbeat, 5000)).toBe(true);
    expect((await daemon.stop()).code).toBe(0);

    // Stops, each with a command and its escape running, a cancel of it and a retry in flight:
    // three daemons on three roots, side by side (each waits mostly on its grace period and its
    // heartbeat's silence, so one after the other only added up those waits).
    const stopRound = async (round: number) => {
      const busyRoot = escapeRoot();
      const busyDaemon = await startDaemon(busyRoot);
      const busy = await startedIn(busyRoot, `stop-${round}`);
      const cancel = runCli(['cancel', busy.sessionId, '--root', busyRoot], { timeoutMs: 60_000 });
      dropJson(busyRoot, 'retry.json', { control: 'retry', session_id: busy.sessionId, reason: 'again' });
      const stoppedAt = performance.now();
      const status = await busyDaemon.stop('SIGTERM', 30_000);
      const stopMs = performance.now() - stoppedAt;
      expect(status.code, busyDaemon.stderrTail()).toBe(0);
      expect(stopMs).toBeLessThan(graceMs + 5000);
      await cancel;
      expect(await stopsGrowing(busy.heartbeat, 5000)).toBe(true);
    };
    await Promise.all([1, 2, 3].map(stopRound));
  }, 240_000);

  it('sandbox: none runs commands without one, says so on the journal and the entry; a kill -9 leaves nothing running', async () => {
    const NODE = process.execPath;
    const slow = `${NODE} slow.js`;
    const root = commandRoot(
      `tools: { commands: { allow: ["Bash(${slow})"], auto_approve: ["Bash(${slow})"], timeout_ms: 60000, sandbox: none } }\n`,
    );
    // Writes its pid (the host's: no namespace), then waits a minute.
    const body = "require('fs').writeFileSync('pid-' + process.pid, ''); setTimeout(() => {}, 60000);";
    writeScript(
      root,
      JSON.stringify({ responses: { worker_agent: [write('c1', 'slow.js', body), run('c2', slow), { json: DONE }] } }),
    );
    const first = await startDaemon(root);
    dropJson(root, 'job.json', { request: 'Run it.', request_id: 'bare' });
    const pid = await waitFor(
      'the command to start',
      () => {
        const id = sessionIdOf(root, 'bare');
        const folder = id ? path.join(root, 'workspace', id) : null;
        const found =
          folder && existsSync(folder) ? readdirSync(folder).find((name) => name.startsWith('pid-')) : undefined;
        return found ? Number(found.slice(4)) : null;
      },
      { timeoutMs: 30_000, detail: () => first.stderrTail() },
    );
    await first.kill9();
    const second = await startDaemon(root);
    // The next daemon ends the group the killed one left running, and does not run the call again.
    await waitFor('the orphan to be killed', () => !isProcessAlive(pid), { timeoutMs: 15_000 });
    const result = await waitFor('the result', () => readResult(root, 'bare'), {
      timeoutMs: 30_000,
      detail: () => second.stderrTail(),
    });
    expect(result.status).toBe('success');
    const folder = path.join(root, 'workspace', result.session_id);
    expect(readdirSync(folder).filter((name) => name.startsWith('pid-'))).toHaveLength(1);
    const [, interrupted] = toolResults(root, 'bare');
    expect(interrupted.output).toMatch(/may or may not have run/);
    expect((await second.stop()).code).toBe(0);

    // A call that runs to its end carries "sandbox": "none" on its record and on the [TOOL_CALLS] item.
    const quick = `${NODE} --version`;
    const bare = commandRoot(
      `tools: { commands: { allow: ["Bash(${quick})"], auto_approve: ["Bash(${quick})"], sandbox: none } }\n`,
    );
    writeScript(bare, JSON.stringify({ responses: { worker_agent: [run('c1', quick), { json: DONE }] } }));
    const third = await startDaemon(bare);
    dropJson(bare, 'job.json', { request: 'Run it.', request_id: 'quick' });
    expect((await waitFor('the result', () => readResult(bare, 'quick'), { timeoutMs: 30_000 })).status).toBe(
      'success',
    );
    expect(toolResults(bare, 'quick')[0].command).toMatchObject({ exit_code: 0, sandbox: 'none' });
    const entry = (await readAuditEntries(bare)).find((item) => item.agent === 'worker_agent');
    expect(JSON.stringify(entry)).toMatch(/\\?"sandbox\\?":\s*\\?"none/);
    expect((await third.stop()).code).toBe(0);
  }, 120_000);
});
