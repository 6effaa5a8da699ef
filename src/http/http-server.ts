/**
 * The HTTP API's server (docs/http-api.md): Fastify with token auth, JSON errors, limits against bad
 * clients, and a shutdown that answers 503 and ends every event stream with a final event.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GovflowConfig } from '../config/config-loader.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import { ConfigError, errorMessage } from '../errors.js';
import type { RequestIdRegistry } from '../intake/request-id-registry.js';
import type { Submission, SubmissionOutcome } from '../intake/request-submission.js';
import type { FolderSubmission } from '../intake/folder-submission.js';
import type { OperationalLog } from '../log-contract.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import { CallerAuth, isLoopbackHost, TokenTable, type Caller, type TokenEntry } from './http-auth.js';
import { JwtVerifier } from './jwt-auth.js';
import type { AuthorizationHolder } from '../tools/forwarded-authorizations.js';
import { registerCors } from './http-cors.js';
import { LiveEventOrdinals } from './event-ids.js';
import { HttpIntake } from './http-intake.js';
import { GovflowMetrics, type MetricsSources } from './http-metrics.js';
import { badRequest, discardRest, HttpProblem, notFound, problemOf } from './http-problem.js';
import { registerRoutes, type RouteContext } from './http-routes.js';
import { registerChatRoute } from './chat-stream.js';
import { registerConversationRoutes } from './conversation-routes.js';
import { registerControlRoutes } from './control-routes.js';
import { SessionLookup } from './session-lookup.js';
import { HttpRateLimits, type RateLimitSettings } from './http-rate-limits.js';
import { registerSecurityHeaders, type ContentSources } from './security-headers.js';
import { FilesSessionReads, type SessionReads } from '../store/session-reads.js';
import { indexRowText, SessionIndex, type SessionChanges } from '../store/session-index.js';
import { QueuedRequests } from '../intake/queued-requests.js';

export interface HttpApiOptions {
  config: GovflowConfig;
  /** `HOST:PORT`; overrides `http.listen` (from `govflow start --http`). */
  listen: string;
  events: SessionEvents;
  registry: RequestIdRegistry;
  /** The intake's handoff: requests and replies posted here become claims without an inbox file. */
  submit: (submission: Submission) => Promise<SubmissionOutcome>;
  /** The intake's handoff of a multipart request's staged folder (docs/attachments.md). */
  submitFolder?: (submission: FolderSubmission) => Promise<SubmissionOutcome>;
  log: OperationalLog;
  /** For `/readyz`: false while the daemon recovers or stops. */
  readiness: () => { ready: boolean; reason: string };
  metrics: Omit<MetricsSources, 'events' | 'paths'>;
  /** The backend's read seam; the root's files when not given (cluster mode: Postgres, every daemon serves every request). */
  reads?: SessionReads;
  /** The browser view mounted under /ui (src/web), handed in by the daemon: it sits above the API it uses. */
  web?: WebView;
  /** Accepted requests waiting to start (`http.max_queued` compares with it); none: never full. */
  queued?: () => number | Promise<number>;
  /** Where the caller's Authorization header is held for MCP servers with `forward_authorization` (docs/tools.md); none: not kept. */
  forwarding?: AuthorizationHolder;
  /** The governance in force, for the chat (its profiles' agents, the agent that writes an answer). */
  governance?: () => GovernanceSnapshot;
  /** Where `http.rate_limit` counts calls (cluster mode: the store, across daemons); this process's memory when not given. */
  rateLimitStore?: FastifyRateLimitStoreCtor;
}

/** A browser view on the API: its routes, and how its pages are signed in to. */
export interface WebView {
  register(app: FastifyInstance, context: RouteContext, options: WebViewOptions): void;
  /** Paths served without a token (the sign-in page). */
  isPublicPath(url: string): boolean;
  /** Paths of the view: a GET without a valid token is sent to sign in instead of a 401. */
  isPath(url: string): boolean;
  /** The token a signed-in browser sends as a cookie. */
  cookieAuthorization(cookieHeader: string | undefined): string | undefined;
  /** The hashes of its inline scripts and styles, allowed by the Content-Security-Policy. */
  contentSources: ContentSources;
}

export interface WebViewOptions {
  /** Whether http.tokens is set (otherwise every caller is `local` and no sign-in is needed); asked per request, as tokens change live. */
  tokensEnabled: () => boolean;
  /** The API's token check: a Caller, or an HttpProblem 401. */
  authenticate: (authorization: string | undefined) => Promise<Caller>;
  log?: OperationalLog;
}

