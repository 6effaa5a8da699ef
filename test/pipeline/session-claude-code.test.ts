/**
 * A Claude Code agent file at work in a real session (SPEC §19), through the scripted provider on
 * a real temp root: it writes, edits and greps workspace files and runs commands. An auto-approved
 * command runs at once; any other allowed one waits for a person (bound approval) and runs once
 * approved; every call is journaled and on the audit entry with argv, exit code and output hash.
 * Refused commands — shell metacharacters, not allowed, past the timeout, past the output cap —
 * never do what they would: the marker files they would write do not exist.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRuntime } from '../../src/daemon/runtime.js';
import { parseRequestFile } from '../../src/intake/request-file.js';
import type { ScriptedResponse } from '../../src/llm/scripted-provider.js';
import { argumentsSha256 } from '../../src/message/canonical-json.js';
import type { ToolResultRecord } from '../../src/store/tool-journal-records.js';
import {
  agentFile,
  agentMessage,
  auditEntries,
  journalOf,
  makeTempDir,
  readResult,
  removeTempDirs,
  scripted,
  verifyRoot,
  writeFile,
} from './pipeline-test-helpers.js';
import { processesGone } from '../support/processes.js';

afterEach(removeTempDirs);

const NODE = process.execPath;
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

const CHECK_SCRIPT = `const text = require('fs').readFileSync('src/app.js', 'utf8');
if (!text.includes('retries = 5')) { console.log('check failed: retries'); process.exit(1); }
console.log('check passed');`;

/** A root whose entry agent hands over to the Claude Code file `code-fixer.md`. */
function claudeRoot(commands: string): string {
  const root = makeTempDir('govflow-claude-session-');
  writeFile(root, 'govflow.config.yaml', `timezone: UTC\ntools:\n  commands:\n${commands}`);
  writeFile(root, 'context/application.md', '# App\nFixes code.\n');
  writeFile(
    root,
    'governance/agents/lead_agent.md',
    agentFile([
      'name: lead_agent',
      'type: governance',
      'description: Hands the work to the fixer.',
      'entry: true',
      'next: [code_fixer]',
      'content_type: brief',
    ]),
  );
  writeFile(
    root,
    'governance/agents/code-fixer.md',
    [
      '---',
      'name: code-fixer',
      "description: Fixes failing checks. Use when: a check fails. Triggers on: 'fix', 'failing test'.",
      'tools: Read, Write, Edit, MultiEdit, Grep, Bash, WebSearch',
      'model: sonnet',
      'color: red',
      '---',
      'Fix the code until the check passes.',
      '',
    ].join('\n'),
  );
  return root;
}

const lead = agentMessage({ content: { brief: 'fix the retries' }, contentType: 'brief', next: 'code_fixer' });
const done = agentMessage({ content: 'fixed: retries = 5, check passes', contentType: 'text' });
const call = (id: string, name: string, input: Record<string, unknown>): ScriptedResponse => ({
  tool_calls: [{ id, name, input }],
});

async function start(root: string, fixer: Array<string | ScriptedResponse>, requestId = 'req-1') {
  const provider = scripted({ lead_agent: [lead], code_fixer: fixer });
  const runtime = await openRuntime(root, { provider, env: ENV });
  try {
    const outcome = await runtime.runner.startSession(
      { requestId, text: 'Fix the failing check.', sourceFile: 'request.txt', claimedPath: null },
      new AbortController().signal,
    );
    return { outcome, provider };
  } finally {
    await runtime.close();
  }
}

async function approve(root: string, sessionId: string, decision: Record<string, unknown>, fixer: unknown[]) {
  const parsed = parseRequestFile(
    'approval.json',
    Buffer.from(JSON.stringify({ session_id: sessionId, ...decision })),
    1 << 20,
  );
  if (parsed.kind !== 'reply') throw new Error(`not a reply: ${JSON.stringify(parsed)}`);
  const provider = scripted({ lead_agent: [lead], code_fixer: fixer as Array<string | ScriptedResponse> });
  const runtime = await openRuntime(root, { provider, env: ENV });
  try {
    return await runtime.runner.replyToSession(
      sessionId,
      { text: parsed.reply, sourceFile: 'approval.json', claimedPath: null, approval: parsed.approval },
      new AbortController().signal,
    );
  } finally {
    await runtime.close();
  }
}

function toolResults(root: string, sessionId: string): ToolResultRecord[] {
  return journalOf(root, sessionId).filter((record): record is ToolResultRecord => record.type === 'tool_result');
}

async function fixerEntry(root: string): Promise<string> {
  const entries = await auditEntries(root);
  return entries.find((entry) => entry.body.includes('[AGENT: code_fixer]'))!.body;
}

