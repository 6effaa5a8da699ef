/**
 * JWT bearer tokens (docs/http-api.md "JWT bearer tokens", seed 003's `Authorization: Bearer
 * <JWT>`), verified by `jose`: the signature against the issuer's keys (a JWKS URL, cached and
 * fetched again for an unknown `kid` at most once a minute, or a key file), `exp`/`nbf` with 30 s
 * of leeway, `iss` and `aud`. A refusal is a 401 whose message names what failed (expired,
 * signature, issuer, audience, key); keys that cannot be fetched are a 503, not the caller's fault.
 */
import { createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import type { KeyObject } from 'node:crypto';
import type { JwtSettings } from '../config/config-vocabulary.js';
import { JwtKeyFileError, readJwtKeyFile } from '../config/jwt-key-file.js';
import { ConfigError, errorMessage, GovflowError } from '../errors.js';
import type { Caller, CallerRole } from './http-auth.js';
import { HttpProblem } from './http-problem.js';

/** Leeway on `exp` and `nbf`, for clocks that differ a little. */
const CLOCK_TOLERANCE_S = 30;
/** A token with an unknown `kid` fetches the JWKS again at most this often. */
const JWKS_REFETCH_MS = 60_000;
const ROLES: readonly CallerRole[] = ['operator', 'auditor', 'admin'];
/** What a user id may be: printable, at most 128 characters (it is on every audit entry). */
const USER_PATTERN = /^[^\p{Cc}]{1,128}$/u;

/** True when `token` is a compact JWS (three base64url parts whose first decodes to a JOSE header). */
export function looksLikeJwt(token: string): boolean {
  if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)) return false;
  try {
    return typeof decodeProtectedHeader(token).alg === 'string';
  } catch {
    return false;
  }
}

/** The issuer's keys could not be had (a JWKS URL down, slow or answering garbage). */
class KeysUnavailable extends GovflowError {
  constructor(message: string, options: { cause?: unknown }) {
    super('provider', message, { ...options, retryable: true });
  }
}

/**
 * The keys of a JWKS URL: fetched on first use and kept (jose refreshes them after 10 minutes); a
 * token whose `kid` the set lacks fetches it again — the first time at once (a key rotated at the
 * issuer is picked up), then at most once a minute, so made-up key ids cannot flood the issuer.
 * jose's own cooldown (measured from any fetch) is off: this one counts only those refetches.
 */
function remoteKeys(url: URL): JWTVerifyGetKey {
  const remote = createRemoteJWKSet(url, { cooldownDuration: Infinity });
  let lastRefetch = -Infinity;
  const resolve: JWTVerifyGetKey = async (header, token) => {
    // No keys yet, or past jose's cache age: this very call fetches them.
    const fetching = remote.jwks() === undefined || !remote.fresh;
    try {
      return await remote(header, token);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
      if (fetching) lastRefetch = Date.now();
      if (Date.now() - lastRefetch < JWKS_REFETCH_MS) throw error;
      lastRefetch = Date.now();
      await remote.reload();
      return await remote(header, token);
    }
  };
  return async (header, token) => {
    try {
      return await resolve(header, token);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'ERR_JWKS_NO_MATCHING_KEY' || code === 'ERR_JWKS_MULTIPLE_MATCHING_KEYS') throw error;
      if (error instanceof errors.JOSEError && code !== 'ERR_JWKS_TIMEOUT' && code !== 'ERR_JOSE_GENERIC') throw error;
      throw new KeysUnavailable(errorMessage(error), { cause: error });
    }
  };
}

function refused(reason: string): HttpProblem {
  return new HttpProblem(401, 'unauthorized', `the bearer JWT was refused: ${reason}`);
}

export class JwtVerifier {
  private constructor(
    private readonly settings: JwtSettings,
    private readonly keys: JWTVerifyGetKey | KeyObject,
  ) {}

