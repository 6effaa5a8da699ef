/**
 * What a cancel stops besides the model call (docs/run-control.md), through the session's one
 * signal, with a real runtime and real tools: an http_get in flight (its connection closed), an
 * MCP tool call that would never answer (a real stdio MCP server), and a delegated child session
 * (cancelled with its parent, its own operator entry naming the parent). No call starts after.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRuntime, type Runtime } from '../../src/daemon/runtime.js';
import type { ScriptedResponse } from '../../src/llm/scripted-provider.js';
import type { CancelOrder } from '../../src/pipeline/run-controls.js';
import type { SessionOutcome } from '../../src/pipeline/runner-contract.js';
import type { ControlRecord } from '../../src/store/session-journal.js';
import { waitFor } from '../daemon/daemon-helpers.js';
import {
  agentFile,
  agentMessage,
  journalOf,
  makeTempDir,
  removeTempDirs,
  scripted,
  writeFile,
} from '../pipeline/pipeline-test-helpers.js';
import { fileURLToPath } from 'node:url';

/** The MCP SDK fixture server (test/tools/fixtures), whose `hang` tool never answers. */
const FIXTURE_SERVER = fileURLToPath(new URL('../tools/fixtures/mcp-fixture-server.mjs', import.meta.url));

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
  removeTempDirs();
});

const ORDER: CancelOrder = {
  controlId: 'c0ffee00-0000-5000-8000-00000000c0de',
  by: 'ops',
  claimedBy: null,
  reason: 'stop everything',
  claimedAt: new Date().toISOString(),
  sourceFile: 'cancel.json',
  claimedPath: null,
};

/** A root with one entry agent `desk_agent` (its frontmatter `lines`) and `helper_agent`. */
function deskRoot(lines: string[], config = ''): string {
  const root = makeTempDir('govflow-in-flight-');
  writeFile(root, 'govflow.config.yaml', `timezone: UTC\n${config}`);
  writeFile(root, 'context/application.md', '# Desk\nAnswers questions.\n');
  writeFile(
    root,
    'governance/agents/desk_agent.md',
    agentFile([
      'name: desk_agent',
      'type: operational',
      'description: Answers.',
      'entry: true',
      'next: []',
      'content_type: answer',
      ...lines,
    ]),
  );
  writeFile(
    root,
    'governance/agents/helper_agent.md',
    agentFile(['name: helper_agent', 'type: executional', 'description: Helps.', 'next: []', 'content_type: answer']),
  );
  return root;
}

const ANSWER = agentMessage({ content: { answer: 'done' }, contentType: 'answer' });

/** Starts a session on `root` with `responses`; resolves its runtime, provider and the outcome's promise. */
async function start(root: string, responses: Record<string, Array<string | ScriptedResponse>>) {
  const provider = scripted(responses);
  const runtime: Runtime = await openRuntime(root, { provider, env: {} });
  opened.push(() => runtime.close());
  let sessionId = '';
  const outcome: Promise<SessionOutcome> = runtime.runner.startSession(
    { requestId: 'req-1', text: 'Do it.', user: 'ana', sourceFile: 'r.txt', claimedPath: null },
    new AbortController().signal,
    (id) => (sessionId = id),
  );
  return { runtime, provider, outcome, sessionId: () => sessionId };
}

function controls(root: string, sessionId: string): ControlRecord[] {
  return journalOf(root, sessionId).filter((record): record is ControlRecord => record.type === 'control');
}

describe('a cancel stops what is in flight', () => {
  it('closes an http_get in flight; the call leaves no result and the model is not asked again', async () => {
    let closed = false;
    let arrived = false;
    const site: Server = createServer((request) => {
      arrived = true;
      request.socket.on('close', () => (closed = true));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    opened.push(() => new Promise((resolve) => site.close(() => resolve())));
    const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/slow`;
    const root = deskRoot(
      ['tools: [http_get]'],
      'tools: { http_get: { allow_hosts: ["127.0.0.1"], timeout_ms: 600000 } }\n',
    );
    const { runtime, provider, outcome, sessionId } = await start(root, {
      desk_agent: [{ tool_calls: [{ id: 'get-1', name: 'http_get', input: { url } }] }, ANSWER],
    });
    await waitFor('the http_get in flight', () => arrived);
    expect(await runtime.runner.cancelRunning(sessionId(), ORDER)).toBe('applied');
    const ended = await outcome;
    expect(ended.status).toBe('cancelled');
    await waitFor('the http_get connection closed', () => closed);
    expect(provider.calls).toHaveLength(1);
    const records = journalOf(root, sessionId());
    expect(records.filter((record) => record.type === 'tool_result')).toEqual([]);
    expect(controls(root, sessionId())).toHaveLength(1);
  }, 30_000);

  it('aborts an MCP tool call that would never answer', async () => {
    const root = deskRoot(
      ['tools: ["mcp:fx/hang"]'],
      `mcp:\n  servers:\n    fx: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE_SERVER)}] }\n  timeout_ms: 600000\n`,
    );
    const { runtime, provider, outcome, sessionId } = await start(root, {
      desk_agent: [{ tool_calls: [{ id: 'hang-1', name: 'mcp:fx/hang', input: {} }] }, ANSWER],
    });
    await waitFor('the MCP call journaled as started', () =>
      journalOf(root, sessionId()).some((record) => record.type === 'tool_turn'),
    );
    const started = Date.now();
    expect(await runtime.runner.cancelRunning(sessionId(), ORDER)).toBe('applied');
    expect((await outcome).status).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(provider.calls).toHaveLength(1);
  }, 30_000);

  it('cancels a delegated child with its parent: each ends cancelled, the child naming its parent', async () => {
    const root = deskRoot(['delegates: [helper_agent]']);
    const { runtime, outcome, sessionId } = await start(root, {
      desk_agent: [
        { tool_calls: [{ id: 'ask-1', name: 'delegate', input: { agent: 'helper_agent', objective: 'Count.' } }] },
        ANSWER,
      ],
      helper_agent: [{ text: ANSWER, delay_ms: 600_000 }],
    });
    const sessions = path.join(root, 'system', 'sessions');
    const child = await waitFor('the child session', () => {
      const ids = readdirIds(sessions).filter((id) => id !== sessionId());
      return ids[0] ?? null;
    });
    await waitFor('the child asking its model', () => journalOf(root, child).length >= 1);
    expect(await runtime.runner.cancelRunning(sessionId(), ORDER)).toBe('applied');
    expect((await outcome).status).toBe('cancelled');
    const childResult = JSON.parse(readFileSync(path.join(root, 'system', 'outbox', `${child}.json`), 'utf8'));
    expect(childResult).toMatchObject({ status: 'cancelled', control: { by: 'ops', reason: 'stop everything' } });
    expect(controls(root, child)).toEqual([
      expect.objectContaining({ action: 'cancel', via_session: sessionId(), claimed_path: null }),
    ]);
    expect(controls(root, sessionId())).toEqual([expect.objectContaining({ control_id: ORDER.controlId })]);
    expect(controls(root, child)[0]!.control_id).not.toBe(ORDER.controlId);
  }, 30_000);
});

function readdirIds(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
