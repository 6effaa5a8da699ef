/**
 * Seed 004's "Compliance Checklist", item by item, against a real daemon on the real adapter path
 * (openai-compatible provider, concurrent loopback model server) with the default limits
 * (max_depth 2, max_fan_out 3): each `it` is one box of the checklist.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childSessionId } from '../../src/pipeline/delegation.js';
import { buildDistOnce } from './build-once.js';
import { cleanupAll, readAuditEntries, runCli } from './daemon-helpers.js';
import {
  agentOf,
  childrenOf,
  delegate,
  delegateResults,
  entriesOf,
  finalAnswer,
  leadCalling,
  runCase,
  sectionOf,
  spanOf,
  startDelegationDaemon,
  toolCalls,
  type DelegationDaemon,
} from './delegation-support.js';

let setup: DelegationDaemon;

beforeAll(async () => {
  await buildDistOnce();
  // Only the deadline and the budget are set; max_depth and max_fan_out keep their defaults (2 and 3).
  setup = await startDelegationDaemon('{ delegation_deadline_ms: 60000, max_tokens_per_delegation: 5000 }');
}, 180_000);

afterAll(async () => {
  await setup?.close();
  await cleanupAll();
});

const done = finalAnswer({ report: 'done' });

describe("seed 004's compliance checklist", () => {
  it('[x] Max depth enforced (≤ 2)', async () => {
    const { parent, sessions } = await runCase(setup, 'depth', {
      lead: leadCalling(delegate('d1', 'case=depth level one')),
      child: (request) => {
        if (request.toolResults.length > 0) return { reply: done };
        const next = request.user.includes('level one') ? 'two' : 'three';
        return { reply: toolCalls([delegate('dn', `case=depth level ${next}`)]) };
      },
    });
    const one = childSessionId(parent.sessionId, 'd1');
    const two = childSessionId(one, 'dn');
    const ofSession = (id: string) => sessions.find((session) => session.sessionId === id)!;
    expect(delegateResults(ofSession(one))[0].is_error).toBe(false);
    const [refused] = delegateResults(ofSession(two));
    expect(refused.output).toMatch(
      /^delegation refused \(max_depth\): this session is at depth 2, .* limits\.max_depth = 2/,
    );
    expect(sessions.some((session) => session.sessionId.startsWith(`${two}.d`))).toBe(false);
  }, 60_000);

  it('[x] Fan-out enforced (≤ 3)', async () => {
    // Four calls in one turn: at most three children at once, the fourth waits for a slot.
    const four = await runCase(setup, 'fanout', {
      lead: leadCalling(...[1, 2, 3, 4].map((n) => delegate(`f${n}`, `case=fanout part ${n}`))),
      child: () => ({ reply: done, delayMs: 400 }),
    });
    const spans = childrenOf(four.sessions, four.parent.sessionId).map(spanOf);
    expect(spans).toHaveLength(4);
    const runningAt = (instant: number) => spans.filter((span) => span.start <= instant && instant < span.end).length;
    expect(Math.max(...spans.map((span) => runningAt(span.start)))).toBe(3);
    // Three children running in the tree: a fourth, asked for by one of them, is refused.
    const tree = await runCase(setup, 'fanout-tree', {
      lead: leadCalling(...[1, 2, 3].map((n) => delegate(`t${n}`, `case=fanout-tree part ${n}`))),
      child: (request) =>
        request.toolResults.length > 0
          ? { reply: done }
          : request.user.includes('part 1')
            ? { reply: toolCalls([delegate('deeper', 'case=fanout-tree deeper')]) }
            : { reply: done, delayMs: 1500 },
    });
    const first = tree.sessions.find((session) => session.sessionId === childSessionId(tree.parent.sessionId, 't1'))!;
    expect(delegateResults(first)[0].output).toMatch(
      /^delegation refused \(max_fan_out\): 3 child sessions of this session tree are running already \(limits\.max_fan_out = 3\)/,
    );
  }, 60_000);

  it('[x] Cycle detection active', async () => {
    const { parent } = await runCase(setup, 'cycle', {
      lead: leadCalling(
        delegate('d1', 'case=cycle extract receipt'),
        delegate('d2', 'case=cycle extract receipt'),
        delegate('d3', 'case=cycle analyze document'),
      ),
      child: () => ({ reply: done }),
    });
    const results = delegateResults(parent);
    expect(results.map((item) => [item.id, item.is_error])).toEqual([
      ['d1', false],
      ['d2', true],
      ['d3', false],
    ]);
    expect(results[1].output).toMatch(
      /^delegation refused \(cycle\): lead_agent already delegated this same objective/,
    );
  }, 60_000);

  it('[x] Timeouts configured', async () => {
    const started = Date.now();
    const { parent } = await runCase(setup, 'timeout', {
      lead: leadCalling(delegate('d1', 'case=timeout slow employee', { constraints: { deadline_ms: 500 } })),
      child: () => ({ reply: done, delayMs: 20_000 }),
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    const [result] = delegateResults(parent);
    expect(result.is_error).toBe(true);
    expect(result.document).toMatchObject({ status: 'failed', error: { error_code: 'TIMEOUT' } });
  }, 60_000);

  it('[x] Token budgets set', async () => {
    const { parent } = await runCase(setup, 'budget', {
      lead: leadCalling(delegate('d1', 'case=budget think a lot', { constraints: { max_tokens: 10 } })),
      child: () => ({ reply: { kind: 'text', text: 'not json at all' } }),
    });
    const [result] = delegateResults(parent);
    expect(result.document).toMatchObject({ status: 'failed', error: { error_code: 'BUDGET_EXCEEDED' } });
  }, 60_000);

  it('[x] PII redaction applied', async () => {
    const { parent, sessions } = await runCase(setup, 'pii', {
      lead: leadCalling(
        delegate('d1', 'case=pii write to the client', {
          input: 'The client is maria.gomez@example.com',
          handoff_data: { facts: ['maria.gomez@example.com prefers email'] },
        }),
      ),
      child: () => ({ reply: finalAnswer({ report: 'wrote to maria.gomez@example.com' }) }),
    });
    const childId = childSessionId(parent.sessionId, 'd1');
    const prompt = setup.server.calls.find(
      (call) => agentOf(call) === 'specialist_agent' && call.user.includes('case=pii'),
    )!;
    expect(prompt.user).toContain('The client is [EMAIL_1]');
    expect(prompt.user).toContain('{"facts":["[EMAIL_1] prefers email"]}');
    const child = sessions.find((session) => session.sessionId === childId)!;
    expect(JSON.stringify(child.records)).not.toContain('maria.gomez@example.com');
    expect(JSON.stringify(parent.records)).not.toContain('maria.gomez@example.com');
    expect(delegateResults(parent)[0].document.output).toEqual({ report: 'wrote to [EMAIL_1]' });
  }, 60_000);

  it('[x] Audit logging enabled', async () => {
    const { parent } = await runCase(setup, 'audit', {
      lead: leadCalling(delegate('d1', 'case=audit log it', { context_hints: ['audit'] })),
      child: () => ({ reply: done }),
    });
    const childId = childSessionId(parent.sessionId, 'd1');
    const [parentEntry] = entriesOf(setup.root, parent.sessionId);
    expect(sectionOf(parentEntry, 'DELEGATIONS')).toEqual([
      expect.objectContaining({ child_session: childId, agent: 'specialist_agent', status: 'success', artifacts: 0 }),
    ]);
    const [childEntry] = entriesOf(setup.root, childId);
    expect(childEntry).toContain(`[PARENT_SESSION_ID: ${parent.sessionId}]\n[DEPTH: 1]`);
    expect(sectionOf(childEntry, 'HANDOFF')).toEqual({ context_hints: ['audit'], handoff_data_sha256: null });
    // The reader parses the line, and the chain verifies with it.
    const parsed = (await readAuditEntries(setup.root)).find((entry) => entry.sessionId === childId) as unknown as {
      handoff: unknown;
    };
    expect(parsed.handoff).toEqual({ context_hints: ['audit'], handoff_data_sha256: null });
    const verify = await runCli(['verify', '--root', setup.root]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  }, 60_000);

  it('[x] User isolation verified', async () => {
    const { parent, sessions } = await runCase(setup, 'isolation', {
      lead: (request) =>
        request.toolResults.length === 0
          ? toolCalls([{ id: 'w1', name: 'write_file', input: { path: 'secret.txt', content: 'parent only' } }])
          : request.toolResults.length === 1
            ? toolCalls([delegate('d1', 'case=isolation read the secret')])
            : done,
      child: (request) => ({
        reply:
          request.toolResults.length === 0
            ? toolCalls([{ id: 'r1', name: 'read_file', input: { path: '../secret.txt' } }])
            : done,
      }),
    });
    const childId = childSessionId(parent.sessionId, 'd1');
    const child = sessions.find((session) => session.sessionId === childId)!;
    expect((child.records[0].request as { user: string }).user).toBe('alice');
    expect(entriesOf(setup.root, childId)[0]).toContain('[USER: alice]');
    const read = child.records.find((record) => record.type === 'tool_result')!;
    expect(read.is_error).toBe(true);
    expect(read.output).not.toContain('parent only');
    expect(readFileSync(path.join(setup.root, 'workspace', parent.sessionId, 'secret.txt'), 'utf8')).toBe(
      'parent only',
    );
  }, 60_000);

  it('[x] Tool authorization checked', async () => {
    const { parent, sessions } = await runCase(setup, 'tools', {
      lead: leadCalling(delegate('d1', 'case=tools fetch a page')),
      child: (request) => ({
        reply:
          request.toolResults.length === 0
            ? toolCalls([{ id: 'h1', name: 'http_get', input: { url: 'https://example.com/' } }])
            : done,
      }),
    });
    const childId = childSessionId(parent.sessionId, 'd1');
    const child = sessions.find((session) => session.sessionId === childId)!;
    expect(child.records.find((record) => record.type === 'tool_result')).toMatchObject({
      name: 'http_get',
      is_error: true,
      refused: 'tool_not_allowed',
    });
    expect(sectionOf(entriesOf(setup.root, childId)[0], 'VIOLATIONS')).toEqual([
      { kind: 'tool_not_allowed', detail: 'http_get' },
    ]);
    expect(delegateResults(parent)[0].document.used_sources.tools).toEqual(['http_get']);
  }, 60_000);

  it('[x] Error handling complete', async () => {
    const { parent, result } = await runCase(setup, 'errors', {
      lead: leadCalling(delegate('d1', 'case=errors read the unreadable'), {
        id: 'd2',
        name: 'delegate',
        input: { agent: 'nobody_agent', objective: 'case=errors anything' },
      }),
      child: () => ({ reply: finalAnswer({ report: 'cannot' }, 'failed') }),
    });
    // The parent goes on: a failing child and a bad call are tool errors its model reads.
    expect(result.status).toBe('success');
    const [failed, invalid] = delegateResults(parent);
    expect(failed.is_error).toBe(true);
    expect(failed.document).toMatchObject({
      status: 'failed',
      error: { error_code: 'INVALID_INPUT', error_message: 'the receipt cannot be read' },
    });
    expect(invalid).toMatchObject({ is_error: true, refused: 'invalid_input' });
    expect(invalid.output).toBe(
      'delegate was not run: lead_agent may not delegate to "nobody_agent"; it may delegate to: specialist_agent',
    );
  }, 60_000);
});