  /** From `http.auth.jwt` as loaded (public_key_file absolute, already checked by the loader). */
  static fromSettings(settings: JwtSettings): JwtVerifier {
    if (settings.jwks_url !== undefined) return new JwtVerifier(settings, remoteKeys(new URL(settings.jwks_url)));
    let file;
    try {
      file = readJwtKeyFile(settings.public_key_file!, `http.auth.jwt.public_key_file ${settings.public_key_file}`);
    } catch (error) {
      // Checked when the config was loaded; changed on disk since.
      if (error instanceof JwtKeyFileError) throw new ConfigError(error.message);
      throw error;
    }
    return new JwtVerifier(settings, file.kind === 'key' ? file.key : createLocalJWKSet({ keys: file.keys }));
  }

  /** The caller a JWT names; throws HttpProblem 401 (refused) or 503 (keys unavailable). */
  async verify(token: string): Promise<Caller> {
    const { settings } = this;
    let payload: JWTPayload;
    try {
      const options = {
        issuer: settings.issuer,
        audience: settings.audience,
        clockTolerance: CLOCK_TOLERANCE_S,
        ...(settings.algorithms ? { algorithms: settings.algorithms } : {}),
      };
      // Two calls, not one with a union: jose's overloads take a key or a key function.
      payload =
        typeof this.keys === 'function'
          ? (await jwtVerify(token, this.keys, options)).payload
          : (await jwtVerify(token, this.keys, options)).payload;
    } catch (error) {
      if (error instanceof KeysUnavailable)
        throw new HttpProblem(
          503,
          'keys_unavailable',
          `the issuer's keys could not be fetched from http.auth.jwt.jwks_url (${error.message}); try again shortly`,
          5,
        );
      throw refused(refusalReason(error, settings));
    }
    return { user: userOf(payload, settings.user_claim ?? 'sub'), role: roleOf(payload, settings.role_claim) };
  }
}

/** The sentence of a refusal, naming its kind with one word: expired, signature, issuer, audience or key. */
function refusalReason(error: unknown, settings: JwtSettings): string {
  const code = (error as { code?: unknown }).code;
  if (error instanceof errors.JWTExpired) return 'it has expired (exp, with 30 s of leeway): get a new token';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return `its issuer (iss) is not ${JSON.stringify(settings.issuer)}`;
    if (error.claim === 'aud') return `its audience (aud) does not include ${JSON.stringify(settings.audience)}`;
    if (error.claim === 'nbf') return 'it is not valid yet (nbf, with 30 s of leeway)';
    return `its claim ${error.claim} is not valid (${error.message})`;
  }
  if (code === 'ERR_JWKS_NO_MATCHING_KEY' || code === 'ERR_JWKS_MULTIPLE_MATCHING_KEYS')
    return 'its key id (kid) matches no known key (the key set is fetched again at most once a minute)';
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return 'its signature does not verify';
  if (code === 'ERR_JOSE_ALG_NOT_ALLOWED' || code === 'ERR_JOSE_NOT_SUPPORTED')
    return `its signature algorithm is not accepted (${errorMessage(error)})`;
  if (code === 'ERR_JWS_INVALID' || code === 'ERR_JWT_INVALID')
    return `it is not a well-formed JWT (${errorMessage(error)})`;
  // A key of another type than the token's algorithm (an RSA key, an ES256 token).
  return `its signature cannot be checked (${errorMessage(error)})`;
}

function userOf(payload: JWTPayload, claim: string): string {
  const value = payload[claim];
  const user = typeof value === 'number' ? String(value) : value;
  if (typeof user !== 'string' || !USER_PATTERN.test(user))
    throw refused(
      `its user claim "${claim}" (http.auth.jwt.user_claim) is ${value === undefined ? 'missing' : 'not a string of 1 to 128 printable characters'}`,
    );
  return user;
}

function roleOf(payload: JWTPayload, claim: string | undefined): CallerRole {
  if (claim === undefined || payload[claim] === undefined) return 'operator';
  const value = payload[claim];
  if (typeof value === 'string' && (ROLES as readonly string[]).includes(value)) return value as CallerRole;
  throw refused(
    `its role claim "${claim}" (http.auth.jwt.role_claim) is ${JSON.stringify(value).slice(0, 60)}, not one of ${ROLES.join(', ')}`,
  );
}
