/** Commits one message of a session (one `StepOutcome`): stamp, journal record, durable audit entry, state, live event. */
import { randomUUID } from 'node:crypto';
import type { AuditEntryInput } from '../store/session-store.js';
import type { GovflowConfig } from '../config/config-loader.js';
import { INTERVENE, type AgentDefinition } from '../governance/agent-definition.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import { DRY_RUN_NOTE } from '../llm/dry-run-provider.js';
import { stampMessage, type StampContext } from '../message/message-stamping.js';
import {
  orchestratorFailureMessage,
  validationFallbackMessage,
  type OrchestratorFailure,
} from '../message/orchestrator-messages.js';
import type { Plan } from '../message/plan.js';
import type { SentientMessage } from '../message/sentient-message.js';
import type { MessageRecord, ReasoningDigest, SessionStateName } from '../store/session-journal.js';
import { sha256Hex } from '../sha256-hex.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import type { StoredSession } from '../store/session-store.js';
import type { SessionPrivacy } from '../privacy/session-privacy.js';
import type { RunnerDependencies } from './runner-contract.js';
import { applyRecord, type SessionState } from './session-state.js';
import type { PendingStep } from './session-steps.js';
import { cancelOf } from './run-controls.js';
import { toolAuditLines } from './tool-audit.js';
import { chatContextLine } from './chat-turn.js';
import { attachmentList } from '../store/attachment-records.js';
import { expressionBindings, lastMessagesByAgent } from './expression-scope.js';
import { decideRoute, routeReason, type RouteDecision } from './route-decision.js';

/** A session being run by this process: its stored form, its folded state, its commit order. */
export interface ActiveSession {
  stored: StoredSession;
  state: SessionState;
  commitQueue: Promise<void>;
  /** A manifest rewrite is due at the end of this turn of the event loop. */
  manifestScheduled?: boolean;
  /** PII redaction and guardrails of this session (README "Privacy and guardrails"). */
  privacy?: SessionPrivacy;
  /** The run's signal: once a cancel aborted it, no message is committed (docs/run-control.md). */
  signal?: AbortSignal;
  /**
   * Settles once every message committed so far is on disk (its audit entry synced), rejecting with
   * the first failure. A commit returns once its journal record and audit entry are written, so the
   * next message (a parallel task's) is written while this one syncs, and the result while the last
   * one does; whatever passes a message on (the next step, the result, a live event, a webhook)
   * waits for this first (SPEC §6).
   */
  durable?: Promise<void>;
  /** Why a message written and folded into `state` did not reach the disk: the run recovers from the journal. */
  commitFailure?: unknown;
}

/** Resolves once the session's messages committed so far are durable (see ActiveSession.durable). */
export function messagesDurable(active: ActiveSession): Promise<void> {
  return active.durable ?? Promise.resolve();
}

/** What one step ends with: exactly one of these is committed as the step's message. */
export type StepOutcome =
  /** The model's message passed validation. */
  | {
      kind: 'answer';
      candidate: Record<string, unknown>;
      plan: Plan | null;
      retryCount: number;
      promptFiles: string[];
      evidence?: Array<{ path: string; sha256: string; bytes: number }>;
      /** The accepted attempt's reasoning, all sources joined by a newline (SPEC §24). */
      reasoning?: string;
    }
  /** Repairs ran out: the orchestrator records a VALIDATION_ERROR fallback, raw output kept. */
  | { kind: 'fallback'; problems: string[]; retryCount: number; rawOutput: string | null }
  /** The model call failed; the message fails and the agent's `on_failure` routing applies. */
  | { kind: 'failure'; failure: OrchestratorFailure; retryCount: number }
  /** The orchestrator ends the session (a limit, an unknown agent); no `on_failure` routing. */
  | { kind: 'halt'; failure: OrchestratorFailure; halt: SessionStateName | null };

