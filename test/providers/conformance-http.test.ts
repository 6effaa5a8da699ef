/**
 * The path users take, for every real provider kind: `govflow start --http` as a real child
 * process with the AI SDK adapter pointed at a loopback server that speaks the kind's wire format
 * (OpenAI Chat Completions for openai, openai-compatible and ollama; Anthropic Messages; Gemini).
 * Each kind runs the example app over the HTTP API with the event stream attached (the model's
 * text arrives as `content_chunk`s) and the chain verified (the features a user combines, per kind:
 * conformance-ai-sdk.test.ts). Before the provider pipeline was composed once,
 * `--http` exited at start with every AI SDK kind ("Cannot assign to read only property
 * 'generate'"), since chat cancellation replaced a method on the frozen adapter.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, startDaemon } from '../daemon/daemon-helpers.js';
import { SseReader, getJson, httpUrlOf, postJson } from '../http/http-test-helpers.js';
import { EXAMPLE_AGENTS, REQUEST_TEXT, agentOf, exampleAppReply } from './example-app-responder.js';
import { KINDS, providerLines, type KindCase } from './provider-kinds.js';
import { startResponderLlmServer, systemPromptOf, type ResponderLlmServer } from './responder-llm-server.js';

let server: ResponderLlmServer | undefined;

beforeAll(buildDistOnce, 240_000);
afterEach(async () => {
  await cleanupAll();
  await server?.close();
  server = undefined;
});
afterAll(cleanupAll);

function providerConfig(testCase: KindCase, baseUrl: string): string {
  return ['timezone: UTC', 'http: { listen: "127.0.0.1:0" }', ...providerLines(testCase, baseUrl), ''].join('\n');
}

describe('govflow start --http with each real provider kind', () => {
  it.each(KINDS)(
    '$kind: the API, the event stream with content chunks, and a verified chain',
    async (testCase) => {
      server = await startResponderLlmServer(({ system }) => exampleAppReply(system));
      const root = makeRoot(providerConfig(testCase, server.url + testCase.basePath));
      const daemon = await startDaemon(root, { env: { [testCase.keyEnv]: testCase.key } });
      const url = httpUrlOf(daemon.readyLine);

      const submitted = await postJson(`${url}/v1/requests`, {
        request: REQUEST_TEXT,
        request_id: `conf-${testCase.kind}`,
      });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
      const stream = await SseReader.open(`${url}/v1/requests/conf-${testCase.kind}/events`);
      const events = await stream.finished(45_000);
      expect(events.at(-1)).toMatchObject({ event: 'session_finished', data: { status: 'success' } });
      expect(events.filter((event) => event.event === 'message')).toHaveLength(6);
      // The adapter streamed the model's text to the stream as it came.
      expect(events.filter((event) => event.event === 'content_chunk').length).toBeGreaterThanOrEqual(6);

      const result = (await getJson(`${url}/v1/requests/conf-${testCase.kind}`)).body;
      expect(result).toMatchObject({ status: 'success', messages: 6 });
      expect(server.requests.map((request) => agentOf(systemPromptOf(request.body))).sort()).toEqual(
        [...EXAMPLE_AGENTS].sort(),
      );
      expect(server.requests.every((request) => request.wire === testCase.wire)).toBe(true);
      // A call streams only while someone reads its chunks: the stream was open for the last one.
      expect(server.requests.at(-1)?.stream).toBe(true);
      expect((await getJson(`${url}/v1/verify`)).body.ok).toBe(true);
      expect((await daemon.stop()).code).toBe(0);
    },
    90_000,
  );
});
