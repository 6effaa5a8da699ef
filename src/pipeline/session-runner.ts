/**
 * Runs sessions: each step is call → parse → validate → repair → stamp → journal → audit → route,
 * with plans run as a DAG, limits enforced, pauses for people, and recovery from the journal.
 * The runner depends on interfaces only (provider, audit sink, governance source).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import { ProviderError, errorMessage } from '../errors.js';
import type { AgentDefinition } from '../governance/agent-definition.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import { executionalAgents } from '../governance/routing-graph.js';
import { parseModelOutput } from '../message/message-parser.js';
import { stampMessage, type StampContext } from '../message/message-stamping.js';
import { MessageValidator } from '../message/message-validator.js';
import { orchestratorFailureMessage, validationFallbackMessage, type OrchestratorFailure } from '../message/orchestrator-messages.js';
import type { Plan } from '../message/plan.js';
import type { SentientMessage } from '../message/sentient-message.js';
import { compactInTimeZone } from '../message/zoned-time.js';
import {
  JOURNAL_FORMAT,
  SessionJournal,
  type JournalRecord,
  type MessageRecord,
  type RequestInfo,
  type ExchangeRecord,
  type SessionRecord,
  type SessionStateName,
  type UsageFigures,
} from '../store/session-journal.js';
import { PromptStore } from '../store/prompt-store.js';
import { buildResult, writeResult } from './session-result.js';
import { callSignal } from './call-signal.js';
import { archiveRequestFile } from '../store/request-archive.js';
import { limitReached } from './session-limits.js';
import { applyRecord, emptyUsage, foldRecords, initialState, loopKeyOf, readyTasks, taskStep, type PendingStep, type SessionState } from './session-state.js';
import {
  ReplyRejectedError,
  SessionInterruptedError,
  type NewSessionRequest,
  type OperationalLog,
  type RunnerDependencies,
  type SessionOutcome,
} from './runner-contract.js';
import { buildRepairPrompt, buildSystemPrompt, buildUserPrompt } from './prompt-builder.js';
export * from './runner-contract.js';
import { DRY_RUN_NOTE } from '../llm/dry-run-provider.js';

const SILENT_LOG: OperationalLog = { info() {}, warn() {}, error() {} };

interface ActiveSession {
  journal: SessionJournal;
  state: SessionState;
  commitQueue: Promise<void>;
  /** A manifest rewrite is due at the end of this turn of the event loop. */
  manifestScheduled?: boolean;
}

export function generateSessionId(now: Date, timezone: string): string {
  return `sess-${compactInTimeZone(now, timezone, true)}-${randomBytes(4).toString('hex')}`;
}

export class SessionRunner {
  private readonly now: () => Date;
  private readonly log: OperationalLog;
  private readonly validators = new WeakMap<GovernanceSnapshot, MessageValidator>();
  private readonly prompts: PromptStore;
  /** Set by `drain()`: running steps finish, no new step starts. */
  private draining = false;
  /** When each step began, for the progress log. */
  private readonly stepStarts = new WeakMap<PendingStep, number>();

  constructor(private readonly deps: RunnerDependencies) {
    this.now = deps.now ?? (() => new Date());
    this.log = deps.log ?? SILENT_LOG;
    for (const folder of Object.values(deps.config.paths)) mkdirSync(folder, { recursive: true });
    this.prompts = new PromptStore(path.join(deps.config.paths.snapshots, 'prompts'), deps.config.daemon.fsync);
  }

  private get config(): GovflowConfig {
    return this.deps.config;
  }

  private get durable(): boolean {
    return this.config.daemon.fsync;
  }

  /**
   * Stops every session before its next step (graceful shutdown): steps already running finish
   * and are committed, then their sessions end with SessionInterruptedError and resume from the
   * journal at the next start.
   */
  drain(): void {
    this.draining = true;
  }

  /** True when a session with this id has a journal. */
  sessionExists(sessionId: string): boolean {
    return SessionJournal.exists(this.config.paths.sessions, sessionId);
  }

