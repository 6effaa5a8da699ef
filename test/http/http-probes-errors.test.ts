/**
 * What a newcomer hits over HTTP: once tokens exist only /healthz answers without one (SPEC §11:
 * /readyz needs a token like the API); and a request Node's parser refuses (a query copied from the docs
 * with a raw `…`) is answered in govflow's error shape `{"error": {code, message}}`, not Fastify's.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import { tokenSha256 } from '../../src/http/http-auth.js';
import type { LlmRequest, LlmResponse } from '../../src/llm/provider.js';
import { GatedProvider, getJson, httpTestbed, postJson } from './http-test-helpers.js';

/** Every call waits for release(), then fails as a provider that answers 400 does (not retried). */
class FailingProvider extends GatedProvider {
  constructor() {
    super({ gated: true });
  }

  override async generate(request: LlmRequest): Promise<LlmResponse> {
    await super.generate(request);
    throw new ProviderError('the provider answered 400: model "gpt-x" does not exist', {
      provider: 'dry-run',
      model: 'gpt-x',
      status: 400,
      retryable: false,
    });
  }
}

const { start, open } = httpTestbed();
const TOKEN_CONFIG = `http:\n  tokens:\n    - { user: alice, sha256: "${tokenSha256('alice-token')}", role: operator }\n`;

function rawRequest(url: string, head: Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('probes and unreadable requests', () => {
  it('answers /healthz without a token when tokens exist; /readyz and the API need one', async () => {
    const { url } = await start(new GatedProvider(), TOKEN_CONFIG);
    expect((await getJson(`${url}/healthz`)).status).toBe(200);
    expect((await getJson(`${url}/readyz`)).status).toBe(401);
    expect(await getJson(`${url}/readyz`, 'alice-token')).toMatchObject({ status: 200, body: { status: 'ready' } });
    expect((await getJson(`${url}/v1/logs`)).status).toBe(401);
  });

  it("answers a request with raw non-ASCII bytes in its query with a 400 in govflow's error shape", async () => {
    const { url } = await start(new GatedProvider());
    const answer = await rawRequest(
      url,
      Buffer.concat([
        Buffer.from('GET /v1/logs?session=sess-'),
        Buffer.from('…', 'utf8'),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
      ]),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as {
      error: { code: string; message: string };
    };
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toMatch(/percent-encode the URL/);
  });

  it('sends error {message} on the event stream and once on the chat when a model call fails', async () => {
    const provider = new FailingProvider();
    const { url } = await start(provider);
    const submitted = await postJson(`${url}/v1/requests`, { request: 'Plan the offsite', request_id: 'fails-1' });
    expect(submitted.status).toBe(202);
    const stream = await open(`${url}/v1/requests/fails-1/events`);
    await provider.waitForCalls(1);
    provider.release(1);
    const events = await stream.finished();
    const names = events.map((event) => event.event);
    const error = events.find((event) => event.event === 'error');
    expect((error?.data as { message: string }).message).toMatch(/objective_agent: the model call failed: .*gpt-x/);
    expect(names.indexOf('error')).toBeLessThan(names.indexOf('message'));
    expect(events.find((event) => event.event === 'session_finished')?.data).toMatchObject({ status: 'failed' });

    const chat = await open(`${url}/v1/agent/chat`, { method: 'POST', body: { message: 'Plan the offsite' } });
    await provider.waitForCalls(2);
    provider.release(1);
    const chatEvents = await chat.finished();
    expect(chatEvents.filter((event) => event.event === 'error')).toHaveLength(1);
    // (the chunks are the dry-run answer the gate streams before the failure)
    expect(chatEvents.map((event) => event.event).filter((name) => name !== 'content_chunk')).toEqual([
      'message_start',
      'error',
      'message_complete',
    ]);
  });
});
