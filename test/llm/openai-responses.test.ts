/**
 * The `openai` kind speaks the Responses API (SPEC §24: it reaches reasoning summaries through it):
 * the request goes to `/v1/responses`, asks a reasoning model for its summary, keeps nothing on
 * OpenAI's side, and the summary comes back as `LlmResponse.reasoning`, plain and streamed, apart
 * from the text the chunks carry. Other OpenAI wires keep Chat Completions.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../src/llm/provider.js';
import { createAiSdkProvider, startLoopbackLlmServer, type LoopbackLlmServer } from './loopback-llm-server.js';

let server: LoopbackLlmServer;
beforeEach(async () => {
  server = await startLoopbackLlmServer();
});
afterEach(async () => {
  await server.close();
});

const SUMMARY = 'The draft cites the policy twice — **approve** it 🙂';
const ANSWER = '{"status":"success","output":{"content":{"ok":true}}}';

function provider(kind: 'openai' | 'openai-compatible', model: string) {
  return createAiSdkProvider({
    kind,
    model,
    baseUrl: `${server.url}/v1`,
    apiKey: 'sk-test',
    maxAttempts: 1,
    timeoutMs: 5000,
  });
}

function request(model: string, overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    agent: 'reviewer',
    system: 'Answer with one JSON message.',
    prompt: 'Review the draft.',
    model,
    temperature: 0.2,
    signal: new AbortController().signal,
    ...overrides,
  };
}

describe('the openai kind through the Responses API', () => {
  for (const streamed of [false, true]) {
    it(`returns a reasoning model's summary as reasoning, apart from the text (${streamed ? 'streamed' : 'whole'})`, async () => {
      server.reply({ kind: 'text', text: ANSWER, reasoning: SUMMARY, usage: { inputTokens: 40, outputTokens: 9 } });
      const chunks: string[] = [];
      const response = await provider('openai', 'o4-mini').generate(
        request('o4-mini', streamed ? { onChunk: (chunk) => chunks.push(chunk) } : {}),
      );
      expect(response).toMatchObject({ text: ANSWER, reasoning: SUMMARY, provider: 'openai', model: 'o4-mini' });
      expect(response.usage).toEqual({ inputTokens: 40, outputTokens: 9, cachedInputTokens: 0 });
      if (streamed) expect(chunks.join('')).toBe(ANSWER);

      const [sent] = server.requests;
      expect(sent.url).toBe('/v1/responses');
      expect(sent.stream).toBe(streamed);
      expect(sent.body.reasoning).toEqual({ summary: 'auto' });
      // Nothing kept on OpenAI's side: each call carries its whole conversation.
      expect(sent.body.store).toBe(false);
      expect(sent.body.text.format).toEqual({ type: 'json_object' });
      // A reasoning model takes its instructions as a developer message.
      expect(sent.body.input[0]).toEqual({ role: 'developer', content: 'Answer with one JSON message.' });
    });
  }

  it('asks a model that does not reason for no summary, and reports none', async () => {
    server.reply({ kind: 'text', text: ANSWER });
    const response = await provider('openai', 'gpt-4.1-mini').generate(request('gpt-4.1-mini'));
    expect(response.text).toBe(ANSWER);
    expect(response.reasoning).toBeUndefined();
    const [sent] = server.requests;
    expect(sent.url).toBe('/v1/responses');
    expect(sent.body.reasoning).toBeUndefined();
    expect(sent.body.temperature).toBe(0.2);
    expect(sent.body.store).toBe(false);
  });

  it('leaves openai-compatible servers on Chat Completions', async () => {
    server.reply({ kind: 'text', text: ANSWER });
    await provider('openai-compatible', 'qwen2.5-7b-instruct').generate(request('qwen2.5-7b-instruct'));
    expect(server.requests[0].url).toBe('/v1/chat/completions');
  });
});
