/**
 * No poison pills (`limits.max_crash_retries`): a step's unexpected internal error is journaled
 * as a `crash` and the session runs again from its journal. Once the crashes since the last
 * message (counted across restarts) pass the limit, it ends failed with PROCESSING_ERROR.
 */
import { errorMessage } from '../errors.js';
import type { CrashRecord } from '../store/session-journal.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import type { ActiveSession, StepOutcome } from './message-commit.js';
import { SessionInterruptedError } from './runner-contract.js';
import type { OperationalLog } from '../log-contract.js';
import { applyRecord, type SessionState } from './session-state.js';
import { chainStep, type PendingStep } from './session-steps.js';

/** Longest error text kept in a crash record and the failure message. */
const CRASH_TEXT_MAX_CHARS = 500;

/** True for errors that are crashes: not a shutdown, not the caller's abort. */
export function isCrash(error: unknown, signal: AbortSignal, draining: boolean): boolean {
  return !(error instanceof SessionInterruptedError) && !signal.aborted && !draining;
}

function crashText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : errorMessage(error);
  return text.length > CRASH_TEXT_MAX_CHARS ? `${text.slice(0, CRASH_TEXT_MAX_CHARS - 1)}…` : text;
}

/** Appends the durable `crash` record and folds it into the state. */
export async function recordCrash(
  active: ActiveSession,
  error: unknown,
  now: Date,
  maxCrashRetries: number,
  log?: OperationalLog,
): Promise<void> {
  const record: CrashRecord = { v: JOURNAL_FORMAT, type: 'crash', error: crashText(error), at: now.toISOString() };
  await active.stored.recordCrash(record);
  applyRecord(active.state, record);
  const { crashes } = active.state;
  log?.error(
    crashes > maxCrashRetries
      ? 'session step crashed; crash retries are used up, so the session ends failed (PROCESSING_ERROR)'
      : 'session step crashed; it runs again from its journal',
    { session: active.state.session.session_id, error: record.error, crashes, max_crash_retries: maxCrashRetries },
  );
}

/** True when the session has crashed more often than it may be retried and has not ended yet. */
export function crashRetriesUsedUp(state: SessionState, maxCrashRetries: number): boolean {
  return state.crashes > maxCrashRetries && !state.final && !state.paused && state.finishedAt === null;
}

/** The PROCESSING_ERROR message, at the step the session was at (the cursor, or the running plan's agent). */
export function crashGiveUp(
  state: SessionState,
  maxCrashRetries: number,
): { step: PendingStep; outcome: StepOutcome } | null {
  const plan = state.plan;
  const step =
    state.cursor ??
    (plan
      ? chainStep(
          plan.agent,
          'orchestrator',
          { plan_message_id: plan.messageId, error: state.lastCrash },
          plan.messageId,
        )
      : null);
  if (!step) return null;
  const times = state.crashes === 1 ? 'once' : `${state.crashes} times`;
  return {
    step,
    outcome: {
      kind: 'halt',
      failure: {
        code: 'PROCESSING_ERROR',
        message:
          `session stopped: ${step.agent}'s step failed with an unexpected internal error ${times} ` +
          `(limits.max_crash_retries = ${maxCrashRetries}); last error: ${state.lastCrash ?? 'unknown'}`,
        recoverable: false,
        notes: 'Orchestrator: crash retries used up; the errors are recorded in the session journal.',
      },
      halt: null,
    },
  };
}
