/**
 * SPEC §26 with a real daemon on the real adapter path (openai-compatible provider, loopback model
 * server answering concurrently): seed 004's envelope in the child's prompt and its `[HANDOFF]`
 * hash; a constraint looser than the config refused with no child; artifacts copied into the
 * parent's workspace with matching sha256; confidence, requires_followup and new_facts; failing
 * children as tool errors with `error`; delegate calls of one turn in parallel (bounded by
 * max_fan_out, results in call order) against three in a row; a cancel of the parent cancelling
 * all three children; the depth rule d < max_depth.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childSessionId } from '../../src/pipeline/delegation.js';
import { sha256Hex } from '../../src/sha256-hex.js';
import { buildDistOnce } from './build-once.js';
import { cleanupAll, dropJson, readResult, readSessions, waitFor } from './daemon-helpers.js';
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
  setup = await startDelegationDaemon();
}, 180_000);

afterAll(async () => {
  await setup?.close();
  await cleanupAll();
});

const HANDOFF = {
  references: [{ source_id: 'r1', owner_scope: 'user' }],
  facts: ['ana.lopez@example.com pays in CAD'],
  intermediate_results: { total: 12.5, items: 3 },
};
/** HANDOFF redacted, as RFC 8785 writes it: keys sorted at every level, no whitespace. */
const HANDOFF_CANONICAL =
  '{"facts":["[EMAIL_1] pays in CAD"],"intermediate_results":{"items":3,"total":12.5},"references":[{"owner_scope":"user","source_id":"r1"}]}';
const RECEIPT = '{"total": 12.5, "currency": "CAD"}\n';