  /** Creates a session for a new request and runs it until it ends or pauses. `onSessionId` hears its id first. */
  async startSession(request: NewSessionRequest, signal: AbortSignal, onSessionId?: (sessionId: string) => void): Promise<SessionOutcome> {
    const snapshot = this.deps.governance();
    const createdAt = this.now();
    const sessionId = request.sessionId ?? generateSessionId(createdAt, this.config.timezone);
    // Announced before the journal exists, so an index written here never misses a session.
    onSessionId?.(sessionId);
    const info: RequestInfo = { text: request.text, user: request.user ?? null, metadata: request.metadata ?? null };
    const sessionRecord: SessionRecord = {
      v: JOURNAL_FORMAT,
      type: 'session',
      session_id: sessionId,
      request_id: request.requestId,
      request: info,
      source_file: request.sourceFile,
      claimed_path: request.claimedPath,
      created_at: createdAt.toISOString(),
      entry_agent: snapshot.entryAgent,
    };
    const journal = await SessionJournal.create(this.config.paths.sessions, sessionRecord, this.durable, this.deps.entries);
    const active: ActiveSession = { journal, state: initialState(sessionRecord), commitQueue: Promise.resolve() };
    this.log.info('session started', { session: sessionId, request: request.requestId, source: request.sourceFile });
    this.deps.events?.emit('session_started', { sessionId, requestId: request.requestId, user: request.user ?? null, entryAgent: snapshot.entryAgent });
    if (request.recoveredSince !== undefined) await this.voidLostMessages(active, await this.deps.auditedMessages(sessionId, request.recoveredSince));
    return this.run(active, signal);
  }

  /** Applies a person's reply to a paused session and runs it on. */
  async replyToSession(
    sessionId: string,
    reply: { text: string; sourceFile: string; claimedPath: string | null },
    signal: AbortSignal,
  ): Promise<SessionOutcome> {
    if (!/^[A-Za-z0-9._-]{1,128}$/.test(sessionId) || !this.sessionExists(sessionId)) {
      throw new ReplyRejectedError(`no session "${sessionId}" exists on this root; check the session_id in the pending result`);
    }
    const active = await this.openSession(sessionId);
    if (!active.state.paused) {
      await this.closeJournal(active);
      const where = active.state.final ? 'has already finished' : 'is not waiting for a reply';
      throw new ReplyRejectedError(`session "${sessionId}" ${where}; a reply only resumes a session whose result is pending`);
    }
    const record: JournalRecord = {
      v: JOURNAL_FORMAT,
      type: 'reply',
      reply: reply.text,
      source_file: reply.sourceFile,
      claimed_path: reply.claimedPath,
      at: this.now().toISOString(),
    };
    await active.journal.appendDurable(record);
    applyRecord(active.state, record);
    this.log.info('session resumed by reply', { session: sessionId, source: reply.sourceFile });
    return this.run(active, signal);
  }

  /**
   * Continues a session after a crash or restart: appends committed messages the audit log
   * misses, then runs on (or just rewrites the result of a finished or paused session).
   */
  async recoverSession(sessionId: string, signal: AbortSignal): Promise<SessionOutcome> {
    const active = await this.openSession(sessionId);
    const audited = await this.deps.auditedMessages(sessionId, active.state.session.created_at);
    await this.voidLostMessages(active, audited);
    for (const record of active.state.messages) {
      if (audited.has(record.message.message_id)) continue;
      await this.deps.audit.append({
        message: record.message,
        governanceHash: record.governance_hash,
        corrections: record.corrections,
        complianceViolations: record.violations,
        notes: record.notes,
        user: active.state.session.request.user ?? 'local',
      });
      this.log.warn('re-appended a journaled message missing from the audit log', { session: sessionId, message: record.message.message_id });
    }
    return this.run(active, signal);
  }