describe('a Claude Code agent in a session', () => {
  it('writes, edits and greps workspace files, then runs an auto-approved command; all journaled and audited', async () => {
    const check = `${NODE} check.js`;
    const root = claudeRoot(`    allow: ["Bash(${check})"]\n    auto_approve: ["Bash(${check})"]\n`);
    const fixer = [
      call('c1', 'write_file', { path: 'src/app.js', content: 'const retries = 3;\nmodule.exports = { retries };\n' }),
      call('c2', 'write_file', { path: 'check.js', content: CHECK_SCRIPT }),
      call('c3', 'edit_file', { path: 'src/app.js', old_string: 'retries = 3', new_string: 'retries = 5' }),
      call('c4', 'search_files', { pattern: 'retries = \\d', path: 'src', glob: '*.js' }),
      call('c5', 'run_command', { command: check }),
      done,
    ];
    const { outcome, provider } = await start(root, fixer);
    expect(outcome.status).toBe('success');
    // Offered natively: the mapped tools only (WebSearch left out); MultiEdit and Edit are one edit_file.
    expect(provider.calls.find((item) => item.agent === 'code_fixer')!.tools).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'search_files',
      'run_command',
    ]);
    const workspace = path.join(root, 'workspace', outcome.sessionId);
    expect(readFileSync(path.join(workspace, 'src/app.js'), 'utf8')).toBe(
      'const retries = 5;\nmodule.exports = { retries };\n',
    );
    const results = toolResults(root, outcome.sessionId);
    expect(results.map((result) => [result.id, result.name, result.is_error, result.refused])).toEqual([
      ['c1', 'write_file', false, null],
      ['c2', 'write_file', false, null],
      ['c3', 'edit_file', false, null],
      ['c4', 'search_files', false, null],
      ['c5', 'run_command', false, null],
    ]);
    expect(results[2].output).toBe(
      `edited src/app.js: replaced 1 occurrence (${Buffer.byteLength('const retries = 5;\nmodule.exports = { retries };\n')} bytes now)`,
    );
    expect(results[3].output).toBe('src/app.js:1:const retries = 5;');
    const command = results[4].command!;
    expect(command).toMatchObject({ argv: [NODE, 'check.js'], exit_code: 0, stopped: null });
    expect(command.output_sha256).toBe(createHash('sha256').update('check passed\n').digest('hex'));
    expect(results[4].output).toMatch(/exit code 0 .*\ncheck passed\n$/);
    const body = await fixerEntry(root);
    expect(body).toContain(
      `{"id":"c5","name":"run_command","is_error":false,"ms":${results[4].ms},"argv":${JSON.stringify([NODE, 'check.js'])},"exit_code":0,` +
        `"output_sha256":"${command.output_sha256}"}`,
    );
    expect(body).toMatch(
      /\[TOOL_CALLS\]: \[\{"id":"c1","name":"write_file".*"id":"c3","name":"edit_file".*"id":"c4","name":"search_files"/,
    );
    expect(body).not.toContain('[APPROVALS]');
    expect(body).not.toContain('[VIOLATIONS]');
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it('waits for a person before a command that is not auto-approved, and runs it once approved', async () => {
    const build = `${NODE} build.js`;
    const root = claudeRoot(`    allow: ["Bash(${build}:*)"]\n`);
    const command = `${build} --out dist`;
    const fixer = [
      call('c1', 'write_file', {
        path: 'build.js',
        content: `require('fs').writeFileSync('built.txt', process.argv.slice(2).join(' '));`,
      }),
      call('c2', 'run_command', { command }),
      done,
    ];
    const { outcome } = await start(root, fixer);
    expect(outcome.status).toBe('pending');
    const pending = readResult(root, 'req-1');
    const argsSha256 = argumentsSha256({ command });
    expect(pending).toMatchObject({
      status: 'pending',
      awaiting: 'approval',
      approval: { call_id: 'c2', tool: 'run_command', args_sha256: argsSha256 },
    });
    expect(pending.message).toContain(`code_fixer wants to call run_command with input {"command":"${command}"}`);
    const workspace = path.join(root, 'workspace', outcome.sessionId);
    expect(existsSync(path.join(workspace, 'built.txt'))).toBe(false);

    const resumed = await approve(
      root,
      outcome.sessionId,
      { call_id: 'c2', args_sha256: argsSha256, approve: true, reason: 'build is safe' },
      fixer,
    );
    expect(resumed.status).toBe('success');
    expect(readFileSync(path.join(workspace, 'built.txt'), 'utf8')).toBe('--out dist');
    const body = await fixerEntry(root);
    expect(body).toMatch(
      new RegExp(
        String.raw`\[APPROVALS\]: \[\{"call_id":"c2","tool":"run_command","approve":true,.*"reason":"build is safe",` +
          String.raw`"args_sha256":"[0-9a-f]{64}","executed_args_match":true\}\]`,
      ),
    );
    expect(body).toMatch(
      /"id":"c2","name":"run_command","is_error":false,"ms":\d+,"argv":\[[^\]]*"--out","dist"\],"exit_code":0/,
    );
  });

  it('a denied command never runs; the model reads the denial', async () => {
    const build = `${NODE} build.js`;
    const root = claudeRoot(`    allow: ["Bash(${build})"]\n`);
    const fixer = [
      call('c1', 'write_file', { path: 'build.js', content: `require('fs').writeFileSync('marker', 'ran');` }),
      call('c2', 'run_command', { command: build }),
      done,
    ];
    const { outcome } = await start(root, fixer);
    const resumed = await approve(root, outcome.sessionId, { approve: false, reason: 'not today' }, fixer);
    expect(resumed.status).toBe('success');
    expect(existsSync(path.join(root, 'workspace', outcome.sessionId, 'marker'))).toBe(false);
    expect(toolResults(root, outcome.sessionId).find((result) => result.id === 'c2')).toMatchObject({
      refused: 'approval_denied',
      output: expect.stringContaining('run_command was not run: a person'),
    });
  });

  it('refused commands never do what they would: metacharacters, not allowed, timeout, output over the cap', async () => {
    const marker = `${NODE} marker.js`;
    const slow = `${NODE} slow.js`;
    const loud = `${NODE} loud.js`;
    const root = claudeRoot(
      [
        `    allow: ["Bash(${marker} ok)", "Bash(${slow})", "Bash(${loud})"]`,
        `    auto_approve: ["Bash(${marker} ok)", "Bash(${slow})", "Bash(${loud})"]`,
        '    timeout_ms: 1500',
        '    max_output_bytes: 2000',
        '',
      ].join('\n'),
    );
    const writeMarker = `require('fs').writeFileSync('marker-' + process.argv[2], 'ran');`;
    const fixer = [
      {
        tool_calls: [
          { id: 'w1', name: 'write_file', input: { path: 'marker.js', content: writeMarker } },
          {
            id: 'w2',
            name: 'write_file',
            input: {
              path: 'slow.js',
              content: `setTimeout(() => require('fs').writeFileSync('marker-slow', 'late'), 30000);`,
            },
          },
          {
            id: 'w3',
            name: 'write_file',
            input: {
              path: 'loud.js',
              content: `process.stdout.write('y'.repeat(10000)); setTimeout(() => require('fs').writeFileSync('marker-loud', 'late'), 30000);`,
            },
          },
        ],
      },
      {
        tool_calls: [
          { id: 'r1', name: 'run_command', input: { command: `${marker} ok; ${marker} semicolon` } },
          { id: 'r2', name: 'run_command', input: { command: `${marker} ok && ${marker} and` } },
          { id: 'r3', name: 'run_command', input: { command: `${marker} ok | ${marker} pipe` } },
          { id: 'r4', name: 'run_command', input: { command: `${marker} $(echo subst)` } },
          { id: 'r5', name: 'run_command', input: { command: `${marker} other` } },
          { id: 'r6', name: 'run_command', input: { command: slow } },
          { id: 'r7', name: 'run_command', input: { command: loud } },
        ],
      },
      done,
    ] satisfies Array<string | ScriptedResponse>;
    const { outcome } = await start(root, fixer);
    expect(outcome.status).toBe('success');
    const workspace = path.join(root, 'workspace', outcome.sessionId);
    // Every process the commands started is gone, so no marker can appear later.
    await processesGone(workspace);
    for (const name of [
      'marker-ok',
      'marker-semicolon',
      'marker-and',
      'marker-pipe',
      'marker-other',
      'marker-slow',
      'marker-loud',
    ])
      expect(existsSync(path.join(workspace, name)), name).toBe(false);
    const results = toolResults(root, outcome.sessionId).filter((result) => result.id.startsWith('r'));
    expect(results.map((result) => [result.id, result.refused, result.is_error])).toEqual([
      ['r1', 'command_not_allowed', true],
      ['r2', 'command_not_allowed', true],
      ['r3', 'command_not_allowed', true],
      ['r4', 'command_not_allowed', true],
      ['r5', 'command_not_allowed', true],
      ['r6', null, true],
      ['r7', null, true],
    ]);
    expect(results[0].output).toMatch(/^run_command was not run: the command uses the shell's command separator ";"/);
    expect(results[4].output).toMatch(/is not an allowed command/);
    expect(results[5]).toMatchObject({ command: { stopped: 'timeout', exit_code: null } });
    expect(results[6]).toMatchObject({ command: { stopped: 'output_limit', exit_code: null } });
    const body = await fixerEntry(root);
    const violations = JSON.parse(/\[VIOLATIONS\]: (.*)/.exec(body)![1]) as Array<{ kind: string; detail: string }>;
    expect(violations.map((violation) => violation.kind)).toEqual(Array(5).fill('command_not_allowed'));
    expect(violations[4].detail).toBe(`${marker} other`);
    expect(body).toMatch(
      /"id":"r6","name":"run_command","is_error":true,"ms":\d+,"argv":\[[^\]]*"slow\.js"\],"exit_code":null/,
    );
  }, 30_000);
});
