/**
 * The HTTP API's routes (docs/http-api.md) for requests, sessions and the audit trail: operators see
 * only their own work; auditors read everything and submit nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeVerifyResult } from '../audit/verify-command.js';
import { verifyAuditChain } from '../audit/audit-chain-verify.js';
import { entryJson, filterEntries, isLogDate, readLogEntries, type LoggedEntry } from '../audit/audit-log-reader.js';
import { AuditLogFormatError } from '../audit/audit-errors.js';
import type { SystemPaths } from '../config/system-paths.js';
import type { GovflowConfig } from '../config/config-loader.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import { maySee, readsEverything, requireSubmitter, type Caller } from './http-auth.js';
import type { HttpIntake } from './http-intake.js';
import {
  badRequest,
  conflict,
  goneOrNotFound,
  HttpProblem,
  notFound,
  retentionGone,
  stopping,
} from './http-problem.js';
import { parseLastEventId, type LiveEventOrdinals } from './event-ids.js';
import { streamSessionEvents } from './session-event-stream.js';
import type { SessionLookup } from './session-lookup.js';
import type { SessionReads } from '../store/session-reads.js';
import type { AttachmentLimits } from '../intake/request-folder.js';
import {
  ListingQueryError,
  parseListingFilters,
  type SessionListing,
  type SessionRow,
} from '../store/session-listing.js';
import { SseConnection } from './sse-connection.js';

export interface RouteContext {
  paths: SystemPaths;
  events: SessionEvents;
  intake: HttpIntake;
  lookup: SessionLookup;
  /** The daemon's numbering of live events for event ids (event-ids.ts). */
  ordinals: LiveEventOrdinals;
  heartbeatMs: number;
  /** True once the daemon stops: new work is refused with 503. */
  isStopping: () => boolean;
  /** Every open event stream, so shutdown can end them with a final event. */
  streams: Set<SseConnection>;
  /** intake.max_bytes and the timezone: a queued claim is read as the intake reads it. */
  limits: { maxBytes: number; timezone: string; attachments: AttachmentLimits };
  /** The configured session limits: a steward's continue beyond them is an admin's (docs/run-control.md). */
  sessionLimits: GovflowConfig['limits'];
  /** The backend's read seam: the root's files, or Postgres in cluster mode (src/cluster/cluster-reads.ts). */
  reads: SessionReads;
  /** True while `http.max_queued` accepted requests wait to start: POST /v1/requests answers 503. */
  queueFull: () => Promise<boolean>;
  /** `GET /v1/sessions` and the web view's lineage links (store/session-listing.ts). */
  listing: SessionListing;
  /** Every session newest first, with request text, for the web view's sessions page. */
  sessionRows: () => Promise<readonly SessionRow[]>;
  /** `chat:` (docs/http-api.md "Chat"): profiles, context and history bounds. */
  chat: GovflowConfig['chat'];
  /** The governance in force (chat profiles' agents, the agent that writes an answer); null: not known here. */
  governance: () => GovernanceSnapshot | null;
}

/** Seconds a client is told to wait when the queue is full: about what a few sessions take to start. */
const QUEUE_FULL_RETRY_AFTER_SECONDS = 5;

/** The 503 of a request (or a fork, retry, re-run: SPEC §20) while http.max_queued accepted requests wait to start. */
export function queueFull(): HttpProblem {
  return new HttpProblem(
    503,
    'queue_full',
    'http.max_queued accepted requests are waiting to start: retry after Retry-After seconds (the queue drains as sessions start)',
    QUEUE_FULL_RETRY_AFTER_SECONDS,
  );
}

/** The caller the auth hook put on the request. */
export function callerOf(request: FastifyRequest): Caller {
  return (request as FastifyRequest & { caller: Caller }).caller;
}

export function stringParam(request: FastifyRequest, name: string): string {
  return String((request.params as Record<string, unknown>)[name] ?? '');
}

