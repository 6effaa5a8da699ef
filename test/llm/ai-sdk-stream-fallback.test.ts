/**
 * Servers that ignore `stream: true` (some OpenAI-compatible gateways and mocks) answer with one
 * JSON body: the adapter asks again without streaming and stops asking for streams.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAiSdkProvider } from '../../src/llm/ai-sdk-provider.js';

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function jsonOnlyServer(streamFlags: unknown[]): Promise<string> {
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      streamFlags.push(JSON.parse(body).stream ?? false);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 1,
          model: 'local-model',
          choices: [{ index: 0, message: { role: 'assistant', content: '{"ok":true}' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
        }),
      );
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('a server that does not stream', () => {
  it('gets the answer without streaming, and later calls do not ask for a stream', async () => {
    const flags: unknown[] = [];
    const baseUrl = await jsonOnlyServer(flags);
    const provider = createAiSdkProvider({ kind: 'openai-compatible', model: 'local-model', baseUrl, apiKey: null, maxAttempts: 1, timeoutMs: 5_000 });
    const call = () => provider.generate({ agent: 'a', system: 'Answer in JSON.', prompt: 'hi', model: 'local-model', signal: new AbortController().signal });
    const first = await call();
    expect(first.text).toBe('{"ok":true}');
    expect(first.usage).toMatchObject({ inputTokens: 11, outputTokens: 3 });
    expect(flags).toEqual([true, false]);
    await call();
    expect(flags).toEqual([true, false, false]);
  });
});
