import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedResponse } from '../../src/llm/scripted-provider.js';
import { SessionJournal } from '../../src/store/journal-reader.js';
import {
  REQUEST_TEXT,
  TWO_TASKS,
  agentFile,
  agentMessage,
  auditEntries,
  exampleRoot,
  happyResponses,
  journalOf,
  makeTempDir,
  messageRecords,
  readResult,
  removeTempDirs,
  runRequest,
  scripted,
  sessionsDir,
  verifyRoot,
  writeFile,
} from './pipeline-test-helpers.js';

afterEach(removeTempDirs);

/** Checks the session ended on a limit: last message failed with `code`, audited, result failed. */
async function expectLimit(root: string, sessionId: string, requestId: string, code: string, text: RegExp) {
  const messages = messageRecords(journalOf(root, sessionId));
  const last = messages.at(-1)!;
  expect(last.message.status.code).toBe('failed');
  expect(last.message.error).toMatchObject({ has_error: true, error_code: code });
  expect(last.message.status.message).toMatch(text);
  expect(messages.map((record) => record.message.metadata.sequence_number)).toEqual(
    messages.map((_, index) => index + 1),
  );
  const entries = await auditEntries(root);
  expect(entries).toHaveLength(messages.length);
  expect(entries.at(-1)!.messageId).toBe(last.message.message_id);
  expect(entries.at(-1)!.error?.code).toBe(code);
  expect(entries.at(-1)!.status.message).toMatch(text);
  expect((await verifyRoot(root)).ok).toBe(true);
  const result = readResult(root, requestId);
  expect(result.status).toBe('failed');
  expect(result.message).toMatch(text);
  expect(result.error).toMatchObject({ error_code: code });
  return { messages, result, last };
}

function withUsage(text: string, input_tokens: number, output_tokens: number): ScriptedResponse {
  return { text, usage: { input_tokens, output_tokens } };
}

