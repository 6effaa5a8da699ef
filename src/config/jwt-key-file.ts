/**
 * `http.auth.jwt.public_key_file` (docs/http-api.md "JWT bearer tokens"): a PEM public key (or
 * X.509 certificate), a JWK, or a JWKS `{"keys": [...]}`. Read by the config loader, so `govflow
 * validate` and every start refuse a file that is missing, unreadable, private or not a key, and
 * by the HTTP server for the key itself. Node's own parser (node:crypto) decides what is a key.
 */
import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errorMessage, GovflowError } from '../errors.js';
import { isPlainObject } from '../message/json-text.js';
import type { JwtSettings } from './config-vocabulary.js';

/** One public key, or a set whose keys are picked by the token's `kid`. */
export type JwtKeyFile = { kind: 'key'; key: KeyObject } | { kind: 'set'; keys: JsonWebKey[] };

/** Thrown with a sentence naming the file and what to give instead. */
export class JwtKeyFileError extends GovflowError {
  constructor(message: string) {
    super('config', message);
  }
}

function publicKeyOfJwk(jwk: unknown, where: string): KeyObject {
  if (!isPlainObject(jwk)) throw new JwtKeyFileError(`${where} is not a JSON object (a JWK)`);
  if (jwk.d !== undefined || jwk.k !== undefined)
    throw new JwtKeyFileError(`${where} is a private or secret key: give only the public key`);
  try {
    return createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  } catch (error) {
    throw new JwtKeyFileError(`${where} is not a usable public JWK (${errorMessage(error)})`);
  }
}

/** Reads and parses `file` (absolute); throws JwtKeyFileError saying what is wrong. */
export function readJwtKeyFile(file: string, shownAs: string): JwtKeyFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new JwtKeyFileError(
      code === 'ENOENT'
        ? `${shownAs} does not exist: give the path (relative to the root) of the issuer's public key (PEM), JWK or JWKS`
        : `${shownAs} cannot be read: ${errorMessage(error)}`,
    );
  }
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) {
    if (/PRIVATE KEY-----/.test(trimmed))
      throw new JwtKeyFileError(`${shownAs} holds a private key: give only the public key (openssl pkey -pubout)`);
    try {
      return { kind: 'key', key: createPublicKey(trimmed) };
    } catch (error) {
      throw new JwtKeyFileError(`${shownAs} is PEM but not a public key or certificate (${errorMessage(error)})`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    throw new JwtKeyFileError(
      `${shownAs} is neither a PEM public key ("-----BEGIN PUBLIC KEY-----") nor JSON (a JWK or JWKS)`,
    );
  }
  if (isPlainObject(json) && Array.isArray(json.keys)) {
    if (json.keys.length === 0) throw new JwtKeyFileError(`${shownAs} is a JWKS with no keys`);
    json.keys.forEach((key, index) => publicKeyOfJwk(key, `${shownAs} keys[${index}]`));
    return { kind: 'set', keys: json.keys as JsonWebKey[] };
  }
  return { kind: 'key', key: publicKeyOfJwk(json, shownAs) };
}

/** What is wrong with `http.auth.jwt` beyond its schema, and where; or null. `root` resolves `public_key_file`. */
export function jwtSettingsProblem(
  jwt: JwtSettings | null,
  root: string,
): { message: string; keyPath: Array<string | number> } | null {
  if (jwt === null) return null;
  const keyPath = ['http', 'auth', 'jwt'];
  if ((jwt.jwks_url === undefined) === (jwt.public_key_file === undefined))
    return {
      message:
        "http.auth.jwt needs exactly one of `jwks_url` (the issuer's JWKS endpoint, e.g. https://issuer.example/.well-known/jwks.json) " +
        'or `public_key_file` (a PEM public key, JWK or JWKS file in the root)',
      keyPath,
    };
  if (jwt.public_key_file === undefined) return null;
  try {
    readJwtKeyFile(path.resolve(root, jwt.public_key_file), `http.auth.jwt.public_key_file "${jwt.public_key_file}"`);
    return null;
  } catch (error) {
    if (!(error instanceof JwtKeyFileError)) throw error;
    return { message: error.message, keyPath: [...keyPath, 'public_key_file'] };
  }
}
