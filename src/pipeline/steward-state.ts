/**
 * A steward's part of a session's fold (docs/run-control.md): a halt pauses the session at the
 * step it held back; a decision resumes it — the failed agent again with the advice (retry), the
 * held step under new totals (continue), or the end the failure or halt would have been (fail).
 */
import type { ControlRecord } from '../store/session-journal.js';
import type { SessionState } from './session-state.js';
import { chainStep } from './session-steps.js';

/** A halt: the session waits at the step it did not start (its cursor stays). */
export function applyHalt(state: SessionState, record: ControlRecord): void {
  state.decisions.set(record.control_id, record);
  state.pausesSinceMessage += 1;
  const step = state.cursor;
  state.paused = {
    agent: step?.agent ?? '',
    messageId: record.control_id,
    question: record.detail ?? '',
    input: step?.input.content ?? null,
    awaiting: 'halt',
    halt: record.reason === 'time' ? 'time' : 'cost',
  };
}

/** A steward's decision on the failed message the session waits with: run its agent again, or end as it would have. */
export function applyStewardDecision(state: SessionState, record: ControlRecord): void {
  state.decisions.set(record.control_id, record);
  if (record.claimed_path) state.replyFiles.push({ claimedPath: record.claimed_path, sourceFile: record.source_file });
  const paused = state.paused;
  if (paused?.awaiting === 'halt') {
    // The held step stays next: continue runs it under the new totals, fail commits its failure.
    state.paused = null;
    if (record.decision === 'fail') state.haltFailed = paused.halt ?? 'cost';
    else state.raised = { ...state.raised, ...(record.limits ?? {}) };
    return;
  }
  if (paused?.awaiting !== 'intervention') return;
  const failed = state.messages.find((candidate) => candidate.message.message_id === paused.messageId);
  if (!failed) return;
  state.paused = null;
  if (record.decision === 'fail') {
    state.final = failed;
    return;
  }
  // The same input again, as the next message: its earlier try no longer counts as a loop.
  state.loopKeys.delete(failed.loop_key);
  state.runStartedAt = record.at;
  state.cursor = {
    ...chainStep(failed.message.agent.name, failed.message.input.source, failed.message.input.content, null),
    parentMessageId: failed.message.metadata.parent_message_id,
    ...(record.advice ? { advice: { text: record.advice, sha256: record.advice_sha256 ?? '' } } : {}),
  };
}