describe('limits', () => {
  it('max_steps stops the session before the next agent runs', async () => {
    const root = exampleRoot('limits:\n  max_steps: 2\n');
    const responses = happyResponses(TWO_TASKS);
    const provider = scripted({ objective_agent: responses.objective_agent, goal_agent: responses.goal_agent });
    const outcome = await runRequest(root, provider, REQUEST_TEXT, { requestId: 'req-max-steps' });
    provider.assertAllUsed();
    expect(provider.calls.map((call) => call.agent)).toEqual(['objective_agent', 'goal_agent']);
    expect(outcome.status).toBe('failed');
    const { last } = await expectLimit(
      root,
      outcome.sessionId,
      'req-max-steps',
      'BUDGET_EXCEEDED',
      /max_steps \(2 messages\)/,
    );
    expect(last.message.agent.name).toBe('planning_agent');
  });

  it('LOOP_DETECTED when two agents route back and forth with identical outputs', async () => {
    const root = makeTempDir();
    writeFile(root, 'govflow.config.yaml', 'timezone: UTC\n');
    writeFile(root, 'context/application.md', '# Application\nPing pong.\n');
    writeFile(
      root,
      'governance/agents/ping_agent.md',
      agentFile([
        'name: ping_agent',
        'type: governance',
        'description: Pings.',
        'entry: true',
        'next: [pong_agent, end_agent]',
        'content_type: ping',
      ]),
    );
    writeFile(
      root,
      'governance/agents/pong_agent.md',
      agentFile([
        'name: pong_agent',
        'type: operational',
        'description: Pongs.',
        'next: [ping_agent]',
        'content_type: pong',
      ]),
    );
    writeFile(
      root,
      'governance/agents/end_agent.md',
      agentFile(['name: end_agent', 'type: operational', 'description: Ends.', 'next: []', 'content_type: end']),
    );
    const ping = agentMessage({ content: 'ping', contentType: 'ping', next: 'pong_agent' });
    const pong = agentMessage({ content: 'pong', contentType: 'pong', next: 'ping_agent' });
    const provider = scripted({ ping_agent: [ping, ping], pong_agent: [pong, pong] });
    const outcome = await runRequest(root, provider, 'start', { requestId: 'req-loop' });
    // pong_agent would get ping's identical output a second time: it is never called for it.
    expect(provider.calls.map((call) => call.agent)).toEqual(['ping_agent', 'pong_agent', 'ping_agent']);
    expect(provider.unusedResponses()).toEqual({ pong_agent: 1 });
    expect(outcome.status).toBe('failed');
    const { last, messages } = await expectLimit(
      root,
      outcome.sessionId,
      'req-loop',
      'LOOP_DETECTED',
      /pong_agent would receive the same input a second time/,
    );
    expect(messages).toHaveLength(4);
    expect(last.message.agent.name).toBe('pong_agent');
  });

  it('per-call timeout_ms fails the message with TIMEOUT', async () => {
    // One attempt: the retries of a timed-out call are test/pipeline/session-call-retries.test.ts.
    const root = exampleRoot('llm:\n  max_attempts: 1\n');
    const agentPath = path.join(root, 'governance/agents/objective_agent.md');
    writeFile(
      root,
      'governance/agents/objective_agent.md',
      readFileSync(agentPath, 'utf8').replace('entry: true\n', 'entry: true\ntimeout_ms: 50\n'),
    );
    const responses = happyResponses(TWO_TASKS);
    const provider = scripted({ objective_agent: [{ text: responses.objective_agent[0] as string, delay_ms: 1000 }] });
    // The answer would come after 1 s and succeed: a TIMEOUT shows the 50 ms limit cut the call.
    const outcome = await runRequest(root, provider, REQUEST_TEXT, { requestId: 'req-call-timeout' });
    expect(outcome.status).toBe('failed');
    const { last } = await expectLimit(root, outcome.sessionId, 'req-call-timeout', 'TIMEOUT', /timed out after 50 ms/);
    expect(last.message.error.recoverable).toBe(true);
    expect(last.message.agent.name).toBe('objective_agent');
  });

  it('the session deadline (session_timeout_ms) stops a running session', async () => {
    const root = exampleRoot('limits:\n  session_timeout_ms: 300\n');
    const responses = happyResponses(TWO_TASKS);
    const provider = scripted({
      objective_agent: responses.objective_agent,
      goal_agent: [{ text: responses.goal_agent[0] as string, delay_ms: 2000 }],
    });
    // The goal agent would answer after 2 s and the chain go on: a TIMEOUT shows the 300 ms deadline cut it.
    const outcome = await runRequest(root, provider, REQUEST_TEXT, { requestId: 'req-deadline' });
    expect(outcome.status).toBe('failed');
    await expectLimit(
      root,
      outcome.sessionId,
      'req-deadline',
      'TIMEOUT',
      /session deadline \(limits\.session_timeout_ms = 300 ms\)/,
    );
    const manifest = SessionJournal.readManifest(sessionsDir(root), outcome.sessionId);
    expect(manifest?.state).toBe('HALTED_TIME');
  });

  it('a call cut by the session deadline is reported as the deadline even when the clock lags the timer', async () => {
    // Node's timers can fire a millisecond before Date.now() reaches the deadline; a frozen clock
    // makes that lag deterministic. The abort must still be attributed to the session deadline.
    const root = exampleRoot('limits:\n  session_timeout_ms: 200\n');
    const responses = happyResponses(TWO_TASKS);
    const provider = scripted({ objective_agent: [{ text: responses.objective_agent[0] as string, delay_ms: 3000 }] });
    const frozen = new Date();
    const outcome = await runRequest(root, provider, REQUEST_TEXT, {
      requestId: 'req-deadline-lag',
      now: () => frozen,
    });
    const { last } = await expectLimit(
      root,
      outcome.sessionId,
      'req-deadline-lag',
      'TIMEOUT',
      /session deadline .* passed while objective_agent was running/,
    );
    expect(last.final).toBe(true);
    expect(last.halt).toBe('HALTED_TIME');
    expect(SessionJournal.readManifest(sessionsDir(root), outcome.sessionId)?.state).toBe('HALTED_TIME');
  });

  it('the session deadline is also checked before a step starts', async () => {
    const root = exampleRoot('limits:\n  session_timeout_ms: 60000\n');
    const responses = happyResponses(TWO_TASKS);
    let clock = Date.now();
    const provider = scripted({ objective_agent: responses.objective_agent, goal_agent: responses.goal_agent });
    const slowClockProvider = {
      kind: provider.kind,
      interfaceVersion: provider.interfaceVersion,
      generate: async (request: Parameters<typeof provider.generate>[0]) => {
        const response = await provider.generate(request);
        clock += 61_000; // every call "takes" a minute on the runner's clock
        return response;
      },
    };
    const outcome = await runRequest(root, slowClockProvider, REQUEST_TEXT, {
      requestId: 'req-deadline-clock',
      now: () => new Date(clock),
    });
    expect(provider.calls.map((call) => call.agent)).toEqual(['objective_agent']);
    expect(outcome.status).toBe('failed');
    const { last } = await expectLimit(
      root,
      outcome.sessionId,
      'req-deadline-clock',
      'TIMEOUT',
      /session deadline .* before goal_agent could run/,
    );
    expect(last.message.agent.name).toBe('goal_agent');
  });

  it('max_tokens_per_session: BUDGET_EXCEEDED once the scripted usage passes it', async () => {
    const root = exampleRoot('limits:\n  max_tokens_per_session: 1000\n');
    const responses = happyResponses(TWO_TASKS);
    const provider = scripted({
      objective_agent: [withUsage(responses.objective_agent[0] as string, 400, 200)],
      goal_agent: [withUsage(responses.goal_agent[0] as string, 300, 200)],
      planning_agent: [],
    });
    const outcome = await runRequest(root, provider, REQUEST_TEXT, { requestId: 'req-tokens' });
    provider.assertAllUsed();
    expect(provider.calls.map((call) => call.agent)).toEqual(['objective_agent', 'goal_agent']);
    const { result, last } = await expectLimit(
      root,
      outcome.sessionId,
      'req-tokens',
      'BUDGET_EXCEEDED',
      /token budget used up \(1100 of limits\.max_tokens_per_session = 1000\)/,
    );
    expect(last.message.agent.name).toBe('planning_agent');
    expect(result.usage).toMatchObject({ input_tokens: 700, output_tokens: 400 });
  });

  it('max_cost_usd_per_session: BUDGET_EXCEEDED with prices from the config', async () => {
    const root = exampleRoot(
      [
        'provider:',
        '  model: priced-model',
        'prices:',
        '  priced-model: { input: 10, output: 20 }',
        'limits:',
        '  max_cost_usd_per_session: 0.01',
        '',
      ].join('\n'),
    );
    const responses = happyResponses(TWO_TASKS);
    // 1000 × $10/M + 300 × $20/M = $0.016 > $0.01.
    const provider = scripted({
      objective_agent: [withUsage(responses.objective_agent[0] as string, 1000, 300)],
      goal_agent: [],
    });
    const outcome = await runRequest(root, provider, REQUEST_TEXT, { requestId: 'req-cost' });
    provider.assertAllUsed();
    expect(provider.calls.map((call) => call.agent)).toEqual(['objective_agent']);
    const { result } = await expectLimit(
      root,
      outcome.sessionId,
      'req-cost',
      'BUDGET_EXCEEDED',
      /cost budget used up \(\$0\.0160 of limits\.max_cost_usd_per_session = \$0\.01\)/,
    );
    expect(result.usage.cost_usd).toBeCloseTo(0.016, 6);
  });
});

