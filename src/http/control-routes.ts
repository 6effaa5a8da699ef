/**
 * Run control over HTTP (docs/run-control.md): `POST /v1/sessions/:id/cancel|retry|rerun|fork`
 * and a bulk `POST /v1/sessions/cancel` with a dry run. Each control is handed to the intake as
 * the control file an operator would drop (durable before the answer), written as the token's
 * user. An admin acts on every session, an operator on its own (404 for anyone else's), an
 * auditor on none (403).
 */
import type { FastifyInstance } from 'fastify';
import { CANCELLABLE_STATUSES, filesCancelTargets, matchesCancelFilter } from '../intake/cancel-targets.js';
import type { CancellableStatus, CancelTarget, SessionStanding } from '../store/session-reads.js';
import type { ControlAction } from '../intake/control-file.js';
import { findQueuedRequest } from '../intake/queued-claims.js';
import { isPlainObject } from '../message/json-text.js';
import { forkPoint } from '../pipeline/fork-point.js';
import type { SessionState } from '../pipeline/session-state.js';
import { beyondConfigured } from '../pipeline/steward-decision.js';
import { mayActOn, maySee, type Caller } from './http-auth.js';
import { badRequest, conflict, goneOrNotFound, HttpProblem, notFound, stopping } from './http-problem.js';
import { callerOf, queueFull, stringParam, type RouteContext } from './http-routes.js';

/** How long a fork, retry or re-run waits for the daemon to assign the new session. */
const SETTLE_TIMEOUT_MS = 30_000;

const BULK_FIELDS = ['status', 'user', 'since', 'reason', 'dry_run'];

/** The standings of a session waiting for a steward (docs/run-control.md). */
const WAITING = ['intervention_required', 'halted_cost', 'halted_time'];

/** An unfinished session's standing: running, paused, or waiting for a steward. */
function pausedStatus(paused: SessionState['paused']): string {
  if (!paused) return 'running';
  if (paused.awaiting === 'halt') return `halted_${paused.halt ?? 'cost'}`;
  return paused.awaiting === 'intervention' ? 'intervention_required' : 'paused';
}

function requireActor(caller: Caller): void {
  if (caller.role === 'auditor')
    throw new HttpProblem(
      403,
      'forbidden',
      `user "${caller.user}" is an auditor: auditors read and verify, they cannot cancel, retry, fork or re-run sessions`,
    );
}

