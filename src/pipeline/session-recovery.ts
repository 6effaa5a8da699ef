/** Crash recovery of one session against its audit log: lost steps voided, missing entries appended again. */
import { auditInputOf, type ActiveSession } from './message-commit.js';
import type { VoidRecord } from '../store/session-journal.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import type { AuditedMessages } from '../store/session-store.js';
import type { OperationalLog } from '../log-contract.js';
import { applyRecord } from './session-state.js';
import { operatorAuditInput } from './operator-entry.js';
import type { RunnerDependencies } from './runner-contract.js';

/**
 * Voids audit entries whose messages the journal lacks (the audit log is synced at every message,
 * the journal at the end, so power loss can leave the log ahead); the first new message names them.
 */
export async function voidLostMessages(
  active: ActiveSession,
  audited: AuditedMessages,
  now: Date,
  log: OperationalLog | undefined,
): Promise<void> {
  const { state } = active;
  const known = new Set(state.messages.map((record) => record.message.message_id));
  for (const voided of state.voided) known.add(voided.messageId);
  // An operator's entry (no sequence) has its record journaled before it: it is never lost this way.
  const lost = [...audited]
    .filter((entry): entry is [string, { sequence: number; agent: string; hash: string }] => entry[1].sequence !== null)
    .filter(([messageId]) => !known.has(messageId))
    .sort((a, b) => a[1].sequence - b[1].sequence);
  if (lost.length === 0) return;
  const records: VoidRecord[] = lost.map(([messageId, { sequence, agent }]) => ({
    v: JOURNAL_FORMAT,
    type: 'void',
    message_id: messageId,
    sequence,
    agent,
    at: now.toISOString(),
  }));
  await active.stored.voidMessages(records);
  for (const record of records) {
    applyRecord(state, record);
    log?.warn('voided an audit entry whose journal record a crash lost; its step runs again', {
      session: state.session.session_id,
      message: record.message_id,
      sequence: record.sequence,
    });
  }
}

/** Appends the journaled messages and operator acts the audit log misses, in journal order. */
export async function appendMissingAuditEntries(
  active: ActiveSession,
  audited: AuditedMessages,
  timezone: string,
  log: OperationalLog | undefined,
): Promise<void> {
  const { state } = active;
  // A fork's own entry comes first in its session (docs/run-control.md).
  const lineage = state.lineage;
  if (lineage && !audited.has(lineage.control_id)) {
    await active.stored.reappendAudit(operatorAuditInput(lineage, state.session, timezone));
    log?.warn("re-appended an operator's entry missing from the audit log", {
      session: state.session.session_id,
      control: lineage.control_id,
    });
  }
  for (const record of state.messages) {
    if (audited.has(record.message.message_id)) continue;
    await active.stored.reappendAudit(auditInputOf(record, state));
    log?.warn('re-appended a journaled message missing from the audit log', {
      session: state.session.session_id,
      message: record.message.message_id,
    });
  }
  // A steward's decision a crash kept from the log: the run stopped right after it, before any later message.
  for (const decision of state.decisions.values()) {
    if (audited.has(decision.control_id)) continue;
    await active.stored.reappendAudit(operatorAuditInput(decision, state.session, timezone));
    log?.warn("re-appended a steward's entry missing from the audit log", {
      session: state.session.session_id,
      control: decision.control_id,
    });
  }
  const cancel = state.cancelled;
  if (cancel && !audited.has(cancel.control_id)) {
    await active.stored.reappendAudit(operatorAuditInput(cancel, state.session, timezone));
    log?.warn("re-appended an operator's entry missing from the audit log", {
      session: state.session.session_id,
      control: cancel.control_id,
    });
  }
}

/** Voids audit entries power loss took from the journal, appends those the log lacks: before a session runs again. */
export async function mendAuditLog(
  active: ActiveSession,
  deps: Pick<RunnerDependencies, 'store' | 'config' | 'log'>,
  now: Date,
): Promise<void> {
  const { session } = active.state;
  const audited = await deps.store.auditedMessages(session.session_id, session.created_at, session.audit_from ?? null);
  await voidLostMessages(active, audited, now, deps.log);
  await appendMissingAuditEntries(active, audited, deps.config.timezone, deps.log);
}