  /**
   * Voids the audit entries of this session whose messages the journal does not hold (the audit
   * log is synced at every message, the journal at the end, so power loss can leave the log
   * ahead). Their steps run again with new sequence numbers; the first new message names them.
   */
  private async voidLostMessages(active: ActiveSession, audited: Map<string, { sequence: number; agent: string }>): Promise<void> {
    const { state } = active;
    const known = new Set(state.messages.map((record) => record.message.message_id));
    for (const voided of state.voided) known.add(voided.messageId);
    const lost = [...audited].filter(([messageId]) => !known.has(messageId)).sort((a, b) => a[1].sequence - b[1].sequence);
    if (lost.length === 0) return;
    for (const [messageId, { sequence, agent }] of lost) {
      const record: JournalRecord = { v: JOURNAL_FORMAT, type: 'void', message_id: messageId, sequence, agent, at: this.now().toISOString() };
      active.journal.append(record);
      applyRecord(state, record);
      this.log.warn('voided an audit entry whose journal record a crash lost; its step runs again', { session: state.session.session_id, message: messageId, sequence });
    }
    await active.journal.sync();
  }

  private async openSession(sessionId: string): Promise<ActiveSession> {
    if (!/^[A-Za-z0-9._-]{1,128}$/.test(sessionId) || !this.sessionExists(sessionId)) {
      throw new Error(`no session "${sessionId}" under ${this.config.paths.sessions}`);
    }
    const { journal, records } = SessionJournal.open(this.config.paths.sessions, sessionId, this.durable);
    return { journal, state: foldRecords(records), commitQueue: Promise.resolve() };
  }

  private async run(active: ActiveSession, signal: AbortSignal): Promise<SessionOutcome> {
    try {
      const { state } = active;
      if (!state.finishedRecorded) this.writeManifest(active);
      while (!state.final && !state.paused && !state.finishedRecorded) {
        if (signal.aborted || this.draining) throw new SessionInterruptedError(`session ${state.session.session_id} interrupted by shutdown`);
        if (state.plan) await this.runPlan(active, signal);
        else if (state.cursor) await this.runStep(active, state.cursor, signal);
        else throw new Error(`session ${state.session.session_id} has no next step (corrupt journal?)`);
      }
      return await this.finish(active);
    } finally {
      await this.closeJournal(active);
    }
  }

  private async closeJournal(active: ActiveSession): Promise<void> {
    const manifestError = await active.journal.close();
    if (manifestError) this.log.warn('could not update the session manifest (a cache for govflow status)', { session: active.state.session.session_id, error: manifestError.message });
  }

  private async runPlan(active: ActiveSession, signal: AbortSignal): Promise<void> {
    const plan = active.state.plan!;
    const running = new Map<string, Promise<void>>();
    const fanOut = this.config.limits.max_fan_out;
    while (active.state.plan === plan && !active.state.final) {
      for (const task of this.draining ? [] : readyTasks(plan)) {
        if (running.size >= fanOut) break;
        if (running.has(task.id)) continue;
        // Start no more tasks than steps are left, so parallel tasks cannot overshoot max_steps
        // (a task started with no step left records the limit, as a chain step does).
        if (running.size > 0 && active.state.messages.length + running.size >= this.config.limits.max_steps) break;
        const promise = this.runStep(active, taskStep(plan, task), signal).finally(() => running.delete(task.id));
        running.set(task.id, promise);
      }
      if (running.size === 0) {
        if (this.draining) return;
        throw new Error(`plan ${plan.messageId} cannot make progress`);
      }
      try {
        await Promise.race(running.values());
      } catch (error) {
        // Drain the sibling tasks before the journal closes (shutdown interrupts all of them).
        await Promise.allSettled(running.values());
        throw error;
      }
    }
    await Promise.allSettled(running.values());
  }

  private validatorFor(snapshot: GovernanceSnapshot): MessageValidator {
    let validator = this.validators.get(snapshot);
    if (!validator) {
      validator = new MessageValidator(snapshot.messageSchema, executionalAgents(snapshot.agents));
      this.validators.set(snapshot, validator);
    }
    return validator;
  }

