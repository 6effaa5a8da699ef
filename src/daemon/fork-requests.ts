/**
 * The request a fork, retry or re-run becomes (docs/run-control.md), whichever backend queues it:
 * the original's request (or the control's replacement text) under a new session and request id,
 * owned by the original's user, with a `fork` object the runner starts it from.
 */
import type { IntakeControl } from '../intake/claimed-file.js';
import { isPlainObject } from '../message/json-text.js';
import type { ControlOrder } from '../pipeline/run-controls.js';
import type { ForkOrder } from '../pipeline/runner-contract.js';
import type { SessionRecord } from '../store/session-journal.js';
import { controlFieldsOf } from './control-claims.js';

/** How many `<original>-<action>-<n>` names are tried before giving up. */
export const MAX_FORK_NUMBER = 10_000;

/** The n-th generated request id of a fork: `<original request_id>-<action>-<n>`, cut to 128 characters. */
export function forkRequestId(originalRequestId: string, action: string, n: number): string {
  const suffix = `-${action}-${n}`;
  return `${originalRequestId.slice(0, 128 - suffix.length)}${suffix}`;
}

/** The request ids a fork tries in turn: the one the control names, else `<original>-<action>-1` … `-MAX_FORK_NUMBER`. */
export function forkRequestIds(item: IntakeControl, originalRequestId: string): string[] {
  if (item.requestId) return [item.requestId];
  return Array.from({ length: MAX_FORK_NUMBER }, (_unused, n) => forkRequestId(originalRequestId, item.action, n + 1));
}

/** Why a fork is refused when every id of `forkRequestIds` was taken. */
export function noFreeForkRequestId(item: IntakeControl, originalRequestId: string): string {
  return item.requestId
    ? `request_id "${item.requestId}" was already accepted: choose another, or leave it out`
    : `no free request id of the form ${forkRequestId(originalRequestId, item.action, 1)}…${MAX_FORK_NUMBER}: give one in "request_id"`;
}

/** The new session's request document (the JSON of its claim, or the store row's request). */
export function forkRequestDocument(options: {
  original: SessionRecord;
  item: IntakeControl;
  order: ControlOrder;
  from: number;
  sessionId: string;
  requestId: string;
}): { request: string; request_id: string; session_id: string; user?: string; metadata?: unknown; fork: object } {
  const { original, item } = options;
  return {
    request: item.request ?? original.request.text,
    request_id: options.requestId,
    session_id: options.sessionId,
    ...(original.request.user ? { user: original.request.user } : {}),
    ...(original.request.metadata ? { metadata: original.request.metadata } : {}),
    fork: {
      action: item.action,
      of_session: original.session_id,
      from: options.from,
      ...controlFieldsOf(options.order),
    },
  };
}

/** The fork order of a request's `fork` object, or why it cannot be one. */
export function forkOrderOf(fork: Record<string, unknown>): ForkOrder | string {
  const text = (key: string) => (typeof fork[key] === 'string' ? (fork[key] as string) : null);
  const action = text('action');
  if (action !== 'fork' && action !== 'retry' && action !== 'rerun') return '"fork.action" is not fork, retry or rerun';
  const ofSession = text('of_session');
  const controlId = text('control_id');
  const by = text('by');
  const claimedAt = text('claimed_at');
  if (ofSession === null || controlId === null || by === null || claimedAt === null)
    return '"fork" lacks of_session, control_id, by or claimed_at';
  if (typeof fork.from !== 'number' || !Number.isInteger(fork.from)) return '"fork.from" is not a whole number';
  return {
    action,
    ofSession,
    from: fork.from,
    controlId,
    by,
    claimedBy: text('claimed_by'),
    reason: text('reason'),
    claimedAt,
    sourceFile: text('source_file') ?? 'control.json',
  };
}

/** True for a request document that carries a fork (a plain object under "fork"). */
export function hasFork(document: { fork?: unknown }): document is { fork: Record<string, unknown> } {
  return isPlainObject(document.fork);
}
