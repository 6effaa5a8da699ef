/**
 * A Claude Code agent file loaded from agents.claude_code_dir by `govflow start` as a real child
 * process (SPEC §19): it edits a file, greps the workspace and asks for an allowed command, which
 * waits for a person; the command a model wrapped in shell syntax is refused and never runs; a
 * bound approval dropped in the inbox lets the allowed one run; the audit entry records what ran.
 * An edit of the Claude Code folder reaches the running daemon like an edit of governance/agents.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argumentsSha256 } from '../../src/message/canonical-json.js';
import { isProcessAlive } from '../../src/store/process-alive.js';
import { buildDistOnce } from './build-once.js';
import {
  answer,
  cleanupAll,
  dropJson,
  makeRoot,
  readAuditEntries,
  startDaemon,
  waitFor,
  writeScript,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterAll(cleanupAll);

const NODE = process.execPath;
const BUILD = `${NODE} build.js`;

const calls = (id: string, name: string, input: Record<string, unknown>) => ({
  tool_calls: [{ id, name, input }],
});

const BUILDER_SCRIPT = [
  calls('c1', 'write_file', { path: 'version.txt', content: 'version=1.0.0\n' }),
  calls('c2', 'write_file', {
    path: 'build.js',
    content: `const fs = require('fs'); fs.writeFileSync('dist.txt', fs.readFileSync('version.txt', 'utf8') + process.argv.slice(2).join(' '));`,
  }),
  calls('c3', 'edit_file', { path: 'version.txt', old_string: '1.0.0', new_string: '1.1.0' }),
  calls('c4', 'search_files', { pattern: 'version=', literal: true }),
  calls('c5', 'run_command', { command: `${BUILD} --release; touch hacked` }),
  calls('c6', 'run_command', { command: `${BUILD} --release` }),
  { json: answer({ content: 'built 1.1.0', contentType: 'text', next: null }) },
];

function claudeRoot(
  commands = `{ allow: ["Bash(${BUILD}:*)"], timeout_ms: 20000 }`,
  builder: unknown[] = BUILDER_SCRIPT,
): string {
  const root = makeRoot(
    [
      'timezone: UTC',
      'provider: { kind: scripted, script: script.json }',
      'agents:',
      '  claude_code_dir: .claude/agents',
      'tools:',
      `  commands: ${commands}`,
      '',
    ].join('\n'),
  );
  // Only two agents: an entry that hands over, and the Claude Code file.
  rmSync(path.join(root, 'governance', 'agents'), { recursive: true });
  mkdirSync(path.join(root, 'governance', 'agents'));
  writeFileSync(
    path.join(root, 'governance', 'agents', 'lead_agent.md'),
    [
      '---',
      'name: lead_agent',
      'type: governance',
      'description: Hands the work over.',
      'entry: true',
      'next: [release_builder]',
      'content_type: brief',
      '---',
      'Hand the request to release_builder.',
      '',
    ].join('\n'),
  );
  mkdirSync(path.join(root, '.claude', 'agents'), { recursive: true });
  writeFileSync(
    path.join(root, '.claude', 'agents', 'release-builder.md'),
    [
      '---',
      'name: release.builder',
      'description: Builds a release. Use when: "ship it", "cut a release". Steps: bump, build, check.',
      'tools: Read, Write, Edit, Grep, Bash, TodoWrite',
      'model: inherit',
      'color: green',
      '---',
      'Bump the version, build, and report.',
      '',
    ].join('\n'),
  );
  writeScript(
    root,
    JSON.stringify({
      responses: {
        lead_agent: [
          { json: answer({ content: { brief: 'release' }, contentType: 'brief', next: 'release_builder' }) },
        ],
        release_builder: builder,
      },
    }),
  );
  return root;
}

function resultOf(root: string, requestId: string): Record<string, any> | null {
  const file = path.join(root, 'system', 'outbox', `${requestId}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>) : null;
}

describe('govflow start with a Claude Code agent folder', () => {
  it('runs the agent: edit, grep, a refused shell command, an approved command; picks up edits of the folder', async () => {
    const root = claudeRoot();
    const daemon = await startDaemon(root, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    dropJson(root, 'release.json', { request: 'Cut the 1.1.0 release.', request_id: 'release' });
    const pending = await waitFor(
      'the pending result',
      () => {
        const result = resultOf(root, 'release');
        return result?.status === 'pending' ? result : null;
      },
      { timeoutMs: 30_000, detail: () => daemon.stderrTail() },
    );
    const command = `${BUILD} --release`;
    expect(pending).toMatchObject({
      awaiting: 'approval',
      approval: { call_id: 'c6', tool: 'run_command', args_sha256: argumentsSha256({ command }) },
    });
    const workspace = path.join(root, 'workspace', pending.session_id);
    expect(readFileSync(path.join(workspace, 'version.txt'), 'utf8')).toBe('version=1.1.0\n');
    expect(existsSync(path.join(workspace, 'dist.txt'))).toBe(false);

    dropJson(root, 'approve.json', {
      session_id: pending.session_id,
      call_id: 'c6',
      args_sha256: argumentsSha256({ command }),
      approve: true,
      reason: 'release approved',
    });
    const finished = await waitFor(
      'the success result',
      () => {
        const result = resultOf(root, 'release');
        return result?.status === 'success' ? result : null;
      },
      { timeoutMs: 30_000, detail: () => daemon.stderrTail() },
    );
    expect(finished.output).toBe('built 1.1.0');
    expect(readFileSync(path.join(workspace, 'dist.txt'), 'utf8')).toBe('version=1.1.0\n--release');
    expect(existsSync(path.join(workspace, 'hacked'))).toBe(false);

    const entry = (await readAuditEntries(root)).find((item) => item.agent === 'release_builder')!;
    const text = JSON.stringify(entry);
    expect(text).toContain('command_not_allowed');
    expect(text).toMatch(/run_command.*exit_code.*0.*output_sha256/);
    expect(text).toContain('release approved');

    // An edit of the Claude Code folder reaches the running daemon.
    const file = path.join(root, '.claude', 'agents', 'release-builder.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Bump the version', 'Bump the minor version'));
    await waitFor('the reload', () => daemon.stderr.includes('governance reloaded'), {
      detail: () => daemon.stderrTail(),
    });
    const status = await daemon.stop('SIGTERM');
    expect(status.code).toBe(0);
  }, 90_000);

  it('a command left running by a kill -9 of the daemon is killed with its children at the next start', async () => {
    const slow = `${NODE} slow.js`;
    // The command and a child it starts (pids in started-<pid>, child-<pid>) would write their
    // markers after 60 s; run again after a restart (a started- file is there), after 0.5 s.
    const body = [
      "const fs = require('fs');",
      "const { spawn } = require('child_process');",
      "const delay = fs.readdirSync('.').some((name) => name.startsWith('started-')) ? 500 : 60000;",
      "fs.writeFileSync('started-' + process.pid, '');",
      "const code = \"setTimeout(() => require('fs').writeFileSync('child-finished-\" + process.pid + \"', ''), \" + delay + \"); " +
        'setInterval(() => {}, 1000);";',
      "const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });",
      'child.unref();',
      "fs.writeFileSync('child-' + child.pid, '');",
      "setTimeout(() => fs.writeFileSync('finished-' + process.pid, ''), delay + 500);",
    ].join('\n');
    const root = claudeRoot(`{ allow: ["Bash(${slow})"], auto_approve: ["Bash(${slow})"], timeout_ms: 60000 }`, [
      calls('c1', 'write_file', { path: 'slow.js', content: body }),
      calls('c2', 'run_command', { command: slow }),
      { json: answer({ content: 'done', contentType: 'text', next: null }) },
    ]);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const first = await startDaemon(root, { env });
    dropJson(root, 'slow.json', { request: 'Run the slow job.', request_id: 'slow' });
    const pidsOf = (prefix: string) => {
      const folder = path.join(root, 'workspace');
      return (existsSync(folder) ? readdirSync(folder) : []).flatMap((session) =>
        readdirSync(path.join(folder, session))
          .filter((name) => name.startsWith(prefix))
          .map((name) => ({ session, pid: Number(name.slice(prefix.length)) })),
      );
    };
    const [started] = await waitFor(
      'the command and its child to start',
      () => {
        const found = pidsOf('started-');
        return found.length === 1 && pidsOf('child-').length === 1 ? found : null;
      },
      { timeoutMs: 30_000, detail: () => first.stderrTail() },
    );
    const [child] = pidsOf('child-');
    expect(readdirSync(path.join(root, 'system', 'state', 'commands'))).toHaveLength(1);
    await first.kill9();
    // Orphaned, both still run; the next daemon ends their group before resuming the session.
    expect([isProcessAlive(started.pid), isProcessAlive(child.pid)]).toEqual([true, true]);
    const second = await startDaemon(root, { env });
    await waitFor('the orphans to be killed', () => !isProcessAlive(started.pid) && !isProcessAlive(child.pid), {
      timeoutMs: 15_000,
    });
    // The session resumes: the call whose result was never journaled runs again, to its end.
    await waitFor('the success result', () => resultOf(root, 'slow')?.status === 'success', {
      timeoutMs: 40_000,
      detail: () => second.stderrTail(),
    });
    const files = readdirSync(path.join(root, 'workspace', started.session));
    expect(files).not.toContain(`finished-${started.pid}`);
    expect(files).not.toContain(`child-finished-${started.pid}`);
    // The run after the restart went to its end, its child's marker included; the child, which
    // would run forever, ended with it.
    const rerun = files.filter((name) => name.startsWith('finished-'));
    expect(rerun).toHaveLength(1);
    expect(files).toContain(`child-${rerun[0]}`);
    const children = files.filter((name) => /^child-\d+$/.test(name)).map((name) => Number(name.slice(6)));
    expect(children).toHaveLength(2);
    await waitFor('every child to be gone', () => children.every((pid) => !isProcessAlive(pid)));
    expect((await second.stop('SIGTERM')).code).toBe(0);
  }, 120_000);
});
