/**
 * Fork, retry and re-run (docs/run-control.md): a new session that reuses its original's messages
 * 1 … from−1 with no model call — each logged again with `[FORKED_FROM: <the original entry's
 * hash>]` — after its own operator entry, its workspace rebuilt as the original's was at that
 * point, and the outside calls it did not repeat listed. The rest runs under today's governance.
 * Resumable: a crash half-way through the copies goes on from the journal.
 */
import { randomUUID } from 'node:crypto';
import { GovflowError, errorMessage } from '../errors.js';
import type { SentientMessage } from '../message/sentient-message.js';
import { isoInTimeZone } from '../message/zoned-time.js';
import type { ControlRecord, JournalRecord, Lineage, MessageRecord, ReplyRecord } from '../store/session-journal.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import type { AuditedMessages } from '../store/session-store.js';
import type { NotRepeatedCall, ToolResultRecord, ToolTurnRecord } from '../store/tool-journal-records.js';
import { rebuildWorkspace, WORKSPACE_TOOLS, type JournaledWrite } from '../tools/workspace-rebuild.js';
import { forkPoint } from './fork-point.js';
import { auditInputOf, type ActiveSession } from './message-commit.js';
import { operatorAuditInput } from './operator-entry.js';
import { ControlRejectedError, type ForkOrder, type RunnerDependencies } from './runner-contract.js';
import { applyRecord, foldRecords, type SessionState } from './session-state.js';

/** What a fork takes from its original, read and checked before the new session is made. */
export interface PreparedFork {
  order: ForkOrder;
  original: SessionState;
  lineage: Lineage;
  /** The original's records the fork reuses, in journal order: messages before `from`, and the replies among them. */
  copies: Array<MessageRecord | ReplyRecord>;
  /** The original's audit entries by message id (each copy names its entry's hash). */
  audited: AuditedMessages;
  notRepeated: NotRepeatedCall[];
  writes: JournaledWrite[];
}

/** The fork a session record says made it, to go on with after a crash (null: not a fork). */
export function forkOrderOf(session: SessionState['session']): ForkOrder | null {
  if (!session.lineage || !session.fork) return null;
  return {
    action: session.lineage.action,
    ofSession: session.lineage.of_session,
    from: session.lineage.from,
    controlId: session.fork.control_id,
    by: session.lineage.by,
    claimedBy: session.fork.claimed_by,
    reason: session.lineage.reason,
    claimedAt: session.fork.claimed_at,
    sourceFile: session.fork.source_file,
  };
}

/** True when a fork's operator entry or reused messages are not all journaled yet. */
export function forkUnfinished(state: SessionState): boolean {
  return (
    state.session.lineage !== undefined && (state.lineage === null || state.reusedSoFar < (state.lineage.reused ?? 0))
  );
}

export class SessionForks {
  constructor(
    private readonly deps: RunnerDependencies,
    private readonly now: () => Date,
  ) {}

  /** Reads the original and works out the fork; ControlRejectedError when it cannot be forked so. */
  async prepare(order: ForkOrder): Promise<PreparedFork> {
    let records: JournalRecord[];
    try {
      records = await this.deps.store.records(order.ofSession);
    } catch (error) {
      throw new ControlRejectedError(`cannot read session "${order.ofSession}" to fork it: ${errorMessage(error)}`);
    }
    const original = foldRecords(records);
    const point = forkPoint(original, order.action, order.from);
    if ('refusal' in point) throw new ControlRejectedError(point.refusal);
    const from = point.from;
    const copies: Array<MessageRecord | ReplyRecord> = [];
    for (const record of records) {
      if (record.type === 'message' && record.message.metadata.sequence_number >= from) break;
      if (record.type === 'message' || record.type === 'reply') copies.push(record);
    }
    const reusedSteps = stepsOf(copies);
    const audited = await this.deps.store.auditedMessages(
      order.ofSession,
      original.session.created_at,
      original.session.audit_from ?? null,
    );
    for (const copy of copies) {
      if (copy.type === 'message' && !audited.has(copy.message.message_id))
        throw new ControlRejectedError(
          `session "${order.ofSession}" has no audit entry for its message ${copy.message.metadata.sequence_number} ` +
            `(${copy.message.message_id}), so a fork cannot name it: run govflow verify`,
        );
    }
    return {
      order: { ...order, from },
      original,
      lineage: {
        action: order.action,
        of_session: order.ofSession,
        of_request: original.session.request_id,
        from,
        by: order.by,
        reason: order.reason,
      },
      copies,
      audited,
      ...toolEffects(records, reusedSteps),
    };
  }

