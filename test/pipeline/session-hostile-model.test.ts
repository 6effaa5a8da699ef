/**
 * A hostile or broken model through a whole session: too-deep and too-large answers are invalid
 * output (repaired, then VALIDATION_ERROR), and a step that crashes with an unexpected internal
 * error is retried at most limits.max_crash_retries times — restarts included — before the
 * session ends failed with PROCESSING_ERROR, an audit entry and a result.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openRuntime } from '../../src/daemon/runtime.js';
import type { LlmProvider, LlmRequest, LlmResponse } from '../../src/llm/provider.js';
import type { CrashRecord } from '../../src/store/session-journal.js';
import {
  RecordingProvider,
  TWO_TASKS,
  auditEntries,
  exampleRoot,
  happyResponses,
  journalOf,
  messageRecords,
  nextRequestId,
  readResult,
  removeTempDirs,
  runRequest,
  scripted,
  verifyRoot,
} from './pipeline-test-helpers.js';

afterEach(removeTempDirs);

const DEEP = '{"output":{"content":' + '['.repeat(100_000) + ']'.repeat(100_000) + ',"content_type":"objectives"}}';

function crashRecords(root: string, sessionId: string): CrashRecord[] {
  return journalOf(root, sessionId).filter((record): record is CrashRecord => record.type === 'crash');
}

/**
 * A broken adapter: answers some calls with something that is not text (an internal error in
 * the step, not a provider error), the rest from `inner`.
 */
class BrokenProvider implements LlmProvider {
  readonly kind = 'broken';
  readonly interfaceVersion = 1 as const;
  calls = 0;
  constructor(
    private readonly inner: LlmProvider,
    private readonly broken: (call: number, request: LlmRequest) => boolean,
    private readonly hang: (call: number) => boolean = () => false,
  ) {}

  async generate(request: LlmRequest): Promise<LlmResponse> {
    this.calls += 1;
    if (this.hang(this.calls)) {
      return new Promise((_, reject) =>
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }),
      );
    }
    if (this.broken(this.calls, request)) {
      return {
        text: undefined as unknown as string,
        usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
        model: 'broken',
        provider: this.kind,
      };
    }
    return this.inner.generate(request);
  }
}