/** An SSE response on a hijacked reply, tracked for shutdown; 503 while stopping, so no reconnect holds the server open. */
export function openStream(
  context: RouteContext,
  request: FastifyRequest,
  reply: FastifyReply,
  headers?: Record<string, string>,
): SseConnection {
  if (context.isStopping()) throw stopping();
  // The headers the hooks set (security headers, CORS for a listed origin) would be lost with the hijack.
  const hooked: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) hooked[name] = Array.isArray(value) ? value.join(', ') : String(value);
  reply.hijack();
  const connection = new SseConnection(request.raw, reply.raw, context.heartbeatMs, { ...hooked, ...headers });
  context.streams.add(connection);
  connection.onClose(() => context.streams.delete(connection));
  return connection;
}

export function registerRoutes(app: FastifyInstance, context: RouteContext): void {
  const { intake, lookup } = context;

  /** The request's owner and session, or 404 when the caller may not see it. */
  const visibleRequest = async (caller: Caller, requestId: string) => {
    const owner = await intake.ownerOf(requestId);
    if (!owner || !maySee(caller, owner.user)) throw notFound(`request "${requestId.slice(0, 140)}"`);
    return owner;
  };
  const visibleSession = (caller: Caller, sessionId: string) => {
    const view = lookup.session(sessionId);
    if (view && maySee(caller, view.user)) return view;
    throw view
      ? notFound(`session "${sessionId.slice(0, 140)}"`)
      : goneOrNotFound(context.paths.logs, 'sessions', sessionId);
  };

  app.post('/v1/requests', async (request, reply) => {
    if (context.isStopping()) throw stopping();
    const caller = callerOf(request);
    requireSubmitter(caller);
    if (await context.queueFull()) throw queueFull();
    let submitted: { requestId: string; sessionId: string };
    if (request.isMultipart()) {
      try {
        submitted = await intake.submitMultipart(request, caller.user);
      } catch (error) {
        // The rest of a refused upload is not read: the connection closes after the answer.
        void reply.header('connection', 'close');
        throw error;
      }
    } else
      submitted = await intake.submit(request.body, caller.user, undefined, {
        authorization: request.headers.authorization,
      });
    const { requestId, sessionId } = submitted;
    lookup.noteQueued(sessionId, requestId, caller.user);
    return reply.code(202).send({
      request_id: requestId,
      session_id: sessionId,
      status: 'queued',
      links: {
        self: `/v1/requests/${requestId}`,
        events: `/v1/requests/${requestId}/events`,
        session_events: `/v1/sessions/${sessionId}/events`,
      },
    });
  });

  app.get('/v1/requests/:request_id', async (request) => {
    const requestId = stringParam(request, 'request_id');
    // A request retention deleted may have no owner record left (its marker went with its day's files).
    const owner = await visibleRequest(callerOf(request), requestId).catch((error: unknown) => {
      throw error instanceof HttpProblem ? goneOrNotFound(context.paths.logs, 'requests', requestId) : error;
    });
    const result = lookup.result(requestId);
    if (result) return result;
    const gone = retentionGone(context.paths.logs, 'requests', requestId);
    if (gone) throw gone;
    const sessionId = owner.sessionId ?? lookup.runningSessionOf(requestId);
    const running = sessionId !== null && lookup.session(sessionId) !== null;
    return {
      request_id: requestId,
      status: running ? 'running' : 'queued',
      ...(sessionId ? { session_id: sessionId } : {}),
    };
  });

  app.get('/v1/requests/:request_id/events', async (request, reply) => {
    const requestId = stringParam(request, 'request_id');
    const owner = await visibleRequest(callerOf(request), requestId);
    const lastSequence = parseLastEventId(request.headers['last-event-id']);
    const sessionId =
      owner.sessionId ??
      lookup.runningSessionOf(requestId) ??
      (lookup.result(requestId)?.session_id as string | undefined) ??
      null;
    const connection = openStream(context, request, reply);
    streamSessionEvents({
      connection,
      events: context.events,
      lookup,
      ordinals: context.ordinals,
      sessionId,
      requestId,
      lastSequence,
    });
  });

  app.get('/v1/sessions', async (request) => {
    const query = request.query as Record<string, unknown>;
    const raw: Record<string, string | null> = {};
    for (const key of ['status', 'user', 'since', 'limit', 'cursor']) {
      const value = query[key];
      if (value !== undefined && typeof value !== 'string')
        throw badRequest(`query parameter "${key}" must appear once`);
      raw[key] = value ?? null;
    }
    let filters;
    try {
      filters = parseListingFilters(raw);
    } catch (error) {
      if (error instanceof ListingQueryError) throw badRequest(error.message);
      throw error;
    }
    const caller = callerOf(request);
    // An operator lists only its own sessions (SPEC §18); asking for another user's finds none.
    if (!readsEverything(caller)) {
      if (filters.user !== null && filters.user !== caller.user) return { sessions: [], next_cursor: null };
      filters.user = caller.user;
    }
    return context.listing.list(filters);
  });

  app.get('/v1/sessions/:session_id/events', async (request, reply) => {
    const sessionId = stringParam(request, 'session_id');
    const queued = lookup.queuedSession(sessionId);
    if (queued === null || lookup.session(sessionId) !== null) visibleSession(callerOf(request), sessionId);
    else if (!maySee(callerOf(request), queued.user)) throw notFound(`session "${sessionId.slice(0, 140)}"`);
    const lastSequence = parseLastEventId(request.headers['last-event-id']);
    const connection = openStream(context, request, reply);
    streamSessionEvents({
      connection,
      events: context.events,
      lookup,
      ordinals: context.ordinals,
      sessionId,
      requestId: null,
      lastSequence,
    });
  });

  app.post('/v1/sessions/:session_id/reply', async (request, reply) => {
    if (context.isStopping()) throw stopping();
    const caller = callerOf(request);
    requireSubmitter(caller);
    const sessionId = stringParam(request, 'session_id');
    const view = visibleSession(caller, sessionId);
    if (!view.state.paused) {
      const why =
        view.finishedStatus !== null
          ? `has finished (${view.finishedStatus})`
          : 'is running and not waiting for anyone';
      throw conflict(`session "${sessionId}" ${why}; a reply only resumes a session whose result is pending`);
    }
    if (view.state.paused.awaiting === 'intervention' || view.state.paused.awaiting === 'halt')
      throw conflict(
        `session "${sessionId}" waits for a steward's decision, not a reply: POST /v1/sessions/${sessionId}/intervene`,
      );
    await intake.reply(sessionId, request.body, caller.user, view.state.paused.awaiting ?? 'reply');
    return reply
      .code(202)
      .send({ session_id: sessionId, status: 'queued', links: { events: `/v1/sessions/${sessionId}/events` } });
  });

  app.get('/v1/logs', async (request) => {
    const query = request.query as Record<string, unknown>;
    const filter: Record<string, string> = {};
    for (const key of ['date', 'session', 'agent', 'status']) {
      const value = query[key];
      if (value === undefined || value === '') continue;
      if (typeof value !== 'string') throw badRequest(`query parameter "${key}" must appear once`);
      filter[key] = value;
    }
    if (filter.date !== undefined && !isLogDate(filter.date))
      throw badRequest(`date must be a day written YYYYMMDD (for example 20260308), got "${filter.date.slice(0, 20)}"`);
    let entries: LoggedEntry[];
    try {
      entries = await readLogEntries(context.paths.logs, filter.date === undefined ? {} : { date: filter.date });
    } catch (error) {
      if (error instanceof AuditLogFormatError)
        throw new HttpProblem(
          500,
          'internal',
          `an audit log is malformed: ${error.describe()}; GET /v1/verify says more`,
        );
      throw error;
    }
    const caller = callerOf(request);
    const selected = filterEntries(entries, filter).filter(
      (entry) => readsEverything(caller) || (entry.user ?? 'local') === caller.user,
    );
    return { entries: selected.map(entryJson) };
  });

  app.get('/v1/verify', async () => {
    const result = await verifyAuditChain({ logsDir: context.paths.logs, stateDir: context.paths.state, live: true });
    return {
      ok: result.ok,
      entries: result.entries,
      files: result.files,
      first_problem: result.firstProblem ?? null,
      warnings: result.warnings,
      report: describeVerifyResult(result),
    };
  });
}
