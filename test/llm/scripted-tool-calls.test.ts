/** The scripted provider answers with tool calls (format in docs/tools.md). */
import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../../src/llm/scripted-provider.js';
import type { LlmRequest } from '../../src/llm/provider.js';

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    agent: 'writer_agent',
    system: 's',
    prompt: 'p',
    model: 'm',
    signal: new AbortController().signal,
    ...overrides,
  };
}

describe('scripted tool calls', () => {
  it('answers a turn with calls, then the next entry, and records what was offered', async () => {
    const provider = new ScriptedProvider({
      responses: {
        writer_agent: [
          {
            tool_calls: [
              { name: 'write_file', input: { path: 'a.md', content: 'x' } },
              { name: 'read_file', input_text: '{"path": ', id: 'bad' },
            ],
            text: 'working',
          },
          { json: { done: true } },
        ],
      },
    });
    const first = await provider.generate(
      request({ tools: [{ name: 'write_file', description: 'd', inputSchema: {} }] }),
    );
    expect(first.text).toBe('working');
    expect(first.toolCalls![0]).toEqual({
      id: 'call_writer_agent_1',
      name: 'write_file',
      input: { path: 'a.md', content: 'x' },
    });
    expect(first.toolCalls![1]).toMatchObject({ id: 'bad', name: 'read_file', input: '{"path": ' });
    expect(first.toolCalls![1].inputError).toMatch(/not valid JSON/);
    const second = await provider.generate(
      request({ toolTurns: [{ text: '', calls: first.toolCalls!, results: [] }] }),
    );
    expect(second.text).toBe('{"done":true}');
    expect(second.toolCalls).toBeUndefined();
    expect(provider.calls.map((call) => [call.tools, call.toolTurns])).toEqual([
      [['write_file'], 0],
      [[], 1],
    ]);
    provider.assertAllUsed();
  });
});
