/**
 * A control file (docs/run-control.md): `{"control": "cancel"|"retry"|"fork"|"rerun",
 * "session_id", "reason"?, "from"?, "request"?, "request_id"?, "by"?}` in system/inbox/, or a
 * steward's `{"control": "intervene", "session_id", "decision", "advice"?, "reason"?, "limits"?}`. It is not
 * a request: it gets no result of its own; applied, it is archived, refused it goes to failed/.
 * The HTTP API writes the same document, with its token's user as `http_user`. No I/O.
 */
import { describeType, isPlainObject } from '../message/json-text.js';
import type { StewardDecision } from '../store/session-journal.js';
import { isSessionId, REQUEST_ID_PATTERN } from './request-ids.js';

export const CONTROL_ACTIONS = ['cancel', 'retry', 'fork', 'rerun', 'intervene'] as const;
export const STEWARD_DECISIONS = ['retry', 'fail', 'continue'] as const;
export type ControlAction = (typeof CONTROL_ACTIONS)[number];

export interface ParsedControl {
  kind: 'control';
  action: ControlAction;
  /** The session acted on: cancelled, or the original of a fork. */
  sessionId: string;
  reason: string | null;
  /** fork: the first message run anew. */
  from: number | null;
  /** fork, retry, re-run: the new session's request text, replacing the original's. */
  request: string | null;
  /** fork, retry, re-run: the new session's request id (else `<original>-<action>-<n>`). */
  requestId: string | null;
  /** The `by` the file claims: kept as `claimed_by`; who acted is the file's owner (or `httpUser`). */
  by: string | null;
  /** Written by the HTTP API for its token's user; honoured only in files the daemon's own user wrote. */
  httpUser: string | null;
  /** intervene: the steward's decision, advice for a retry, new limits for a continue (docs/run-control.md). */
  decision: StewardDecision | null;
  advice: string | null;
  limits: { cost_usd?: number; time_minutes?: number } | null;
}

/** The fields of a control document, by source. */
export const CONTROL_FIELDS = {
  file: [
    'control',
    'session_id',
    'reason',
    'from',
    'request',
    'request_id',
    'by',
    'http_user',
    'decision',
    'advice',
    'limits',
  ],
  http: ['reason', 'from', 'request', 'request_id', 'decision', 'advice', 'limits'],
} as const;

/** The fields only a steward's decision has. */
const INTERVENE_FIELDS = ['decision', 'advice', 'limits'];

/** Longest reason kept (it is written on the audit entry). */
export const MAX_REASON_CHARS = 2000;

/**
 * Checks a control document; returns the control, or one sentence saying what to fix.
 * `source: 'http'` checks a body of `POST /v1/sessions/:id/<action>` (the action and session come
 * from the URL, so only the body's own fields are allowed).
 */
