import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../../src/llm/scripted-provider.js';

const base = { system: 's', prompt: 'p', model: 'm' };

describe('ScriptedProvider', () => {
  it('answers per agent in order and throws on an unexpected call', async () => {
    const provider = new ScriptedProvider({
      responses: { a: ['one', { json: { two: 2 }, usage: { input_tokens: 3, output_tokens: 4 } }] },
    });
    const signal = new AbortController().signal;
    expect((await provider.generate({ ...base, agent: 'a', signal })).text).toBe('one');
    const second = await provider.generate({ ...base, agent: 'a', signal });
    expect(second.text).toBe('{"two":2}');
    expect(second.usage).toEqual({ inputTokens: 3, outputTokens: 4, cachedInputTokens: 0 });
    await expect(provider.generate({ ...base, agent: 'a', signal })).rejects.toThrow(/unexpected call for agent "a"/);
    await expect(provider.generate({ ...base, agent: 'b', signal })).rejects.toThrow(/unexpected call for agent "b"/);
    expect(provider.calls.map((call) => call.agent)).toEqual(['a', 'a', 'a', 'b']);
    expect(provider.unexpectedCalls.map((call) => `${call.number}:${call.agent}`)).toEqual(['3:a', '4:b']);
    expect(() => provider.assertAllUsed()).toThrow(/unexpected calls: #3 a, #4 b/);
  });

  it('reports unused responses', () => {
    const provider = new ScriptedProvider({ responses: { a: ['one'] } });
    expect(() => provider.assertAllUsed()).toThrow(/a ×1/);
  });

  it('lets a test await a call and hold it until released, with no timer', async () => {
    const seen: string[] = [];
    const provider = new ScriptedProvider(
      { responses: { a: ['one', 'two'] } },
      { onCall: (call) => void seen.push(`${call.number}:${call.agent}`) },
    );
    const signal = new AbortController().signal;
    const release = provider.hold(2);
    const first = provider.generate({ ...base, agent: 'a', signal });
    const second = provider.generate({ ...base, agent: 'a', signal });
    expect((await provider.callStarted(2)).number).toBe(2);
    let secondDone = false;
    void second.then(() => (secondDone = true));
    expect((await first).text).toBe('one');
    await new Promise((resolve) => setImmediate(resolve));
    expect(secondDone).toBe(false);
    release();
    expect((await second).text).toBe('two');
    expect(seen).toEqual(['1:a', '2:a']);
    expect(() => provider.hold(1)).toThrow(/already started/);
    provider.assertAllUsed();
  });

  it('a held call still ends at once when its signal aborts', async () => {
    const provider = new ScriptedProvider({ responses: { a: ['one'] } });
    provider.hold(1);
    const controller = new AbortController();
    const pending = provider.generate({ ...base, agent: 'a', signal: controller.signal });
    await provider.callStarted(1);
    controller.abort(new Error('shutdown'));
    await expect(pending).rejects.toThrow('shutdown');
  });

  it('does not wait out a delay when the signal is already aborted', async () => {
    const provider = new ScriptedProvider({ responses: { a: [{ text: 'late', delay_ms: 5000 }] } });
    const controller = new AbortController();
    controller.abort(new Error('shutdown'));
    // Waiting out the delay would resolve with "late" instead of rejecting.
    await expect(provider.generate({ ...base, agent: 'a', signal: controller.signal })).rejects.toThrow('shutdown');
  });

  it('rejects with the abort reason when the signal aborts during a delay', async () => {
    const provider = new ScriptedProvider({ responses: { a: [{ text: 'late', delay_ms: 5000 }] } });
    await expect(provider.generate({ ...base, agent: 'a', signal: AbortSignal.timeout(30) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });

  it("goes on after the calls a session's journal shows that this process did not answer", async () => {
    const script = { responses: { a: ['one', 'two', 'three'], b: ['b1', 'b2'] } };
    const signal = new AbortController().signal;
    const ask = (provider: ScriptedProvider, agent: string, sessionId: string, journaledCalls: number) =>
      provider.generate({ ...base, agent, signal, sessionId, journaledCalls });
    // A session resumed in a new process, its journal showing one call of `a`: the list goes on at the second.
    const resumed = new ScriptedProvider(script);
    expect((await ask(resumed, 'a', 's1', 1)).text).toBe('two');
    expect((await ask(resumed, 'a', 's1', 2)).text).toBe('three');
    // Agents the journal shows no call of start at their first answer.
    expect((await ask(resumed, 'b', 's1', 0)).text).toBe('b1');
    expect(resumed.unusedResponses()).toEqual({ b: 1 });

    // Calls this process answered itself are not skipped again, across sessions as before.
    const live = new ScriptedProvider(script);
    expect((await ask(live, 'a', 's1', 0)).text).toBe('one');
    expect((await ask(live, 'a', 's2', 0)).text).toBe('two');
    expect((await ask(live, 'a', 's1', 1)).text).toBe('three');
  });

  it("names a call without id by the agent's model calls in the session, so a resumed session's ids stay new", async () => {
    const turn = {
      tool_calls: [
        { name: 'list_files', input: {} },
        { name: 'read_file', input: { path: 'x' } },
      ],
    };
    const provider = new ScriptedProvider({ responses: { a: [turn, turn] } });
    const signal = new AbortController().signal;
    const first = await provider.generate({ ...base, agent: 'a', signal, sessionId: 's1', journaledCalls: 0 });
    expect(first.toolCalls!.map((call) => call.id)).toEqual(['call_a_1_1', 'call_a_1_2']);
    const afterRestart = new ScriptedProvider({ responses: { a: [turn, turn] } });
    const second = await afterRestart.generate({ ...base, agent: 'a', signal, sessionId: 's1', journaledCalls: 1 });
    expect(second.toolCalls!.map((call) => call.id)).toEqual(['call_a_2_1', 'call_a_2_2']);
    afterRestart.assertAllUsed();
  });

  it('with loop: true, a resumed session wraps around the list', async () => {
    const provider = new ScriptedProvider({ loop: true, responses: { a: ['one', 'two'] } });
    const signal = new AbortController().signal;
    expect((await provider.generate({ ...base, agent: 'a', signal, sessionId: 's1', journaledCalls: 3 })).text).toBe(
      'two',
    );
    expect((await provider.generate({ ...base, agent: 'a', signal, sessionId: 's1', journaledCalls: 4 })).text).toBe(
      'one',
    );
  });
});
