/**
 * Who is calling (docs/http-api.md). Tokens are configured as their SHA-256; a presented one is
 * hashed and compared to every hash in constant time, so neither timing nor order tells anything.
 * With `http.auth.jwt`, a bearer that is a JWT is verified instead (jwt-auth.ts). Without tokens
 * or JWTs the API listens on loopback only and every caller is `local`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../sha256-hex.js';
import { HttpProblem } from './http-problem.js';
import { looksLikeJwt, type JwtVerifier } from './jwt-auth.js';

/** `admin` reads everything and acts on every session (docs/run-control.md); `local`: no tokens configured. */
export type CallerRole = 'operator' | 'auditor' | 'admin' | 'local';

export interface Caller {
  user: string;
  role: CallerRole;
}

export interface TokenEntry {
  user: string;
  sha256: string;
  role: 'operator' | 'auditor' | 'admin';
}

/** Hex SHA-256 of a token, as `http.tokens[].sha256` stores it. */
export function tokenSha256(token: string): string {
  return sha256Hex(token);
}

/** A new random bearer token (256 bits, URL-safe). */
export function newToken(): string {
  return `gf_${randomBytes(32).toString('base64url')}`;
}

/** True for host names and addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** True when the caller may read every request, session and audit entry. */
export function readsEverything(caller: Caller): boolean {
  return caller.role === 'auditor' || caller.role === 'admin' || caller.role === 'local';
}

/** True when `caller` may act on (reply to, cancel, retry, fork, re-run) a session of `owner`; auditors act on none. */
export function mayActOn(caller: Caller, owner: string): boolean {
  if (caller.role === 'auditor') return false;
  return caller.role === 'admin' || caller.role === 'local' || caller.user === owner;
}

/** True when `caller` may see what `owner` submitted (404 otherwise, so ids do not leak). */
export function maySee(caller: Caller, owner: string): boolean {
  return readsEverything(caller) || caller.user === owner;
}

/** Throws 403 for auditors: they read everything and submit nothing. */
export function requireSubmitter(caller: Caller): void {
  if (caller.role === 'auditor') {
    throw new HttpProblem(
      403,
      'forbidden',
      `user "${caller.user}" is an auditor: auditors read and verify, they cannot submit requests or replies`,
    );
  }
}

export class TokenTable {
  private readonly entries: Array<{ digest: Buffer; caller: Caller }>;

  constructor(tokens: readonly TokenEntry[]) {
    this.entries = tokens.map((token) => ({
      digest: Buffer.from(token.sha256.toLowerCase(), 'hex'),
      caller: { user: token.user, role: token.role },
    }));
  }

  get enabled(): boolean {
    return this.entries.length > 0;
  }

  /** The caller for an Authorization header; throws 401 saying what to send. */
  authenticate(authorization: string | undefined): Caller {
    if (!this.enabled) return { user: 'local', role: 'local' };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) {
      throw new HttpProblem(
        401,
        'unauthorized',
        'this API needs "Authorization: Bearer <token>" (create a token with: govflow token add USER)',
      );
    }
    const presented = createHash('sha256').update(match[1], 'utf8').digest();
    let found: Caller | null = null;
    for (const entry of this.entries) {
      // Every entry is compared, whatever matched before: the time taken does not depend on which.
      if (timingSafeEqual(presented, entry.digest) && found === null) found = entry.caller;
    }
    if (!found)
      throw new HttpProblem(
        401,
        'unauthorized',
        'the bearer token is not one of http.tokens: check it, or create one with govflow token add USER',
      );
    return found;
  }
}

/** The bearer of an Authorization header, or null. */
function bearerOf(authorization: string | undefined): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? null;
}

/** Opaque tokens (`http.tokens`) and, with `http.auth.jwt`, JWTs beside them. */
export class CallerAuth {
  constructor(
    readonly tokens: TokenTable,
    readonly jwt: JwtVerifier | null,
  ) {}

  /** True when a caller must present a token (else every caller is `local`). */
  get enabled(): boolean {
    return this.tokens.enabled || this.jwt !== null;
  }

  /** The caller for an Authorization header; throws 401 saying what to send (503 when the JWT keys cannot be had). */
  async authenticate(authorization: string | undefined): Promise<Caller> {
    if (this.jwt === null) return this.tokens.authenticate(authorization);
    const bearer = bearerOf(authorization);
    if (bearer !== null && looksLikeJwt(bearer)) return this.jwt.verify(bearer);
    if (this.tokens.enabled) return this.tokens.authenticate(authorization);
    throw new HttpProblem(
      401,
      'unauthorized',
      bearer === null
        ? 'this API needs "Authorization: Bearer <JWT>" (a token of the issuer in http.auth.jwt)'
        : 'the bearer token is not a JWT, and this API takes only JWTs of the issuer in http.auth.jwt',
    );
  }
}
