/**
 * An operator's act (docs/run-control.md) as a journal record and as its audit entry: the §6 lines
 * of a message (`[AGENT: operator]`, `[INPUT SOURCE: operator]`, `[INPUT]: <reason>`, `[OUTPUT
 * TYPE: control]`, `[STATUS: cancelled|success] …`) and `[CONTROL]: {…}`, but no sequence number:
 * it is not a message. Committed like a message (journal record, then the durable entry), so
 * recovery, verify and signed checkpoints cover it with no path of its own.
 */
import { isoInTimeZone } from '../message/zoned-time.js';
import type { SentientMessage, StatusCode } from '../message/sentient-message.js';
import type { ControlRecord, SessionRecord } from '../store/session-journal.js';
import type { AuditEntryInput, ControlAuditLine } from '../store/session-store.js';

/** Shown as `[INPUT]` when the operator gave no reason. */
export const NO_REASON = '(no reason given)';

const ACTION_WORDS: Record<ControlRecord['action'], string> = {
  cancel: 'Cancelled',
  fork: 'Forked',
  retry: 'Retried',
  rerun: 'Re-run',
  intervene: 'Decided',
  halt: 'Halted',
};

/** The `[STATUS]` message of an operator's entry: what was done, by whom. */
export function describeControl(record: ControlRecord): string {
  const why = record.reason ? `: ${record.reason}` : '';
  if (record.action === 'cancel') {
    const via = record.via_session ? ` (with its parent session ${record.via_session})` : '';
    return `Cancelled by ${record.by}${via}${why}`;
  }
  if (record.action === 'halt') return record.detail ?? `Halted (${record.reason ?? 'cost'})`;
  if (record.action === 'intervene') {
    const what =
      record.decision === 'retry'
        ? `the failed step runs again${record.advice ? ' with advice' : ''}`
        : record.decision === 'fail'
          ? 'the session ends failed'
          : `the session continues${record.limits ? ` under new totals ${JSON.stringify(record.limits)}` : ''}`;
    return `Steward ${record.by} decided ${record.decision ?? '?'}: ${what}${why}`;
  }
  const reused =
    (record.from ?? 1) > 1 ? `messages 1–${(record.from ?? 1) - 1} reused with no model call` : 'nothing reused';
  return `${ACTION_WORDS[record.action]} by ${record.by} from session ${record.of_session ?? '?'} at message ${record.from ?? 1} (${reused})${why}`;
}

/** The `[CONTROL]` line: action, by, claimed_by?, reason, at (in the configured zone), of_session?, from?. */
export function controlLine(record: ControlRecord, timezone: string): ControlAuditLine {
  if (record.action === 'halt')
    return { action: 'halt', reason: record.reason, by: record.by, at: isoInTimeZone(new Date(record.at), timezone) };
  if (record.action === 'intervene')
    return {
      action: record.action,
      decision: record.decision ?? 'retry',
      by: record.by,
      ...(record.claimed_by !== null ? { claimed_by: record.claimed_by } : {}),
      reason: record.reason,
      ...(record.advice_sha256 ? { advice_sha256: record.advice_sha256 } : {}),
      ...(record.limits ? { limits: record.limits } : {}),
      ...(record.beyond_configured ? { beyond_configured: true } : {}),
      at: isoInTimeZone(new Date(record.at), timezone),
    };
  return {
    action: record.action,
    by: record.by,
    ...(record.claimed_by !== null ? { claimed_by: record.claimed_by } : {}),
    reason: record.reason,
    at: isoInTimeZone(new Date(record.at), timezone),
    ...(record.of_session !== undefined ? { of_session: record.of_session } : {}),
    ...(record.from !== undefined ? { from: record.from } : {}),
  };
}

/** The audit entry of a journaled control record, the same at its commit and when recovery appends it again. */
export function operatorAuditInput(record: ControlRecord, session: SessionRecord, timezone: string): AuditEntryInput {
  const message: SentientMessage = {
    message_id: record.control_id,
    timestamp: { executed_at: isoInTimeZone(new Date(record.at), timezone), timezone },
    agent: { name: 'operator', type: 'operator' },
    input: { source: 'operator', content: (record.action === 'halt' ? record.detail : record.reason) ?? NO_REASON },
    output: { content: null, content_type: 'control' },
    next_agent: { name: null, reason: null },
    // Not one of an agent's status codes: `cancelled` is the operator's (docs/run-control.md).
    status: {
      code: (record.action === 'cancel' ? 'cancelled' : record.action === 'halt' ? 'pending' : 'success') as StatusCode,
      message: describeControl(record),
    },
    error: { has_error: false, error_code: null, error_message: null, retry_count: 0, recoverable: false },
    metadata: {
      session_id: session.session_id,
      request_id: session.request_id,
      sequence_number: 0,
      parent_message_id: null,
    },
    audit: { compliance_notes: null, governance_files_consulted: [] },
  };
  const from = session.delegation;
  return {
    message,
    governanceHash: record.governance_hash,
    corrections: [],
    complianceViolations: [],
    notes: [],
    user: session.request.user ?? 'local',
    control: controlLine(record, timezone),
    notRepeated: record.not_repeated ?? null,
    ...(from ? { delegation: { parentSessionId: from.parent_session_id, depth: from.depth } } : {}),
    ...(record.handoff ? { handoff: record.handoff } : {}),
  };
}
