/**
 * `withRetries` around a provider that is not an HTTP adapter (the scripted one): a hung attempt
 * times out and is retried, retryable errors wait out the backoff, the caller's abort is final,
 * non-retryable errors fail at once, and the failure says how many attempts were made.
 */
import { describe, expect, it } from 'vitest';
import { ProviderCallError } from '../../src/llm/provider-call-error.js';
import type { LlmRequest } from '../../src/llm/provider.js';
import { innermostProvider, withRetries } from '../../src/llm/retrying-provider.js';
import { ScriptedProvider, type ScriptedResponse } from '../../src/llm/scripted-provider.js';

const HANG: ScriptedResponse = { text: 'never', delay_ms: 600_000 };

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return { agent: 'a', system: 's', prompt: 'p', model: 'm', signal: new AbortController().signal, ...overrides };
}

function recordingSleep(): { delays: number[]; sleep: (ms: number, signal: AbortSignal) => Promise<void> } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms, signal) => {
      signal.throwIfAborted();
      delays.push(ms);
    },
  };
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderCallError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderCallError);
  return error as ProviderCallError;
}

describe('withRetries', () => {
  it('times out a hung attempt and answers with the next one', async () => {
    const scripted = new ScriptedProvider({ responses: { a: [HANG, 'answer'] } });
    const { delays, sleep } = recordingSleep();
    const provider = withRetries(scripted, { maxAttempts: 2, timeoutMs: 50, sleep, random: () => 0.5 });
    const response = await provider.generate(request());
    expect(response.text).toBe('answer');
    expect(response.attempts).toBe(2);
    expect(delays).toEqual([250]);
    expect(scripted.calls).toHaveLength(2);
  });

  it('gives up after max_attempts hung attempts with a retryable timeout', async () => {
    const scripted = new ScriptedProvider({ responses: { a: [HANG, HANG] } });
    const provider = withRetries(scripted, { maxAttempts: 2, timeoutMs: 30, sleep: recordingSleep().sleep });
    const error = await failureOf(provider.generate(request()));
    expect(error.timedOut).toBe(true);
    expect(error.retryable).toBe(true);
    expect(error.attempts).toBe(2);
    expect(error.message).toMatch(/timed out after 30 ms .*\(after 2 attempts\)/);
    scripted.assertAllUsed();
  });

  it("uses the request's own timeout (an agent's timeout_ms) over the default", async () => {
    const scripted = new ScriptedProvider({ responses: { a: [HANG] } });
    const provider = withRetries(scripted, { maxAttempts: 1, timeoutMs: 600_000 });
    const error = await failureOf(provider.generate(request({ timeoutMs: 20 })));
    expect(error.message).toMatch(/timed out after 20 ms/);
  });

  it("retries a retryable error, honouring the server's Retry-After", async () => {
    const scripted = new ScriptedProvider({
      responses: { a: [{ error: { status: 429, retry_after_ms: 1234 } }, 'ok'] },
    });
    const { delays, sleep } = recordingSleep();
    const response = await withRetries(scripted, { maxAttempts: 3, timeoutMs: 1000, sleep }).generate(request());
    expect(response.text).toBe('ok');
    expect(delays).toEqual([1234]);
  });

  it('fails at once on an error that is not retryable', async () => {
    const scripted = new ScriptedProvider({
      responses: { a: [{ error: { status: 401, message: 'bad key' } }, 'unused'] },
    });
    const { delays, sleep } = recordingSleep();
    const error = await failureOf(
      withRetries(scripted, { maxAttempts: 3, timeoutMs: 1000, sleep }).generate(request()),
    );
    expect(error.status).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.attempts).toBe(1);
    expect(delays).toEqual([]);
  });

  it("never retries after the caller's abort (shutdown, session deadline)", async () => {
    const scripted = new ScriptedProvider({ responses: { a: [HANG, 'unused'] } });
    const controller = new AbortController();
    const provider = withRetries(scripted, { maxAttempts: 3, timeoutMs: 600_000 });
    const pending = provider.generate(request({ signal: controller.signal }));
    await scripted.callStarted(1);
    controller.abort(new Error('shutting down'));
    const error = await failureOf(pending);
    expect(error.retryable).toBe(false);
    expect(error.timedOut).toBe(false);
    expect(error.message).toMatch(/cancelled by the caller/);
    expect(scripted.calls).toHaveLength(1);
  });

  it('an abort during the backoff wait ends the call without another attempt', async () => {
    const scripted = new ScriptedProvider({
      responses: { a: [{ error: { status: 503, retry_after_ms: 60_000 } }, 'unused'] },
    });
    const controller = new AbortController();
    const pending = withRetries(scripted, { maxAttempts: 3, timeoutMs: 1000 }).generate(
      request({ signal: controller.signal }),
    );
    await scripted.callStarted(1);
    // The real sleep: it must wake on the abort instead of sitting out the minute.
    setImmediate(() => controller.abort(new Error('stop')));
    const error = await failureOf(pending);
    expect(error.retryable).toBe(false);
    expect(scripted.calls).toHaveLength(1);
  });

  it('ends the call at the session deadline (deadlineMs) without another attempt', async () => {
    const scripted = new ScriptedProvider({ responses: { a: [HANG, 'unused'] } });
    const provider = withRetries(scripted, { maxAttempts: 3, timeoutMs: 600_000 });
    const error = await failureOf(provider.generate(request({ deadlineMs: 30 })));
    expect(error.deadlinePassed).toBe(true);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/session deadline passed/);
    expect(scripted.calls).toHaveLength(1);
  });

  it('does not start a backoff that would end after the session deadline', async () => {
    const scripted = new ScriptedProvider({
      responses: { a: [{ error: { status: 429, retry_after_ms: 60_000 } }, 'unused'] },
    });
    const { delays, sleep } = recordingSleep();
    const error = await failureOf(
      withRetries(scripted, { maxAttempts: 3, timeoutMs: 1000, sleep }).generate(request({ deadlineMs: 5_000 })),
    );
    expect(error.status).toBe(429);
    expect(error.deadlinePassed).toBe(false);
    expect(delays).toEqual([]);
    expect(scripted.calls).toHaveLength(1);
  });

  it('does not retry a defect of the provider (a plain Error) and passes it on as it is, for the crash-retry count', async () => {
    let calls = 0;
    const broken = {
      kind: 'broken',
      interfaceVersion: 1 as const,
      generate: async () => {
        calls += 1;
        throw new TypeError('bug');
      },
    };
    await expect(withRetries(broken, { maxAttempts: 3, timeoutMs: 1000 }).generate(request())).rejects.toThrow(
      TypeError,
    );
    expect(calls).toBe(1);
  });

  it('refuses a policy that cannot make one attempt, naming the config key', () => {
    const scripted = new ScriptedProvider({ responses: {} });
    expect(() => withRetries(scripted, { maxAttempts: 0, timeoutMs: 1000 })).toThrow(/llm\.max_attempts/);
    expect(() => withRetries(scripted, { maxAttempts: 1, timeoutMs: 0.5 })).toThrow(/llm\.timeout_ms/);
  });

  it('keeps the kind and exposes the provider underneath', () => {
    const scripted = new ScriptedProvider({ responses: {} });
    const provider = withRetries(scripted, { maxAttempts: 1, timeoutMs: 1000 });
    expect(provider.kind).toBe('scripted');
    expect(innermostProvider(provider)).toBe(scripted);
  });
});
