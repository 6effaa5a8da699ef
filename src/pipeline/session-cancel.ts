/**
 * A cancel applied to a session (docs/run-control.md): once its run stopped (the cancel aborted the
 * model, tool and MCP calls in flight, and delegated children, through the session's one signal),
 * the control record and its operator entry are committed after any message already committing;
 * the session then ends with exactly one result, status `cancelled`.
 */
import { createHash } from 'node:crypto';
import type { ControlRecord } from '../store/session-journal.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import type { ActiveSession } from './message-commit.js';
import { operatorAuditInput } from './operator-entry.js';
import type { CancelOrder } from './run-controls.js';
import type { RunnerDependencies } from './runner-contract.js';
import { applyRecord } from './session-state.js';

/** A stable id (UUID-shaped) for an operator entry, made from what identifies the control (its claim). */
export function controlIdOf(seed: string): string {
  const hex = createHash('sha256').update(`govflow-control\0${seed}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The order as it applies to `sessionId`: itself, or — reached through a parent's signal — a
 * delegated child's own cancel, with its own entry id and nothing of the parent's to archive.
 */
export function orderFor(sessionId: string, order: CancelOrder & { sessionId?: string }): CancelOrder {
  if (order.sessionId === undefined || order.sessionId === sessionId) return order;
  return {
    ...order,
    controlId: controlIdOf(`${order.controlId}\0${sessionId}`),
    claimedPath: null,
    viaSession: order.viaSession ?? order.sessionId,
  };
}

/** Commits the cancel's record and operator entry, after any message already committing. */
export async function commitCancel(
  active: ActiveSession,
  order: CancelOrder,
  deps: RunnerDependencies,
  now: () => Date,
): Promise<void> {
  const work = active.commitQueue.then(async () => {
    const { state } = active;
    if (state.cancelled || state.final || state.finishedAt !== null) return;
    // A child cancelled before its first message: this is its first entry, so it records the handoff.
    const handoff = state.messages.length === 0 ? state.session.delegation?.handoff : undefined;
    const record: ControlRecord = {
      v: JOURNAL_FORMAT,
      type: 'control',
      action: 'cancel',
      control_id: order.controlId,
      by: order.by,
      claimed_by: order.claimedBy,
      reason: order.reason,
      at: now().toISOString(),
      claimed_at: order.claimedAt,
      source_file: order.sourceFile,
      claimed_path: order.claimedPath,
      governance_hash: deps.governance(state.session.session_id).hash,
      ...(order.viaSession ? { via_session: order.viaSession } : {}),
      ...(handoff ? { handoff } : {}),
    };
    await active.stored.commitControl(record, operatorAuditInput(record, state.session, deps.config.timezone));
    applyRecord(state, record);
    deps.log?.info('session cancel applied', {
      session: state.session.session_id,
      by: order.by,
      ...(order.viaSession ? { with_parent: order.viaSession } : {}),
    });
  });
  active.commitQueue = work.catch(() => undefined);
  await work;
}
