/**
 * Tool calls through the AI SDK adapter against the loopback server's OpenAI Responses API wire
 * (the `openai` kind): only the offered tools are sent, in the native tool list under wire-safe
 * names; one model turn per call; streamed and plain answers carry the calls back under govflow's
 * names; earlier turns are replayed as function calls and their outputs. The Anthropic and Gemini wires, streamed and
 * plain, carry calls back the same way.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LlmRequest, LlmToolOffer } from '../../src/llm/provider.js';
import { createAiSdkProvider, startLoopbackLlmServer, type LoopbackLlmServer } from './loopback-llm-server.js';
import { offeredToolsOf, toolResultsOf } from './loopback-wire.js';

let server: LoopbackLlmServer;
beforeEach(async () => {
  server = await startLoopbackLlmServer();
});
afterEach(async () => {
  await server.close();
});

const OFFERS: LlmToolOffer[] = [
  {
    name: 'write_file',
    description: 'Writes a file.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
  },
  {
    name: 'mcp:docs/search',
    description: 'Searches docs.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
];

function provider(stream: boolean) {
  return createAiSdkProvider({
    kind: 'openai',
    model: 'gpt-4.1-mini',
    baseUrl: `${server.url}/v1`,
    apiKey: 'sk-test',
    maxAttempts: 1,
    timeoutMs: 5000,
    stream,
  });
}

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    agent: 'writer_agent',
    system: 'sys',
    prompt: 'do it',
    model: 'gpt-4.1-mini',
    signal: new AbortController().signal,
    tools: OFFERS,
    ...overrides,
  };
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
    // The Responses API's function tools: name and parameters at the top level.
    expect(body.tools.map((entry: { type: string; name: string }) => [entry.type, entry.name])).toEqual([
      ['function', 'write_file'],
      ['function', 'mcp__docs__search'],
    ]);
    expect(body.tools[0].parameters.required).toEqual(['path', 'content']);
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
    // The Responses API's `input`: messages by role, calls and results as typed items.
    const input = server.requests[0].body.input as Array<Record<string, any>>;
    expect(input.map((item) => item.role ?? item.type)).toEqual([
      'system',
      'user',
      'function_call',
      'function_call_output',
      'assistant',
      'function_call',
      'function_call_output',
    ]);
    expect(input[2]).toMatchObject({ call_id: 'call_1', name: 'mcp__docs__search', arguments: '{"query":"x"}' });
    expect(input[3]).toMatchObject({ call_id: 'call_1', output: 'found it' });
    expect(input[4].content).toEqual([{ type: 'output_text', text: 'again' }]);
    expect(input[6]).toMatchObject({ call_id: 'call_2' });
    expect(input[6].output).toContain('refused: absolute path');
  });
});

const OTHER_WIRES = [
  { kind: 'anthropic' as const, model: 'claude-sonnet-4-20250514', basePath: '/v1' },
  { kind: 'google' as const, model: 'gemini-2.5-flash', basePath: '/v1beta' },
].flatMap((wire) => [true, false].map((stream) => ({ ...wire, stream })));

describe.each(OTHER_WIRES)(
  'AI SDK tool calls on the $kind wire (stream $stream)',
  ({ kind, model, basePath, stream }) => {
    const adapter = () =>
      createAiSdkProvider({
        kind,
        model,
        baseUrl: `${server.url}${basePath}`,
        apiKey: 'k-test',
        maxAttempts: 1,
        timeoutMs: 5000,
        stream,
      });

    it('offers the tools natively and returns the calls, with the text before them, under govflow names', async () => {
      server.reply({
        kind: 'tool_calls',
        text: 'Let me write.',
        calls: [
          { id: 'toolu_1', name: 'write_file', arguments: '{"path":"a.md","content":"hi"}' },
          { id: 'toolu_2', name: 'mcp__docs__search', arguments: '{"query":"x"}' },
        ],
      });
      const chunks: string[] = [];
      const response = await adapter().generate(request({ model, onChunk: (chunk) => chunks.push(chunk) }));
      // Gemini 2.5 sends no call ids: the SDK makes them up, one per call.
      const ids =
        kind === 'google' ? [expect.stringMatching(/\S/), expect.stringMatching(/\S/)] : ['toolu_1', 'toolu_2'];
      expect(response.toolCalls).toEqual([
        { id: ids[0], name: 'write_file', input: { path: 'a.md', content: 'hi' } },
        { id: ids[1], name: 'mcp:docs/search', input: { query: 'x' } },
      ]);
      expect(new Set(response.toolCalls!.map((call) => call.id)).size).toBe(2);
      expect(server.requests[0]).toMatchObject({ wire: kind === 'google' ? 'gemini' : 'anthropic', stream });
      expect(offeredToolsOf(server.requests[0].body)).toEqual(['mcp__docs__search', 'write_file']);
      if (stream) expect(chunks.join('')).toBe('Let me write.');
    });

    it('replays an earlier turn as the tool call and its result', async () => {
      server.reply({ kind: 'text', text: '{"done":true}' });
      const call = { id: 'toolu_9', name: 'write_file', input: { path: 'a.md', content: 'hi' } };
      const response = await adapter().generate(
        request({
          model,
          toolTurns: [
            { text: '', calls: [call], results: [{ ...call, output: 'wrote 2 bytes to a.md', isError: false }] },
          ],
        }),
      );
      expect(response.text).toBe('{"done":true}');
      const results = toolResultsOf(server.requests[0].body);
      expect(results).toHaveLength(1);
      expect(results[0]).toContain('wrote 2 bytes to a.md');
    });
  },
);
