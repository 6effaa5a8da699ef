/**
 * The JWT verifier and the caller check beside opaque tokens (SPEC §23), without a server: each
 * refusal names exactly one kind, claims become user and role, a key set that cannot be fetched is
 * a 503 (not a failed token), and a bearer that is not a JWT goes to http.tokens.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JwtSettings } from '../../src/config/config-vocabulary.js';
import { CallerAuth, tokenSha256, TokenTable } from '../../src/http/http-auth.js';
import { JwtVerifier, looksLikeJwt } from '../../src/http/jwt-auth.js';

const KINDS = ['expired', 'signature', 'issuer', 'audience', 'key'];
const folder = mkdtempSync(path.join(tmpdir(), 'govflow-jwt-'));
let privateKey: CryptoKey;
let settings: JwtSettings;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  privateKey = pair.privateKey;
  const file = path.join(folder, 'issuer.pem');
  writeFileSync(file, await exportSPKI(pair.publicKey));
  settings = { issuer: 'https://issuer.test', audience: ['api', 'other'], public_key_file: file, role_claim: 'role' };
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function token(claims: Record<string, unknown>, options: { nbf?: number; alg?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'ES256' })
    .setIssuer('https://issuer.test')
    .setAudience('api')
    .setExpirationTime(now + 300);
  if (options.nbf !== undefined) jwt.setNotBefore(options.nbf);
  return jwt.sign(privateKey);
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = (await promise.then(
    () => null,
    (caught: unknown) => caught,
  )) as { status: number; message: string } | null;
  expect(error).not.toBeNull();
  return error!;
}

describe('JwtVerifier', () => {
  it('maps user_claim and role_claim; numeric subjects; nbf with 30 s leeway', async () => {
    const verifier = JwtVerifier.fromSettings(settings);
    expect(await verifier.verify(await token({ sub: 'ana' }))).toEqual({ user: 'ana', role: 'operator' });
    expect(await verifier.verify(await token({ sub: 'root', role: 'admin' }))).toEqual({ user: 'root', role: 'admin' });
    expect(await verifier.verify(await token({ sub: 42 }))).toEqual({ user: '42', role: 'operator' });
    const now = Math.floor(Date.now() / 1000);
    expect((await verifier.verify(await token({ sub: 'ana' }, { nbf: now + 20 }))).user).toBe('ana');
    const early = await refusal(verifier.verify(await token({ sub: 'ana' }, { nbf: now + 120 })));
    expect([early.status, early.message]).toEqual([401, expect.stringContaining('not valid yet')]);
    const custom = JwtVerifier.fromSettings({ ...settings, user_claim: 'email' });
    expect((await custom.verify(await token({ sub: 'x', email: 'ana@example.com' }))).user).toBe('ana@example.com');
    const missing = await refusal(custom.verify(await token({ sub: 'x' })));
    expect(missing.message).toMatch(/user claim "email" .* is missing/);
    const control = await refusal(verifier.verify(await token({ sub: 'ana\nroot' })));
    expect(control.status).toBe(401);
  });

  it('a refusal names one kind only; algorithms limits what is accepted', async () => {
    const strict = JwtVerifier.fromSettings({ ...settings, algorithms: ['RS256'] });
    const refused = await refusal(strict.verify(await token({ sub: 'ana' })));
    expect(refused.status).toBe(401);
    expect(KINDS.filter((kind) => refused.message.includes(kind))).toEqual(['signature']);
    const tampered = (await token({ sub: 'ana' })).replace(
      /\.[^.]+\./,
      `.${Buffer.from('{"sub":"root","iss":"https://issuer.test","aud":"api"}').toString('base64url')}.`,
    );
    const forged = await refusal(JwtVerifier.fromSettings(settings).verify(tampered));
    expect(KINDS.filter((kind) => forged.message.includes(kind))).toEqual(['signature']);
  });

  it('answers 503 when the key set cannot be fetched: the issuer is down, not the caller wrong', async () => {
    const verifier = JwtVerifier.fromSettings({
      issuer: 'https://issuer.test',
      audience: 'api',
      jwks_url: 'http://127.0.0.1:1/jwks.json',
    });
    const answer = (await refusal(verifier.verify(await token({ sub: 'ana' })))) as { status: number; code?: string };
    expect(answer.status).toBe(503);
    expect(answer.code).toBe('keys_unavailable');
  });
});

describe('keys from a JWKS URL', () => {
  afterEach(() => vi.useRealTimers());

  it('fetches again for an unknown kid at once, then at most once a minute', async () => {
    let served: JWK[] = [];
    let fetches = 0;
    const server = createServer((_request, response) => {
      fetches += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const pair = async (kid: string) => {
        const keys = await generateKeyPair('ES256', { extractable: true });
        return { kid, privateKey: keys.privateKey, jwk: { ...(await exportJWK(keys.publicKey)), kid, alg: 'ES256' } };
      };
      const signed = (key: { kid: string; privateKey: CryptoKey }) =>
        new SignJWT({ sub: 'ana' })
          .setProtectedHeader({ alg: 'ES256', kid: key.kid })
          .setIssuer('https://issuer.test')
          .setAudience('api')
          .setExpirationTime('1h')
          .sign(key.privateKey);
      const port = (server.address() as AddressInfo).port;
      const verifier = JwtVerifier.fromSettings({
        issuer: 'https://issuer.test',
        audience: 'api',
        jwks_url: `http://127.0.0.1:${port}/jwks`,
      });
      vi.useFakeTimers({ toFake: ['Date'] });
      const [k1, k2, k3, k4] = await Promise.all(['k1', 'k2', 'k3', 'k4'].map(pair));
      // The first call fetches; an unknown kid on it counts as that minute's fetch.
      served = [k1.jwk];
      const first = await refusal(verifier.verify(await signed(k2)));
      expect([first.status, fetches]).toEqual([401, 1]);
      expect(first.message).toContain('key');
      expect((await verifier.verify(await signed(k1))).user).toBe('ana');
      expect(fetches).toBe(1);
      // A minute later the rotated key is fetched and accepted; another unknown kid right after is not fetched.
      vi.setSystemTime(Date.now() + 61_000);
      served = [k1.jwk, k2.jwk];
      expect((await verifier.verify(await signed(k2))).user).toBe('ana');
      expect(fetches).toBe(2);
      served = [k1.jwk, k2.jwk, k3.jwk];
      expect((await refusal(verifier.verify(await signed(k3)))).status).toBe(401);
      vi.setSystemTime(Date.now() + 59_000);
      expect((await refusal(verifier.verify(await signed(k4)))).status).toBe(401);
      expect(fetches).toBe(2);
      vi.setSystemTime(Date.now() + 2_000);
      expect((await verifier.verify(await signed(k3))).user).toBe('ana');
      expect(fetches).toBe(3);
    } finally {
      server.close();
    }
  });
});

describe('CallerAuth', () => {
  it('sends JWTs to the verifier and any other bearer to http.tokens', async () => {
    const jwt = JwtVerifier.fromSettings(settings);
    const both = new CallerAuth(
      new TokenTable([{ user: 'olga', sha256: tokenSha256('opaque'), role: 'auditor' }]),
      jwt,
    );
    expect(await both.authenticate('Bearer opaque')).toEqual({ user: 'olga', role: 'auditor' });
    expect(await both.authenticate(`Bearer ${await token({ sub: 'ana' })}`)).toEqual({ user: 'ana', role: 'operator' });
    expect((await refusal(both.authenticate(undefined))).status).toBe(401);
    const jwtOnly = new CallerAuth(new TokenTable([]), jwt);
    expect(jwtOnly.enabled).toBe(true);
    expect((await refusal(jwtOnly.authenticate(undefined))).message).toContain('Bearer <JWT>');
    expect((await refusal(jwtOnly.authenticate('Bearer opaque'))).message).toContain('not a JWT');
    const none = new CallerAuth(new TokenTable([]), null);
    expect(await none.authenticate(undefined)).toEqual({ user: 'local', role: 'local' });
    expect(looksLikeJwt(await token({ sub: 'a' }))).toBe(true);
    for (const bearer of ['gf_abc', 'a.b.c', 'x.y', '..']) expect(looksLikeJwt(bearer)).toBe(false);
  });
});