/** Splits `HOST:PORT` (`[::1]:7070` for IPv6); throws ConfigError saying what to write. */
export function parseListen(listen: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:\s]+)):(\d{1,5})$/.exec(listen.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535) {
    throw new ConfigError(
      `http.listen "${listen}" is not HOST:PORT: write it like 127.0.0.1:7070 (port 0 picks a free port)`,
    );
  }
  return { host: match[1] ?? match[2], port };
}

/** The callers' check for a listener; throws ConfigError when it takes no token and the listener is not loopback. */
function callerAuthFor(listen: string, tokens: readonly TokenEntry[], jwt: JwtVerifier | null): CallerAuth {
  const auth = new CallerAuth(new TokenTable(tokens), jwt);
  if (!auth.enabled && !isLoopbackHost(parseListen(listen).host)) {
    throw new ConfigError(
      `http.listen ${listen} is reachable from other machines, but http.tokens is empty and http.auth.jwt is not set: listen on 127.0.0.1, ` +
        `add a token with "govflow token add USER", or configure http.auth.jwt`,
    );
  }
  return auth;
}

/** The session changes the files listing re-reads, from the event bus. */
export function sessionChanges(events: SessionEvents): SessionChanges {
  return (listener) => {
    const offs = [
      events.on('session_started', (event) => listener(event.sessionId, null)),
      events.on('step_started', (event) => listener(event.sessionId, null)),
      events.on('message', (event) => listener(event.sessionId, event.agent)),
      events.on('pending', (event) => listener(event.sessionId, null)),
      events.on('session_finished', (event) => listener(event.sessionId, null)),
      events.on('sessions_archived', (event) => event.sessionIds.forEach((sessionId) => listener(sessionId, null))),
    ];
    return () => {
      for (const off of offs) off();
    };
  };
}

/** The tokens and rate limits in force: one holder the hooks read, so a config edit can replace them (src/daemon/config-watch.ts). */
type Auth = { callers: CallerAuth; limits: HttpRateLimits };

/** How long a stopping daemon waits for requests in flight before it cuts their connections. */
const CLOSE_WAIT_MS = 5_000;
/**
 * Connections the kernel holds for the listener before it accepts them. Node's default, 511, drops
 * the SYNs of a burst past it (a client submitting 1,000 requests at once), and each dropped client
 * tries again 1 or 3 s later; the kernel caps the number at net.core.somaxconn (4096 by default).
 */
const LISTEN_BACKLOG = 4_096;

