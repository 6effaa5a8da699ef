import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../../src/llm/scripted-provider.js';

const base = { system: 's', prompt: 'p', model: 'm' };

describe('ScriptedProvider', () => {
  it('answers per agent in order and throws on an unexpected call', async () => {
    const provider = new ScriptedProvider({ responses: { a: ['one', { json: { two: 2 }, usage: { input_tokens: 3, output_tokens: 4 } }] } });
    const signal = new AbortController().signal;
    expect((await provider.generate({ ...base, agent: 'a', signal })).text).toBe('one');
    const second = await provider.generate({ ...base, agent: 'a', signal });
    expect(second.text).toBe('{"two":2}');
    expect(second.usage).toEqual({ inputTokens: 3, outputTokens: 4, cachedInputTokens: 0 });
    await expect(provider.generate({ ...base, agent: 'a', signal })).rejects.toThrow(/unexpected call for agent "a"/);
    await expect(provider.generate({ ...base, agent: 'b', signal })).rejects.toThrow(/unexpected call for agent "b"/);
    expect(provider.calls.map((call) => call.agent)).toEqual(['a', 'a', 'a', 'b']);
    expect(() => provider.assertAllUsed()).not.toThrow();
  });

  it('reports unused responses', () => {
    const provider = new ScriptedProvider({ responses: { a: ['one'] } });
    expect(() => provider.assertAllUsed()).toThrow(/a ×1/);
  });

  it('does not wait out a delay when the signal is already aborted', async () => {
    const provider = new ScriptedProvider({ responses: { a: [{ text: 'late', delay_ms: 5000 }] } });
    const controller = new AbortController();
    controller.abort(new Error('shutdown'));
    const started = Date.now();
    await expect(provider.generate({ ...base, agent: 'a', signal: controller.signal })).rejects.toThrow('shutdown');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('rejects with the abort reason when the signal aborts during a delay', async () => {
    const provider = new ScriptedProvider({ responses: { a: [{ text: 'late', delay_ms: 5000 }] } });
    const started = Date.now();
    await expect(provider.generate({ ...base, agent: 'a', signal: AbortSignal.timeout(30) })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
