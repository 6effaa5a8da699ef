/**
 * Approvals (SPEC §10): a call to a tool listed in `approval` pauses the session (pending,
 * awaiting approval, the question naming tool and input); a reply file's decision resumes it in a
 * new runtime (a restart between loses nothing); a denial reaches the model as the tool's error
 * result; who, when and why is on the audit entry; an approval is used once, for its call only.
 * Also MCP tools in a session, through the fixture server over stdio. One script covers a session
 * across runtimes: the new one goes on after the calls the journal shows.
 */
import { userInfo } from 'node:os';
import { argumentsSha256 } from '../../src/message/canonical-json.js';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openRuntime } from '../../src/daemon/runtime.js';
import { parseRequestFile } from '../../src/intake/request-file.js';
import type { ScriptedResponse } from '../../src/llm/scripted-provider.js';
import { ReplyRejectedError } from '../../src/pipeline/runner-contract.js';
import {
  FINAL_CONTENT,
  REQUEST_TEXT,
  SUMMARY_CONTENT,
  TWO_TASKS,
  agentFile,
  agentMessage,
  auditEntries,
  exampleRoot,
  happyResponses,
  journalOf,
  makeTempDir,
  readResult,
  removeTempDirs,
  scripted,
  verifyRoot,
  writeFile,
} from './pipeline-test-helpers.js';

afterEach(removeTempDirs);

const FIXTURE_SERVER = fileURLToPath(new URL('../tools/fixtures/mcp-fixture-server.mjs', import.meta.url));

function root(agentLines: string[], config = ''): string {
  const folder = makeTempDir('govflow-approvals-');
  writeFile(folder, 'govflow.config.yaml', `timezone: UTC\n${config}`);
  writeFile(folder, 'context/application.md', '# App\nWrites reports.\n');
  writeFile(
    folder,
    'governance/agents/writer_agent.md',
    agentFile([
      'name: writer_agent',
      'type: executional',
      'description: Writes.',
      'entry: true',
      'next: []',
      'content_type: report',
      ...agentLines,
    ]),
  );
  return folder;
}

const answer = agentMessage({ content: { report: 'done' }, contentType: 'report' });
const write = (id: string, file: string): ScriptedResponse => ({
  tool_calls: [{ id, name: 'write_file', input: { path: file, content: `text of ${file}` } }],
});

const pendingEvents: unknown[] = [];

async function start(folder: string, responses: Array<string | ScriptedResponse>) {
  const provider = scripted({ writer_agent: responses });
  const runtime = await openRuntime(folder, { provider, env: {} });
  runtime.events.on('pending', (payload) => pendingEvents.push(payload));
  try {
    return await runtime.runner.startSession(
      { requestId: 'req-1', text: 'Write it.', sourceFile: 'request.txt', claimedPath: null },
      new AbortController().signal,
    );
  } finally {
    await runtime.close();
  }
}

async function decide(
  folder: string,
  sessionId: string,
  json: Record<string, unknown>,
  responses: Array<string | ScriptedResponse>,
) {
  const parsed = parseRequestFile(
    'approval.json',
    Buffer.from(JSON.stringify({ session_id: sessionId, ...json })),
    1 << 20,
  );
  if (parsed.kind !== 'reply') throw new Error(`not a reply: ${JSON.stringify(parsed)}`);
  const provider = scripted({ writer_agent: responses });
  const runtime = await openRuntime(folder, { provider, env: {} });
  try {
    const outcome = await runtime.runner.replyToSession(
      sessionId,
      {
        text: parsed.reply,
        sourceFile: 'approval.json',
        claimedPath: null,
        ...(parsed.approval ? { approval: parsed.approval } : {}),
      },
      new AbortController().signal,
    );
    return { outcome, provider };
  } finally {
    await runtime.close();
  }
}

