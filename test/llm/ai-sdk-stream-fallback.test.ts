/**
 * Servers that ignore `stream: true` (some OpenAI-compatible gateways and mocks) answer with one
 * JSON body: the adapter asks again without streaming and stops asking for streams.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAiSdkProvider } from './loopback-llm-server.js';

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

const JSON_BODIES = {
  'openai-compatible': {
    id: 'c1',
    object: 'chat.completion',
    created: 1,
    model: 'local-model',
    choices: [{ index: 0, message: { role: 'assistant', content: '{"ok":true}' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
  },
  anthropic: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'local-model',
    content: [{ type: 'text', text: '{"ok":true}' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 11, output_tokens: 3 },
  },
  google: {
    candidates: [{ content: { role: 'model', parts: [{ text: '{"ok":true}' }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 3, totalTokenCount: 14 },
  },
} as const;

/** Answers every request with one JSON body; records whether each asked for a stream. */
async function jsonOnlyServer(kind: keyof typeof JSON_BODIES, streamFlags: unknown[]): Promise<string> {
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      streamFlags.push(
        kind === 'google' ? (request.url ?? '').includes('streamGenerateContent') : (JSON.parse(body).stream ?? false),
      );
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(JSON_BODIES[kind]));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/${kind === 'google' ? 'v1beta' : 'v1'}`;
}

describe('a server that does not stream', () => {
  it.each(['openai-compatible', 'anthropic', 'google'] as const)(
    '%s: gets the answer without streaming, and later calls do not ask for a stream',
    async (kind) => {
      const flags: unknown[] = [];
      const baseUrl = await jsonOnlyServer(kind, flags);
      const provider = createAiSdkProvider({
        kind,
        model: 'local-model',
        baseUrl,
        apiKey: kind === 'openai-compatible' ? null : 'test-key-123456',
        maxAttempts: 1,
        timeoutMs: 5_000,
      });
      // A reader of the chunks is what makes a call stream.
      const call = () =>
        provider.generate({
          agent: 'a',
          system: 'Answer in JSON.',
          prompt: 'hi',
          model: 'local-model',
          maxTokens: 100,
          signal: new AbortController().signal,
          onChunk: () => {},
        });
      const first = await call();
      expect(first.text).toBe('{"ok":true}');
      expect(first.usage).toMatchObject({ inputTokens: 11, outputTokens: 3 });
      expect(flags).toEqual([true, false]);
      await call();
      expect(flags).toEqual([true, false, false]);
    },
  );
});