  /** Commits the fork's operator entry, rebuilds the workspace and reuses the copies not journaled yet. */
  async reuse(active: ActiveSession, fork: PreparedFork): Promise<void> {
    const { state } = active;
    const sessionId = state.session.session_id;
    const first = !state.lineage;
    if (!state.lineage) {
      const record: ControlRecord = {
        v: JOURNAL_FORMAT,
        type: 'control',
        action: fork.order.action,
        control_id: fork.order.controlId,
        by: fork.order.by,
        claimed_by: fork.order.claimedBy,
        reason: fork.order.reason,
        at: this.now().toISOString(),
        claimed_at: fork.order.claimedAt,
        source_file: fork.order.sourceFile,
        claimed_path: null,
        governance_hash: this.deps.governance(sessionId).hash,
        of_session: fork.order.ofSession,
        of_request: fork.lineage.of_request,
        from: fork.lineage.from,
        reused: fork.copies.length,
        not_repeated: fork.notRepeated,
      };
      await active.stored.commitControl(record, operatorAuditInput(record, state.session, this.deps.config.timezone));
      applyRecord(state, record);
    }
    // No step has run before every copy is journaled, so the workspace may be rebuilt again after a crash.
    if (this.deps.tools && (first || state.reusedSoFar < fork.copies.length)) {
      await rebuildWorkspace(await this.deps.tools.workspaceOf(sessionId), fork.writes);
    }
    const ids = new Map<string, string>();
    for (const record of state.messages)
      if (record.reused) ids.set(record.reused.message_id, record.message.message_id);
    for (const copy of fork.copies.slice(state.reusedSoFar)) {
      if (copy.type === 'reply') {
        const reply: ReplyRecord = { ...copy, claimed_path: null, at: this.now().toISOString(), reused: true };
        await active.stored.recordReply(reply);
        applyRecord(state, reply);
        continue;
      }
      const record = this.copyOf(copy, state, ids, fork.audited.get(copy.message.message_id)!.hash);
      ids.set(copy.message.message_id, record.message.message_id);
      const { entryHash } = await active.stored.commitMessage(record, auditInputOf(record, state));
      applyRecord(state, record);
      this.deps.events?.emit('message', {
        sessionId,
        sequence: record.message.metadata.sequence_number,
        agent: record.message.agent.name,
        status: record.message.status.code,
        outputType: record.message.output?.content_type ?? null,
        messageId: record.message.message_id,
        entryHash,
        taskId: record.task_id,
      });
    }
    this.deps.log?.info('session forked', {
      session: sessionId,
      action: fork.order.action,
      of: fork.order.ofSession,
      from: fork.lineage.from,
      reused: fork.copies.length,
    });
  }

  /** A reused message as the new session logs it: the orchestrator's fields its own, the agent's as they were. */
  private copyOf(copy: MessageRecord, state: SessionState, ids: Map<string, string>, entryHash: string): MessageRecord {
    const original = copy.message;
    const parent = original.metadata.parent_message_id;
    const message: SentientMessage = {
      ...original,
      message_id: randomUUID(),
      timestamp: {
        executed_at: isoInTimeZone(this.now(), this.deps.config.timezone),
        timezone: this.deps.config.timezone,
      },
      metadata: {
        ...original.metadata,
        session_id: state.session.session_id,
        request_id: state.session.request_id,
        parent_message_id: parent === null ? null : (ids.get(parent) ?? parent),
      },
    };
    return {
      ...copy,
      message,
      plan_message_id: copy.plan_message_id === null ? null : (ids.get(copy.plan_message_id) ?? copy.plan_message_id),
      notes: [
        ...copy.notes,
        `reused from session ${original.metadata.session_id}, message ${original.message_id} (executed at ${original.timestamp.executed_at}): no model call`,
      ],
      reused: { session_id: original.metadata.session_id, message_id: original.message_id, entry_hash: entryHash },
    };
  }
}

/** The step keys (`"3"`, `"task:t1"`) of the reused messages, by the sequence each committed at. */
function stepsOf(copies: ReadonlyArray<MessageRecord | ReplyRecord>): Map<string, number> {
  const steps = new Map<string, number>();
  for (const copy of copies) {
    if (copy.type !== 'message') continue;
    const sequence = copy.message.metadata.sequence_number;
    steps.set(copy.task_id ? `task:${copy.task_id}` : String(sequence), sequence);
  }
  return steps;
}

/** The reused steps' file writes (to rebuild the workspace) and outside calls (not repeated). */
function toolEffects(
  records: readonly JournalRecord[],
  steps: Map<string, number>,
): { writes: JournaledWrite[]; notRepeated: NotRepeatedCall[] } {
  const calls = new Map<string, unknown>();
  const writes: JournaledWrite[] = [];
  const notRepeated: NotRepeatedCall[] = [];
  const seen = new Set<string>();
  // A step key names a step of the original only until its message commits; later turns reuse a number again.
  const live = new Set(steps.keys());
  for (const record of records) {
    if (record.type === 'message') {
      live.delete(record.task_id ? `task:${record.task_id}` : String(record.message.metadata.sequence_number));
      continue;
    }
    if (record.type === 'tool_turn') {
      if (live.has(record.step)) for (const call of (record as ToolTurnRecord).calls) calls.set(call.id, call.input);
      continue;
    }
    if (record.type !== 'tool_result' || !live.has(record.step) || seen.has(record.id)) continue;
    const result = record as ToolResultRecord;
    seen.add(result.id);
    if (result.refused !== null) continue;
    if (result.wrote && !result.is_error) {
      if (!calls.has(result.id))
        throw new GovflowError('audit', `the journal has a result of call ${result.id} but not the call itself`);
      writes.push({ tool: result.name, input: calls.get(result.id), wrote: result.wrote });
    } else if (!WORKSPACE_TOOLS.has(result.name)) {
      notRepeated.push({ sequence: steps.get(result.step)!, id: result.id, name: result.name });
    }
  }
  return { writes, notRepeated };
}