describe('delegate with seed 004 envelope (SPEC §26)', () => {
  it('hands the envelope to the child (redacted, hashed on its first entry) and returns its files and facts', async () => {
    const { result, parent, sessions } = await runCase(setup, 'envelope', {
      lead: leadCalling(
        delegate('d1', 'case=envelope Extract receipt data', {
          input: 'User uploaded receipt.jpg - extract all fields',
          context_hints: ['receipt', 'tax'],
          handoff_data: HANDOFF,
          constraints: { max_tokens: 4000, deadline_ms: 30_000 },
        }),
      ),
      child: (request) => ({
        reply:
          request.toolResults.length === 0
            ? toolCalls([{ id: 'w1', name: 'write_file', input: { path: 'out/receipt.json', content: RECEIPT } }])
            : finalAnswer({
                report: 'receipt extracted',
                confidence: 87,
                requires_followup: true,
                new_facts: ['the user files taxes in Canada'],
              }),
      }),
    });
    expect(result.status, setup.daemon.stderrTail()).toBe('success');
    const childId = childSessionId(parent.sessionId, 'd1');

    // The child's entry prompt: objective, input, hints and the handoff data, redacted, as canonical JSON.
    const childCalls = setup.server.calls.filter(
      (call) => agentOf(call) === 'specialist_agent' && call.user.includes('case=envelope'),
    );
    expect(childCalls.length).toBe(2);
    const prompt = childCalls[0].user;
    expect(prompt).toContain('case=envelope Extract receipt data');
    expect(prompt).toContain('User uploaded receipt.jpg - extract all fields');
    expect(prompt).toContain('Context hints: receipt, tax');
    expect(prompt).toContain(`Handoff data (JSON):\n${HANDOFF_CANONICAL}`);
    expect(JSON.stringify(setup.server.calls.map((call) => call.body))).not.toContain('ana.lopez@example.com');

    // Its first audit entry carries the hints and the SHA-256 of that canonical JSON.
    const handoffLine = { context_hints: ['receipt', 'tax'], handoff_data_sha256: sha256Hex(HANDOFF_CANONICAL) };
    const [firstEntry] = entriesOf(setup.root, childId);
    expect(sectionOf(firstEntry, 'HANDOFF')).toEqual(handoffLine);
    expect(firstEntry).toContain(`[PARENT_SESSION_ID: ${parent.sessionId}]\n[DEPTH: 1]\n[HANDOFF]: `);
    const child = sessions.find((session) => session.sessionId === childId)!;
    expect(child.records[0].delegation).toMatchObject({
      max_tokens: 4000,
      constraints: { max_tokens: 4000, deadline_ms: 30_000 },
      handoff: handoffLine,
    });
    const deadline = child.records[0].delegation as { deadline_at: string };
    expect(Date.parse(deadline.deadline_at) - Date.parse(child.records[0].created_at as string)).toBeLessThanOrEqual(
      30_000,
    );

    // The response: seed 004's fields, the file copied with its hash checked.
    const [delegated] = delegateResults(parent);
    expect(delegated.is_error).toBe(false);
    const artifact = { path: 'out/receipt.json', sha256: sha256Hex(RECEIPT), bytes: Buffer.byteLength(RECEIPT) };
    expect(delegated.document).toEqual({
      child_session: childId,
      agent: 'specialist_agent',
      status: 'success',
      output: {
        report: 'receipt extracted',
        confidence: 87,
        requires_followup: true,
        new_facts: ['the user files taxes in Canada'],
      },
      message: 'success: report',
      artifacts: [artifact],
      used_sources: { files: expect.arrayContaining(['governance/agents/specialist_agent.md']), tools: ['write_file'] },
      token_usage: { input_tokens: 24, output_tokens: 10, cost_usd: 0 },
      confidence: 87,
      requires_followup: true,
      new_facts: ['the user files taxes in Canada'],
    });
    const copy = path.join(setup.root, 'workspace', parent.sessionId, 'delegations', childId, 'out', 'receipt.json');
    expect(sha256Hex(readFileSync(copy))).toBe(artifact.sha256);
    expect(readFileSync(path.join(setup.root, 'workspace', childId, 'out', 'receipt.json'), 'utf8')).toBe(RECEIPT);

    // The parent's [DELEGATIONS] line counts the artifacts and names the confidence.
    const [parentEntry] = entriesOf(setup.root, parent.sessionId);
    expect(sectionOf(parentEntry, 'DELEGATIONS')).toEqual([
      {
        child_session: childId,
        agent: 'specialist_agent',
        objective_sha256: sha256Hex('case=envelope Extract receipt data'),
        status: 'success',
        ms: expect.any(Number),
        artifacts: 1,
        confidence: 87,
      },
    ]);
  }, 90_000);

  it('refuses a constraint looser than the configured limit, naming it, and starts no child', async () => {
    const { result, parent, sessions } = await runCase(setup, 'looser', {
      lead: leadCalling(
        delegate('d1', 'case=looser Take all the time', { constraints: { deadline_ms: 999_999 } }),
        delegate('d2', 'case=looser Take all the tokens', { constraints: { max_tokens: 99_999 } }),
        delegate('d3', 'case=looser Bad hints', { context_hints: 'receipt' }),
        delegate('d4', 'case=looser Too much data', { handoff_data: { blob: 'x'.repeat(70_000) } }),
      ),
    });
    expect(result.status).toBe('success');
    expect(childrenOf(sessions, parent.sessionId)).toEqual([]);
    const results = delegateResults(parent);
    expect(results.map((item) => item.is_error)).toEqual([true, true, true, true]);
    expect(results[0].output).toMatch(
      /^delegation refused \(delegation_deadline_ms\): constraints\.deadline_ms = 999999 is over limits\.delegation_deadline_ms = 60000/,
    );
    expect(results[1].output).toMatch(
      /^delegation refused \(max_tokens_per_delegation\): constraints\.max_tokens = 99999 is over limits\.max_tokens_per_delegation = 5000/,
    );
    expect(results[2].output).toBe('delegate was not run: "context_hints" must be an array of strings when given');
    expect(results[3].output).toMatch(
      /^delegate was not run: "handoff_data" is \d+ bytes as JSON, over the 65536 allowed/,
    );
    const [entry] = entriesOf(setup.root, parent.sessionId);
    expect(sectionOf(entry, 'VIOLATIONS')).toEqual([
      { kind: 'delegation_refused', detail: expect.stringMatching(/^delegation_deadline_ms: /) },
      { kind: 'delegation_refused', detail: expect.stringMatching(/^max_tokens_per_delegation: /) },
    ]);
  }, 90_000);

  it('a child that fails, runs past its deadline or its budget is a tool error with its status and error', async () => {
    const { parent, sessions } = await runCase(setup, 'failing', {
      lead: leadCalling(
        delegate('d1', 'case=failing Read the unreadable'),
        delegate('d2', 'case=failing Take your time', { constraints: { deadline_ms: 400 } }),
        delegate('d3', 'case=failing Think a lot', { constraints: { max_tokens: 10 } }),
      ),
      child: (request) =>
        request.user.includes('unreadable')
          ? { reply: finalAnswer({ report: 'cannot read it' }, 'failed') }
          : request.user.includes('Take your time')
            ? { reply: finalAnswer({ report: 'too late' }), delayMs: 10_000 }
            : { reply: { kind: 'text', text: 'not json at all' } },
    });
    expect(childrenOf(sessions, parent.sessionId)).toHaveLength(3);
    const results = delegateResults(parent);
    expect(results.map((item) => [item.id, item.is_error, item.document.status])).toEqual([
      ['d1', true, 'failed'],
      ['d2', true, 'failed'],
      ['d3', true, 'failed'],
    ]);
    expect(results[0].document.error).toEqual({
      error_code: 'INVALID_INPUT',
      error_message: 'the receipt cannot be read',
    });
    expect(results[1].document.error).toMatchObject({
      error_code: 'TIMEOUT',
      error_message: expect.stringContaining('constraints.deadline_ms = 400 ms of the delegate call'),
    });
    expect(results[2].document.error).toMatchObject({
      error_code: 'BUDGET_EXCEEDED',
      error_message: expect.stringContaining('constraints.max_tokens of the delegate call = 10'),
    });
    for (const item of results) {
      expect(item.document).toMatchObject({ artifacts: [], used_sources: expect.any(Object) });
      expect(item.document.token_usage).toEqual(expect.objectContaining({ input_tokens: expect.any(Number) }));
    }
    const [entry] = entriesOf(setup.root, parent.sessionId);
    expect(
      sectionOf(entry, 'DELEGATIONS').map((item: any) => [item.status, item.artifacts, 'confidence' in item]),
    ).toEqual([
      ['failed', 0, false],
      ['failed', 0, false],
      ['failed', 0, false],
    ]);
  }, 90_000);

  it('runs the delegate calls of one turn at the same time, results in call order; three turns run in a row', async () => {
    const slowChild = (request: { user: string }) => ({
      reply: finalAnswer({ report: 'part done' }),
      delayMs: request.user.includes('slow') ? 900 : 500,
    });
    const parallel = await runCase(setup, 'parallel', {
      lead: leadCalling(
        delegate('d1', 'case=parallel part one slow'),
        delegate('d2', 'case=parallel part two'),
        delegate('d3', 'case=parallel part three'),
      ),
      child: slowChild,
    });
    expect(parallel.result.status).toBe('success');
    const children = ['d1', 'd2', 'd3'].map((id) =>
      parallel.sessions.find((session) => session.sessionId === childSessionId(parallel.parent.sessionId, id))!,
    );
    const spans = children.map(spanOf);
    // All three ran at the same time: the last to start started before the first to end ended.
    expect(Math.max(...spans.map((span) => span.start))).toBeLessThan(Math.min(...spans.map((span) => span.end)));
    // d1 finished last, yet its result is first: results go back in the order of the calls.
    expect(spans[0].end).toBeGreaterThan(Math.max(spans[1].end, spans[2].end));
    expect(delegateResults(parallel.parent).map((item) => item.id)).toEqual(['d1', 'd2', 'd3']);
    const leadFinal = setup.server.calls.filter(
      (call) => agentOf(call) === 'lead_agent' && call.user.includes('case=parallel') && call.toolResults.length > 0,
    );
    expect(
      leadFinal[0].body.messages.filter((message: any) => message.role === 'tool').map((m: any) => m.tool_call_id),
    ).toEqual(['d1', 'd2', 'd3']);

    // The same three, one per turn: each starts after the previous one ended.
    const sequential = await runCase(setup, 'sequential', {
      lead: (request) => {
        const done = request.toolResults.length;
        return done < 3
          ? toolCalls([delegate(`s${done + 1}`, `case=sequential part ${done + 1}`)])
          : finalAnswer({ report: 'lead done' });
      },
      child: slowChild,
    });
    expect(sequential.result.status).toBe('success');
    const inRow = ['s1', 's2', 's3'].map((id) =>
      spanOf(
        sequential.sessions.find((session) => session.sessionId === childSessionId(sequential.parent.sessionId, id))!,
      ),
    );
    expect(inRow[1].start).toBeGreaterThanOrEqual(inRow[0].end);
    expect(inRow[2].start).toBeGreaterThanOrEqual(inRow[1].end);
  }, 120_000);

  it('runs at most max_fan_out children at once: a fourth call waits for a slot and is not refused', async () => {
    const { parent, sessions } = await runCase(setup, 'fanout', {
      lead: leadCalling(...[1, 2, 3, 4].map((n) => delegate(`f${n}`, `case=fanout part ${n}`))),
      child: () => ({ reply: finalAnswer({ report: 'part done' }), delayMs: 500 }),
    });
    const results = delegateResults(parent);
    expect(results.map((item) => [item.id, item.is_error, item.document?.status])).toEqual([
      ['f1', false, 'success'],
      ['f2', false, 'success'],
      ['f3', false, 'success'],
      ['f4', false, 'success'],
    ]);
    const spans = childrenOf(sessions, parent.sessionId).map(spanOf);
    expect(spans).toHaveLength(4);
    const runningAt = (instant: number) => spans.filter((span) => span.start <= instant && instant < span.end).length;
    expect(Math.max(...spans.map((span) => runningAt(span.start)))).toBeLessThanOrEqual(3);
    const fourth = spans.find((span) => span.start === Math.max(...spans.map((other) => other.start)))!;
    expect(fourth.start).toBeGreaterThanOrEqual(
      Math.min(...spans.filter((span) => span !== fourth).map((span) => span.end)),
    );
  }, 90_000);

  it('a cancel of the parent cancels all three children running in parallel, each with its own operator entry', async () => {
    setup.scenarios.set('cancel', {
      lead: leadCalling(...[1, 2, 3].map((n) => delegate(`c${n}`, `case=cancel part ${n}`))),
      child: () => ({ reply: finalAnswer({ report: 'never' }), delayMs: 120_000 }),
    });
    dropJson(setup.root, 'req-cancel.json', {
      request: 'Handle case=cancel for me.',
      request_id: 'req-cancel',
      user: 'alice',
    });
    const asked = () =>
      setup.server.calls.filter((call) => agentOf(call) === 'specialist_agent' && call.user.includes('case=cancel'));
    await waitFor('three children asking their model', () => asked().length === 3 || null, {
      timeoutMs: 30_000,
      detail: () => setup.daemon.stderrTail(),
    });
    const parentId = readSessions(setup.root).find((session) => session.requestId === 'req-cancel')!.sessionId;
    dropJson(setup.root, 'cancel-it.json', { control: 'cancel', session_id: parentId, reason: 'operator stop' });
    const result = await waitFor('the cancelled result', () => readResult(setup.root, 'req-cancel'), {
      timeoutMs: 30_000,
      detail: () => setup.daemon.stderrTail(),
    });
    expect(result.status).toBe('cancelled');
    const childIds = [1, 2, 3].map((n) => childSessionId(parentId, `c${n}`));
    for (const childId of childIds) {
      const childResult = await waitFor(`the result of ${childId}`, () => readResult(setup.root, childId), {
        timeoutMs: 10_000,
      });
      expect(childResult).toMatchObject({
        status: 'cancelled',
        control: { action: 'cancel', reason: 'operator stop' },
      });
      const entries = entriesOf(setup.root, childId);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toContain('[AGENT: operator]');
      expect(entries[0]).toContain('[STATUS: cancelled]');
      expect(sectionOf(entries[0], 'CONTROL')).toMatchObject({ action: 'cancel', reason: 'operator stop' });
      expect(sectionOf(entries[0], 'HANDOFF')).toEqual({ context_hints: [], handoff_data_sha256: null });
    }
    // Each model call of a child was closed by the cancel.
    expect(asked().every((call) => call.closedByClientAt !== undefined)).toBe(true);
  }, 90_000);

  it('lets a session at depth d delegate while d < max_depth (user → entry is depth 0)', async () => {
    const { parent, sessions } = await runCase(setup, 'depth', {
      lead: leadCalling(delegate('d1', 'case=depth level one')),
      child: (request) => {
        if (request.toolResults.length > 0) return { reply: finalAnswer({ report: 'level done' }) };
        if (request.user.includes('level one')) return { reply: toolCalls([delegate('d2', 'case=depth level two')]) };
        if (request.user.includes('level two')) return { reply: toolCalls([delegate('d3', 'case=depth level three')]) };
        return { reply: finalAnswer({ report: 'should not run' }) };
      },
    });
    const levelOne = childSessionId(parent.sessionId, 'd1');
    const levelTwo = childSessionId(levelOne, 'd2');
    expect(sessions.find((session) => session.sessionId === levelTwo)?.records[0].delegation).toMatchObject({
      depth: 2,
    });
    expect(existsSync(path.join(setup.root, 'system', 'sessions', childSessionId(levelTwo, 'd3')))).toBe(false);
    const [oneDelegated] = delegateResults(sessions.find((session) => session.sessionId === levelOne)!);
    expect(oneDelegated.is_error).toBe(false);
    // Two model calls at each level: the lead hears of level one's tokens and level two's.
    expect(oneDelegated.document.token_usage).toEqual({ input_tokens: 24, output_tokens: 10, cost_usd: 0 });
    expect(delegateResults(parent)[0].document.token_usage).toEqual({
      input_tokens: 48,
      output_tokens: 20,
      cost_usd: 0,
    });
    const [twoRefused] = delegateResults(sessions.find((session) => session.sessionId === levelTwo)!);
    expect(twoRefused).toMatchObject({ is_error: true, refused: 'delegation_refused' });
    expect(twoRefused.output).toBe(
      'delegation refused (max_depth): this session is at depth 2, and a session may delegate only while its depth is under ' +
        "limits.max_depth = 2 (the user's session is depth 0); do the work yourself or raise limits.max_depth",
    );
    expect(entriesOf(setup.root, levelTwo)[0]).toContain('[DEPTH: 2]');
  }, 90_000);
});
