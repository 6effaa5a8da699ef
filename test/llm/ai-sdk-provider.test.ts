/**
 * The AI SDK adapter against a loopback server speaking each provider's real wire format:
 * what is sent, what comes back (text, usage, streamed chunks), and every fault path.
 */
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import type { LlmRequest } from '../../src/llm/provider.js';
import { ProviderCallError } from '../../src/llm/provider-call-error.js';
import { withConnectionNotes } from '../../src/llm/node-http-fetch.js';
import { expectStaleSocketNote } from './stale-socket-note.js';
import {
  createAiSdkProvider,
  type AiSdkProviderSettings,
  startLoopbackLlmServer,
  type LoopbackLlmServer,
  type RecordedRequest,
} from './loopback-llm-server.js';

interface ProviderCase {
  kind: AiSdkProviderSettings['kind'];
  model: string;
  apiKey: string | null;
  basePath: string;
  wire: RecordedRequest['wire'];
}

const CASES: ProviderCase[] = [
  { kind: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk-test-openai-key-0001', basePath: '/v1', wire: 'openai' },
  {
    kind: 'openai-compatible',
    model: 'qwen2.5-7b-instruct',
    apiKey: 'sk-test-compat-key-0002',
    basePath: '/v1',
    wire: 'openai',
  },
  { kind: 'ollama', model: 'llama3.1:8b', apiKey: null, basePath: '/v1', wire: 'openai' },
  {
    kind: 'anthropic',
    model: 'claude-sonnet-4-20250514',
    apiKey: 'sk-ant-test-key-0003',
    basePath: '/v1',
    wire: 'anthropic',
  },
  { kind: 'google', model: 'gemini-2.5-flash', apiKey: 'AIzaTestGoogleKey0004', basePath: '/v1beta', wire: 'gemini' },
];

/** Looks like a real key so a leak of any part of it is caught by scrubbing assertions. */
const SECRET_KEY = 'sk-proj-S3cr3tK3yDoNotLeak9f8e7d6c5b4a';

const SYSTEM = 'You are the reviewer agent. Answer with one JSON message.';
const ANSWER = '{"status":"success","output":{"content":{"ok":true}}}';

let server: LoopbackLlmServer;

beforeEach(async () => {
  server = await startLoopbackLlmServer();
});

afterEach(async () => {
  await server.close();
});

function providerFor(testCase: ProviderCase, overrides: Partial<AiSdkProviderSettings> = {}) {
  return createAiSdkProvider({
    kind: testCase.kind,
    model: testCase.model,
    baseUrl: server.url + testCase.basePath,
    apiKey: testCase.apiKey,
    maxAttempts: 3,
    timeoutMs: 5_000,
    backoffBaseMs: 100,
    backoffMaxMs: 1_000,
    ...overrides,
  });
}

function requestFor(testCase: ProviderCase, overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    agent: 'reviewer',
    system: SYSTEM,
    prompt: 'Review the attached draft.',
    model: testCase.model,
    temperature: 0.2,
    maxTokens: 321,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** A sleep that records the delay and returns at once, so retry tests take no wall time. */
function recordingSleep() {
  const delays: number[] = [];
  const sleep = async (ms: number, signal: AbortSignal) => {
    signal.throwIfAborted();
    delays.push(ms);
  };
  return { delays, sleep };
}

async function rejectionOf(promise: Promise<unknown>): Promise<ProviderCallError> {
  const outcome = await promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (outcome.ok) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(ProviderError);
  expect(outcome.error).toBeInstanceOf(ProviderCallError);
  return outcome.error as ProviderCallError;
}

/** The parts of a recorded request each wire puts in a different place. */
function sentSettings(request: RecordedRequest) {
  const body = request.body;
  if (request.wire === 'gemini') {
    return {
      model: request.model,
      temperature: body.generationConfig?.temperature,
      maxTokens: body.generationConfig?.maxOutputTokens,
      system: body.systemInstruction?.parts?.map((part: { text: string }) => part.text).join(''),
      lastUserText: body.contents?.at(-1)?.parts?.[0]?.text,
    };
  }
  if (request.wire === 'anthropic') {
    const system = Array.isArray(body.system)
      ? body.system.map((part: { text: string }) => part.text).join('')
      : body.system;
    const last = body.messages?.at(-1);
    return {
      model: body.model,
      temperature: body.temperature,
      maxTokens: body.max_tokens,
      system,
      lastUserText: Array.isArray(last?.content) ? last.content[0]?.text : last?.content,
    };
  }
  if (Array.isArray(body.input)) {
    // The Responses API (the `openai` kind): `input` items, text in typed content parts.
    return {
      model: body.model,
      temperature: body.temperature,
      maxTokens: body.max_output_tokens,
      system: body.input.find((item: { role: string }) => item.role === 'system')?.content,
      lastUserText: body.input.at(-1)?.content?.[0]?.text,
    };
  }
  return {
    model: body.model,
    temperature: body.temperature,
    maxTokens: body.max_tokens ?? body.max_completion_tokens,
    system: body.messages?.find((message: { role: string }) => message.role === 'system')?.content,
    lastUserText: body.messages?.at(-1)?.content,
  };
}

function credentialSent(request: RecordedRequest): string | undefined {
  const value = request.headers.authorization ?? request.headers['x-api-key'] ?? request.headers['x-goog-api-key'];
  return Array.isArray(value) ? value[0] : value;
}

describe.each(CASES)('$kind through the AI SDK', (testCase) => {
  it('sends model, temperature, max tokens, system and prompt, and returns text and usage (non-streaming)', async () => {
    server.reply({ kind: 'text', text: ANSWER, usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 100 } });
    const response = await providerFor(testCase, { stream: false }).generate(requestFor(testCase));

    expect(response).toMatchObject({
      text: ANSWER,
      usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 100 },
      provider: testCase.kind,
      model: testCase.model,
      attempts: 1,
    });
    expect(server.requests).toHaveLength(1);
    const [sent] = server.requests as [RecordedRequest];
    expect(sent.wire).toBe(testCase.wire);
    expect(sent.stream).toBe(false);
    expect(sentSettings(sent)).toEqual({
      model: testCase.model,
      temperature: 0.2,
      maxTokens: 321,
      system: SYSTEM,
      lastUserText: 'Review the attached draft.',
    });
    if (testCase.apiKey) expect(credentialSent(sent)).toContain(testCase.apiKey);
    else expect(credentialSent(sent)).toBeUndefined();
  });

  it('streams: calls onChunk per delta, assembles the text, reads usage from the end of the stream', async () => {
    const chunks = ['{"status":', '"success","output"', ':{"content":{"ok":true}}}'];
    server.reply({
      kind: 'text',
      text: ANSWER,
      chunks,
      usage: { inputTokens: 80, outputTokens: 20, cachedInputTokens: 64 },
    });
    const received: string[] = [];
    const response = await providerFor(testCase).generate(
      requestFor(testCase, { onChunk: (chunk) => received.push(chunk) }),
    );

    expect(received).toEqual(chunks);
    expect(response.text).toBe(ANSWER);
    expect(response.usage).toEqual({ inputTokens: 80, outputTokens: 20, cachedInputTokens: 64 });
    expect(response.attempts).toBe(1);
    const [sent] = server.requests as [RecordedRequest];
    expect(sent.stream).toBe(true);
    expect(sentSettings(sent).system).toBe(SYSTEM);
    if (testCase.wire === 'openai' && testCase.kind !== 'openai')
      expect(sent.body.stream_options).toEqual({ include_usage: true });
  });

  it('asks for no stream when nobody reads the chunks (streaming costs CPU for nothing)', async () => {
    server.reply({
      kind: 'text',
      text: ANSWER,
      chunks: ['{"status":', '"success","output"', ':{"content":{"ok":true}}}'],
    });
    const response = await providerFor(testCase).generate(requestFor(testCase));
    expect(response.text).toBe(ANSWER);
    const [sent] = server.requests as [RecordedRequest];
    expect(sent.stream).toBe(false);
  });

  it('asks for native JSON output where the provider has it', async () => {
    server.reply({ kind: 'text', text: ANSWER });
    await providerFor(testCase).generate(requestFor(testCase));
    const body = server.requests[0]?.body;
    if (testCase.kind === 'openai') expect(body.text.format).toEqual({ type: 'json_object' });
    else if (testCase.wire === 'openai') expect(body.response_format).toEqual({ type: 'json_object' });
    if (testCase.wire === 'gemini') expect(body.generationConfig.responseMimeType).toBe('application/json');
    if (testCase.wire === 'anthropic') {
      // No JSON switch without a schema: nothing beyond the prompt, and no forced tool.
      expect(body.tools).toBeUndefined();
      expect(body.output_format).toBeUndefined();
    }
  });

  it('replays the repair history before the new prompt', async () => {
    server.reply({ kind: 'text', text: ANSWER });
    const history = [
      { role: 'user' as const, content: 'first prompt' },
      { role: 'assistant' as const, content: 'not json' },
    ];
    await providerFor(testCase).generate(requestFor(testCase, { history, prompt: 'Fix: answer with JSON.' }));
    const body = server.requests[0]?.body;
    const turns: Array<{ role: string; text: string }> =
      testCase.wire === 'gemini'
        ? body.contents.map((turn: any) => ({ role: turn.role, text: turn.parts[0].text }))
        : (body.messages ?? body.input)
            .filter((turn: any) => turn.role !== 'system')
            .map((turn: any) => ({
              role: turn.role,
              text: Array.isArray(turn.content) ? turn.content[0].text : turn.content,
            }));
    const assistantRole = testCase.wire === 'gemini' ? 'model' : 'assistant';
    expect(turns).toEqual([
      { role: 'user', text: 'first prompt' },
      { role: assistantRole, text: 'not json' },
      { role: 'user', text: 'Fix: answer with JSON.' },
    ]);
  });

  it('waits the Retry-After of a 429, then succeeds', async () => {
    server.reply({ kind: 'status', status: 429, headers: { 'retry-after': '7' } }, { kind: 'text', text: ANSWER });
    const { delays, sleep } = recordingSleep();
    const response = await providerFor(testCase, { sleep }).generate(requestFor(testCase));
    expect(response.text).toBe(ANSWER);
    expect(response.attempts).toBe(2);
    expect(delays).toEqual([7_000]);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 500 after a jittered backoff within the base, then succeeds', async () => {
    server.reply({ kind: 'status', status: 500 }, { kind: 'text', text: ANSWER });
    const { delays, sleep } = recordingSleep();
    const response = await providerFor(testCase, { sleep, random: () => 0.5 }).generate(requestFor(testCase));
    expect(response.attempts).toBe(2);
    expect(delays).toEqual([50]);
  });

  it('gives up after maxAttempts 500s with a retryable ProviderError', async () => {
    server.reply(
      { kind: 'status', status: 500, body: { error: { message: 'upstream exploded' } } },
      { kind: 'status', status: 502 },
      { kind: 'status', status: 503, body: { error: { message: 'overloaded, try later' } } },
    );
    const { delays, sleep } = recordingSleep();
    const error = await rejectionOf(providerFor(testCase, { sleep, maxAttempts: 3 }).generate(requestFor(testCase)));
    expect(error.retryable).toBe(true);
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(3);
    expect(error.provider).toBe(testCase.kind);
    expect(error.model).toBe(testCase.model);
    expect(error.bodyExcerpt).toContain('overloaded, try later');
    expect(error.message).toMatch(/HTTP 503.*after 3 attempts/);
    expect(delays).toHaveLength(2);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 401, says what to check, and never shows the key', async () => {
    server.reply({ kind: 'status', status: 401, echoCredential: true }, { kind: 'text', text: 'must not be reached' });
    const { delays, sleep } = recordingSleep();
    const error = await rejectionOf(
      providerFor(testCase, { sleep, apiKey: SECRET_KEY }).generate(requestFor(testCase)),
    );
    expect(server.requests).toHaveLength(1);
    // The server did receive the key and echoed it back, so scrubbing is what keeps it out.
    expect(credentialSent(server.requests[0] as RecordedRequest)).toContain(SECRET_KEY);
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(401);
    expect(error.attempts).toBe(1);
    expect(delays).toEqual([]);
    expect(error.message).toMatch(/HTTP 401.*API key/);
    expect(error.bodyExcerpt).toContain('Incorrect API key provided');
    const everything = [
      error.message,
      error.bodyExcerpt,
      error.stack,
      inspect(error, { depth: 10 }),
      JSON.stringify(error),
    ].join('\n');
    expect(everything).not.toContain(SECRET_KEY);
    expect(everything).not.toContain(SECRET_KEY.slice(0, 12));
    expect(everything).not.toContain(SECRET_KEY.slice(-12));
  });

  it('times out a hanging server per attempt and reports timedOut', async () => {
    server.reply({ kind: 'hang' }, { kind: 'hang' });
    const { delays, sleep } = recordingSleep();
    const started = Date.now();
    const error = await rejectionOf(
      providerFor(testCase, { sleep, timeoutMs: 250, maxAttempts: 2 }).generate(requestFor(testCase)),
    );
    const elapsed = Date.now() - started;
    expect(error.timedOut).toBe(true);
    expect(error.retryable).toBe(true);
    expect(error.attempts).toBe(2);
    expect(error.message).toContain('timed out after 250 ms');
    expect(delays).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(3_000);
  });

  it('stops at once when the caller aborts, without retrying', async () => {
    server.reply({ kind: 'hang' }, { kind: 'text', text: 'must not be reached' });
    const controller = new AbortController();
    const { delays, sleep } = recordingSleep();
    let abortedAt = 0;
    // Aborted once the call reached the server (the provider package is loaded on the first call,
    // which takes longer than a fixed delay on a busy machine).
    void expect
      .poll(() => server.requests.length, { timeout: 10_000 })
      .toBe(1)
      .then(() => {
        abortedAt = Date.now();
        controller.abort(new Error('shutdown'));
      });
    const error = await rejectionOf(
      providerFor(testCase, { sleep, timeoutMs: 20_000 }).generate(requestFor(testCase, { signal: controller.signal })),
    );
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(error.retryable).toBe(false);
    expect(error.timedOut).toBe(false);
    expect(error.attempts).toBe(1);
    expect(error.message).toContain('cancelled by the caller');
    expect(delays).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('a kept-alive connection the model server closed', () => {
  it('is replaced before the next call is written, and the call says so (the journal records it)', async () => {
    const testCase = CASES[0];
    const provider = providerFor(testCase);
    server.reply({ kind: 'text', text: ANSWER, closeAfter: true }, { kind: 'text', text: ANSWER });
    expect((await provider.generate(requestFor(testCase))).text).toBe(ANSWER);
    const notes: string[] = [];
    const second = await withConnectionNotes(notes, () => provider.generate(requestFor(testCase)));
    expect(second.text).toBe(ANSWER);
    expect(server.requests, 'each call reached the server once').toHaveLength(2);
    expectStaleSocketNote(notes);
  });
});
