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

  it('a command a kill -9 interrupted ends with the daemon and is not run again; an approved one asks again (SPEC §15)', async () => {
    const name = `count-${process.pid}-${Date.now()}.js`;
    const count = `${NODE} ${name}`;
    // Adds one to the counter, then waits a minute (the daemon is killed meanwhile).
    const body = [
      "const fs = require('fs');",
      "const runs = fs.existsSync('counter') ? Number(fs.readFileSync('counter', 'utf8')) : 0;",
      "fs.writeFileSync('counter', String(runs + 1));",
      'setTimeout(() => {}, 60000);',
    ].join('\n');
    const script = [
      calls('c1', 'write_file', { path: name, content: body }),
      calls('c2', 'run_command', { command: count }),
      { json: answer({ content: 'done', contentType: 'text', next: null }) },
    ];
    const running = () =>
      readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(name);
          } catch {
            return false;
          }
        });
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const counterOf = (root: string) => {
      const folder = path.join(root, 'workspace');
      const [session] = existsSync(folder) ? readdirSync(folder) : [];
      const file = session ? path.join(folder, session, 'counter') : '';
      return session && existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0;
    };

    // Auto-approved: after the restart the call is not run again; its result says it may have run.
    const auto = claudeRoot(
      `{ allow: ["Bash(${count})"], auto_approve: ["Bash(${count})"], timeout_ms: 60000 }`,
      script,
    );
    const first = await startDaemon(auto, { env });
    dropJson(auto, 'count.json', { request: 'Count.', request_id: 'count' });
    await waitFor('the command to run', () => counterOf(auto) === 1 && running().length > 0, {
      timeoutMs: 30_000,
      detail: () => first.stderrTail(),
    });
    await first.kill9();
    // Its sandbox died with the daemon: nothing of the command is left running.
    await waitFor('the command to end with the daemon', () => running().length === 0, { timeoutMs: 5000 });
    const second = await startDaemon(auto, { env });
    await waitFor('the success result', () => resultOf(auto, 'count')?.status === 'success', {
      timeoutMs: 40_000,
      detail: () => second.stderrTail(),
    });
    expect(counterOf(auto)).toBe(1);
    const session = readdirSync(path.join(auto, 'system', 'sessions'))[0];
    const records = readFileSync(path.join(auto, 'system', 'sessions', session, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, any>);
    expect(records.filter((record) => record.type === 'tool_start' && record.id === 'c2')).toHaveLength(1);
    const [result] = records.filter((record) => record.type === 'tool_result' && record.id === 'c2');
    expect(result).toMatchObject({ is_error: true, refused: null });
    expect(result.output).toMatch(/may or may not have run, and it is not run again/);
    expect((await second.stop('SIGTERM')).code).toBe(0);

    // Approval-gated: the approval was used by the run the crash interrupted; the call asks again.
    const gated = claudeRoot(`{ allow: ["Bash(${count})"], timeout_ms: 60000 }`, script);
    const third = await startDaemon(gated, { env });
    dropJson(gated, 'count.json', { request: 'Count.', request_id: 'count' });
    const pendingOf = () => {
      const pending = resultOf(gated, 'count');
      return pending?.status === 'pending' ? pending : null;
    };
    const asked = await waitFor('the approval question', pendingOf, { timeoutMs: 30_000 });
    const approval = {
      session_id: asked.session_id,
      call_id: 'c2',
      args_sha256: argumentsSha256({ command: count }),
      approve: true,
    };
    dropJson(gated, 'approve-1.json', approval);
    await waitFor('the approved run', () => counterOf(gated) === 1 && running().length > 0, { timeoutMs: 30_000 });
    await third.kill9();
    await waitFor('the command to end with the daemon', () => running().length === 0, { timeoutMs: 5000 });
    rmSync(path.join(gated, 'system', 'outbox', 'count.json'), { force: true });
    const fourth = await startDaemon(gated, { env });
    const again = await waitFor('the approval asked again', pendingOf, {
      timeoutMs: 30_000,
      detail: () => fourth.stderrTail(),
    });
    expect(again).toMatchObject({ awaiting: 'approval', approval: { call_id: 'c2' } });
    expect(JSON.stringify(again)).toMatch(/may or may not have run/);
    expect(counterOf(gated)).toBe(1);
    dropJson(gated, 'approve-2.json', approval);
    // Approved anew, it runs once more (and is killed at the stop, the test has what it needs).
    await waitFor('the second approved run', () => counterOf(gated) === 2, { timeoutMs: 30_000 });
    expect((await fourth.stop('SIGTERM')).code).toBe(0);
    expect(running()).toEqual([]);
    expect(counterOf(gated)).toBe(2);
  }, 180_000);
});