export class HttpApi {
  private stoppingNow = false;
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly app: FastifyInstance,
    private readonly context: RouteContext,
    private readonly cleanups: Array<() => void>,
    private readonly auth: Auth,
    private readonly listen: string,
    readonly url: string,
  ) {}

  /** Starts listening; resolves once the listener accepts connections. */
  static async start(options: HttpApiOptions): Promise<HttpApi> {
    const { config, log } = options;
    const settings = config.http;
    const { host, port } = parseListen(options.listen);
    const auth: Auth = {
      callers: callerAuthFor(
        options.listen,
        settings.tokens,
        settings.auth.jwt ? JwtVerifier.fromSettings(settings.auth.jwt) : null,
      ),
      limits: new HttpRateLimits(settings.rate_limit, options.rateLimitStore ?? null),
    };
    const app = Fastify({
      logger: false,
      bodyLimit: settings.max_body_bytes,
      return503OnClosing: true,
      forceCloseConnections: 'idle',
      // A request Node's HTTP parser refuses (raw non-ASCII bytes in the query, copied from the
      // docs as `session=sess-…`; a broken header) gets govflow's JSON error shape too, not Fastify's.
      clientErrorHandler: (error, socket) => {
        if (!socket.writable) return;
        const body = JSON.stringify(
          badRequest(
            `the request could not be read (${(error as Error & { code?: string }).code ?? error.message}): percent-encode the URL (for ` +
              `example …/v1/logs?session=sess-%E2%80%A6) and check the headers`,
          ).toBody(),
        );
        socket.end(
          `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json; ` +
            `charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      },
      // Malformed URLs and over-long ids are answered by the router itself: same JSON shape.
      frameworkErrors: (error, _request, reply) => {
        const problem = badRequest(
          `the URL is not usable (${error.message.slice(0, 200)}): check the path and its percent-encoding`,
        );
        const untyped = reply as unknown as { code: (status: number) => { send: (body: unknown) => unknown } };
        void untyped.code(400).send(problem.toBody());
      },
      // Slow senders (slowloris): headers and body must arrive within request_timeout_ms, checked
      // every second rather than Node's default 30 s.
      serverFactory: (handler) =>
        createServer(
          {
            requestTimeout: settings.request_timeout_ms,
            headersTimeout: Math.min(settings.request_timeout_ms, 60_000),
            keepAliveTimeout: 5_000,
            connectionsCheckingInterval: Math.min(1_000, settings.request_timeout_ms),
          },
          handler,
        ),
    });
    const reads: SessionReads = options.reads ?? new FilesSessionReads(config.paths);
    const intake = new HttpIntake({
      submit: options.submit,
      ...(options.submitFolder ? { submitFolder: options.submitFolder } : {}),
      paths: config.paths,
      attachments: config.intake.attachments,
      durable: config.daemon.fsync,
      registry: options.registry,
      maxBytes: config.intake.max_bytes,
      timezone: config.timezone,
      reads,
      ...(options.forwarding ? { forwarding: options.forwarding } : {}),
      sessionLimits: config.limits,
    });
    const lookup = new SessionLookup(reads, options.events);
    const ordinals = new LiveEventOrdinals(options.events);
    // One listing for the API and the web view: the store's (Postgres), or this root's files indexed in memory.
    const index = reads.listing
      ? null
      : new SessionIndex(config.paths, {
          timezone: config.timezone,
          claims: new QueuedRequests(config.paths, config.timezone, config.intake.max_bytes),
          changes: sessionChanges(options.events),
        });
    const listing = reads.listing ?? index!;
    const metrics = new GovflowMetrics({ ...options.metrics, events: options.events, paths: config.paths, listing });
    const storeRows = reads.sessionRows?.bind(reads);
    const cleanups = [() => lookup.close(), () => ordinals.close(), () => metrics.close(), () => index?.close()];
    let api: HttpApi | null = null;
    const context: RouteContext = {
      paths: config.paths,
      events: options.events,
      intake,
      lookup,
      ordinals,
      heartbeatMs: settings.heartbeat_ms,
      isStopping: () => api?.stoppingNow ?? false,
      streams: new Set(),
      limits: { maxBytes: config.intake.max_bytes, timezone: config.timezone, attachments: config.intake.attachments },
      sessionLimits: config.limits,
      reads,
      queueFull: async () =>
        settings.max_queued !== null && options.queued !== undefined && (await options.queued()) >= settings.max_queued,
      listing,
      sessionRows: storeRows ? async () => (await storeRows()).map(indexRowText) : () => index!.orderedRows(),
      chat: config.chat,
      governance: options.governance ?? (() => null),
    };

    const web = options.web;
    registerSecurityHeaders(app, web?.contentSources ?? { scripts: [], styles: [] });
    // Before the limits and the auth hook: a preflight carries no token and is answered at once.
    await registerCors(app, settings.cors.origins);
    // JSON, or multipart/form-data for requests with files (docs/attachments.md), streamed to disk
    // by the route itself: any other body type is a 400 that names the content type to send.
    app.removeContentTypeParser(['text/plain']);
    await app.register(fastifyMultipart);
    app.decorateRequest('caller', null);
    // Before the auth hook and every route (http-rate-limits.ts says why).
    await auth.limits.register(app, (request) => (request as unknown as { caller: Caller | null }).caller);
    app.addHook('onRequest', async (request, reply) => {
      // Only the liveness probe carries no token (SPEC §11): /readyz, like every other route, needs one.
      if (request.url === '/healthz' || web?.isPublicPath(request.url)) return;
      const authorization = request.headers.authorization ?? web?.cookieAuthorization(request.headers.cookie);
      try {
        (request as unknown as { caller: unknown }).caller = await auth.callers.authenticate(authorization);
      } catch (error) {
        if (
          web?.isPath(request.url) &&
          request.method === 'GET' &&
          error instanceof HttpProblem &&
          error.status === 401
        )
          return reply.redirect('/ui/login', 303);
        throw error;
      }
    });
    // The handlers read sessions synchronously: fetch the ones this request names first.
    app.addHook('preHandler', async (request) => {
      const params = (request.params ?? {}) as { request_id?: unknown; session_id?: unknown };
      const requestId = typeof params.request_id === 'string' ? params.request_id : undefined;
      const sessionId = typeof params.session_id === 'string' ? params.session_id : undefined;
      if (requestId !== undefined || sessionId !== undefined) await reads.prefetch({ requestId, sessionId });
    });
    app.setErrorHandler(async (error, request, reply) => {
      const problem = problemOf(error, settings.max_body_bytes);
      // 503 says "not now" (stopping, a full queue), not that something broke.
      if (problem.status >= 500 && problem.status !== 503)
        log.error('http: request failed', {
          method: request.method,
          url: request.url.slice(0, 200),
          error: errorMessage(error),
        });
      if (reply.raw.headersSent) return reply;
      // Refused mid-upload: read the rest first, or the client still sending gets a broken pipe.
      if (!(await discardRest(request.raw))) void reply.header('connection', 'close');
      if (problem.retryAfterSeconds !== null) void reply.header('retry-after', String(problem.retryAfterSeconds));
      return reply.code(problem.status).send(problem.toBody());
    });
    app.setNotFoundHandler((request, reply) => {
      const problem = notFound(`route ${request.method} ${request.url.split('?')[0].slice(0, 100)}`);
      void reply.code(404).send({
        error: {
          code: problem.code,
          message:
            `${problem.message}: the API is /v1/requests, /v1/requests/:id/events, /v1/sessions/:id/reply, /v1/agent/chat, /v1/conversations/:id, /v1/logs, ` +
            `/v1/verify, /healthz, /readyz, /metrics (docs/http-api.md)`,
        },
      });
    });
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (_request, reply) => {
      const { ready, reason } = options.readiness();
      if (ready && !(api?.stoppingNow ?? false)) return { status: 'ready' };
      return reply
        .code(503)
        .send(new HttpProblem(503, 'not_ready', api?.stoppingNow ? 'govflow is stopping' : reason).toBody());
    });
    app.get('/metrics', async (_request, reply) => {
      const { contentType, body } = await metrics.text();
      return reply.type(contentType).send(body);
    });
    registerRoutes(app, context);
    registerChatRoute(app, context);
    registerConversationRoutes(app, context);
    registerControlRoutes(app, context);
    web?.register(app, context, {
      tokensEnabled: () => auth.callers.enabled,
      authenticate: (authorization) => auth.callers.authenticate(authorization),
      log,
    });

    try {
      await app.listen({ host, port, backlog: LISTEN_BACKLOG });
    } catch (error) {
      for (const cleanup of cleanups) cleanup();
      throw new ConfigError(
        `cannot listen on ${options.listen} (http.listen): ${errorMessage(error)}; choose a free port or another address`,
      );
    }
    const address = app.server.address() as AddressInfo;
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    api = new HttpApi(app, context, cleanups, auth, options.listen, `http://${shownHost}:${address.port}`);
    return api;
  }

  /** Puts edited `http.tokens` in force; throws ConfigError (keeping the old) for none on a reachable listener. */
  replaceTokens(tokens: readonly TokenEntry[]): void {
    this.auth.callers = callerAuthFor(this.listen, tokens, this.auth.callers.jwt);
  }

  /** Puts edited `http.rate_limit` in force. */
  replaceRateLimits(settings: RateLimitSettings): void {
    this.auth.limits.replace(settings);
  }

  /** Shutdown, first step: new work gets 503, every open event stream ends with a final event. */
  beginStopping(): void {
    if (this.stoppingNow) return;
    this.stoppingNow = true;
    for (const stream of [...this.context.streams]) {
      stream.send('error', stream.stoppingId(), {
        message: 'govflow is stopping; reconnect with Last-Event-ID once it is back to continue where you left off',
      });
      stream.end();
    }
  }

  /**
   * Stops listening and closes every connection. Safe to call twice. Requests in flight get
   * CLOSE_WAIT_MS to finish; a connection still busy then (a client that sent half a request and
   * waits) is cut, so no client can hold a stopping daemon open.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.beginStopping();
      for (const cleanup of this.cleanups) cleanup();
      const cut = setTimeout(() => this.app.server.closeAllConnections(), CLOSE_WAIT_MS);
      try {
        await this.app.close();
      } finally {
        clearTimeout(cut);
      }
    })();
    return this.closing;
  }
}
