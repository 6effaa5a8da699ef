/**
 * Bad input on the real path (issue #27): `govflow start --http` with `kind: openai-compatible`
 * against a loopback server that sends malformed SSE, stops mid-stream, sends 10 MB of chunks, or
 * answers 200 with an HTML page. Each ends its session with a failed result whose error says what
 * the provider did (no stack trace), after the retries the contract gives, with an audit entry
 * and an intact chain — and the same daemon runs the next request to success.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, runCli, startDaemon, waitFor } from '../daemon/daemon-helpers.js';
import { SseReader, getJson, httpUrlOf, postJson } from '../http/http-test-helpers.js';
import type { ScriptedReply } from '../llm/loopback-llm-server.js';
import { exampleAppReply } from './example-app-responder.js';
import { startResponderLlmServer, type ResponderLlmServer } from './responder-llm-server.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

let server: ResponderLlmServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const TEN_MB_OF_CHUNKS = Array.from(
  { length: 2_500 },
  (_, index) =>
    'data: ' +
    JSON.stringify({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'm',
      choices: [{ index: 0, delta: { content: `${index}`.padEnd(4_000, 'x') }, finish_reason: null }],
    }) +
    '\n\n',
).join('');

/** Each case: the reply every model call gets while it is on, whether it needs a stream, and what the error must say. */
const CASES: Array<{ name: string; reply: ScriptedReply; streamed: boolean; error: RegExp; retried?: false }> = [
  {
    name: 'malformed SSE',
    reply: {
      kind: 'raw',
      status: 200,
      contentType: 'text/event-stream',
      body: 'data: {"id":"c","choices":[{"delta":{"content":"hal\n\ndata: not json at all\n\n',
    },
    streamed: true,
    error: /failed before a complete answer: JSON parsing failed/,
  },
  {
    name: 'a stream that stops mid-way',
    reply: { kind: 'text', text: 'abcdefghijkl', chunks: ['abc', 'def', 'ghi', 'jkl'], cutAfterChunks: 2 },
    streamed: true,
    error: /failed before a complete answer.*after 3 attempts/,
  },
  {
    name: '10 MB of chunks',
    reply: { kind: 'raw', status: 200, contentType: 'text/event-stream', body: TEN_MB_OF_CHUNKS },
    streamed: true,
    error: /max_output_bytes/,
  },
  {
    name: 'a 200 with an HTML page',
    reply: {
      kind: 'raw',
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>',
    },
    streamed: false,
    error: /answered HTTP 200.*not openai-compatible's API format; check provider\.base_url.*Welcome to nginx/,
    retried: false,
  },
];

describe('a real adapter against a server that misbehaves', () => {
  it('fails each session with a clear provider error after retries, audits it, and runs the next request', async () => {
    let bad: ScriptedReply | null = null;
    server = await startResponderLlmServer(({ system }) => bad ?? exampleAppReply(system));
    const root = makeRoot(
      `timezone: UTC\nhttp: { listen: "127.0.0.1:0" }\nllm: { backoff_base_ms: 1, backoff_max_ms: 5, timeout_ms: 20000 }\nprovider: { kind: ` +
        `openai-compatible, model: m, base_url: "${server.url}/v1" }\n`,
    );
    const daemon = await startDaemon(root);
    const url = httpUrlOf(daemon.readyLine);

    for (const testCase of CASES) {
      bad = testCase.reply;
      const before = server.requests.length;
      let requestId: string;
      if (testCase.streamed) {
        // The chat endpoint reads the chunks from the first call on, so every call streams.
        const chat = await SseReader.open(`${url}/v1/agent/chat`, {
          method: 'POST',
          body: { message: `Summarize: ${testCase.name}.` },
        });
        await chat.finished(60_000);
        // Seed 003: the failure is an `error` event, then `message_complete`.
        expect(chat.names().slice(-2), testCase.name).toEqual(['error', 'message_complete']);
        requestId = chat.headers.get('x-request-id')!;
      } else {
        const submitted = await postJson(`${url}/v1/requests`, { request: `Summarize: ${testCase.name}.` });
        expect(submitted.status).toBe(202);
        requestId = String(submitted.body.request_id);
      }
      const result = await waitFor(
        `the result of ${testCase.name}`,
        async () => {
          const answer = await getJson(`${url}/v1/requests/${requestId}`);
          // Accepted but not yet started reads 'queued': not an outcome either.
          const { status } = answer.body;
          return answer.status === 200 && status !== undefined && status !== 'queued' && status !== 'running'
            ? answer.body
            : null;
        },
        { timeoutMs: 60_000 },
      );
      bad = null;
      expect(result.status, testCase.name).toBe('failed');
      const message = JSON.stringify(result.error);
      expect(message, `${testCase.name}: ${message}`).toMatch(testCase.error);
      expect(message, `${testCase.name}: no stack trace in the error`).not.toMatch(/\\n\s+at /);
      // Retried (attempts or repairs), except a 200 no retry can change (a wrong base_url).
      if (testCase.retried === false) expect(server.requests.length - before, testCase.name).toBe(1);
      else expect(server.requests.length - before, testCase.name).toBeGreaterThan(1);
      if (testCase.streamed)
        expect(
          server.requests.slice(before).every((request) => request.stream),
          testCase.name,
        ).toBe(true);
      const logs = await getJson(`${url}/v1/logs?session=${encodeURIComponent(String(result.session_id))}`);
      expect(JSON.stringify(logs.body), testCase.name).toContain(String(result.session_id));
    }

    const good = await postJson(`${url}/v1/requests`, { request: 'Summarize: Ana sends the budget by Friday.' });
    const done = await waitFor(
      'the good request',
      async () => {
        const answer = await getJson(`${url}/v1/requests/${good.body.request_id}`);
        return answer.body.status === 'success' ? answer.body : null;
      },
      { timeoutMs: 60_000 },
    );
    expect(done.messages).toBe(6);
    expect((await daemon.stop()).code).toBe(0);
    expect((await runCli(['verify', '--root', root])).code).toBe(0);
  }, 240_000);
});