describe('approvals', () => {
  it('pauses on the call, resumes on approval in a new runtime, and records who approved', async () => {
    const folder = root(['tools: [write_file]', 'approval: [write_file]']);
    const paused = await start(folder, [write('c1', 'a.md')]);
    expect(paused.status).toBe('pending');
    expect(pendingEvents.at(-1)).toMatchObject({
      sessionId: paused.sessionId,
      awaiting: 'approval',
      question: expect.stringContaining('write_file'),
    });
    const pending = readResult(folder, 'req-1');
    expect(pending).toMatchObject({ status: 'pending', awaiting: 'approval' });
    expect(pending.message).toMatch(
      /writer_agent wants to call write_file with input \{"path":"a\.md","content":"text of a\.md"\}/,
    );
    const file = path.join(folder, 'workspace', paused.sessionId, 'a.md');
    expect(existsSync(file)).toBe(false);
    // A plain reply is not an approval.
    await expect(decide(folder, paused.sessionId, { reply: 'sure' }, [])).rejects.toThrow(ReplyRejectedError);

    const { outcome, provider } = await decide(
      folder,
      paused.sessionId,
      { approve: true, user: 'ana', reason: 'looks fine' },
      [write('c1', 'a.md'), answer],
    );
    expect(outcome.status).toBe('success');
    expect(readFileSync(file, 'utf8')).toBe('text of a.md');
    expect(provider.calls[0].toolTurns).toBe(1);
    const body = (await auditEntries(folder))[0].body;
    // Who approved is the person running it (no reply file here); the user the reply claimed is kept beside it (SPEC §16).
    expect(body).toMatch(
      new RegExp(
        `\\[APPROVALS\\]: \\[\\{"call_id":"c1","tool":"write_file","approve":true,"user":"${userInfo().username}","claimed_user":"ana",` +
          `"at":"[^"]+","reason":"looks fine","args_sha256":"${argumentsSha256({ path: 'a.md', content: 'text of a.md' })}","executed_args_match":true\\}\\]`,
      ),
    );
    expect(body).toMatch(/\[TOOL_CALLS\]: \[\{"id":"c1","name":"write_file","is_error":false/);
    expect((await verifyRoot(folder)).ok).toBe(true);
    expect(readResult(folder, 'req-1').awaiting).toBeUndefined();
  });

  it('a denial reaches the model as the error result; an approval covers only its own call', async () => {
    const folder = root(['tools: [write_file, list_files]', 'approval: [write_file]']);
    const paused = await start(folder, [write('c1', 'a.md')]);
    const first = await decide(folder, paused.sessionId, { approve: true }, [write('c1', 'a.md'), write('c2', 'b.md')]);
    // The second write_file is a new call: it waits for its own approval.
    expect(first.outcome.status).toBe('pending');
    expect(readResult(folder, 'req-1').message).toMatch(/write_file with input \{"path":"b\.md"/);
    const second = await decide(folder, paused.sessionId, { approve: false, reason: 'not b', user: 'raj' }, [
      write('c1', 'a.md'),
      write('c2', 'b.md'),
      answer,
    ]);
    expect(second.outcome.status).toBe('success');
    expect(existsSync(path.join(folder, 'workspace', paused.sessionId, 'b.md'))).toBe(false);
    const denied = journalOf(folder, paused.sessionId).find(
      (record) => record.type === 'tool_result' && record.id === 'c2',
    );
    expect(denied).toMatchObject({ is_error: true, refused: 'approval_denied' });
    expect((denied as { output: string }).output).toBe(
      `write_file was not run: a person (${userInfo().username}) denied it: not b`,
    );
    const body = (await auditEntries(folder))[0].body;
    expect(body).toMatch(
      /"call_id":"c1","tool":"write_file","approve":true.*"call_id":"c2","tool":"write_file","approve":false,"user":"[^"]+","claimed_user":"raj"/,
    );
  });

  it('approval replies are checked when parsed', () => {
    const parse = (json: unknown) => parseRequestFile('a.json', Buffer.from(JSON.stringify(json)), 1 << 20);
    expect(parse({ session_id: 's1', approve: 'yes' })).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/"approve" must be true or false/),
    });
    expect(parse({ session_id: 's1', approve: false, user: 7 })).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/"user" must be a string/),
    });
    expect(parse({ session_id: 's1', approve: false, reason: 'no' })).toMatchObject({
      kind: 'reply',
      approval: { approve: false, reason: 'no', user: null },
    });
  });
});

