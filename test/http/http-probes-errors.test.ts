/**
 * What a newcomer hits over HTTP: once tokens exist only /healthz answers without one (SPEC §11:
 * /readyz needs a token like the API); and a request Node's parser refuses (a query copied from the docs
 * with a raw `…`) is answered in govflow's error shape `{"error": {code, message}}`, not Fastify's.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { GatedProvider, getJson, httpTestbed } from './http-test-helpers.js';

const { start } = httpTestbed();
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

  it('answers a request with raw non-ASCII bytes in its query with a 400 in govflow\'s error shape', async () => {
    const { url } = await start(new GatedProvider());
    const answer = await rawRequest(url, Buffer.concat([Buffer.from('GET /v1/logs?session=sess-'), Buffer.from('…', 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]));
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toMatch(/percent-encode the URL/);
  });
});
