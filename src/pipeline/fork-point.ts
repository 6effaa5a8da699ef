/**
 * Where a fork, retry or re-run starts in its original (docs/run-control.md): `from` is the first
 * message run anew, 1 … the original's last sequence number + 1; messages before it are reused.
 * Pure: the intake checks a control with it before accepting it, the runner again when it forks.
 */
import type { SessionState } from './session-state.js';
import { hasEnded } from './session-state.js';

export type ForkAction = 'fork' | 'retry' | 'rerun';

/** The highest sequence number of the session's messages (0 when it has none). */
export function lastSequenceOf(state: SessionState): number {
  return state.messages.reduce((highest, record) => Math.max(highest, record.message.metadata.sequence_number), 0);
}

/** The first message of `state` that did not succeed; else the one after its last (a cancel or crash left it uncommitted). */
export function retryPoint(state: SessionState): number {
  const failed = state.messages
    .map((record) => record.message)
    .filter((message) => message.status.code !== 'success' && message.status.code !== 'partial')
    .map((message) => message.metadata.sequence_number);
  return failed.length > 0 ? Math.min(...failed) : lastSequenceOf(state) + 1;
}

/** The fork's `from`, or why the original cannot be forked so. */
export function forkPoint(
  state: SessionState,
  action: ForkAction,
  from: number | null,
): { from: number } | { refusal: string } {
  const sessionId = state.session.session_id;
  // A session waiting for a steward may be forked as it stands (docs/run-control.md).
  if (!hasEnded(state) && state.paused?.awaiting !== 'intervention' && state.paused?.awaiting !== 'halt') {
    const standing = state.paused ? 'paused, waiting for a person' : 'still running';
    return {
      refusal:
        `session "${sessionId}" is ${standing}: only a session that ended can be ${action === 'rerun' ? 're-run' : `${action}ed`}; ` +
        `cancel it first, or wait for its result`,
    };
  }
  if (action === 'rerun') return { from: 1 };
  if (action === 'retry') return { from: retryPoint(state) };
  const last = lastSequenceOf(state);
  if (from === null || !Number.isInteger(from) || from < 1 || from > last + 1) {
    return {
      refusal:
        `"from" ${from === null ? 'is missing' : JSON.stringify(from)}: a fork of session "${sessionId}" starts at a message from 1 ` +
        `to ${last + 1} (its last message is ${last}; messages before "from" are reused)`,
    };
  }
  return { from };
}