describe('MCP tools in a session', () => {
  it('calls a stdio MCP server tool, pauses on an approval prefix, and stops the server with the runtime', async () => {
    const config = `mcp:\n  servers:\n    fixture: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE_SERVER)}] }\n`;
    const folder = root(['tools: ["mcp:fixture/*"]', 'approval: ["mcp:fixture/delete_*"]'], config);
    const turn: ScriptedResponse = {
      tool_calls: [
        { id: 'm1', name: 'mcp:fixture/echo', input: { text: 'hello' } },
        { id: 'm2', name: 'mcp:fixture/delete_file', input: { name: 'x' } },
      ],
    };
    const provider = scripted({ writer_agent: [turn] });
    const runtime = await openRuntime(folder, { provider, env: {} });
    let sessionId: string;
    try {
      const outcome = await runtime.runner.startSession(
        { requestId: 'req-1', text: 'Go.', sourceFile: 'r.txt', claimedPath: null },
        new AbortController().signal,
      );
      expect(outcome.status).toBe('pending');
      sessionId = outcome.sessionId;
      expect(provider.calls[0].tools).toEqual(expect.arrayContaining(['mcp:fixture/echo', 'mcp:fixture/delete_file']));
    } finally {
      await runtime.close();
    }
    // The server ran in its own process group, recorded under system/state/mcp/ until stopped.
    expect(readdirSync(path.join(folder, 'system/state/mcp'))).toEqual([]);
    const echo = journalOf(folder, sessionId).find((record) => record.type === 'tool_result' && record.id === 'm1');
    expect(echo).toMatchObject({ output: 'echo: hello', is_error: false });
    expect(readResult(folder, 'req-1').message).toMatch(/mcp:fixture\/delete_file with input \{"name":"x"\}/);
    const { outcome } = await decide(folder, sessionId, { approve: true }, [turn, answer]);
    expect(outcome.status).toBe('success');
    const deleted = journalOf(folder, sessionId).find((record) => record.type === 'tool_result' && record.id === 'm2');
    expect(deleted).toMatchObject({ output: 'deleted x', is_error: false });
    // The echo call ran once: its journaled result was not run again after the pause.
    expect(
      journalOf(folder, sessionId).filter((record) => record.type === 'tool_result' && record.id === 'm1'),
    ).toHaveLength(1);
  });
});

describe('approvals inside a plan', () => {
  it('a plan task waiting for approval pauses the session; the other task finishes; approval resumes the task', async () => {
    const folder = exampleRoot();
    const agentPath = path.join(folder, 'governance/agents/summarizer_agent.md');
    writeFile(
      folder,
      'governance/agents/summarizer_agent.md',
      readFileSync(agentPath, 'utf8').replace('max_turns: 4', 'max_turns: 4\napproval: [write_file]'),
    );
    const responses = happyResponses(TWO_TASKS);
    const writeSummary: ScriptedResponse = {
      tool_calls: [{ id: 's1', name: 'write_file', input: { path: 'summary.md', content: 'S' } }],
    };
    responses.summarizer_agent = [writeSummary];
    const provider = scripted(responses);
    const runtime = await openRuntime(folder, { provider, env: {} });
    let sessionId: string;
    try {
      const outcome = await runtime.runner.startSession(
        { requestId: 'req-1', text: REQUEST_TEXT, sourceFile: 'r.txt', claimedPath: null },
        new AbortController().signal,
      );
      expect(outcome.status).toBe('pending');
      sessionId = outcome.sessionId;
    } finally {
      await runtime.close();
    }
    expect(readResult(folder, 'req-1')).toMatchObject({ status: 'pending', awaiting: 'approval' });
    const summaryAnswer = agentMessage({ content: SUMMARY_CONTENT, contentType: 'summary' });
    const resumed = scripted({
      summarizer_agent: [writeSummary, summaryAnswer],
      final_output_agent: [agentMessage({ content: FINAL_CONTENT, contentType: 'final_report', next: null })],
    });
    const runtime2 = await openRuntime(folder, { provider: resumed, env: {} });
    try {
      const outcome = await runtime2.runner.replyToSession(
        sessionId,
        {
          text: 'approved',
          sourceFile: 'a.json',
          claimedPath: null,
          approval: { approve: true, reason: null, user: 'ana', callId: null, argsSha256: null, httpUser: null },
        },
        new AbortController().signal,
      );
      expect(outcome.status).toBe('success');
    } finally {
      await runtime2.close();
    }
    resumed.assertAllUsed();
    expect(readFileSync(path.join(folder, 'workspace', sessionId, 'summary.md'), 'utf8')).toBe('S');
    const agents = (await auditEntries(folder)).map((entry) => entry.agent);
    expect(agents.filter((agent) => agent === 'action_item_agent')).toHaveLength(1);
    expect(agents.filter((agent) => agent === 'summarizer_agent')).toHaveLength(1);
    expect((await verifyRoot(folder)).ok).toBe(true);
  });
});
