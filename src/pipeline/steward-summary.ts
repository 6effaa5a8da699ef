/**
 * What a steward is shown when a session waits for one (docs/run-control.md): the result's
 * `intervention` object — the failed message's agent, sequence and error code, and a short
 * `summary_for_supervisor` saying what failed, the last validation errors and where the raw answer is.
 */
import type { MessageRecord } from '../store/session-journal.js';
import type { SessionState } from './session-state.js';

export interface InterventionInfo {
  agent: string;
  sequence: number;
  error_code: string | null;
  summary_for_supervisor: string;
}

/** Longest summary written into the result. */
const MAX_SUMMARY_CHARS = 1500;

/** The `intervention` of a session waiting for a steward; null when it waits for none. */
export function interventionOf(state: SessionState): InterventionInfo | null {
  const paused = state.paused;
  if (paused?.awaiting !== 'intervention' || state.cancelled) return null;
  const failed = state.messages.find((record) => record.message.message_id === paused.messageId);
  if (!failed) return null;
  const { message } = failed;
  return {
    agent: message.agent.name,
    sequence: message.metadata.sequence_number,
    error_code: message.error.error_code,
    summary_for_supervisor: summaryOf(failed, state.session.session_id),
  };
}

function summaryOf(failed: MessageRecord, sessionId: string): string {
  const { message } = failed;
  const sequence = message.metadata.sequence_number;
  const code = message.error.error_code ?? 'no error code';
  const parts = [
    `${message.agent.name} failed at message ${sequence} (${code}, retry_count ${message.error.retry_count}): ` +
      `${message.error.error_message ?? message.status.message}.`,
  ];
  if (failed.raw_output !== null)
    parts.push(
      `Its last raw answer (${failed.raw_output.length} characters) is the raw_output of message ${sequence} in ` +
        `system/sessions/${sessionId}/journal.jsonl.`,
    );
  parts.push(
    'Decide with govflow intervene: --retry [--advice TEXT] runs the agent again on the same input, --fail ends the session.',
  );
  const summary = parts.join(' ');
  return summary.length > MAX_SUMMARY_CHARS ? `${summary.slice(0, MAX_SUMMARY_CHARS - 1)}…` : summary;
}
