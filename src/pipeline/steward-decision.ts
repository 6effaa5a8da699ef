/**
 * A steward's decision on a session waiting in `intervention_required` (docs/run-control.md):
 * checked against the journal, then its control record and operator entry (`[CONTROL]: {"action":
 * "intervene", "decision", "by", "reason"?, "advice_sha256"?, "at"}`) committed after any message
 * already committing. Folding the record (session-state.ts) sets what runs next: the failed agent
 * again with the advice (retry), or the failed message as the session's end (fail).
 */
import { sha256Hex } from '../sha256-hex.js';
import type { ControlRecord, StewardDecision } from '../store/session-journal.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import type { ActiveSession } from './message-commit.js';
import { operatorAuditInput } from './operator-entry.js';
import type { ControlOrder } from './run-controls.js';
import { ControlRejectedError, type RunnerDependencies } from './runner-contract.js';
import { applyRecord, type SessionState } from './session-state.js';
import { limitHalt, type LimitReached } from './session-limits.js';

/** A steward's decision as the runner applies it. */
export interface StewardOrder extends ControlOrder {
  decision: StewardDecision;
  advice: string | null;
  /** continue: the session's new totals. */
  limits: { cost_usd?: number; time_minutes?: number } | null;
}

/** Why the session cannot take this decision now; null when it can. */
export function decisionRefusal(state: SessionState, decision: StewardDecision): string | null {
  const sessionId = state.session.session_id;
  if (state.paused?.awaiting === 'halt')
    return decision === 'retry'
      ? `session "${sessionId}" is halted (${state.paused.halt ?? 'cost'}), nothing failed: decide "continue" (with new limits) or "fail"`
      : null;
  if (state.paused?.awaiting !== 'intervention') {
    const standing = state.cancelled
      ? `was cancelled by ${state.cancelled.by}`
      : state.final || state.finishedAt !== null
        ? 'has ended'
        : state.paused
          ? 'waits for a person, not a steward'
          : 'is running';
    return `session "${sessionId}" is not waiting for a steward: it ${standing}`;
  }
  if (decision === 'continue')
    return `session "${sessionId}" waits after a failed step, not a halt: decide "retry" or "fail"`;
  return null;
}

/** Commits the decision's record and operator entry; a refusal is a ControlRejectedError. Applied before (same control after a crash): nothing. */
export async function commitDecision(
  active: ActiveSession,
  order: StewardOrder,
  deps: RunnerDependencies,
  now: () => Date,
): Promise<void> {
  const work = active.commitQueue.then(async () => {
    const { state } = active;
    if (state.decisions.has(order.controlId)) return;
    const refusal = decisionRefusal(state, order.decision);
    if (refusal !== null) throw new ControlRejectedError(refusal, { sessionId: state.session.session_id });
    const record: ControlRecord = {
      v: JOURNAL_FORMAT,
      type: 'control',
      action: 'intervene',
      control_id: order.controlId,
      by: order.by,
      claimed_by: order.claimedBy,
      reason: order.reason,
      at: now().toISOString(),
      claimed_at: order.claimedAt,
      source_file: order.sourceFile,
      // The control file is archived once the decision is durable (its intake does it).
      claimed_path: null,
      governance_hash: deps.governance(state.session.session_id).hash,
      decision: order.decision,
      advice: order.advice,
      advice_sha256: order.advice === null ? null : sha256Hex(order.advice),
      ...(order.limits ? { limits: order.limits } : {}),
      ...(order.limits && beyondConfigured(order.limits, deps.config) ? { beyond_configured: true } : {}),
    };
    await active.stored.commitControl(record, operatorAuditInput(record, state.session, deps.config.timezone));
    applyRecord(state, record);
    deps.log?.info('steward decision applied', {
      session: state.session.session_id,
      decision: order.decision,
      by: order.by,
    });
  });
  active.commitQueue = work.catch(() => undefined);
  await work;
}

/** True when one of a continue's new totals is above its configured value (only an admin may set it so). */
export function beyondConfigured(
  limits: { cost_usd?: unknown; time_minutes?: unknown },
  config: { limits: RunnerDependencies['config']['limits'] },
): boolean {
  const cost = config.limits.max_cost_usd_per_session;
  return (
    (typeof limits.cost_usd === 'number' && cost !== null && limits.cost_usd > cost) ||
    (typeof limits.time_minutes === 'number' && limits.time_minutes * 60_000 > config.limits.session_timeout_ms)
  );
}

/** The failure a halted session ends with when its steward decides `fail` (as it would have without the halt). */
export function haltFailure(reason: 'cost' | 'time', agent: string): LimitReached {
  return reason === 'time'
    ? limitHalt(
        'HALTED_TIME',
        'TIMEOUT',
        `session stopped: halted at its deadline before ${agent} could run, and its steward ended it`,
        true,
        'session deadline',
      )
    : limitHalt(
        'HALTED_COST',
        'BUDGET_EXCEEDED',
        `session stopped: halted at its budget before ${agent}'s model call, and its steward ended it`,
        false,
        'cost budget',
      );
}
