/**
 * The request a fork, retry or re-run becomes (docs/run-control.md), whichever backend queues it:
 * the original's request (or the control's replacement text) under a new session and request id,
 * owned by the original's user, with a `fork` object the runner starts it from.
 */
import path from 'node:path';
import type { IntakeControl } from '../intake/claimed-file.js';
import { parseClaimName } from '../intake/claim-name.js';
import { isPlainObject } from '../message/json-text.js';
import type { ForkOrder } from '../pipeline/runner-contract.js';
import { controlIdOf } from '../pipeline/session-cancel.js';
import type { SessionRecord } from '../store/session-journal.js';

/** How many `<original>-<action>-<n>` names are tried before giving up. */
export const MAX_FORK_NUMBER = 10_000;

/** The n-th generated request id of a fork: `<original request_id>-<action>-<n>`, cut to 128 characters. */
export function forkRequestId(originalRequestId: string, action: string, n: number): string {
  const suffix = `-${action}-${n}`;
  return `${originalRequestId.slice(0, 128 - suffix.length)}${suffix}`;
}

/** When the control was claimed (its claim name says; else now). */
export function claimedAtOf(item: IntakeControl): string {
  return (parseClaimName(item.claimedPath)?.claimedAt ?? item.receivedAt).toISOString();
}

/** The operator entry's id of a control: the same for the same claim, after any crash. */
export function controlIdFor(item: IntakeControl): string {
  return controlIdOf(path.basename(item.claimedPath));
}

/** The new session's request document (the JSON of its claim, or the store row's request). */
export function forkRequestDocument(options: {
  original: SessionRecord;
  item: IntakeControl;
  actor: { by: string; claimedBy: string | null };
  from: number;
  sessionId: string;
  requestId: string;
}): { request: string; request_id: string; session_id: string; user?: string; metadata?: unknown; fork: object } {
  const { original, item, actor } = options;
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
      control_id: controlIdFor(item),
      by: actor.by,
      claimed_by: actor.claimedBy,
      reason: item.reason,
      claimed_at: claimedAtOf(item),
      source_file: item.sourceFile,
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