describe('provider errors', () => {
  it('a 500 fails the message with DEPENDENCY_ERROR, recoverable', async () => {
    const root = exampleRoot('llm:\n  max_attempts: 1\n');
    const provider = scripted({ objective_agent: [{ error: { status: 500, message: 'upstream exploded' } }] });
    const outcome = await runRequest(root, provider, REQUEST_TEXT, { requestId: 'req-500' });
    provider.assertAllUsed();
    expect(outcome.status).toBe('failed');
    const { last } = await expectLimit(
      root,
      outcome.sessionId,
      'req-500',
      'DEPENDENCY_ERROR',
      /objective_agent: the model call failed: upstream exploded/,
    );
    expect(last.message.error.recoverable).toBe(true);
    const exchanges = journalOf(root, outcome.sessionId).filter((record) => record.type === 'exchange');
    expect(exchanges).toMatchObject([{ response: null, error: expect.stringContaining('upstream exploded') }]);
  });

  it('a 500 is retried (llm.max_attempts) inside one exchange, and the answer goes on', async () => {
    const root = exampleRoot('llm:\n  max_attempts: 2\n  backoff_base_ms: 1\n');
    const responses = happyResponses(TWO_TASKS);
    const provider = scripted({
      ...responses,
      objective_agent: [{ error: { status: 500, message: 'upstream exploded' } }, ...responses.objective_agent],
    });
    const outcome = await runRequest(root, provider, REQUEST_TEXT, { requestId: 'req-500-retried' });
    provider.assertAllUsed();
    expect(outcome.status).toBe('success');
    expect(provider.calls.slice(0, 2).map((call) => call.agent)).toEqual(['objective_agent', 'objective_agent']);
    const exchanges = journalOf(root, outcome.sessionId).filter((record) => record.type === 'exchange');
    expect(exchanges.filter((record) => record.agent === 'objective_agent')).toMatchObject([{ error: null }]);
  });
});

describe('max_steps with a parallel plan', () => {
  it('parallel tasks cannot overshoot max_steps', async () => {
    const root = exampleRoot('limits:\n  max_steps: 4\n');
    const tasks = [
      { id: 't1', agent: 'summarizer_agent' as const },
      { id: 't2', agent: 'action_item_agent' as const },
    ];
    const responses = happyResponses(tasks);
    responses.final_output_agent = [];
    const provider = scripted(responses, { latency_ms: 5 });
    const outcome = await runRequest(root, provider, REQUEST_TEXT, { requestId: 'req-max-steps-plan' });
    expect(outcome.status).toBe('failed');
    const { messages } = await expectLimit(
      root,
      outcome.sessionId,
      'req-max-steps-plan',
      'BUDGET_EXCEEDED',
      /max_steps \(4 messages\)/,
    );
    // Four agent messages, then the orchestrator's limit message — as in a plain chain.
    expect(messages).toHaveLength(5);
    expect(provider.calls).toHaveLength(4);
  });
});
