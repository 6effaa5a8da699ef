/**
 * The tool loop in a real session (scripted model, real temp root, real files): calls run and are
 * journaled before the next turn, refusals of tools not offered are violations on the audit entry,
 * max_turns ends in LOOP_DETECTED, evidence files are checked and hashed, approvals pause and
 * resume, and bad tool input or huge results end that call with a clear error.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedResponse } from '../../src/llm/scripted-provider.js';
import { openRuntime } from '../../src/daemon/runtime.js';
import type { SessionEventMap } from '../../src/pipeline/session-events.js';
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

afterEach(removeTempDirs);

function toolRoot(agentLines: string[], config = ''): string {
  const root = makeTempDir('govflow-tools-');
  writeFile(root, 'govflow.config.yaml', `timezone: UTC\n${config}`);
  writeFile(root, 'context/application.md', '# App\nWrites reports.\n');
  writeFile(
    root,
    'governance/agents/writer_agent.md',
    agentFile([
      'name: writer_agent',
      'type: executional',
      'description: Writes reports.',
      'entry: true',
      'next: []',
      'content_type: report',
      ...agentLines,
    ]),
  );
  return root;
}

const answer = (extra: Record<string, unknown> = {}) => {
  const message = JSON.parse(agentMessage({ content: { report: 'done' }, contentType: 'report' })) as Record<
    string,
    any
  >;
  message.audit = { ...message.audit, ...extra };
  return JSON.stringify(message);
};

const calls = (
  ...entries: Array<{ name: string; input?: unknown; input_text?: string; id?: string }>
): ScriptedResponse => ({ tool_calls: entries });

async function run(root: string, responses: Array<string | ScriptedResponse>, requestId = 'req-1') {
  const provider = scripted({ writer_agent: responses });
  const runtime = await openRuntime(root, { provider, env: {} });
  const events: unknown[][] = [];
  runtime.events.on('tool_call_start', (payload: SessionEventMap['tool_call_start']) =>
    events.push(['start', payload.name]),
  );
  runtime.events.on('tool_call_result', (payload: SessionEventMap['tool_call_result']) =>
    events.push(['result', payload.name, payload.isError]),
  );
  try {
    const outcome = await runtime.runner.startSession(
      { requestId, text: 'Write the report.', sourceFile: 'request.txt', claimedPath: null },
      new AbortController().signal,
    );
    return { outcome, provider, events, runtime };
  } finally {
    await runtime.close();
  }
}

describe('the tool loop', () => {
  it('runs allowed calls, refuses others as violations, journals every call and result, and hashes evidence', async () => {
    const root = toolRoot(['tools: [write_file, list_files]']);
    const { outcome, provider, events } = await run(root, [
      calls(
        { name: 'write_file', input: { path: 'out/report.md', content: '# Report\n' }, id: 'c1' },
        { name: 'http_get', input: { url: 'http://example.com' }, id: 'c2' },
      ),
      calls({ name: 'list_files', input: { path: 'out' }, id: 'c3' }),
      answer({ evidence_files: ['out/report.md'] }),
    ]);
    expect(outcome.status).toBe('success');
    const workspaceFile = path.join(root, 'workspace', outcome.sessionId, 'out/report.md');
    expect(readFileSync(workspaceFile, 'utf8')).toBe('# Report\n');
    // Offered natively: only the agent's tools; each later turn replays the earlier ones.
    expect(provider.calls.map((call) => [call.tools, call.toolTurns])).toEqual([
      [['write_file', 'list_files'], 0],
      [['write_file', 'list_files'], 1],
      [['write_file', 'list_files'], 2],
    ]);
    const records = journalOf(root, outcome.sessionId);
    const kinds = records.map((record) => record.type).filter((type) => type !== 'session');
    expect(kinds).toEqual([
      'exchange',
      'tool_turn',
      'tool_result',
      'tool_result',
      'exchange',
      'tool_turn',
      'tool_result',
      'exchange',
      'message',
      'finished',
    ]);
    const results = records.filter((record) => record.type === 'tool_result');
    expect(results.map((record) => [record.id, record.is_error, record.refused])).toEqual([
      ['c1', false, null],
      ['c2', true, 'tool_not_allowed'],
      ['c3', false, null],
    ]);
    expect((results[1] as { output: string }).output).toMatch(
      /tool "http_get" is not available to writer_agent; it was not run \(the tools you may call are: write_file, list_files\)/,
    );
    expect((results[2] as { output: string }).output).toBe('out:\nreport.md 9');
    expect(events).toEqual([
      ['start', 'write_file'],
      ['result', 'write_file', false],
      ['start', 'list_files'],
      ['result', 'list_files', false],
    ]);

    const [entry] = await auditEntries(root);
    const raw = entry.body;
    expect(raw).toMatch(
      new RegExp(
        String.raw`\[TOOL_CALLS\]: \[\{"id":"c1","name":"write_file","is_error":false,"ms":\d+\},\{"id":"c2",` +
          String.raw`"name":"http_get","is_error":true,"ms":0\},\{"id":"c3","name":"list_files","is_error":false,` +
          String.raw`"ms":\d+\}\]`,
      ),
    );
    expect(raw).toContain('[VIOLATIONS]: [{"kind":"tool_not_allowed","detail":"http_get"}]');
    const sha = createHash('sha256').update('# Report\n').digest('hex');
    expect(raw).toContain(`[EVIDENCE]: [{"path":"out/report.md","sha256":"${sha}","bytes":9}]`);
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it('a later turn that repeats a call id gets the journaled result: the call runs once and is on the entry once', async () => {
    const root = toolRoot(['tools: [write_file]']);
    const { outcome, provider, events } = await run(root, [
      calls(
        { name: 'write_file', input: { path: 'a.md', content: 'first' }, id: 'c1' },
        { name: 'read_file', input: { path: 'a.md' }, id: 'c2' },
      ),
      calls(
        { name: 'write_file', input: { path: 'a.md', content: 'second' }, id: 'c1' },
        { name: 'read_file', input: { path: 'a.md' }, id: 'c2' },
      ),
      answer(),
    ]);
    expect(outcome.status).toBe('success');
    expect(readFileSync(path.join(root, 'workspace', outcome.sessionId, 'a.md'), 'utf8')).toBe('first');
    expect(events).toEqual([
      ['start', 'write_file'],
      ['result', 'write_file', false],
    ]);
    // The model reads the same results in both turns.
    const results = journalOf(root, outcome.sessionId).filter((record) => record.type === 'tool_result');
    expect(results.map((record) => [record.id, record.is_error, record.refused])).toEqual([
      ['c1', false, null],
      ['c2', true, 'tool_not_allowed'],
      ['c1', false, null],
      ['c2', true, 'tool_not_allowed'],
    ]);
    expect(provider.calls).toHaveLength(3);

    const [entry] = await auditEntries(root);
    expect(entry.tools?.toolCalls?.map((call) => call.id)).toEqual(['c1', 'c2']);
    expect(entry.tools?.violations).toEqual([{ kind: 'tool_not_allowed', detail: 'read_file' }]);
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it('an agent without tools is offered none and its calls are refused', async () => {
    const root = toolRoot([]);
    const { outcome, provider } = await run(root, [
      calls({ name: 'write_file', input: { path: 'x', content: 'y' } }),
      answer(),
    ]);
    expect(outcome.status).toBe('success');
    expect(provider.calls[0].tools).toEqual([]);
    expect(existsSync(path.join(root, 'workspace', outcome.sessionId, 'x'))).toBe(false);
    const raw = (await auditEntries(root))[0].body;
    expect(raw).toContain('[VIOLATIONS]: [{"kind":"tool_not_allowed","detail":"write_file"}]');
  });

  it('fails the message with LOOP_DETECTED past max_turns', async () => {
    const root = toolRoot(['tools: [list_files]', 'max_turns: 2']);
    const list = () => calls({ name: 'list_files', input: {} });
    const { outcome } = await run(root, [list(), list(), list()]);
    expect(outcome.status).toBe('failed');
    const result = readResult(root, 'req-1');
    expect(result.error).toMatchObject({ error_code: 'LOOP_DETECTED' });
    expect(String(result.error!.error_message)).toMatch(/still called tools after max_turns = 2/);
  });

  it('sends missing evidence back to the model (repair), then accepts it once written', async () => {
    const root = toolRoot(['tools: [write_file]']);
    const { outcome, provider } = await run(root, [
      answer({ evidence_files: ['proof.txt'] }),
      calls({ name: 'write_file', input: { path: 'proof.txt', content: 'proof' } }),
      answer({ evidence_files: ['proof.txt'] }),
    ]);
    expect(outcome.status).toBe('success');
    expect(provider.calls[1].prompt).toMatch(
      /audit\/evidence_files: these paths are not files inside the session workspace: proof\.txt/,
    );
    expect((await auditEntries(root))[0].body).toContain('[EVIDENCE]: [{"path":"proof.txt"');
  });

  it('malformed arguments and huge results end that call with a clear error, and the loop goes on', async () => {
    const root = toolRoot(['tools: [write_file, read_file]'], 'tools: { max_result_bytes: 100 }\n');
    const { outcome } = await run(root, [
      calls(
        { name: 'write_file', input_text: '{"path": "a.txt", "content": ', id: 'bad' },
        { name: 'write_file', input: { path: 'big.txt', content: 'z'.repeat(500) }, id: 'w' },
      ),
      calls(
        { name: 'read_file', input: { path: 'big.txt' }, id: 'r' },
        { name: 'read_file', input: ['not', 'an', 'object'], id: 'arr' },
      ),
      answer(),
    ]);
    expect(outcome.status).toBe('success');
    const results = Object.fromEntries(
      journalOf(root, outcome.sessionId)
        .filter((record) => record.type === 'tool_result')
        .map((record) => [record.id, record]),
    );
    expect(results.bad).toMatchObject({ is_error: true, refused: 'invalid_input' });
    expect(results.bad.output).toMatch(/its arguments are not a usable JSON object/);
    expect(results.r).toMatchObject({ truncated: true, bytes: 500, is_error: false });
    expect(results.r.output).toMatch(
      /^z{100}\n\[result truncated: 500 bytes, only the first 100 \(tools\.max_result_bytes\) are shown\]$/,
    );
    expect(results.arr).toMatchObject({ is_error: true });
    expect(results.arr.output).toMatch(/the arguments must be a JSON object, got an array/);
  });

  it('a long tool loop is still bound by the session token budget', async () => {
    const root = toolRoot(['tools: [list_files]'], 'limits: { max_tokens_per_session: 100 }\n');
    const list = (): ScriptedResponse => ({
      tool_calls: [{ name: 'list_files', input: {} }],
      usage: { input_tokens: 60, output_tokens: 0 },
    });
    const { outcome, provider } = await run(root, [list(), list(), list(), answer()]);
    expect(outcome.status).toBe('failed');
    expect(readResult(root, 'req-1').error).toMatchObject({ error_code: 'BUDGET_EXCEEDED' });
    expect(provider.calls).toHaveLength(2);
  });

  it('a governance file the prompt did not hold is a [VIOLATIONS] item too (SPEC §6)', async () => {
    const root = toolRoot([]);
    const message = JSON.parse(
      agentMessage({
        content: { report: 'done' },
        contentType: 'report',
        files: ['context/application.md', 'governance/secret.md'],
      }),
    ) as Record<string, unknown>;
    const { outcome } = await run(root, [JSON.stringify(message)]);
    expect(outcome.status).toBe('success');
    const [entry] = await auditEntries(root);
    expect(entry.tools?.violations).toEqual([
      { kind: 'governance_file_not_in_prompt', detail: 'governance/secret.md' },
    ]);
    expect(entry.complianceViolations.join(' ')).toContain('governance/secret.md');
  });
});