export function stampContext(
  config: GovflowConfig,
  now: Date,
  state: SessionState,
  step: PendingStep,
  agent: { name: string; type: string },
  sequence: number,
  retryCount: number,
): StampContext {
  return {
    messageId: randomUUID(),
    executedAt: now,
    timezone: config.timezone,
    agent: { name: agent.name, type: agent.type },
    input: step.input,
    sessionId: state.session.session_id,
    requestId: state.session.request_id,
    sequenceNumber: Math.max(1, sequence),
    parentMessageId: step.parentMessageId,
    retryCount,
  };
}

/** A §4 compliance finding (src/message/compliance-violations.ts) as a `[VIOLATIONS]` item. */
export function violationOf(finding: string): { kind: string; detail: string } {
  const notInPrompt = /^governance_files_consulted names "(.*)", which was not in this agent's prompt$/.exec(finding);
  if (notInPrompt) return { kind: 'governance_file_not_in_prompt', detail: notInPrompt[1] };
  return { kind: 'compliance', detail: finding };
}

export class MessageCommitter {
  constructor(
    private readonly deps: RunnerDependencies,
    private readonly now: () => Date,
    /** Called after each commit (the runner schedules a manifest rewrite). */
    private readonly committed: (active: ActiveSession) => void,
    /** When each step began, for the progress log. */
    private readonly stepStartedAt: (step: PendingStep) => number | undefined,
  ) {}

  /**
   * Serialized per session so sequence numbers follow commit order with no gap; `agent` null when
   * undefined. Resolves once the message is written, not yet synced: see ActiveSession.durable.
   */
  commit(
    active: ActiveSession,
    step: PendingStep,
    snapshot: GovernanceSnapshot,
    loopKey: string,
    agent: AgentDefinition | null,
    outcome: StepOutcome,
  ): Promise<void> {
    const work = active.commitQueue.then(() => this.commitNow(active, step, snapshot, loopKey, agent, outcome));
    active.commitQueue = work.catch(() => undefined);
    return work;
  }