  private async runStep(active: ActiveSession, step: PendingStep, signal: AbortSignal): Promise<void> {
    const { state } = active;
    this.stepStarts.set(step, performance.now());
    const snapshot = this.deps.governance();
    const loopKey = loopKeyOf(step.agent, step.input);
    const agent = snapshot.agents.get(step.agent);
    const fallbackAgent = { name: step.agent, type: 'operational' } as const;
    if (!agent) {
      await this.commit(active, step, snapshot, loopKey, null, {
        failure: { code: 'DEPENDENCY_ERROR', message: `agent "${step.agent}" is not defined in the current governance (governance/agents/${step.agent}.md); restore it or fix the routing`, recoverable: true, notes: 'Orchestrator: unknown agent.' },
        final: true,
        agentIdentity: fallbackAgent,
      });
      return;
    }
    const limit = limitReached(this.config.limits, state, step.agent, loopKey, this.now());
    if (limit) {
      await this.commit(active, step, snapshot, loopKey, agent, { failure: limit.failure, final: true, halt: limit.halt });
      return;
    }

    const prompt = buildSystemPrompt(snapshot, agent);
    this.prompts.ensure(prompt.systemSha256, prompt.system);
    const userPrompt = buildUserPrompt(step.input);
    const maxRetries = agent.maxRetries ?? this.config.limits.max_retries;
    const history: Array<{ role: 'user' | 'assistant'; content: string }> = [];
    let problems: string[] = [];
    let lastRaw: string | null = null;
    const stepLabel = step.taskId ? `task ${step.taskId}` : `step ${state.lastSequence + 1}`;
    this.log.info('agent step', { session: state.session.session_id, agent: agent.name, step: stepLabel });
    const events = this.deps.events;
    const sessionId = state.session.session_id;
    events?.emit('step_started', { sessionId, agent: agent.name, sequence: state.lastSequence + 1, taskId: step.taskId ?? null });

    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      if (attempt > 0) {
        const again = limitReached(this.config.limits, state, step.agent, '', this.now());
        if (again && again.failure.code !== 'LOOP_DETECTED') {
          await this.commit(active, step, snapshot, loopKey, agent, { failure: again.failure, final: true, halt: again.halt });
          return;
        }
      }
      const started = performance.now();
      const callTimeout = agent.timeoutMs ?? this.config.llm.timeout_ms;
      const deadlineMs = Math.max(1, Date.parse(state.runStartedAt) + this.config.limits.session_timeout_ms - this.now().getTime());
      const call = callSignal(signal, callTimeout, deadlineMs);
      const model = agent.model ?? this.config.provider.model;
      const prompts = attempt === 0 ? userPrompt : history[history.length - 1].content;
      const earlier = attempt === 0 ? [] : history.slice(0, -1);
      const recordExchange = (outcome: { model: string; response: string | null; error: string | null; usage: UsageFigures }) => {
        const record: ExchangeRecord = {
          v: JOURNAL_FORMAT,
          type: 'exchange',
          agent: agent.name,
          step: step.taskId ? `task:${step.taskId}` : String(state.lastSequence + 1),
          attempt,
          provider: this.deps.provider.kind,
          temperature: agent.temperature ?? null,
          max_tokens: agent.maxTokens ?? null,
          system_sha256: prompt.systemSha256,
          prompt: prompts,
          history: earlier,
          ...outcome,
          duration_ms: Math.round(performance.now() - started),
          at: this.now().toISOString(),
        };
        // Not synced on its own: the next message record's fdatasync makes it durable too.
        active.journal.append(record);
        applyRecord(state, record);
      };
      let text: string;
      events?.emit('model_call_started', { sessionId, agent: agent.name, model, provider: this.deps.provider.kind, attempt });
      const callFinished = (figures: { model: string; inputTokens: number; outputTokens: number; error: string | null }) =>
        events?.emit('model_call_finished', { sessionId, agent: agent.name, provider: this.deps.provider.kind, attempt, ms: Math.round(performance.now() - started), ...figures });
      try {
        const response = await this.deps.provider.generate({
          agent: agent.name,
          system: prompt.system,
          prompt: prompts,
          history: earlier,
          model,
          temperature: agent.temperature,
          maxTokens: agent.maxTokens,
          jsonSchema: snapshot.messageSchema,
          expectation: {
            contentType: agent.contentType,
            next: agent.next,
            agentType: agent.type,
            plan: agent.plan,
            executionalAgents: executionalAgents(snapshot.agents),
            governanceFiles: prompt.files,
            outputSchema: agent.outputSchema,
          },
          signal: call.signal,
          ...(events?.has('content_chunk') ? { onChunk: (chunk: string) => events.emit('content_chunk', { sessionId, agent: agent.name, chunk }) } : {}),
        }).finally(() => call.dispose());
        text = response.text;
        const usage = response.usage;
        callFinished({ model: response.model, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, error: null });
        recordExchange({
          model: response.model,
          response: text,
          error: null,
          usage: {
            input_tokens: usage.inputTokens,
            output_tokens: usage.outputTokens,
            cached_input_tokens: usage.cachedInputTokens,
            cost_usd: this.deps.costUsd(response.model, usage),
          },
        });
      } catch (error) {
        if (signal.aborted) throw new SessionInterruptedError(`session ${state.session.session_id} interrupted by shutdown`);
        const timedOut = (error instanceof ProviderError && error.timedOut) || (call.signal.aborted && !signal.aborted);
        recordExchange({ model, response: null, error: errorMessage(error), usage: emptyUsage() });
        callFinished({ model, inputTokens: 0, outputTokens: 0, error: errorMessage(error) });
        // The deadline timer may fire a millisecond before the clock says the deadline passed.
        const pastDeadline = call.deadlinePassed || this.now().getTime() - Date.parse(state.runStartedAt) >= this.config.limits.session_timeout_ms;
        if (pastDeadline) {
          await this.commit(active, step, snapshot, loopKey, agent, {
            failure: { code: 'TIMEOUT', message: `session stopped: the session deadline (limits.session_timeout_ms = ${this.config.limits.session_timeout_ms} ms) passed while ${agent.name} was running`, recoverable: true, notes: 'Orchestrator limit: session deadline.' },
            final: true,
            halt: 'HALTED_TIME',
          });
          return;
        }
        const code = timedOut ? 'TIMEOUT' : 'DEPENDENCY_ERROR';
        const detail = timedOut && !(error instanceof ProviderError) ? `the call took longer than timeout_ms = ${callTimeout} ms` : errorMessage(error);
        await this.commit(active, step, snapshot, loopKey, agent, {
          failure: { code, message: `${agent.name}: the model call failed: ${detail}`, recoverable: !(error instanceof ProviderError) || error.retryable || error.timedOut, notes: `Orchestrator: provider ${this.deps.provider.kind} failed (${code}).` },
          final: false,
          retryCount: attempt,
        });
        return;
      }

      lastRaw = text;
      const parsed = parseModelOutput(text);
      if (parsed.ok) {
        const provisional = stampMessage(parsed.value, this.stampContext(state, step, agent, 0, attempt));
        const outcome = this.validatorFor(snapshot).validate(provisional.message, agent);
        if (outcome.ok) {
          await this.commit(active, step, snapshot, loopKey, agent, { candidate: parsed.value, plan: outcome.plan ?? null, retryCount: attempt, prompt: prompt.files });
          return;
        }
        problems = outcome.problems;
      } else {
        problems = [parsed.error];
      }
      this.log.warn('invalid agent output', { session: state.session.session_id, agent: agent.name, attempt, problems });
      history.push({ role: 'user', content: prompts }, { role: 'assistant', content: text }, { role: 'user', content: buildRepairPrompt(problems) });
    }
    await this.commit(active, step, snapshot, loopKey, agent, {
      fallbackProblems: problems,
      retryCount: maxRetries,
      rawOutput: lastRaw,
    });
  }

  private stampContext(state: SessionState, step: PendingStep, agent: { name: string; type: string }, sequence: number, retryCount: number): StampContext {
    return {
      messageId: randomUUID(),
      executedAt: this.now(),
      timezone: this.config.timezone,
      agent: { name: agent.name, type: agent.type },
      input: step.input,
      sessionId: state.session.session_id,
      requestId: state.session.request_id,
      sequenceNumber: Math.max(1, sequence),
      parentMessageId: step.parentMessageId,
      retryCount,
    };
  }

  /**
   * Commits one message: sequence number, stamp, journal (page cache), audit (durable), state.
   * Serialized per session so sequence numbers follow commit order with no gap.
   */
  private commit(
    active: ActiveSession,
    step: PendingStep,
    snapshot: GovernanceSnapshot,
    loopKey: string,
    agent: AgentDefinition | null,
    what: {
      candidate?: Record<string, unknown>;
      plan?: Plan | null;
      prompt?: string[];
      failure?: OrchestratorFailure;
      fallbackProblems?: string[];
      rawOutput?: string | null;
      final?: boolean;
      halt?: SessionStateName;
      retryCount?: number;
      agentIdentity?: { name: string; type: string };
    },
  ): Promise<void> {
    const work = active.commitQueue.then(async () => {
      const { state } = active;
      if (state.final) return; // another task already ended the session
      const identity = what.agentIdentity ?? agent!;
      const context = this.stampContext(state, step, identity, state.lastSequence + 1, what.retryCount ?? 0);
      let message: SentientMessage;
      let corrections: string[] = [];
      if (what.candidate) {
        ({ message, corrections } = stampMessage(what.candidate, context));
      } else if (what.fallbackProblems) {
        message = validationFallbackMessage(context, what.fallbackProblems, (what.retryCount ?? 0) + 1);
      } else {
        message = orchestratorFailureMessage(context, what.failure!);
      }
      const violations = what.candidate ? this.deps.complianceViolations(message, what.prompt ?? []) : [];
      const notes = what.candidate && this.deps.provider.synthetic ? [DRY_RUN_NOTE] : [];
      if (what.halt) notes.push(`session state: ${what.halt}`);
      for (const voided of state.voided) {
        notes.push(`replaces audit entry ${voided.messageId} (sequence ${voided.sequence}), whose journal record a crash lost: the step ran again`);
      }
      const record: MessageRecord = {
        v: JOURNAL_FORMAT,
        type: 'message',
        kind: what.final ? 'limit' : step.kind,
        message,
        task_id: step.taskId,
        plan_message_id: step.planMessageId,
        loop_key: loopKey,
        governance_hash: snapshot.hash,
        corrections,
        violations,
        notes,
        raw_output: what.fallbackProblems ? (what.rawOutput ?? null) : null,
        final: what.final ?? false,
        plan: what.plan ?? null,
        on_failure: agent?.onFailure ?? null,
      };
      // One durable write per step: the audit entry (SPEC §6). The journal record goes to the page
      // cache first, so a killed process never leaves an audited message the journal lacks; the
      // journal is synced before the session's result is written. After power loss the audit log
      // may be ahead of the journal: recovery voids those entries and runs their steps again.
      active.journal.append(record);
      const appended = await this.deps.audit.append({ message, governanceHash: snapshot.hash, corrections, complianceViolations: violations, notes, user: state.session.request.user ?? 'local' });
      applyRecord(state, record);
      this.deps.events?.emit('message', {
        sessionId: state.session.session_id,
        sequence: message.metadata.sequence_number,
        agent: message.agent.name,
        status: message.status.code,
        outputType: message.output?.content_type ?? null,
        messageId: message.message_id,
        entryHash: (appended as { hash?: string } | undefined)?.hash ?? null,
      });
      this.scheduleManifest(active);
      const began = this.stepStarts.get(step);
      this.log.info('message committed', {
        session: state.session.session_id,
        agent: message.agent.name,
        sequence: message.metadata.sequence_number,
        status: message.status.code,
        ...(message.error.has_error ? { error: message.error.error_code } : {}),
        ...(began === undefined ? {} : { ms: Math.round(performance.now() - began) }),
      });
    });
    active.commitQueue = work.catch(() => undefined);
    return work;
  }

  private archiveDay(): string {
    return compactInTimeZone(this.now(), this.config.timezone);
  }

  private stateName(state: SessionState): SessionStateName {
    if (state.paused) return 'PAUSED';
    if (!state.final) return 'RUNNING';
    const notes = state.final.notes.find((note) => note.startsWith('session state: '));
    if (notes) return notes.slice('session state: '.length) as SessionStateName;
    const code = state.final.message.status.code;
    return code === 'success' ? 'SUCCESS' : code === 'partial' ? 'PARTIAL' : 'FAILED';
  }

  /**
   * Rewrites the manifest once the current turn of the event loop is over: it is bookkeeping for
   * `govflow status`, and sessions stepping together should reach their next model call first.
   */
  private scheduleManifest(active: ActiveSession): void {
    if (active.manifestScheduled) return;
    active.manifestScheduled = true;
    setImmediate(() => {
      active.manifestScheduled = false;
      this.writeManifest(active);
    });
  }

  private writeManifest(active: ActiveSession): void {
    const { state } = active;
    const last = state.messages[state.messages.length - 1];
    const now = this.now();
    active.journal.writeManifest({
      v: JOURNAL_FORMAT,
      session_id: state.session.session_id,
      request_id: state.session.request_id,
      state: this.stateName(state),
      current_agent: state.cursor?.agent ?? (state.plan ? `${state.plan.agent} (plan)` : (state.paused?.agent ?? null)),
      source_file: state.session.source_file,
      created_at: state.session.created_at,
      updated_at: now.toISOString(),
      messages: state.messages.length,
      usage: { ...state.usage },
      elapsed_ms: now.getTime() - Date.parse(state.session.created_at),
      model_time_ms: state.modelTimeMs,
      governance_hash: last?.governance_hash ?? null,
      question: state.paused?.question ?? null,
    });
  }

  /**
   * Writes the result, archives the request files and records the end. Idempotent, so recovery
   * may run it again; that is why neither the `finished` record nor the archive move is synced.
   */
  private async finish(active: ActiveSession): Promise<SessionOutcome> {
    const { state, journal } = active;
    const finishedAt = state.finishedAt ?? this.now().toISOString();
    const result = buildResult(state, state.paused ? (state.messages.at(-1)?.message.timestamp.executed_at ?? finishedAt) : finishedAt, this.config.timezone);
    // The journal is durable before the request file is archived: until then recovery finds the
    // claimed file and writes the result again from the journal.
    await Promise.all([journal.sync(), writeResult(this.config.paths.outbox, result, state, this.durable, this.deps.entries)]);
    for (const reply of state.replyFiles) archiveRequestFile(this.config.paths.archive, this.archiveDay(), reply.claimedPath, reply.sourceFile);
    if (!state.paused) {
      if (!state.finishedRecorded) {
        const record: JournalRecord = { v: JOURNAL_FORMAT, type: 'finished', status: result.status, at: finishedAt };
        journal.append(record);
        applyRecord(state, record);
      }
      if (state.session.claimed_path) archiveRequestFile(this.config.paths.archive, this.archiveDay(), state.session.claimed_path, state.session.source_file);
    }
    this.writeManifest(active);
    const sessionId = state.session.session_id;
    if (state.paused) this.deps.events?.emit('pending', { sessionId, question: state.paused.question ?? '', awaiting: 'reply' });
    else this.deps.events?.emit('session_finished', { sessionId, requestId: state.session.request_id, status: result.status });
    this.log.info(state.paused ? 'session paused for a reply' : 'session finished', {
      session: state.session.session_id,
      request: state.session.request_id,
      status: result.status,
      messages: result.messages,
    });
    return { sessionId: state.session.session_id, requestId: state.session.request_id, status: result.status, result };
  }
}
