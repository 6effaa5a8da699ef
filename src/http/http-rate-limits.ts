/**
 * `http.rate_limit` (docs/webhooks.md "Rate limits"), with @fastify/rate-limit's fixed one-minute
 * windows: a token's user past `per_user_per_minute` calls, and a client address past
 * `auth_failures_per_minute` answers of 401, get 429 with Retry-After (whole seconds) until the
 * window frees. A blocked address is refused before its token is even looked at, so a correct guess
 * is refused too: the limit slows guessing, not just wrong guesses. The settings are read per
 * request, so a config edit applies at once (src/daemon/config-watch.ts); unset, nothing is counted.
 * In cluster mode the counts are the store's (src/cluster/store-rate-limits.ts: a sliding minute
 * across every daemon); a store that does not answer lets calls through rather than refuse them all.
 */
import rateLimit, {
  normalizeIP,
  type errorResponseBuilderContext,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GovflowConfig } from '../config/config-loader.js';
import type { Caller } from './http-auth.js';
import { HttpProblem } from './http-problem.js';

export type RateLimitSettings = GovflowConfig['http']['rate_limit'];

const WINDOW_MS = 60_000;

/** The caller the auth hook set, or null (a public path, or a failed token). */
type CallerOf = (request: FastifyRequest) => Caller | null;

export class HttpRateLimits {
  /** `store`: where calls are counted (cluster mode: Postgres, shared by every daemon); this process's memory without. */
  constructor(
    private settings: RateLimitSettings,
    private readonly store: FastifyRateLimitStoreCtor | null = null,
  ) {}

  /** Puts edited `http.rate_limit` in force; windows already counted keep their counts. */
  replace(settings: RateLimitSettings): void {
    this.settings = settings;
  }

  private get perUser(): number | null {
    return this.settings?.per_user_per_minute ?? null;
  }

  private get authFailures(): number | null {
    return this.settings?.auth_failures_per_minute ?? null;
  }

  /**
   * Registers the limits on `app`: before the auth hook is added (the address check runs first)
   * and before any route (the per-user check is added to each route, after the auth hooks).
   */
  async register(app: FastifyInstance, callerOf: CallerOf): Promise<void> {
    await app.register(rateLimit, {
      global: true,
      hook: 'onRequest',
      ...(this.store ? { store: this.store, skipOnError: true } : {}),
      timeWindow: WINDOW_MS,
      max: () => this.perUser ?? Number.MAX_SAFE_INTEGER,
      keyGenerator: (request) => `user:${callerOf(request)?.user ?? ''}`,
      // Off, a public path, or no caller (the failed-token limit is the address's below).
      allowList: (request) => this.perUser === null || callerOf(request) === null,
      errorResponseBuilder: (request, context) => userLimited(callerOf(request)?.user ?? '', context),
    });
    const failures = app.createRateLimit({
      timeWindow: WINDOW_MS,
      max: () => this.authFailures ?? Number.MAX_SAFE_INTEGER,
      // The plugin's own normalisation of the socket's address (an IPv6 client counts by its /64).
      keyGenerator: (request) => `address:${normalizeIP(request.ip)}`,
      allowList: () => false,
    });
    app.addHook('onRequest', async (request, reply) => {
      if (this.authFailures === null || request.url === '/healthz') return;
      const window = await failures(request, { increment: false });
      if (window.isAllowed || window.remaining > 0) return;
      void reply.header('retry-after', String(Math.max(1, window.ttlInSeconds)));
      throw new HttpProblem(
        429,
        'too_many_requests',
        `this address sent ${window.max} failed tokens within a minute (http.rate_limit.auth_failures_per_minute): every call from it is ` +
          `refused for ${Math.max(1, window.ttlInSeconds)} s more (Retry-After); check the token you send`,
      );
    });
    // Counted before the 401 is sent, not after: a client's next call, on any daemon, sees this failure.
    app.addHook('onSend', async (request, reply, payload) => {
      if (this.authFailures !== null && reply.statusCode === 401) await failures(request);
      return payload;
    });
  }
}

function userLimited(user: string, context: errorResponseBuilderContext): HttpProblem {
  const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
  return new HttpProblem(
    429,
    'too_many_requests',
    `user "${user}" made more than ${context.max} calls this minute (http.rate_limit.per_user_per_minute): retry in ${seconds} s ` +
      `(Retry-After), or ask for a higher limit`,
  );
}
