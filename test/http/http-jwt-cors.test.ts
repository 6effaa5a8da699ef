/**
 * SPEC §23's CORS and JWT bearer tokens over real HTTP, against `govflow start` as a child process:
 * a browser's preflight from a listed origin is answered 204 without a token and answers carry the
 * origin and expose the chat's headers, an unlisted origin gets no CORS header; JWTs signed by a
 * loopback JWKS server are verified (valid, expired, wrong audience or issuer, bad signature, a
 * rotated key fetched again, unknown key ids refused without a fetch within the minute), their claims give user and role, opaque tokens
 * work beside them, refusals count toward the §20 lockout; the public_key_file variant too.
 */
import { writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, runCli, startDaemon, waitFor, type DaemonProcess } from '../daemon/daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterAll(cleanupAll);

const ISSUER = 'https://issuer.test';
const AUDIENCE = 'govflow-api';
const APP = 'https://app.example';
const OPAQUE = 'opaque-token-beside-jwts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One call from a chosen local address (127.0.0.x): failed tokens are counted per address. */
function call(
  url: string,
  route: string,
  options: { headers?: Record<string, string>; from?: string; method?: string; body?: unknown } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const outgoing = httpRequest(
      `${url}${route}`,
      {
        method: options.method ?? 'GET',
        localAddress: options.from ?? '127.0.0.1',
        headers: { ...(options.headers ?? {}), ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (incoming) => {
        let text = '';
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        incoming.on('end', () => {
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            // an SSE stream or plain text
          }
          resolve({ status: incoming.statusCode!, headers: incoming.headers, body });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** An RS256 key pair with a key id, its public half as a JWK. */
async function keyPair(kid: string): Promise<{ kid: string; privateKey: CryptoKey; jwk: JWK; publicKey: CryptoKey }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, publicKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

/** A JWT of `claims` signed by `key`; `iss`, `aud`, `exp` (in 10 minutes) default to the daemon's. */
function jwt(
  key: { kid: string; privateKey: CryptoKey },
  claims: Record<string, unknown> & { sub?: string },
  overrides: { iss?: string; aud?: string; exp?: number; nbf?: number; kid?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const token = new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: overrides.kid ?? key.kid })
    .setIssuer(overrides.iss ?? ISSUER)
    .setAudience(overrides.aud ?? AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(overrides.exp ?? now + 600);
  if (overrides.nbf !== undefined) token.setNotBefore(overrides.nbf);
  return token.sign(key.privateKey);
}

/** A loopback JWKS endpoint serving `keys`, counting its fetches. */
async function jwksServer(): Promise<{ url: string; keys: JWK[]; fetches: () => number; server: Server }> {
  let fetches = 0;
  const state = { keys: [] as JWK[] };
  const server = createServer((request, response) => {
    fetches += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: state.keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`,
    get keys() {
      return state.keys;
    },
    set keys(value: JWK[]) {
      state.keys = value;
    },
    fetches: () => fetches,
    server,
  };
}

function urlOf(daemon: DaemonProcess): string {
  return /HTTP API on (http:\/\/[^\s,)]+)/.exec(daemon.readyLine)![1];
}

describe('CORS and JWTs with a JWKS URL (SPEC §23)', () => {
  let daemon: DaemonProcess;
  let url: string;
  let jwks: Awaited<ReturnType<typeof jwksServer>>;
  let first: Awaited<ReturnType<typeof keyPair>>;

  beforeAll(async () => {
    jwks = await jwksServer();
    first = await keyPair('k1');
    jwks.keys = [first.jwk];
    const root = makeRoot(
      [
        'timezone: UTC',
        'http:',
        '  listen: "127.0.0.1:0"',
        `  tokens: [{ user: olga, sha256: "${tokenSha256(OPAQUE)}" }]`,
        '  rate_limit: { auth_failures_per_minute: 3 }',
        `  cors: { origins: ["${APP}", "http://localhost:5173"] }`,
        '  auth:',
        `    jwt: { issuer: "${ISSUER}", audience: "${AUDIENCE}", jwks_url: "${jwks.url}", role_claim: govflow_role }`,
        '',
      ].join('\n'),
    );
    daemon = await startDaemon(root);
    url = urlOf(daemon);
  }, 60_000);

  afterAll(async () => {
    await daemon?.stop();
    jwks?.server.close();
  });

  it('maps the claims to user and role; an opaque token works beside; keys are fetched once', async () => {
    const alice = await jwt(first, { sub: 'alice@idp' });
    const posted = await call(url, '/v1/requests', {
      method: 'POST',
      headers: bearer(alice),
      body: { request: 'Summarize: Ana sends the budget by Friday.', request_id: 'jwt-alice-1' },
    });
    expect(posted.status).toBe(202);
    expect(jwks.fetches()).toBe(1);
    await waitFor(
      'the request done',
      async () => (await call(url, '/v1/requests/jwt-alice-1', { headers: bearer(alice) })).body?.status === 'success',
      { timeoutMs: 30_000, detail: () => daemon.stderrTail() },
    );
    // The user is the JWT's sub, on the audit entries; another user (an opaque token) cannot see it.
    const logs = await call(url, '/v1/logs', { headers: bearer(alice) });
    expect(logs.status).toBe(200);
    const entries = logs.body.entries as Array<{ requestId: string; user: string }>;
    const users = entries.filter((entry) => entry.requestId === 'jwt-alice-1').map((entry) => entry.user);
    expect(users.length).toBeGreaterThan(0);
    expect(new Set(users)).toEqual(new Set(['alice@idp']));
    expect((await call(url, '/v1/requests/jwt-alice-1', { headers: bearer(OPAQUE) })).status).toBe(404);
    // role_claim: an auditor reads everything and submits nothing.
    const audrey = await jwt(first, { sub: 'audrey', govflow_role: 'auditor' });
    expect((await call(url, '/v1/requests/jwt-alice-1', { headers: bearer(audrey) })).status).toBe(200);
    const refused = await call(url, '/v1/requests', {
      method: 'POST',
      headers: bearer(audrey),
      body: { request: 'x' },
    });
    expect(refused.status).toBe(403);
    const mallory = await jwt(first, { sub: 'mallory', govflow_role: 'root' });
    const badRole = await call(url, '/v1/logs', { headers: bearer(mallory), from: '127.0.0.9' });
    expect(badRole.status).toBe(401);
    expect(badRole.body.error.message).toContain('govflow_role');
    // A token that expired less than 30 s ago is still accepted (leeway).
    const recent = await jwt(first, { sub: 'alice@idp' }, { exp: Math.floor(Date.now() / 1000) - 10 });
    expect((await call(url, '/v1/logs', { headers: bearer(recent) })).status).toBe(200);
    expect(jwks.fetches()).toBe(1);
  });

  it('refuses expired, wrong-audience, wrong-issuer and badly signed JWTs with 401 naming the kind', async () => {
    const now = Math.floor(Date.now() / 1000);
    const stranger = await keyPair('k1'); // the right kid, another key: the signature cannot verify
    const cases: Array<[string, Promise<string>]> = [
      ['expired', jwt(first, { sub: 'alice@idp' }, { exp: now - 120 })],
      ['audience', jwt(first, { sub: 'alice@idp' }, { aud: 'another-api' })],
      ['issuer', jwt(first, { sub: 'alice@idp' }, { iss: 'https://evil.test' })],
      ['signature', jwt(stranger, { sub: 'alice@idp' })],
    ];
    let address = 20;
    for (const [word, token] of cases) {
      const answer = await call(url, '/v1/logs', { headers: bearer(await token), from: `127.0.0.${address++}` });
      expect(answer.status, word).toBe(401);
      expect(answer.body.error.code).toBe('unauthorized');
      expect(answer.body.error.message).toContain(word);
    }
    const garbage = await call(url, '/v1/logs', { headers: bearer('not-a-token'), from: `127.0.0.${address++}` });
    expect(garbage.status).toBe(401);
  });

  it('counts refused JWTs as failed tokens: past auth_failures_per_minute the address gets 429', async () => {
    const expired = await jwt(first, { sub: 'alice@idp' }, { exp: Math.floor(Date.now() / 1000) - 3600 });
    const from = '127.0.0.40';
    const statuses: number[] = [];
    for (let index = 0; index < 3; index++)
      statuses.push((await call(url, '/v1/logs', { headers: bearer(expired), from })).status);
    expect(statuses).toEqual([401, 401, 401]);
    const valid = await jwt(first, { sub: 'alice@idp' });
    const held = await call(url, '/v1/logs', { headers: bearer(valid), from });
    expect(held.status).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await call(url, '/v1/logs', { headers: bearer(valid), from: '127.0.0.41' })).status).toBe(200);
  });

  it("answers a listed origin's preflight with 204 and no token; an unlisted origin gets no CORS header", async () => {
    const preflight = await call(url, '/v1/agent/chat', {
      method: 'OPTIONS',
      headers: {
        origin: APP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(APP);
    const methods = String(preflight.headers['access-control-allow-methods']).split(/,\s*/);
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST']));
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'last-event-id']));
    expect(String(preflight.headers.vary)).toMatch(/origin/i);

    const unlisted = await call(url, '/v1/agent/chat', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      from: '127.0.0.60',
    });
    expect(unlisted.status).not.toBe(204);
    expect(Object.keys(unlisted.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);

    // An answer to the listed origin carries it and exposes the chat's headers, errors included, and
    // keeps the security headers; no Origin, no CORS header.
    const token = await jwt(first, { sub: 'alice@idp' });
    const logs = await call(url, '/v1/logs', { headers: { ...bearer(token), origin: APP } });
    expect(logs.status).toBe(200);
    expect(logs.headers['access-control-allow-origin']).toBe(APP);
    expect(String(logs.headers['access-control-expose-headers']).toLowerCase().split(/,\s*/)).toEqual(
      expect.arrayContaining(['x-conversation-id', 'x-request-id']),
    );
    expect(logs.headers['x-content-type-options']).toBe('nosniff');
    const noToken = await call(url, '/v1/logs', { headers: { origin: APP }, from: '127.0.0.61' });
    expect(noToken.status).toBe(401);
    expect(noToken.headers['access-control-allow-origin']).toBe(APP);
    const sameOrigin = await call(url, '/v1/logs', { headers: bearer(token) });
    expect(sameOrigin.headers['access-control-allow-origin']).toBeUndefined();
    const other = await call(url, '/v1/logs', { headers: { ...bearer(token), origin: 'https://evil.example' } });
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();

    // The chat's event stream (written past Fastify's reply) carries them too.
    const chat = await call(url, '/v1/agent/chat', {
      method: 'POST',
      headers: { ...bearer(token), origin: APP },
      body: { message: 'Summarize: the budget is due Friday.' },
    });
    expect(chat.status).toBe(200);
    expect(chat.headers['access-control-allow-origin']).toBe(APP);
    expect(chat.headers['x-conversation-id']).toMatch(/^sess-/);
  });

  it('a rotated key is fetched again for its unknown kid; another unknown kid within the minute is not', async () => {
    const second = await keyPair('k2');
    jwks.keys = [second.jwk];
    const fetchesBefore = jwks.fetches();
    // The issuer rotated its key: the first token with the new kid fetches the keys again and passes.
    const rotated = await jwt(second, { sub: 'alice@idp' });
    expect((await call(url, '/v1/logs', { headers: bearer(rotated) })).status).toBe(200);
    expect(jwks.fetches()).toBe(fetchesBefore + 1);
    expect((await call(url, '/v1/logs', { headers: bearer(rotated) })).status).toBe(200);
    // Made-up key ids right after: refused without asking the issuer again (at most once a minute).
    for (const kid of ['k3', 'k4']) {
      const unknown = await call(url, '/v1/logs', {
        headers: bearer(await jwt(await keyPair(kid), { sub: 'x' })),
        from: '127.0.0.71',
      });
      expect(unknown.status).toBe(401);
      expect(unknown.body.error.message).toContain('key');
    }
    expect(jwks.fetches()).toBe(fetchesBefore + 1);
    // The retired key's tokens no longer verify.
    expect(
      (await call(url, '/v1/logs', { headers: bearer(await jwt(first, { sub: 'alice@idp' })), from: '127.0.0.72' }))
        .status,
    ).toBe(401);
  });
});

describe('JWTs with a public_key_file (SPEC §23)', () => {
  it('verifies against a PEM public key; validate names a missing or private key file', async () => {
    const key = await keyPair('file-key');
    const config = (file: string) =>
      [
        'timezone: UTC',
        'http:',
        '  listen: "127.0.0.1:0"',
        '  auth:',
        `    jwt: { issuer: "${ISSUER}", audience: "${AUDIENCE}", public_key_file: ${file} }`,
        '',
      ].join('\n');
    const root = makeRoot(config('keys/issuer.pem'));
    const missing = await runCli(['validate', '--root', root]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr + missing.stdout).toMatch(/public_key_file "keys\/issuer\.pem" does not exist/);

    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.join(root, 'keys'));
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const { exportPKCS8 } = await import('jose');
    writeFileSync(path.join(root, 'keys', 'issuer.pem'), await exportPKCS8(privateKey));
    const secret = await runCli(['validate', '--root', root]);
    expect(secret.code).not.toBe(0);
    expect(secret.stderr + secret.stdout).toMatch(/private key: give only the public key/);

    writeFileSync(path.join(root, 'keys', 'issuer.pem'), await exportSPKI(key.publicKey));
    const daemon = await startDaemon(root);
    const url = urlOf(daemon);
    expect((await call(url, '/v1/logs', { headers: bearer(await jwt(key, { sub: 'fiona' })) })).status).toBe(200);
    const other = await keyPair('file-key');
    const forged = await call(url, '/v1/logs', { headers: bearer(await jwt(other, { sub: 'fiona' })) });
    expect(forged.status).toBe(401);
    expect(forged.body.error.message).toContain('signature');
    // The web view's sign-in takes a JWT as a token; a forged one is refused.
    const signIn = async (token: string) =>
      fetch(`${url}/ui/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
        redirect: 'manual',
      });
    const signedIn = await signIn(await jwt(key, { sub: 'fiona' }));
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('set-cookie')).toMatch(/^govflow_token=/);
    expect((await signIn(await jwt(other, { sub: 'fiona' }))).status).toBe(401);
    // JWTs only: no Authorization is a 401, and without http.cors there is no CORS at all.
    expect((await call(url, '/v1/logs')).status).toBe(401);
    const preflight = await call(url, '/v1/logs', {
      method: 'OPTIONS',
      headers: { origin: APP, 'access-control-request-method': 'GET' },
    });
    expect(Object.keys(preflight.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    await daemon.stop();
  }, 60_000);
});