  private async commitNow(
    active: ActiveSession,
    step: PendingStep,
    snapshot: GovernanceSnapshot,
    loopKey: string,
    agent: AgentDefinition | null,
    outcome: StepOutcome,
  ): Promise<void> {
    const { state } = active;
    if (state.final || state.cancelled) return; // another task already ended the session
    // A step that finished after the cancel was claimed is not committed: the session ends cancelled.
    if (active.signal && cancelOf(active.signal)) return;
    const identity = agent ?? { name: step.agent, type: 'operational' };
    const retryCount = outcome.kind === 'halt' ? 0 : outcome.retryCount;
    const context = stampContext(
      this.deps.config,
      this.now(),
      state,
      step,
      identity,
      state.lastSequence + 1,
      retryCount,
    );
    let message: SentientMessage;
    let corrections: string[] = [];
    let violations: string[] = [];
    const notes: string[] = [];
    switch (outcome.kind) {
      case 'answer':
        ({ message, corrections } = stampMessage(outcome.candidate, context));
        violations = this.deps.complianceViolations(message, outcome.promptFiles);
        if (this.deps.provider.synthetic) notes.push(DRY_RUN_NOTE);
        break;
      case 'fallback':
        message = validationFallbackMessage(context, outcome.problems, outcome.retryCount + 1);
        break;
      case 'failure':
      case 'halt':
        message = orchestratorFailureMessage(context, outcome.failure);
        break;
    }
    const route = routeOf(agent, step, outcome, state, message);
    if (route && route.index !== null) {
      const written = message.next_agent.name;
      message.next_agent = { name: route.to, reason: routeReason(route) };
      // A free-text agent's next_agent was the orchestrator's own placeholder, not the model's.
      if (outcome.kind === 'answer' && agent?.protocol !== 'none' && written !== route.to)
        corrections.push(
          `next_agent.name: model wrote ${JSON.stringify(written)}, route ${route.index} set ${JSON.stringify(route.to)}`,
        );
    }
    // What privacy did for this step (README "Privacy and guardrails"): counts, triggered rules, flag notes.
    const privacy = active.privacy?.takeForCommit(step) ?? { piiRedacted: null, guardrails: null, complianceNotes: [] };
    if (privacy.complianceNotes.length > 0) {
      const notesSoFar = message.audit.compliance_notes;
      message.audit.compliance_notes = [notesSoFar, ...privacy.complianceNotes].filter((note) => note).join(' | ');
    }
    const halt = outcome.kind === 'halt' ? outcome.halt : null;
    if (halt) notes.push(`session state: ${halt}`);
    for (const voided of state.voided) {
      notes.push(
        `replaces audit entry ${voided.messageId} (sequence ${voided.sequence}), whose journal record a crash lost: the step ran again`,
      );
    }
    // The step's tool calls, refusals and approvals, and the evidence its message named (README "Give an agent tools").
    const stepKey = step.taskId ? `task:${step.taskId}` : String(state.lastSequence + 1);
    const tools = toolAuditLines(state.toolLoops.get(stepKey), state.approvals);
    // docs/audit-log.md: every compliance violation (message contract as well as tools) is also a {"kind","detail"} in [VIOLATIONS].
    if (violations.length > 0) tools.violations = [...violations.map(violationOf), ...(tools.violations ?? [])];
    if (outcome.kind === 'answer' && outcome.evidence) tools.evidence = outcome.evidence;
    const hasTools = Object.keys(tools).length > 0;
    // A fork's first message run anew names the outside calls it did not repeat (docs/run-control.md).
    const notRepeated =
      state.lineage?.not_repeated?.length && state.messages.every((earlier) => earlier.reused !== undefined)
        ? state.lineage.not_repeated
        : null;
    // The session's first entry records the request's attachments (docs/attachments.md).
    const attachments = state.messages.length === 0 ? (state.session.attachments?.files ?? []) : [];
    // A delegated child's first entry records what its parent handed over (docs/tools.md "Delegation").
    const handoff = state.messages.length === 0 ? state.session.delegation?.handoff : undefined;
    // A chat turn's first entry records the context the client sent, as the prompt holds it (docs/http-api.md "Chat").
    const chatContext = state.messages.length === 0 && state.session.chat ? chatContextLine(state.session.chat) : null;
    const record: MessageRecord = {
      v: JOURNAL_FORMAT,
      type: 'message',
      kind: outcome.kind === 'halt' ? 'limit' : step.kind,
      message,
      task_id: step.taskId,
      plan_message_id: step.planMessageId,
      loop_key: loopKey,
      governance_hash: snapshot.hash,
      corrections,
      violations,
      notes,
      raw_output: outcome.kind === 'fallback' ? outcome.rawOutput : null,
      pii_redacted: privacy.piiRedacted,
      guardrails: privacy.guardrails,
      final: outcome.kind === 'halt',
      halt,
      plan: outcome.kind === 'answer' ? outcome.plan : null,
      on_failure: failureRouteOf(agent, this.deps.config, state),
      ...(hasTools ? { tools } : {}),
      ...(notRepeated ? { not_repeated: notRepeated } : {}),
      ...(attachments.length > 0 ? { attachments: attachmentList(attachments) } : {}),
      ...(handoff ? { handoff } : {}),
      ...(chatContext ? { chat_context: chatContext } : {}),
      ...(route ? { route } : {}),
      ...(outcome.kind === 'answer' && outcome.reasoning ? { reasoning: reasoningDigest(outcome.reasoning) } : {}),
      ...(step.advice ? { steward_advice: step.advice.sha256 } : {}),
      ...(state.messages.length === 0 && state.session.request.limits ? { limits: state.session.request.limits } : {}),
    };
    // Journal record, then the audit entry (docs/audit-log.md): the store keeps that order, and the
    // order of calls, so the next commit need not wait for this one's sync.
    const written = active.stored.commitMessage(record, auditInputOf(record, state));
    applyRecord(state, record);
    const began = this.stepStartedAt(step);
    const durable = written.then(({ entryHash }) => {
      this.committed(active);
      this.deps.events?.emit('message', {
        sessionId: state.session.session_id,
        sequence: message.metadata.sequence_number,
        agent: message.agent.name,
        status: message.status.code,
        outputType: message.output?.content_type ?? null,
        messageId: message.message_id,
        entryHash,
        taskId: step.taskId ?? null,
      });
      this.deps.log?.debug?.('message committed', {
        session: state.session.session_id,
        agent: message.agent.name,
        sequence: message.metadata.sequence_number,
        status: message.status.code,
        ...(message.error.has_error ? { error: message.error.error_code } : {}),
        ...(began === undefined ? {} : { ms: Math.round(performance.now() - began) }),
      });
    });
    durable.catch((error: unknown) => {
      active.commitFailure ??= error;
    });
    const before = active.durable;
    active.durable = before ? Promise.all([before, durable]).then(() => undefined) : durable;
    // Awaited by whatever passes the message on; a failure nobody reaches is still not unhandled.
    active.durable.catch(() => undefined);
  }
}

