/**
 * A reply through `govflow run` (no daemon) resumes the session in a new process, and that process
 * goes on from the journal: with one script for the whole session, the scripted provider continues
 * each agent's list after the calls the journal shows, a tool call whose result is journaled does
 * not run again, and the audit entry names each call once (govflow issue 32).
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  EXAMPLE_ANSWERS,
  REPOSITORY_ROOT,
  answer,
  cleanupAll,
  exampleScript,
  makeRoot,
  readSessions,
  runCli,
  scriptedConfig,
  writeScript,
} from '../daemon/daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const NOTE = 'Summarize this meeting note: Ana sends the budget by Friday; Raj books the venue.';

interface RunResult {
  status: string;
  session_id: string;
  awaiting?: string;
  approval?: { call_id: string; tool: string; args_sha256: string };
}

/** `govflow run FILE --json` in a child process; the parsed result, exit code and stderr. */
async function govflowRun(
  root: string,
  name: string,
  document: string,
): Promise<{ code: number; result: RunResult; stderr: string }> {
  const file = path.join(root, name);
  writeFileSync(file, document);
  const run = await runCli(['run', file, '--root', root, '--json'], { timeoutMs: 60_000 });
  let result: RunResult;
  try {
    result = JSON.parse(run.stdout) as RunResult;
  } catch {
    throw new Error(`govflow run ${name} printed no result (exit ${run.code}): ${run.stderr}${run.stdout}`);
  }
  return { code: run.code, result, stderr: run.stderr };
}

/** The raw audit entries of the root, in order (each up to its `---`). */
function rawEntries(root: string): string[] {
  const logs = path.join(root, 'system', 'logs');
  const text = readdirSync(logs)
    .filter((name) => name.endsWith('.log'))
    .sort()
    .map((name) => readFileSync(path.join(logs, name), 'utf8'))
    .join('');
  return text
    .split(/^---$/m)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The JSON array on an entry's `[TAG]: ` line, with how many such lines the entry has. */
function sectionOf(entry: string, tag: string): { lines: number; items: Array<Record<string, unknown>> } {
  const lines = entry.split('\n').filter((line) => line.startsWith(`[${tag}]: `));
  return {
    lines: lines.length,
    items: lines.flatMap((line) => JSON.parse(line.slice(tag.length + 4)) as Array<Record<string, unknown>>),
  };
}

describe('a reply through govflow run resumes from the journal', () => {
  it('an approved call runs once, the script goes on after the journaled calls, the entry names each call once', async () => {
    const root = makeRoot(scriptedConfig().replace('script.json', 'script.yaml'));
    const agentFile = path.join(root, 'governance', 'agents', 'summarizer_agent.md');
    writeFileSync(
      agentFile,
      readFileSync(agentFile, 'utf8').replace(/^max_turns: 4$/m, 'max_turns: 4\napproval: [write_file]'),
    );
    // The example script, its first summarizer turn led by a call the agent was not offered (a violation).
    const script = parse(readFileSync(path.join(REPOSITORY_ROOT, 'examples', 'scripted-tools.yaml'), 'utf8')) as {
      responses: Record<string, Array<{ tool_calls?: unknown[] }>>;
    };
    script.responses.summarizer_agent[0].tool_calls!.unshift({
      id: 'call_read',
      name: 'read_file',
      input: { path: 'notes.md' },
    });
    writeFileSync(path.join(root, 'script.yaml'), JSON.stringify(script));

    const first = await govflowRun(root, 'note.json', JSON.stringify({ request: NOTE, request_id: 'resume-1' }));
    expect(first.code, first.stderr).toBe(3);
    expect(first.result).toMatchObject({
      status: 'pending',
      awaiting: 'approval',
      approval: { call_id: 'call_write_summary', tool: 'write_file' },
    });
    const sessionId = first.result.session_id;

    const reply = {
      session_id: sessionId,
      call_id: 'call_write_summary',
      args_sha256: first.result.approval!.args_sha256,
      approve: true,
      reason: 'checked',
    };
    const second = await govflowRun(root, 'reply.json', JSON.stringify(reply));
    expect(second.code, second.stderr).toBe(0);
    expect(second.result.status).toBe('success');

    // The journal: two summarizer turns, each call run (or refused) once.
    const [session] = readSessions(root);
    const summarizer = session.records.filter((record) => record.agent === 'summarizer_agent');
    expect(summarizer.filter((record) => record.type === 'exchange')).toHaveLength(3);
    expect(summarizer.filter((record) => record.type === 'tool_turn')).toHaveLength(2);
    expect(summarizer.filter((record) => record.type === 'tool_result').map((record) => record.id)).toEqual([
      'call_read',
      'call_write_summary',
      'call_list',
    ]);
    expect(readFileSync(path.join(root, 'workspace', sessionId, 'summary.md'), 'utf8')).toMatch(/^# Summary\n/);

    // The audit: every tool section once per entry; on the summarizer's entry, each call once.
    const entries = rawEntries(root);
    for (const entry of entries) {
      for (const tag of ['TOOL_CALLS', 'VIOLATIONS', 'APPROVALS', 'EVIDENCE'])
        expect(sectionOf(entry, tag).lines, `${tag} in\n${entry}`).toBeLessThanOrEqual(1);
    }
    const summarizerEntries = entries.filter((entry) => entry.includes('[AGENT: summarizer_agent]'));
    expect(summarizerEntries).toHaveLength(1);
    const entry = summarizerEntries[0];
    expect(sectionOf(entry, 'TOOL_CALLS').items.map((item) => item.id)).toEqual([
      'call_read',
      'call_write_summary',
      'call_list',
    ]);
    expect(sectionOf(entry, 'VIOLATIONS').items).toEqual([{ kind: 'tool_not_allowed', detail: 'read_file' }]);
    expect(sectionOf(entry, 'APPROVALS').items).toEqual([
      expect.objectContaining({
        call_id: 'call_write_summary',
        approve: true,
        reason: 'checked',
        executed_args_match: true,
      }),
    ]);
    expect(sectionOf(entry, 'EVIDENCE').items.map((item) => item.path)).toEqual(['summary.md']);

    const verify = await runCli(['verify', '--root', root]);
    expect(verify.code, verify.stderr + verify.stdout).toBe(0);
    // Every scripted answer was used, by one process or the other.
    expect(second.stderr).not.toMatch(/unexpected call|never asked for/);
  }, 120_000);

  it("a question answered by a reply run goes on with the asking agent's next scripted answer", async () => {
    const root = makeRoot(scriptedConfig());
    const question = answer({
      content: null,
      contentType: 'objectives',
      status: 'pending',
      message: 'Which meeting?',
      next: null,
    });
    writeScript(
      root,
      exampleScript({
        responses: { objective_agent: [{ json: question }, { json: EXAMPLE_ANSWERS.objective_agent }] },
      }),
    );

    const first = await govflowRun(
      root,
      'ask.json',
      JSON.stringify({ request: 'Summarise the meeting.', request_id: 'ask-1' }),
    );
    expect(first.code, first.stderr).toBe(3);
    expect(first.result.status).toBe('pending');
    const second = await govflowRun(
      root,
      'reply.json',
      JSON.stringify({ session_id: first.result.session_id, reply: 'The Monday meeting.' }),
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.result.status).toBe('success');
    const [session] = readSessions(root);
    expect(session.messages.map((message) => message.agent).slice(0, 2)).toEqual([
      'objective_agent',
      'objective_agent',
    ]);
    expect(
      session.records.filter((record) => record.type === 'exchange' && record.agent === 'objective_agent'),
    ).toHaveLength(2);
  }, 120_000);
});