describe('hostile answers are invalid output', () => {
  it('a 100,000-deep answer, every time: failed VALIDATION_ERROR after repairs, no crash, chain intact', async () => {
    const root = exampleRoot();
    const outcome = await runRequest(root, scripted({ objective_agent: [DEEP, DEEP, DEEP] }));
    expect(outcome.status).toBe('failed');
    expect(outcome.result.error).toMatchObject({ error_code: 'VALIDATION_ERROR' });
    expect(outcome.result.message).toContain('nests deeper than message.max_depth (64)');
    expect(crashRecords(root, outcome.sessionId)).toEqual([]);
    const [record] = messageRecords(journalOf(root, outcome.sessionId));
    expect(record.raw_output).toBe(DEEP);
    expect(readResult(root, outcome.requestId).status).toBe('failed');
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it('a too-deep answer is repaired with the depth problem named, then the chain runs on', async () => {
    const root = exampleRoot('message: { max_depth: 8 }\n');
    const responses = happyResponses(TWO_TASKS);
    responses.objective_agent.unshift('{"output":{"content":[[[[[[[[["x"]]]]]]]]]}}');
    const provider = new RecordingProvider(scripted(responses));
    const outcome = await runRequest(root, provider);
    expect(outcome.status).toBe('success');
    const repair = provider.requests[1];
    expect(repair.agent).toBe('objective_agent');
    expect(repair.prompt).toContain('the response nests deeper than message.max_depth (8) levels');
  });

  it('an answer over llm.max_output_bytes is cut, repaired, and counted as one attempt', async () => {
    const root = exampleRoot('llm: { max_output_bytes: 4096 }\n');
    const responses = happyResponses(TWO_TASKS);
    responses.objective_agent.unshift('{"output":{"content":"' + 'x'.repeat(10_000) + '"}}');
    const provider = new RecordingProvider(scripted(responses));
    const outcome = await runRequest(root, provider);
    expect(outcome.status).toBe('success');
    const repair = provider.requests[1];
    expect(repair.prompt).toContain('answer exceeded llm.max_output_bytes (4096)');
    // The model sees the start of its cut answer, not all of it.
    const assistantTurn = repair.history!.find((turn) => turn.role === 'assistant')!;
    expect(assistantTurn.content.length).toBeLessThan(2_200);
    expect(assistantTurn.content).toContain('[cut: answer exceeded llm.max_output_bytes (4096)]');
    const exchanges = journalOf(root, outcome.sessionId).filter((record) => record.type === 'exchange');
    expect(exchanges[0]).toMatchObject({
      agent: 'objective_agent',
      attempt: 0,
      response: null,
      error: 'answer exceeded llm.max_output_bytes (4096)',
    });
  });

  it('too large every time: failed VALIDATION_ERROR naming the limit', async () => {
    const root = exampleRoot('llm: { max_output_bytes: 1000 }\nlimits: { max_retries: 1 }\n');
    const big = 'y'.repeat(5_000);
    const outcome = await runRequest(root, scripted({ objective_agent: [big, big] }));
    expect(outcome.status).toBe('failed');
    expect(outcome.result.error).toMatchObject({ error_code: 'VALIDATION_ERROR' });
    expect(outcome.result.message).toContain('answer exceeded llm.max_output_bytes (1000)');
  });
});

describe('no poison pills: limits.max_crash_retries', () => {
  it('a step that always crashes runs 1 + max_crash_retries times, then ends failed PROCESSING_ERROR with an audit entry and a result', async () => {
    const root = exampleRoot();
    const provider = new BrokenProvider(scripted({}), () => true);
    const outcome = await runRequest(root, provider);
    expect(provider.calls).toBe(3);
    expect(outcome.status).toBe('failed');
    expect(outcome.result.error).toMatchObject({ error_code: 'PROCESSING_ERROR', recoverable: false });
    expect(outcome.result.message).toMatch(
      /objective_agent's step failed with an unexpected internal error 3 times \(limits\.max_crash_retries = 2\); last error: TypeError/,
    );
    const crashes = crashRecords(root, outcome.sessionId);
    expect(crashes).toHaveLength(3);
    expect(crashes[0].error).toMatch(/^TypeError: /);
    const entries = await auditEntries(root);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ agent: 'objective_agent', status: { code: 'failed' } });
    expect(JSON.stringify(entries[0])).toContain('PROCESSING_ERROR');
    expect(readResult(root, outcome.requestId)).toMatchObject({
      status: 'failed',
      error: { error_code: 'PROCESSING_ERROR' },
    });
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it('max_crash_retries: 0 gives up at the first crash', async () => {
    const root = exampleRoot('limits: { max_crash_retries: 0 }\n');
    const provider = new BrokenProvider(scripted({}), () => true);
    const outcome = await runRequest(root, provider);
    expect(provider.calls).toBe(1);
    expect(outcome.result.error).toMatchObject({ error_code: 'PROCESSING_ERROR' });
    expect(outcome.result.message).toContain('failed with an unexpected internal error once');
  });

  it('a crash that does not come back costs one retry: the session succeeds', async () => {
    const root = exampleRoot();
    const provider = new BrokenProvider(
      scripted(happyResponses(TWO_TASKS)),
      (call, request) => call === 1 && request.agent === 'objective_agent',
    );
    const outcome = await runRequest(root, provider);
    expect(outcome.status).toBe('success');
    expect(crashRecords(root, outcome.sessionId)).toHaveLength(1);
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it('a plan task that crashes once: the plan resumes from the journal and the session succeeds', async () => {
    const root = exampleRoot();
    let summarizerCalls = 0;
    const provider = new BrokenProvider(
      scripted(happyResponses(TWO_TASKS)),
      (_call, request) => request.agent === 'summarizer_agent' && ++summarizerCalls === 1,
    );
    const outcome = await runRequest(root, provider);
    expect(outcome.status).toBe('success');
    expect(crashRecords(root, outcome.sessionId)).toHaveLength(1);
    const agents = messageRecords(journalOf(root, outcome.sessionId)).map((record) => record.message.agent.name);
    expect(agents.filter((agent) => agent === 'summarizer_agent')).toHaveLength(1);
    expect(agents.filter((agent) => agent === 'action_item_agent')).toHaveLength(1);
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it('crashes are counted across restarts: the journal remembers them', async () => {
    const root = exampleRoot();
    const requestId = nextRequestId();
    // First process: one crash, then the retry hangs until shutdown interrupts it.
    const first = await openRuntime(root, {
      provider: new BrokenProvider(
        scripted({}),
        (call) => call === 1,
        (call) => call === 2,
      ),
      env: {},
    });
    const shutdown = new AbortController();
    let sessionId = '';
    const running = first.runner
      .startSession(
        { requestId, text: 'hello', sourceFile: 'request.txt', claimedPath: null },
        shutdown.signal,
        (id) => {
          sessionId = id;
        },
      )
      .catch((error: unknown) => error);
    await expect.poll(() => sessionId !== '' && crashRecords(root, sessionId).length).toBe(1);
    shutdown.abort(new Error('shutdown'));
    expect(await running).toMatchObject({ name: 'SessionInterruptedError' });
    await first.close();

    // Second process: two more crashes use up the retries (2), then the session ends.
    const broken = new BrokenProvider(scripted({}), () => true);
    const second = await openRuntime(root, { provider: broken, env: {} });
    try {
      const outcome = await second.runner.recoverSession(sessionId, new AbortController().signal);
      expect(broken.calls).toBe(2);
      expect(outcome.result.error).toMatchObject({ error_code: 'PROCESSING_ERROR' });
      expect(crashRecords(root, sessionId)).toHaveLength(3);
    } finally {
      await second.close();
    }
  });

  it('a listener that throws on every event does not disturb the session', async () => {
    const root = exampleRoot();
    const runtime = await openRuntime(root, { provider: scripted(happyResponses(TWO_TASKS)), env: {} });
    try {
      for (const name of [
        'session_started',
        'step_started',
        'message',
        'model_call_finished',
        'content_chunk',
        'session_finished',
      ] as const) {
        runtime.events.on(name, () => {
          throw new Error(`listener for ${name} broke`);
        });
      }
      const outcome = await runtime.runner.startSession(
        { requestId: nextRequestId(), text: 'hello', sourceFile: 'request.txt', claimedPath: null },
        new AbortController().signal,
      );
      expect(outcome.status).toBe('success');
      expect(crashRecords(root, outcome.sessionId)).toEqual([]);
    } finally {
      await runtime.close();
    }
  });
});