/**
 * The route its agent's `routes` decide for a committed message (SPEC §24): chain steps only (a
 * plan task's next agent is the plan's), not a pause, not an end the orchestrator imposed.
 */
function routeOf(
  agent: AgentDefinition | null,
  step: PendingStep,
  outcome: StepOutcome,
  state: SessionState,
  message: SentientMessage,
): RouteDecision | null {
  if (!agent?.routes?.length || outcome.kind === 'halt' || step.kind === 'task' || message.status.code === 'pending')
    return null;
  return decideRoute(agent, expressionBindings(state, message, lastMessagesByAgent(state, message)));
}

/** `[REASONING]`: its length in Unicode code points and its SHA-256. */
function reasoningDigest(text: string): ReasoningDigest {
  return { chars: [...text].length, sha256: sha256Hex(text) };
}

/** The audit entry of a journaled message, the same at its commit and when recovery appends it again. */
export function auditInputOf(record: MessageRecord, state: SessionState): AuditEntryInput {
  const from = state.session.delegation;
  return {
    message: record.message,
    governanceHash: record.governance_hash,
    corrections: record.corrections,
    complianceViolations: record.violations,
    notes: record.notes,
    piiRedacted: record.pii_redacted ?? null,
    guardrails: record.guardrails ?? null,
    user: state.session.request.user ?? 'local',
    ...(record.tools ? { tools: record.tools } : {}),
    ...(from ? { delegation: { parentSessionId: from.parent_session_id, depth: from.depth } } : {}),
    ...(record.reused ? { forkedFrom: record.reused.entry_hash } : {}),
    ...(record.not_repeated ? { notRepeated: record.not_repeated } : {}),
    ...(record.attachments ? { attachments: record.attachments } : {}),
    ...(record.handoff ? { handoff: record.handoff } : {}),
    ...(record.chat_context ? { chatContext: record.chat_context } : {}),
    ...(record.route ? { route: record.route } : {}),
    ...(record.reasoning ? { reasoning: record.reasoning } : {}),
    ...(record.steward_advice ? { stewardAdvice: record.steward_advice } : {}),
    ...(record.limits ? { limits: record.limits } : {}),
  };
}

/**
 * Where a failed message of `agent` goes (session-state.ts routes it): the agent's `on_failure`,
 * else `intervene` when `limits.on_failure: intervene` says so for every agent. A delegated child
 * fails to its parent as before: its parent's steward decides for the tree.
 */
function failureRouteOf(agent: AgentDefinition | null, config: GovflowConfig, state: SessionState): string | null {
  const route = agent?.onFailure ?? (agent && config.limits.on_failure === INTERVENE ? INTERVENE : null);
  return route === INTERVENE && state.session.delegation ? null : route;
}
