/** The `http:` config section and the token table, without a server. */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { ConfigError } from '../../src/errors.js';
import {
  isLoopbackHost,
  mayActOn,
  maySee,
  newToken,
  readsEverything,
  tokenSha256,
  TokenTable,
} from '../../src/http/http-auth.js';
import { parseListen } from '../../src/http/http-server.js';
import { parseLastEventId } from '../../src/http/event-ids.js';
import { exampleRoot, removeTempDirs } from '../pipeline/pipeline-test-helpers.js';

afterEach(removeTempDirs);

describe('http config', () => {
  it('defaults to no listener, no tokens and a 1 MiB body limit', () => {
    const config = loadConfig(exampleRoot(), {});
    expect(config.http).toMatchObject({ listen: null, tokens: [], max_body_bytes: 1_048_576 });
  });

  it('reads tokens with operator as the default role, hashes lower-cased', () => {
    const hash = tokenSha256('t');
    const config = loadConfig(
      exampleRoot(`http:\n  listen: 127.0.0.1:7070\n  tokens: [{ user: ana, sha256: "${hash.toUpperCase()}" }]\n`),
      {},
    );
    expect(config.http.tokens).toEqual([{ user: 'ana', sha256: hash, role: 'operator' }]);
  });

  it('takes the admin role, and refuses a role it does not know', () => {
    const hash = tokenSha256('t');
    const config = loadConfig(
      exampleRoot(`http:\n  listen: 127.0.0.1:7070\n  tokens: [{ user: root, sha256: "${hash}", role: admin }]\n`),
      {},
    );
    expect(config.http.tokens).toEqual([{ user: 'root', sha256: hash, role: 'admin' }]);
    expect(() =>
      loadConfig(
        exampleRoot(`http:\n  listen: 127.0.0.1:7070\n  tokens: [{ user: root, sha256: "${hash}", role: owner }]\n`),
        {},
      ),
    ).toThrow(/role/);
  });

  it('rejects a malformed listen address, token hash or unknown key, naming the line', () => {
    expect(() => loadConfig(exampleRoot('http:\n  listen: "no port"\n'), {})).toThrow(ConfigError);
    expect(() => loadConfig(exampleRoot('http:\n  tokens: [{ user: ana, sha256: "abc" }]\n'), {})).toThrow(/sha256/);
    expect(() => loadConfig(exampleRoot('http:\n  port: 1\n'), {})).toThrow(/port/);
  });

  it('reads http.cors.origins and refuses an origin with a path', () => {
    expect(loadConfig(exampleRoot(), {}).http.cors).toEqual({ origins: [] });
    const config = loadConfig(
      exampleRoot('http:\n  cors: { origins: ["https://app.example", "http://localhost:5173"] }\n'),
      {},
    );
    expect(config.http.cors.origins).toEqual(['https://app.example', 'http://localhost:5173']);
    expect(() => loadConfig(exampleRoot('http:\n  cors: { origins: ["https://app.example/"] }\n'), {})).toThrow(
      /origins/,
    );
  });

  it('checks http.auth.jwt: exactly one key source, a key file that exists, is public and parses', () => {
    const jwt = (keys: string) => `http:\n  auth:\n    jwt: { issuer: "https://issuer.test", audience: api${keys} }\n`;
    expect(loadConfig(exampleRoot(), {}).http.auth.jwt).toBeNull();
    expect(() => loadConfig(exampleRoot(jwt('')), {})).toThrow(/exactly one of `jwks_url`.*or `public_key_file`/);
    expect(() => loadConfig(exampleRoot(jwt(', jwks_url: "https://i.test/jwks", public_key_file: k.pem')), {})).toThrow(
      /exactly one/,
    );
    expect(() => loadConfig(exampleRoot(jwt(', public_key_file: keys/k.pem')), {})).toThrow(
      /public_key_file "keys\/k\.pem" does not exist/,
    );
    expect(() => loadConfig(exampleRoot(jwt(', jwks_url: "https://i.test/jwks", algorithms: [HS256]')), {})).toThrow(
      /algorithms/,
    );
    expect(() => loadConfig(exampleRoot(jwt(', jwks_url: "https://i.test/jwks", secret: x')), {})).toThrow(/secret/);

    const root = exampleRoot(jwt(', public_key_file: keys/k.pem, role_claim: roles'));
    mkdirSync(path.join(root, 'keys'));
    const file = path.join(root, 'keys', 'k.pem');
    writeFileSync(file, 'not a key');
    expect(() => loadConfig(root, {})).toThrow(/neither a PEM public key.*nor JSON/);
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(() => loadConfig(root, {})).toThrow(/private key/);
    writeFileSync(file, JSON.stringify(privateKey.export({ format: 'jwk' })));
    expect(() => loadConfig(root, {})).toThrow(/private or secret key/);
    writeFileSync(file, JSON.stringify({ keys: [] }));
    expect(() => loadConfig(root, {})).toThrow(/JWKS with no keys/);
    writeFileSync(file, JSON.stringify({ keys: [publicKey.export({ format: 'jwk' })] }));
    expect(loadConfig(root, {}).http.auth.jwt).toMatchObject({ public_key_file: file, role_claim: 'roles' });
    writeFileSync(file, publicKey.export({ type: 'spki', format: 'pem' }));
    expect(loadConfig(root, {}).http.auth.jwt?.public_key_file).toBe(file);
  });

  it('refuses forward_authorization on a stdio MCP server', () => {
    expect(() =>
      loadConfig(exampleRoot('mcp:\n  servers:\n    local: { command: node, forward_authorization: true }\n'), {}),
    ).toThrow(/forward_authorization.*only a server with `url`/);
    const config = loadConfig(
      exampleRoot('mcp:\n  servers:\n    api: { url: "https://api.test/mcp", forward_authorization: true }\n'),
      {},
    );
    expect(config.mcp.servers.api.forward_authorization).toBe(true);
  });

  it('parses HOST:PORT and [v6]:PORT', () => {
    expect(parseListen('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseListen('[::1]:7070')).toEqual({ host: '::1', port: 7070 });
    expect(() => parseListen('localhost')).toThrow(/HOST:PORT/);
    expect(() => parseListen('127.0.0.1:70000')).toThrow(/HOST:PORT/);
  });
});

describe('tokens', () => {
  it('authenticates by sha-256, refuses a missing or unknown token with 401', () => {
    const token = newToken();
    const table = new TokenTable([
      { user: 'ana', sha256: tokenSha256(token), role: 'auditor' },
      { user: 'raj', sha256: tokenSha256('raj-token'), role: 'operator' },
    ]);
    expect(table.authenticate(`Bearer ${token}`)).toEqual({ user: 'ana', role: 'auditor' });
    expect(table.authenticate('bearer raj-token')).toEqual({ user: 'raj', role: 'operator' });
    for (const header of [undefined, '', 'Bearer', `Basic ${token}`, 'Bearer nope']) {
      expect(() => table.authenticate(header)).toThrow(expect.objectContaining({ status: 401 }));
    }
  });

  it('without tokens everyone is local; loopback detection; who may see what', () => {
    expect(new TokenTable([]).authenticate(undefined)).toEqual({ user: 'local', role: 'local' });
    expect(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '10.0.0.1', '::', 'example.com'].some(isLoopbackHost)).toBe(false);
    expect(maySee({ user: 'ana', role: 'operator' }, 'ana')).toBe(true);
    expect(maySee({ user: 'ana', role: 'operator' }, 'raj')).toBe(false);
    expect(maySee({ user: 'audrey', role: 'auditor' }, 'raj')).toBe(true);
  });

  it('an admin reads everything and acts on every session; an operator acts on its own; an auditor on none', () => {
    const admin = { user: 'root', role: 'admin' } as const;
    const operator = { user: 'ana', role: 'operator' } as const;
    const auditor = { user: 'audrey', role: 'auditor' } as const;
    expect([readsEverything(admin), maySee(admin, 'raj'), mayActOn(admin, 'raj')]).toEqual([true, true, true]);
    expect([readsEverything(operator), mayActOn(operator, 'ana'), mayActOn(operator, 'raj')]).toEqual([
      false,
      true,
      false,
    ]);
    expect([mayActOn(auditor, 'audrey'), mayActOn(auditor, 'raj')]).toEqual([false, false]);
    expect(mayActOn({ user: 'local', role: 'local' }, 'raj')).toBe(true);
    expect(
      new TokenTable([{ user: 'root', sha256: tokenSha256('x'), role: 'admin' }]).authenticate('Bearer x'),
    ).toEqual(admin);
  });

  it('reads Last-Event-ID as the last message sequence the client has', () => {
    expect(parseLastEventId(undefined)).toBeNull();
    expect(parseLastEventId('7')).toBe(7);
    expect(parseLastEventId('7.12')).toBe(7);
    expect(parseLastEventId('7.session_finished')).toBe(7);
    expect(parseLastEventId('7.content_chunk.12')).toBe(7);
    expect(() => parseLastEventId('7.Content chunk')).toThrow(/Last-Event-ID/);
    expect(() => parseLastEventId('shutdown')).toThrow(/Last-Event-ID/);
  });
});
