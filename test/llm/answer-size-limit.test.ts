/**
 * llm.max_output_bytes: a hostile model's 50 MB answer (streamed or as one body) and an endless
 * stream are cut as soon as the answer passes the limit — long before timeout_ms — and the call
 * rejects with AnswerTooLargeError (invalid output for the repair loop, not a provider error).
 * Real HTTP through the loopback server in each wire format.
 */
import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AnswerBudget,
  AnswerTooLargeError,
  answerTooLargeMessage,
  checkAnswerSize,
  limitAnswerSize,
  wholeBodyLimit,
} from '../../src/llm/answer-size-limit.js';
import type { LlmRequest } from '../../src/llm/provider.js';
import { ScriptedProvider } from '../../src/llm/scripted-provider.js';
import {
  createAiSdkProvider,
  type AiSdkProviderSettings,
  startLoopbackLlmServer,
  type LoopbackLlmServer,
} from './loopback-llm-server.js';

const FIFTY_MB = 50 * 1024 * 1024;
const LIMIT = 1_048_576;

let server: LoopbackLlmServer;

beforeEach(async () => {
  server = await startLoopbackLlmServer();
});

afterEach(async () => {
  await server.close();
});

const WIRES: Array<{ kind: AiSdkProviderSettings['kind']; model: string; apiKey: string | null; basePath: string }> = [
  { kind: 'openai-compatible', model: 'hostile-model', apiKey: 'sk-test-key-000000001', basePath: '/v1' },
  { kind: 'anthropic', model: 'claude-sonnet-4-20250514', apiKey: 'sk-ant-test-key-00002', basePath: '/v1' },
  { kind: 'google', model: 'gemini-2.5-flash', apiKey: 'AIzaTestGoogleKey0003', basePath: '/v1beta' },
];

