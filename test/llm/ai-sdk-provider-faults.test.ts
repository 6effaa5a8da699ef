/**
 * The adapter's configuration checks and the fault paths the per-provider matrix does not
 * cover: refused connections, streams cut mid-body, `retry-after-ms`, capped waits, aborts
 * during a backoff, and what the response reports as the answering model.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { AI_SDK_PROVIDER_KINDS, isAiSdkProviderKind } from '../../src/llm/ai-sdk-models.js';
import type { LlmRequest } from '../../src/llm/provider.js';
import { ProviderCallError } from '../../src/llm/provider-call-error.js';
import {
  createAiSdkProvider,
  type AiSdkProviderSettings,
  startLoopbackLlmServer,
  type LoopbackLlmServer,
} from './loopback-llm-server.js';

let server: LoopbackLlmServer;

beforeEach(async () => {
  server = await startLoopbackLlmServer();
});

afterEach(async () => {
  await server.close();
});

function settings(overrides: Partial<AiSdkProviderSettings> = {}): AiSdkProviderSettings {
  return {
    kind: 'openai',
    model: 'gpt-4.1-mini',
    baseUrl: `${server.url}/v1`,
    apiKey: 'sk-test-key-for-faults',
    maxAttempts: 3,
    timeoutMs: 5_000,
    ...overrides,
  };
}

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    agent: 'writer',
    system: 'Answer in JSON.',
    prompt: 'Write it.',
    model: 'gpt-4.1-mini',
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderCallError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProviderCallError);
  return error as ProviderCallError;
}

describe('configuration checks', () => {
  it.each([
    ['openai', 'OPENAI_API_KEY'],
    ['anthropic', 'ANTHROPIC_API_KEY'],
    ['google', 'GOOGLE_GENERATIVE_AI_API_KEY'],
  ] as const)('%s without a key names %s to set', (kind, envName) => {
    const create = () => createAiSdkProvider(settings({ kind, apiKey: null }));
    expect(create).toThrow(ConfigError);
    expect(create).toThrow(envName);
    expect(create).toThrow('GOVFLOW_API_KEY');
  });

  it('openai-compatible without a base URL says to set provider.base_url or GOVFLOW_BASE_URL', () => {
    const create = () => createAiSdkProvider(settings({ kind: 'openai-compatible', baseUrl: null }));
    expect(create).toThrow(ConfigError);
    expect(create).toThrow(/provider\.base_url.*GOVFLOW_BASE_URL/);
  });

  it('ollama needs neither key nor base URL to be created', () => {
    const provider = createAiSdkProvider(settings({ kind: 'ollama', apiKey: null, baseUrl: null }));
    expect(provider.kind).toBe('ollama');
  });

  it('rejects a malformed base URL, zero attempts and an unknown kind', () => {
    expect(() => createAiSdkProvider(settings({ baseUrl: 'localhost:11434' }))).toThrow(/not an http\(s\) URL/);
    expect(() => createAiSdkProvider(settings({ maxAttempts: 0 }))).toThrow(/llm\.max_attempts/);
    expect(() => createAiSdkProvider(settings({ timeoutMs: 1.5 }))).toThrow(/llm\.timeout_ms/);
    expect(() => createAiSdkProvider(settings({ kind: 'dry-run' as never }))).toThrow(/not an LLM provider/);
  });

  it('exports the kinds it serves', () => {
    expect([...AI_SDK_PROVIDER_KINDS]).toEqual(['openai', 'openai-compatible', 'ollama', 'anthropic', 'google']);
    expect(isAiSdkProviderKind('ollama')).toBe(true);
    expect(isAiSdkProviderKind('scripted')).toBe(false);
  });

  it('states the interface version it implements', () => {
    expect(createAiSdkProvider(settings()).interfaceVersion).toBe(1);
  });
});

describe('faults and retries', () => {
  it('retries a refused connection as a network error, up to maxAttempts', async () => {
    const address = server.url;
    await server.close();
    const delays: number[] = [];
    const provider = createAiSdkProvider(
      settings({ baseUrl: `${address}/v1`, maxAttempts: 2, sleep: async (ms) => void delays.push(ms) }),
    );
    const error = await failureOf(provider.generate(request()));
    expect(error.retryable).toBe(true);
    expect(error.status).toBeUndefined();
    expect(error.attempts).toBe(2);
    expect(error.message).toContain('ECONNREFUSED');
    expect(delays).toHaveLength(1);
  });

  it.each([
    ['openai', '/v1', 'gpt-4.1-mini'],
    ['anthropic', '/v1', 'claude-3-5-haiku-20241022'],
    ['google', '/v1beta', 'gemini-2.5-pro'],
  ] as const)('%s: a stream cut mid-body is retried and the second answer returned', async (kind, basePath, model) => {
    server.reply(
      { kind: 'text', text: 'abcdefghi', chunks: ['abc', 'def', 'ghi'], cutAfterChunks: 1 },
      { kind: 'text', text: 'complete answer' },
    );
    const provider = createAiSdkProvider(
      settings({ kind, model, baseUrl: server.url + basePath, sleep: async () => {} }),
    );
    const response = await provider.generate(request({ model, maxTokens: 1_000, onChunk: () => {} }));
    expect(response.text).toBe('complete answer');
    expect(response.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it('honours retry-after-ms over Retry-After', async () => {
    server.reply(
      { kind: 'status', status: 429, headers: { 'retry-after-ms': '1234', 'retry-after': '9' } },
      { kind: 'text', text: '{}' },
    );
    const delays: number[] = [];
    const provider = createAiSdkProvider(settings({ sleep: async (ms) => void delays.push(ms) }));
    await provider.generate(request());
    expect(delays).toEqual([1_234]);
  });

  it('caps a huge Retry-After at retryAfterMaxMs', async () => {
    server.reply({ kind: 'status', status: 503, headers: { 'retry-after': '3600' } }, { kind: 'text', text: '{}' });
    const delays: number[] = [];
    const provider = createAiSdkProvider(
      settings({ retryAfterMaxMs: 5_000, sleep: async (ms) => void delays.push(ms) }),
    );
    await provider.generate(request());
    expect(delays).toEqual([5_000]);
  });

  it.each([400, 403, 404])('does not retry HTTP %i', async (status) => {
    server.reply({ kind: 'status', status }, { kind: 'text', text: 'must not be reached' });
    const error = await failureOf(createAiSdkProvider(settings({ sleep: async () => {} })).generate(request()));
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(false);
    expect(error.attempts).toBe(1);
    expect(server.pendingReplies()).toBe(1);
  });

  it.each([408, 409])('retries HTTP %i', async (status) => {
    server.reply({ kind: 'status', status }, { kind: 'text', text: '{}' });
    const response = await createAiSdkProvider(settings({ sleep: async () => {} })).generate(request());
    expect(response.attempts).toBe(2);
  });

  it('an abort during the backoff wait ends the call without another attempt', async () => {
    server.reply({ kind: 'status', status: 429, headers: { 'retry-after': '30' } }, { kind: 'text', text: 'never' });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('shutdown')), 150);
    // The real sleep: it must wake on abort instead of sitting out the 30 s.
    const error = await failureOf(createAiSdkProvider(settings()).generate(request({ signal: controller.signal })));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('cancelled by the caller');
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('deadline passed'));
    const error = await failureOf(createAiSdkProvider(settings()).generate(request({ signal: controller.signal })));
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('a body excerpt is at most 300 characters', async () => {
    server.reply({ kind: 'status', status: 400, body: 'x'.repeat(5_000) });
    const error = await failureOf(createAiSdkProvider(settings()).generate(request()));
    expect(error.bodyExcerpt?.length).toBeLessThanOrEqual(300);
    expect(error.bodyExcerpt?.startsWith('xxxx')).toBe(true);
  });
});

describe('models', () => {
  it('uses the settings model when the request names none', async () => {
    server.reply({ kind: 'text', text: '{}' });
    await createAiSdkProvider(settings({ model: 'gpt-4.1-nano' })).generate(request({ model: '' }));
    expect(server.requests[0]?.body.model).toBe('gpt-4.1-nano');
  });

  it('reports the model that actually answered', async () => {
    server.reply(
      { kind: 'text', text: '{}', model: 'gpt-4.1-mini-2025-04-14' },
      { kind: 'text', text: '{}', model: 'gpt-4.1-mini-2025-04-14' },
    );
    const provider = createAiSdkProvider(settings());
    expect((await provider.generate(request())).model).toBe('gpt-4.1-mini-2025-04-14');
    expect((await createAiSdkProvider(settings({ stream: false })).generate(request())).model).toBe(
      'gpt-4.1-mini-2025-04-14',
    );
  });
});