export function registerControlRoutes(app: FastifyInstance, context: RouteContext): void {
  const { intake, lookup, reads, paths } = context;

  /** Where the session stands, whoever runs it: its journal, the store, or its queued claim. */
  const standingOf = async (sessionId: string): Promise<SessionStanding | null> => {
    const view = lookup.session(sessionId);
    if (view) return { user: view.user, status: view.finishedStatus ?? pausedStatus(view.state.paused) };
    if (reads.sessionStanding) return reads.sessionStanding(sessionId);
    const noted = lookup.queuedSession(sessionId);
    if (noted) return { user: noted.user, status: 'queued' };
    const claim = await findQueuedRequest(
      paths,
      sessionId,
      context.limits.maxBytes,
      context.limits.timezone,
      context.limits.attachments,
    );
    return claim ? { user: claim.user ?? 'local', status: 'queued' } : null;
  };

  /** The session the URL names and where it stands; 403 for auditors, 404 when the caller may not act on it. */
  const target = async (caller: Caller, sessionId: string): Promise<SessionStanding> => {
    if (context.isStopping()) throw stopping();
    requireActor(caller);
    const standing = await standingOf(sessionId);
    if (!standing) throw goneOrNotFound(context.paths.logs, 'sessions', sessionId);
    if (!maySee(caller, standing.user) || !mayActOn(caller, standing.user))
      throw notFound(`session "${sessionId.slice(0, 140)}"`);
    return standing;
  };

  app.post('/v1/sessions/:session_id/cancel', async (request, reply) => {
    const caller = callerOf(request);
    const sessionId = stringParam(request, 'session_id');
    const standing = await target(caller, sessionId);
    // Several cancels of one session all answer 202, a later one too (SPEC §18): the daemon archives the others as applied.
    if (
      standing.status !== 'cancelled' &&
      !(CANCELLABLE_STATUSES as readonly string[]).includes(standing.status) &&
      !WAITING.includes(standing.status)
    )
      throw conflict(
        `session "${sessionId}" has already ended (${standing.status}): only a running, queued or paused session can be cancelled`,
      );
    await intake.control(sessionId, 'cancel', request.body, caller.user, null);
    return reply.code(202).send({ session_id: sessionId, status: 'cancelling' });
  });

  for (const action of ['retry', 'rerun', 'fork'] as const satisfies readonly ControlAction[]) {
    app.post(`/v1/sessions/:session_id/${action}`, async (request, reply) => {
      const caller = callerOf(request);
      const sessionId = stringParam(request, 'session_id');
      const standing = await target(caller, sessionId);
      if ((CANCELLABLE_STATUSES as readonly string[]).includes(standing.status))
        throw conflict(
          `session "${sessionId}" is ${standing.status}: only a session that ended can be ${action === 'rerun' ? 're-run' : `${action}ed`}; ` +
            `cancel it first, or wait for its result`,
        );
      const view = lookup.session(sessionId);
      if (action === 'fork' && view && isPlainObject(request.body)) {
        const from = request.body.from;
        const point = forkPoint(view.state, 'fork', typeof from === 'number' ? from : null);
        if ('refusal' in point) throw badRequest(point.refusal);
      }
      // A fork, retry or re-run counts as a request (SPEC §20); the daemon checks again as it queues it.
      if (await context.queueFull()) throw queueFull();
      const outcome = await intake.control(sessionId, action, request.body, caller.user, {
        events: context.events,
        timeoutMs: SETTLE_TIMEOUT_MS,
      });
      if (outcome === null)
        throw new HttpProblem(
          503,
          'stopping',
          `the daemon did not take the ${action} within ${SETTLE_TIMEOUT_MS / 1000} s; it waits in system/processing/ and is applied once the daemon can`,
        );
      if (outcome.status === 'refused' && outcome.code === 'queue_full') throw queueFull();
      if (outcome.status === 'refused') throw conflict(outcome.reason ?? `the ${action} was refused`);
      const requestId = outcome.new_request_id!;
      const newSessionId = outcome.new_session_id!;
      lookup.noteQueued(newSessionId, requestId, standing.user);
      return reply.code(202).send({
        request_id: requestId,
        session_id: newSessionId,
        status: 'queued',
        links: {
          self: `/v1/requests/${requestId}`,
          events: `/v1/requests/${requestId}/events`,
          session_events: `/v1/sessions/${newSessionId}/events`,
          original: `/v1/sessions/${sessionId}/events`,
        },
      });
    });
  }

  app.post('/v1/sessions/:session_id/intervene', async (request, reply) => {
    const caller = callerOf(request);
    const sessionId = stringParam(request, 'session_id');
    const standing = await target(caller, sessionId);
    if (!WAITING.includes(standing.status))
      throw conflict(`session "${sessionId}" is not waiting for a steward: it is ${standing.status}`);
    // An operator may raise a request's own limit up to the configured value; beyond it only an admin.
    const body: unknown = request.body;
    const raised = isPlainObject(body) && isPlainObject(body.limits) ? body.limits : null;
    if (
      raised &&
      caller.role !== 'admin' &&
      caller.role !== 'local' &&
      beyondConfigured(raised, { limits: context.sessionLimits })
    )
      throw new HttpProblem(
        403,
        'forbidden',
        'only an admin may raise a limit beyond its configured value (limits.max_cost_usd_per_session, limits.session_timeout_ms)',
      );
    const outcome = await intake.control(sessionId, 'intervene', request.body, caller.user, {
      events: context.events,
      timeoutMs: SETTLE_TIMEOUT_MS,
    });
    if (outcome === null)
      throw new HttpProblem(
        503,
        'stopping',
        `the daemon did not take the decision within ${SETTLE_TIMEOUT_MS / 1000} s; it waits in system/processing/ and is applied once the daemon can`,
      );
    if (outcome.status === 'refused') throw conflict(outcome.reason ?? 'the decision was refused');
    const decided = lookup.session(sessionId);
    const status = decided?.finishedStatus ?? (decided ? pausedStatus(decided.state.paused) : 'running');
    return reply.code(202).send({ session_id: sessionId, status });
  });

  app.post('/v1/sessions/cancel', async (request) => {
    if (context.isStopping()) throw stopping();
    const caller = callerOf(request);
    requireActor(caller);
    const body = request.body ?? {};
    if (!isPlainObject(body))
      throw badRequest('the body must be a JSON object such as {"status": "running", "dry_run": true}');
    const unknown = Object.keys(body).find((key) => !BULK_FIELDS.includes(key));
    if (unknown !== undefined)
      throw badRequest(
        `unknown field "${unknown.slice(0, 64)}": a bulk cancel takes ${BULK_FIELDS.map((key) => `"${key}"`).join(', ')}`,
      );
    const { status, user, since, reason, dry_run: dryRun } = body;
    if (status !== undefined && !(CANCELLABLE_STATUSES as readonly unknown[]).includes(status))
      throw badRequest('"status" must be "running", "paused" or "queued" (leave it out for all three)');
    for (const [field, value] of Object.entries({ user, since, reason }))
      if (value !== undefined && typeof value !== 'string') throw badRequest(`"${field}" must be a string`);
    if (since !== undefined && Number.isNaN(Date.parse(since as string)))
      throw badRequest(
        `"since" must be an ISO 8601 time such as 2026-03-08T09:00:00Z, got "${String(since).slice(0, 40)}"`,
      );
    if (dryRun !== undefined && typeof dryRun !== 'boolean') throw badRequest('"dry_run" must be true or false');
    // An operator cancels its own sessions only; an admin (or local) anyone's, or the user it names.
    const everyone = caller.role === 'admin' || caller.role === 'local';
    const filter = {
      statuses: status === undefined ? CANCELLABLE_STATUSES : [status as CancellableStatus],
      user: everyone ? ((user as string | undefined) ?? null) : caller.user,
      since: (since as string | undefined) ?? null,
    };
    if (!everyone && user !== undefined && user !== caller.user)
      return { matched: 0, cancelled: [], ...(dryRun ? { would_cancel: [] } : {}) };
    const candidates: CancelTarget[] = reads.unfinishedSessions
      ? (await reads.unfinishedSessions()).filter((candidate) => matchesCancelFilter(candidate, filter))
      : await filesCancelTargets(
          paths,
          context.limits.maxBytes,
          context.limits.timezone,
          filter,
          context.limits.attachments,
        );
    const matched = candidates.map((candidate) => candidate.sessionId);
    if (dryRun === true) return { matched: matched.length, cancelled: [], would_cancel: matched };
    const cancelled: string[] = [];
    for (const sessionId of matched) {
      await intake.control(sessionId, 'cancel', reason === undefined ? {} : { reason }, caller.user, null);
      cancelled.push(sessionId);
    }
    return { matched: matched.length, cancelled };
  });
}
