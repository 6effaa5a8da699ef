/**
 * Tool calls through the AI SDK adapter against the loopback server's OpenAI wire: only the
 * offered tools are sent, in the native tool list under wire-safe names; one model turn per call;
 * streamed and plain answers carry the calls back under govflow's names; earlier turns are
 * replayed as assistant tool calls and tool results.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAiSdkProvider } from '../../src/llm/ai-sdk-provider.js';
import type { LlmRequest, LlmToolOffer } from '../../src/llm/provider.js';
import { startLoopbackLlmServer, type LoopbackLlmServer } from './loopback-llm-server.js';

let server: LoopbackLlmServer;
beforeEach(async () => {
  server = await startLoopbackLlmServer();
});
afterEach(async () => {
  await server.close();
});

const OFFERS: LlmToolOffer[] = [
  { name: 'write_file', description: 'Writes a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] } },
  { name: 'mcp:docs/search', description: 'Searches docs.', inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
];

function provider(stream: boolean) {
  return createAiSdkProvider({ kind: 'openai', model: 'gpt-4.1-mini', baseUrl: `${server.url}/v1`, apiKey: 'sk-test', maxAttempts: 1, timeoutMs: 5000, stream });
}

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return { agent: 'writer_agent', system: 'sys', prompt: 'do it', model: 'gpt-4.1-mini', signal: new AbortController().signal, tools: OFFERS, ...overrides };
}

describe.each([true, false])('AI SDK tool calls (stream %s)', (stream) => {
  it('offers only the given tools natively and returns the calls under govflow names', async () => {
    server.reply({
      kind: 'tool_calls',
      text: 'Let me write.',
      calls: [
        { id: 'call_1', name: 'write_file', arguments: '{"path":"a.md","content":"hi"}' },
        { id: 'call_2', name: 'mcp__docs__search', arguments: '{"query":"x"}' },
      ],
    });
    const chunks: string[] = [];
    const response = await provider(stream).generate(request({ onChunk: (chunk) => chunks.push(chunk) }));
    expect(response.toolCalls).toEqual([
      { id: 'call_1', name: 'write_file', input: { path: 'a.md', content: 'hi' } },
      { id: 'call_2', name: 'mcp:docs/search', input: { query: 'x' } },
    ]);
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0].body;
    expect(body.tools.map((entry: { function: { name: string } }) => entry.function.name)).toEqual(['write_file', 'mcp__docs__search']);
    expect(body.tools[0].function.parameters.required).toEqual(['path', 'content']);
    if (stream) expect(chunks.join('')).toBe('Let me write.');
  });

  it('sends no tools when none are offered', async () => {
    server.reply({ kind: 'text', text: '{"ok":true}' });
    const response = await provider(stream).generate(request({ tools: [] }));
    expect(response.toolCalls).toBeUndefined();
    expect(server.requests[0].body.tools).toBeUndefined();
  });

  it('reports malformed arguments and names never offered without failing the call', async () => {
    server.reply({
      kind: 'tool_calls',
      calls: [
        { id: 'call_bad', name: 'write_file', arguments: '{"path": "a.md", "content": ' },
        { id: 'call_other', name: 'delete_everything', arguments: '{}' },
      ],
    });
    const response = await provider(stream).generate(request());
    const [bad, other] = response.toolCalls!;
    expect(bad).toMatchObject({ id: 'call_bad', name: 'write_file' });
    expect(bad.inputError).toMatch(/.+/);
    expect(other).toMatchObject({ id: 'call_other', name: 'delete_everything' });
    expect(other.inputError).toBeUndefined();
  });

  it('replays earlier turns as assistant tool calls and tool results', async () => {
    server.reply({ kind: 'text', text: '{"done":true}' });
    const response = await provider(stream).generate(
      request({
        toolTurns: [
          {
            text: '',
            calls: [{ id: 'call_1', name: 'mcp:docs/search', input: { query: 'x' } }],
            results: [{ id: 'call_1', name: 'mcp:docs/search', output: 'found it', isError: false }],
          },
          {
            text: 'again',
            calls: [{ id: 'call_2', name: 'write_file', input: { path: '/etc/x', content: '' } }],
            results: [{ id: 'call_2', name: 'write_file', output: 'refused: absolute path', isError: true }],
          },
        ],
      }),
    );
    expect(response.text).toBe('{"done":true}');
    const messages = server.requests[0].body.messages as Array<Record<string, any>>;
    const roles = messages.map((message) => message.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(messages[2].tool_calls[0]).toMatchObject({ id: 'call_1', function: { name: 'mcp__docs__search', arguments: '{"query":"x"}' } });
    expect(messages[3]).toMatchObject({ tool_call_id: 'call_1', content: 'found it' });
    expect(messages[5]).toMatchObject({ tool_call_id: 'call_2' });
    expect(messages[5].content).toContain('refused: absolute path');
  });
});