function provider(wire: (typeof WIRES)[number], overrides: Partial<AiSdkProviderSettings> = {}) {
  return createAiSdkProvider({
    kind: wire.kind,
    model: wire.model,
    baseUrl: server.url + wire.basePath,
    apiKey: wire.apiKey,
    maxAttempts: 3,
    // Far longer than the test may take: only the size limit can end these calls in time.
    timeoutMs: 60_000,
    maxOutputBytes: LIMIT,
    ...overrides,
  });
}

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    agent: 'objective_agent',
    system: 'Answer with JSON.',
    prompt: 'Go.',
    model: 'hostile-model',
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('the AI SDK adapter cuts a hostile answer at llm.max_output_bytes', () => {
  for (const wire of WIRES) {
    it(`${wire.kind}: a 50 MB streamed answer is cut after about 1 MiB, with one attempt`, async () => {
      server.reply({ kind: 'flood', bytes: FIFTY_MB });
      const chunks: string[] = [];
      const error = await rejection(
        provider(wire).generate(request({ model: wire.model, onChunk: (chunk) => chunks.push(chunk) })),
      );
      expect(error).toBeInstanceOf(AnswerTooLargeError);
      expect((error as Error).message).toBe('answer exceeded llm.max_output_bytes (1048576)');
      expect((error as AnswerTooLargeError).prefix.startsWith('{"output":{"content":"')).toBe(true);
      // Not retried: too large is the model's answer, handled by the repair loop.
      expect(server.requests).toHaveLength(1);
      await expect.poll(() => server.flood.cutByClient).toBe(1);
      expect(server.flood.finished).toBe(0);
      // The socket buffers a few MB at most; the 50 MB were never sent.
      expect(server.flood.bytesSent).toBeLessThan(16 * 1024 * 1024);
      expect(chunks.join('').length).toBeLessThanOrEqual(LIMIT);
    });

    it(`${wire.kind}: a 50 MB whole body is cut before it is read whole`, async () => {
      server.reply({ kind: 'flood', bytes: FIFTY_MB });
      const error = await rejection(provider(wire, { stream: false }).generate(request({ model: wire.model })));
      expect(error).toBeInstanceOf(AnswerTooLargeError);
      expect((error as Error).message).toBe(answerTooLargeMessage(LIMIT));
      expect(server.requests).toHaveLength(1);
      await expect.poll(() => server.flood.cutByClient).toBe(1);
      expect(server.flood.bytesSent).toBeLessThan(wholeBodyLimit(LIMIT) + 16 * 1024 * 1024);
    });
  }

  it('an endless stream is cut by the size limit, not by timeout_ms', async () => {
    server.reply({ kind: 'flood', bytes: null, chunkBytes: 100 });
    const started = Date.now();
    const error = await rejection(provider(WIRES[0]).generate(request()));
    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect(Date.now() - started).toBeLessThan(30_000);
    await expect.poll(() => server.flood.cutByClient).toBe(1);
  });

  it('a body whose text is just over the limit is refused, one just under is accepted', async () => {
    const small = 4_096;
    const prefix = '{"output":{"content":"'.length;
    server.reply({ kind: 'flood', bytes: small - prefix + 1 }, { kind: 'flood', bytes: small - prefix - 3 });
    const over = await rejection(provider(WIRES[0], { stream: false, maxOutputBytes: small }).generate(request()));
    expect((over as Error).message).toBe('answer exceeded llm.max_output_bytes (4096)');
    const under = await provider(WIRES[0], { maxOutputBytes: small }).generate(request());
    expect(Buffer.byteLength(under.text)).toBe(small - 3);
  });

  it('a whole body that declares its length passes as sent; a compressed one is counted as it is decoded', async () => {
    const completion = (content: string) =>
      JSON.stringify({
        id: 'c',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      });
    // 50 MB of answer gzipped to a few dozen kB: its Content-Length is far below the cap.
    const bomb = gzipSync(completion('x'.repeat(FIFTY_MB)));
    const plain = Buffer.from(completion('{"status":"success"}'));
    const raw: Server = createServer((request, response) => {
      request.resume();
      const body = request.url?.includes('bomb') ? bomb : plain;
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(body.length),
        ...(body === bomb ? { 'content-encoding': 'gzip' } : {}),
      });
      response.end(body);
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const port = (raw.address() as { port: number }).port;
    try {
      const settings = (path: string) => ({
        kind: 'openai-compatible' as const,
        model: 'm',
        baseUrl: `http://127.0.0.1:${port}/${path}`,
        apiKey: null,
        maxAttempts: 1,
        timeoutMs: 60_000,
        maxOutputBytes: LIMIT,
        stream: false,
      });
      expect(bomb.length).toBeLessThan(wholeBodyLimit(LIMIT));
      expect((await createAiSdkProvider(settings('plain')).generate(request({ model: 'm' }))).text).toBe(
        '{"status":"success"}',
      );
      const error = await rejection(createAiSdkProvider(settings('bomb')).generate(request({ model: 'm' })));
      expect(error).toBeInstanceOf(AnswerTooLargeError);
      // Cut while the body was read (no text kept), not after the whole 50 MB was decoded.
      expect((error as AnswerTooLargeError).prefix).toBe('');
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('an ordinary answer passes untouched', async () => {
    server.reply({ kind: 'text', text: '{"status":"success"}' }, { kind: 'text', text: '{"status":"partial"}' });
    expect((await provider(WIRES[0]).generate(request())).text).toBe('{"status":"success"}');
    expect((await provider(WIRES[0], { stream: false }).generate(request())).text).toBe('{"status":"partial"}');
  });
});

describe('limitAnswerSize: every provider obeys the limit (scripted, dry-run, injected)', () => {
  it('a scripted answer over the limit is refused with the limit in the message', async () => {
    const scripted = new ScriptedProvider({ responses: { objective_agent: ['x'.repeat(2_001), 'y'.repeat(2_000)] } });
    const limited = limitAnswerSize(scripted, 2_000);
    const error = await rejection(limited.generate(request()));
    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect((error as Error).message).toBe('answer exceeded llm.max_output_bytes (2000)');
    expect((await limited.generate(request())).text).toHaveLength(2_000);
    expect(limited.kind).toBe('scripted');
  });

  it('counts UTF-8 bytes, not characters', async () => {
    const scripted = new ScriptedProvider({ responses: { objective_agent: ['é'.repeat(600)] } });
    await expect(limitAnswerSize(scripted, 1_000).generate(request())).rejects.toThrow('(1000)');
  });

  it('aborts a streaming provider as soon as its pieces pass the limit', async () => {
    let sent = 0;
    let sawAbort = false;
    const endless = {
      kind: 'endless',
      interfaceVersion: 1 as const,
      async generate(call: LlmRequest) {
        while (!call.signal.aborted) {
          call.onChunk?.('z'.repeat(100));
          sent += 100;
          await new Promise((resolve) => setImmediate(resolve));
        }
        sawAbort = true;
        throw call.signal.reason;
      },
    };
    const heard: string[] = [];
    const error = await rejection(
      limitAnswerSize(endless, 1_000).generate(request({ onChunk: (chunk) => heard.push(chunk) })),
    );
    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect(sawAbort).toBe(true);
    expect(sent).toBe(1_100);
    // Listeners hear only what was within the limit.
    expect(heard.join('')).toHaveLength(1_000);
  });

  it("the caller's own abort stays the caller's", async () => {
    const controller = new AbortController();
    controller.abort(new Error('shutdown'));
    const scripted = new ScriptedProvider({ responses: { objective_agent: [{ text: '{}', delay_ms: 10 }] } });
    await expect(limitAnswerSize(scripted, 1_000).generate(request({ signal: controller.signal }))).rejects.toThrow(
      'shutdown',
    );
  });

  it('AnswerBudget and checkAnswerSize agree at the boundary', () => {
    const budget = new AnswerBudget(10);
    budget.add('12345');
    budget.add('67890');
    expect(budget.bytes).toBe(10);
    expect(() => budget.add('!')).toThrow(AnswerTooLargeError);
    expect(() => checkAnswerSize('x'.repeat(10), 10)).not.toThrow();
    expect(() => checkAnswerSize('x'.repeat(11), 10)).toThrow(AnswerTooLargeError);
    expect(() => checkAnswerSize('€'.repeat(4), 11)).toThrow(AnswerTooLargeError);
  });
});