export function parseControlDocument(
  document: Record<string, unknown>,
  source: 'file' | 'http' = 'file',
): ParsedControl | { kind: 'invalid'; reason: string } {
  const invalid = (reason: string) => ({ kind: 'invalid' as const, reason });
  const allowed: readonly string[] = CONTROL_FIELDS[source];
  const unknown = Object.keys(document).find((key) => !allowed.includes(key));
  if (unknown !== undefined)
    return invalid(
      `unknown field ${JSON.stringify(unknown.slice(0, 64))}: a control has only ${allowed.map((key) => `"${key}"`).join(', ')}`,
    );
  const action = document.control;
  if (typeof action !== 'string' || !(CONTROL_ACTIONS as readonly string[]).includes(action))
    return invalid(
      `"control" ${JSON.stringify(action)?.slice(0, 40) ?? 'undefined'} is not a control: write "cancel", "retry", "fork", "rerun" or "intervene"`,
    );
  if (typeof document.session_id !== 'string')
    return invalid(
      `"session_id" must be a string (the session to ${action}), but it is ${describeType(document.session_id)}`,
    );
  if (!isSessionId(document.session_id))
    return invalid(
      `"session_id" ${JSON.stringify(document.session_id.slice(0, 140))} is not a session id: copy it from the result or govflow status`,
    );
  for (const field of ['reason', 'request', 'request_id', 'by', 'http_user', 'advice'] as const) {
    const value = document[field];
    if (value !== undefined && value !== null && typeof value !== 'string')
      return invalid(`"${field}" must be a string when given, but it is ${describeType(value)}`);
  }
  const text = (field: string) => (typeof document[field] === 'string' ? (document[field] as string) : null);
  const reason = text('reason');
  if (reason !== null && reason.length > MAX_REASON_CHARS)
    return invalid(`"reason" has ${reason.length} characters: keep it under ${MAX_REASON_CHARS}`);
  const steward = action === 'intervene' ? stewardFields(document) : null;
  if (steward && 'invalid' in steward) return invalid(steward.invalid);
  if (action !== 'intervene') {
    const stray = INTERVENE_FIELDS.find((field) => document[field] !== undefined);
    if (stray !== undefined)
      return invalid(`"${stray}" goes with "intervene" only: a ${action} has no steward's decision`);
  }
  const from = document.from ?? null;
  if (action === 'fork') {
    if (typeof from !== 'number' || !Number.isInteger(from) || from < 1)
      return invalid(
        `a fork needs "from": the sequence number of the first message to run anew (a whole number from 1), but it ` +
          `is ${from === null ? 'missing' : JSON.stringify(from)}`,
      );
  } else if (from !== null) {
    return invalid(
      `"from" goes with "fork" only: ${
        action === 'retry'
          ? 'a retry starts at the first message that did not ' + 'succeed'
          : action === 'rerun'
            ? 'a re-run starts at message 1'
            : action === 'intervene'
              ? 'a retry decided by a steward runs the failed step again'
              : 'a cancel has no step'
      }`,
    );
  }
  const request = text('request');
  const requestId = text('request_id');
  if ((action === 'cancel' || action === 'intervene') && (request !== null || requestId !== null))
    return invalid(
      `a${action === 'cancel' ? ' cancel' : 'n intervene'} makes no new session: leave out "request" and "request_id"`,
    );
  if (request !== null && request.trim() === '')
    return invalid('"request" is empty: leave it out to reuse the original request');
  if (requestId !== null && !REQUEST_ID_PATTERN.test(requestId))
    return invalid(
      `"request_id" ${JSON.stringify(requestId.slice(0, 140))} is not allowed: use 1 to 128 characters from A-Z a-z 0-9 . _ -, not "." or ".." (or leave it ` +
        `out: <original>-${action}-<n>)`,
    );
  return {
    kind: 'control',
    action: action as ControlAction,
    sessionId: document.session_id,
    reason,
    from: typeof from === 'number' ? from : null,
    request,
    requestId,
    by: text('by'),
    httpUser: text('http_user'),
    decision: steward?.decision ?? null,
    advice: steward?.advice ?? null,
    limits: steward?.limits ?? null,
  };
}

/** Longest advice kept (it goes into the agent's prompt; its SHA-256 on the entry). */
export const MAX_ADVICE_CHARS = 8000;

/** An intervene control's decision, advice and limits, or what to fix. */
function stewardFields(
  document: Record<string, unknown>,
): (Pick<ParsedControl, 'advice' | 'limits'> & { decision: StewardDecision }) | { invalid: string } {
  const decision = document.decision;
  if (typeof decision !== 'string' || !(STEWARD_DECISIONS as readonly string[]).includes(decision))
    return {
      invalid: `"decision" ${JSON.stringify(decision)?.slice(0, 40) ?? 'is missing'}: an intervene decides "retry", "fail" or "continue"`,
    };
  const advice = typeof document.advice === 'string' ? document.advice : null;
  if (advice !== null && decision !== 'retry')
    return { invalid: '"advice" goes with "decision": "retry" only: it is put into the retried agent\'s prompt' };
  if (advice !== null && (advice.trim() === '' || advice.length > MAX_ADVICE_CHARS))
    return { invalid: `"advice" must be 1 to ${MAX_ADVICE_CHARS} characters (it has ${advice.length})` };
  const raw = document.limits;
  if (raw === undefined || raw === null) return { decision: decision as StewardDecision, advice, limits: null };
  if (decision !== 'continue')
    return { invalid: '"limits" go with "decision": "continue" only (new totals for a halted session)' };
  if (!isPlainObject(raw))
    return {
      invalid: `"limits" must be an object such as {"cost_usd": 2, "time_minutes": 30}, but it is ${describeType(raw)}`,
    };
  const limits: { cost_usd?: number; time_minutes?: number } = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key !== 'cost_usd' && key !== 'time_minutes')
      return {
        invalid: `"limits" has an unknown key ${JSON.stringify(key.slice(0, 40))}: use "cost_usd" and "time_minutes"`,
      };
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      return { invalid: `"limits.${key}" must be a number above 0, but it is ${JSON.stringify(value)?.slice(0, 40)}` };
    limits[key] = value;
  }
  return { decision: decision as StewardDecision, advice, limits };
}
