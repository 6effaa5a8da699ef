/**
 * Runs sessions: each step is call → parse → validate → repair → stamp → journal → audit → route,
 * with plans run as a DAG, limits enforced, pauses for people, and recovery from the journal.
 * The runner depends on interfaces only (provider, session store, governance source).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import { errorMessage, GovflowError } from '../errors.js';
import { compactInTimeZone } from '../message/zoned-time.js';
import type { ApprovalRecord } from '../store/tool-journal-records.js';
import {
  JOURNAL_FORMAT,
  type FinishedRecord,
  type ReplyRecord,
  type RequestInfo,
  type SessionRecord,
  type SessionStateName,
} from '../store/session-journal.js';
import { MessageCommitter, type ActiveSession, type StepOutcome } from './message-commit.js';
import { crashGiveUp, crashRetriesUsedUp, isCrash, recordCrash } from './crash-retries.js';
import { runPlan } from './plan-scheduler.js';
import { isSessionId, type ApprovalDecision } from '../intake/request-file.js';
import { ownerUidOf, userNameOf } from '../intake/file-owner.js';
import {
  ReplyRejectedError,
  SessionInterruptedError,
  type NewSessionRequest,
  type RunnerDependencies,
  type SessionOutcome,
} from './runner-contract.js';
import { buildResult, resultFiles } from './session-result.js';
import { limitReached } from './session-limits.js';
import { appendMissingAuditEntries, voidLostMessages } from './session-recovery.js';
import {
  applyRecord,
  foldRecords,
  initialState,
  loopKeyOf,
  pauseKeyOf,
  type PendingStep,
  type SessionState,
} from './session-state.js';
import { StepAttempts } from './step-attempts.js';
import { SessionPrivacy } from '../privacy/session-privacy.js';
import { Delegations } from './delegation.js';
import { ensureAttachments, receiveAttachments } from './session-attachments.js';

export function generateSessionId(now: Date, timezone: string): string {
  return `sess-${compactInTimeZone(now, timezone, true)}-${randomBytes(4).toString('hex')}`;
}

export class SessionRunner {
  private readonly now: () => Date;
  private readonly attempts: StepAttempts;
  private readonly committer: MessageCommitter;
  /** Set by `drain()`: running steps finish, no new step starts. */
  private draining = false;
  /** When each step began, for the progress log. */
  private readonly stepStarts = new WeakMap<PendingStep, number>();

  constructor(private readonly deps: RunnerDependencies) {
    this.now = deps.now ?? (() => new Date());
    for (const folder of Object.values(deps.config.paths)) mkdirSync(folder, { recursive: true });
    this.attempts = new StepAttempts(deps, this.now, new Delegations(deps, () => this, this.now));
    this.committer = new MessageCommitter(
      deps,
      this.now,
      (active) => this.scheduleManifest(active),
      (step) => this.stepStarts.get(step),
    );
  }

  private get config(): GovflowConfig {
    return this.deps.config;
  }

  /** Graceful shutdown: running steps finish and commit, then their sessions stop until the next start. */
  drain(): void {
    this.draining = true;
  }

  /** True when a session with this id has a journal. */
  sessionExists(sessionId: string): boolean {
    return this.deps.store.exists(sessionId);
  }

  /** Creates a session for a new request and runs it until it ends or pauses. `onSessionId` hears its id first. */
  async startSession(
    request: NewSessionRequest,
    signal: AbortSignal,
    onSessionId?: (sessionId: string) => void,
  ): Promise<SessionOutcome> {
    const createdAt = this.now();
    const sessionId = request.sessionId ?? generateSessionId(createdAt, this.config.timezone);
    const snapshot = this.deps.governance(sessionId);
    // Announced before the journal exists, so an index written here never misses a session.
    onSessionId?.(sessionId);
    // PII leaves the request before anything is written (README "Privacy and guardrails"); originals go to the vault.
    const privacy = SessionPrivacy.forNewSession(this.config, sessionId);
    const info: RequestInfo = {
      text: privacy.redactUserText(request.text),
      user: request.user ?? null,
      metadata: request.metadata ? privacy.redactUserValue(request.metadata) : null,
    };
    // Into the workspace before the journal names them, so every session that exists has them (docs/attachments.md).
    const attachments =
      request.attachments && request.attachments.files.length > 0
        ? await receiveAttachments(this.config, this.deps.store, sessionId, request.attachments, privacy, signal)
        : null;
    const sessionRecord: SessionRecord = {
      v: JOURNAL_FORMAT,
      type: 'session',
      session_id: sessionId,
      request_id: request.requestId,
      request: info,
      source_file: request.sourceFile,
      claimed_path: request.claimedPath,
      created_at: createdAt.toISOString(),
      entry_agent: request.entryAgent ?? snapshot.entryAgent,
      ...(request.delegation ? { delegation: request.delegation } : {}),
      ...(attachments ? { attachments } : {}),
    };
    const stored = await this.deps.store.create(sessionRecord);
    const active: ActiveSession = {
      stored,
      state: initialState(sessionRecord),
      commitQueue: Promise.resolve(),
      privacy,
    };
    privacy.folderCreated();
    // A request folder's request file is redacted in place; its attachments stay as delivered (evidence).
    const requestFile = request.attachments?.requestFile;
    if (request.claimedPath)
      privacy.redactFile(requestFile ? path.join(request.claimedPath, requestFile) : request.claimedPath);
    this.deps.log?.info('session started', {
      session: sessionId,
      request: request.requestId,
      source: request.sourceFile,
    });
    this.deps.events?.emit('session_started', {
      sessionId,
      requestId: request.requestId,
      user: request.user ?? null,
      entryAgent: snapshot.entryAgent,
    });
    if (request.recoveredSince !== undefined)
      await voidLostMessages(
        active,
        await this.deps.store.auditedMessages(sessionId, request.recoveredSince),
        this.now(),
        this.deps.log,
      );
    return this.run(active, signal);
  }

  /** Applies a person's reply to a paused session and runs it on. */
  async replyToSession(
    sessionId: string,
    reply: { text: string; sourceFile: string; claimedPath: string | null; approval?: ApprovalDecision },
    signal: AbortSignal,
  ): Promise<SessionOutcome> {
    if (!isSessionId(sessionId) || !this.sessionExists(sessionId)) {
      throw new ReplyRejectedError(
        `no session "${sessionId}" exists on this root; check the session_id in the pending result`,
        { sessionId },
      );
    }
    const active = await this.openSession(sessionId);
    const reject = async (message: string): Promise<never> => {
      await this.closeJournal(active);
      throw new ReplyRejectedError(message, { sessionId });
    };
    const paused = active.state.paused;
    if (!paused) {
      return reject(
        `session "${sessionId}" ${active.state.final ? 'has already finished' : 'is not waiting for a reply'}; a reply only resumes a session whose result is pending`,
      );
    }
    if ((paused.awaiting === 'approval') !== (reply.approval !== undefined)) {
      return reject(
        paused.awaiting === 'approval'
          ? `session "${sessionId}" waits for an approval of ${paused.tool ?? 'a tool call'}: reply with {"session_id": "${sessionId}", "approve": true|false, "reason"?: "...", "user"?: "..."}`
          : `session "${sessionId}" waits for an answer to its question, not for an approval: reply with {"session_id": "${sessionId}", "reply": "..."}`,
      );
    }
    if (reply.approval && paused.callId) {
      // Bound to the exact call (docs/results.md): a decision naming another call or other arguments is refused, and the call keeps waiting.
      const argsSha256 = paused.argsSha256 ?? '';
      const refusal =
        reply.approval.callId !== null && reply.approval.callId !== paused.callId
          ? `the approval names call ${reply.approval.callId}, but session "${sessionId}" waits for call ${paused.callId} (${paused.tool ?? 'a tool'}): the decision was not applied`
          : reply.approval.argsSha256 !== null && reply.approval.argsSha256 !== argsSha256
            ? `the approval names args_sha256 ${reply.approval.argsSha256}, but the waiting call ${paused.callId} (${paused.tool ?? 'a tool'}) has arguments hashing to ${argsSha256}: they changed, or another call was meant; the decision was not applied`
            : null;
      if (refusal !== null) return reject(refusal);
      const decision: ApprovalRecord = {
        v: JOURNAL_FORMAT,
        type: 'approval',
        call_id: paused.callId,
        tool: paused.tool ?? '',
        approve: reply.approval.approve,
        reason: reply.approval.reason,
        ...decidedBy(reply.approval, reply.claimedPath),
        args_sha256: argsSha256,
        source_file: reply.sourceFile,
        claimed_path: reply.claimedPath,
        at: this.now().toISOString(),
      };
      await active.stored.recordApproval(decision);
      applyRecord(active.state, decision);
      this.deps.log?.info(reply.approval.approve ? 'tool call approved' : 'tool call denied', {
        session: sessionId,
        tool: paused.tool,
        user: decision.user,
      });
      return this.run(active, signal);
    }
    const record: ReplyRecord = {
      v: JOURNAL_FORMAT,
      type: 'reply',
      reply: active.privacy ? active.privacy.redactUserText(reply.text) : reply.text,
      source_file: reply.sourceFile,
      claimed_path: reply.claimedPath,
      at: this.now().toISOString(),
    };
    await active.stored.recordReply(record);
    if (reply.claimedPath) active.privacy?.redactFile(reply.claimedPath);
    applyRecord(active.state, record);
    this.deps.log?.info('session resumed by reply', { session: sessionId, source: reply.sourceFile });
    return this.run(active, signal);
  }

  /** Continues a session after a crash or restart, mending its audit log first (session-recovery.ts). */
  async recoverSession(sessionId: string, signal: AbortSignal): Promise<SessionOutcome> {
    const active = await this.openSession(sessionId);
    const audited = await this.deps.store.auditedMessages(
      sessionId,
      active.state.session.created_at,
      active.state.session.audit_from ?? null,
    );
    await voidLostMessages(active, audited, this.now(), this.deps.log);
    await appendMissingAuditEntries(active, audited, this.deps.log);
    return this.run(active, signal);
  }

  private async openSession(sessionId: string): Promise<ActiveSession> {
    if (!isSessionId(sessionId) || !this.sessionExists(sessionId)) {
      throw new GovflowError('internal', `no session "${sessionId}" under ${this.config.paths.sessions}`);
    }
    const { session, records } = await this.deps.store.open(sessionId);
    return {
      stored: session,
      state: foldRecords(records),
      commitQueue: Promise.resolve(),
      privacy: SessionPrivacy.forSession(this.config, sessionId),
    };
  }

  private async run(active: ActiveSession, signal: AbortSignal): Promise<SessionOutcome> {
    const maxCrashRetries = this.config.limits.max_crash_retries;
    try {
      const { state } = active;
      if (state.finishedAt === null) this.writeManifest(active);
      if (!state.final && state.finishedAt === null)
        await ensureAttachments(this.config, this.deps.store, state.session, signal);
      if (crashRetriesUsedUp(state, maxCrashRetries)) await this.giveUpAfterCrashes(active);
      while (!state.final && !state.paused && state.finishedAt === null) {
        if (signal.aborted || this.draining)
          throw new SessionInterruptedError(`session ${state.session.session_id} interrupted by shutdown`, {
            sessionId: state.session.session_id,
          });
        if (state.plan)
          await runPlan(
            active,
            this.config.limits,
            (step) => this.runStep(active, step, signal),
            () => this.draining,
          );
        else if (state.cursor) await this.runStep(active, state.cursor, signal);
        else
          throw new GovflowError('internal', `session ${state.session.session_id} has no next step (corrupt journal?)`);
      }
      return await this.finish(active);
    } catch (error) {
      if (!isCrash(error, signal, this.draining)) throw error;
      await recordCrash(active, error, this.now(), maxCrashRetries, this.deps.log);
      // Giving up crashed too (or the session had ended and its result cannot be written): stop here.
      if (active.state.crashes > maxCrashRetries + 1 || active.state.final) throw error;
    } finally {
      await this.closeJournal(active);
    }
    // Run again from the journal, exactly as a restart would; past the limit this ends it failed.
    return this.recoverSession(active.state.session.session_id, signal);
  }

  /** Commits the PROCESSING_ERROR message that ends a session whose crash retries are used up. */
  private async giveUpAfterCrashes(active: ActiveSession): Promise<void> {
    const giveUp = crashGiveUp(active.state, this.config.limits.max_crash_retries);
    if (!giveUp) return;
    const snapshot = this.deps.governance(active.state.session.session_id);
    const agent = snapshot.agents.get(giveUp.step.agent) ?? null;
    await this.committer.commit(
      active,
      giveUp.step,
      snapshot,
      loopKeyOf(giveUp.step.agent, giveUp.step.input),
      agent,
      giveUp.outcome,
    );
  }

  private async closeJournal(active: ActiveSession): Promise<void> {
    const manifestError = await active.stored.close();
    if (manifestError)
      this.deps.log?.warn('could not update the session manifest (a cache for govflow status)', {
        session: active.state.session.session_id,
        error: manifestError.message,
      });
  }

  private async runStep(active: ActiveSession, step: PendingStep, signal: AbortSignal): Promise<void> {
    const { state } = active;
    this.stepStarts.set(step, performance.now());
    const snapshot = this.deps.governance(state.session.session_id);
    const loopKey = loopKeyOf(step.agent, step.input);
    const agent = snapshot.agents.get(step.agent) ?? null;
    let outcome: StepOutcome;
    if (!agent) {
      outcome = {
        kind: 'halt',
        failure: {
          code: 'DEPENDENCY_ERROR',
          message: `agent "${step.agent}" is not defined in the current governance (governance/agents/${step.agent}.md); restore it or fix the routing`,
          recoverable: true,
          notes: 'Orchestrator: unknown agent.',
        },
        halt: null,
      };
    } else {
      const attempted =
        limitReached(this.config.limits, state, step.agent, loopKey, this.now()) ??
        (await this.attempts.run(active, step, snapshot, agent, signal));
      // A tool call waits for approval: nothing to commit, the session is paused (README "Give an agent tools").
      if (attempted.kind === 'paused') return;
      outcome = attempted;
    }
    await this.committer.commit(active, step, snapshot, loopKey, agent, outcome);
  }

  private stateName(state: SessionState): SessionStateName {
    if (state.paused) return 'PAUSED';
    if (!state.final) return 'RUNNING';
    if (state.final.halt) return state.final.halt;
    // Records written before the halt field existed carry the state only in their notes.
    const note = state.final.notes.find((line) => line.startsWith('session state: '));
    if (note) return note.slice('session state: '.length) as SessionStateName;
    const code = state.final.message.status.code;
    return code === 'success' ? 'SUCCESS' : code === 'partial' ? 'PARTIAL' : 'FAILED';
  }

  /** Rewrites the manifest after this turn of the event loop: sessions stepping together reach their model calls first. */
  private scheduleManifest(active: ActiveSession): void {
    if (active.manifestScheduled) return;
    active.manifestScheduled = true;
    setImmediate(() => {
      active.manifestScheduled = false;
      // Outside the session's own try: a failure here must not escape as an uncaught exception.
      try {
        this.writeManifest(active);
      } catch (error) {
        this.deps.log?.warn('could not update the session manifest (a cache for govflow status)', {
          session: active.state.session.session_id,
          error: errorMessage(error),
        });
      }
    });
  }

  private writeManifest(active: ActiveSession): void {
    const { state } = active;
    const last = state.messages[state.messages.length - 1];
    const now = this.now();
    active.stored.writeManifest({
      v: JOURNAL_FORMAT,
      session_id: state.session.session_id,
      request_id: state.session.request_id,
      state: this.stateName(state),
      current_agent: state.cursor?.agent ?? (state.plan ? `${state.plan.agent} (plan)` : (state.paused?.agent ?? null)),
      last_agent: last?.message.agent.name ?? null,
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

  /** Writes the result, records the end, reports the request files done. Idempotent (recovery may run it again), so `finished` is not synced. */
  private async finish(active: ActiveSession): Promise<SessionOutcome> {
    const { state, stored } = active;
    const finishedAt = state.finishedAt ?? this.now().toISOString();
    const built = buildResult(
      state,
      state.paused ? (state.messages.at(-1)?.message.timestamp.executed_at ?? finishedAt) : finishedAt,
      this.config.timezone,
    );
    // With pii.restore_in_result the outbox result, and nothing else, carries the originals.
    const result = active.privacy?.restoresResult ? active.privacy.restore(built) : built;
    // Webhooks (docs/webhooks.md) are queued durably first and sent once the end is durable: a
    // crash in between sends them after the restart; an end recorded before is not told again.
    const release =
      state.paused || state.finishedAt === null ? await this.notify(state, result.status, finishedAt) : null;
    // Durable before a request file is archived: until then recovery writes the result again.
    if (state.paused) {
      await stored.pause(resultFiles(result, state, built));
    } else {
      const end: FinishedRecord | null =
        state.finishedAt !== null
          ? null
          : { v: JOURNAL_FORMAT, type: 'finished', status: result.status, at: finishedAt };
      await stored.finish(resultFiles(result, state, built), end);
      if (end) applyRecord(state, end);
    }
    release?.();
    // The request files are the intake's to archive (request-archive.ts): the runner reports them.
    const doneFiles = [...state.replyFiles];
    if (!state.paused && state.session.claimed_path)
      doneFiles.push({ claimedPath: state.session.claimed_path, sourceFile: state.session.source_file });
    if (doneFiles.length > 0)
      this.deps.events?.emit('request_files_done', { sessionId: state.session.session_id, files: doneFiles });
    this.writeManifest(active);
    const sessionId = state.session.session_id;
    if (state.paused)
      this.deps.events?.emit('pending', {
        sessionId,
        question: state.paused.question ?? '',
        awaiting: state.paused.awaiting ?? 'reply',
        pause: pauseKeyOf(state.paused),
        ordinal: state.pausesSinceMessage,
      });
    else
      this.deps.events?.emit('session_finished', {
        sessionId,
        requestId: state.session.request_id,
        status: result.status,
      });
    this.deps.log?.info(state.paused ? 'session paused for a reply' : 'session finished', {
      session: state.session.session_id,
      request: state.session.request_id,
      status: result.status,
      messages: result.messages,
    });
    return { sessionId: state.session.session_id, requestId: state.session.request_id, status: result.status, result };
  }
  /** Queues the webhook events of this end or pause (delegated children are their parent's business); never throws. */
  private async notify(state: SessionState, status: string, at: string): Promise<(() => void) | null> {
    if (!this.deps.notices || state.session.delegation) return null;
    try {
      return await this.deps.notices({
        sessionId: state.session.session_id,
        requestId: state.session.request_id,
        user: state.session.request.user ?? 'local',
        status,
        at: state.paused ? this.now().toISOString() : at,
        ...(state.paused
          ? { pause: { key: pauseKeyOf(state.paused), awaiting: state.paused.awaiting ?? 'reply' } }
          : {}),
      });
    } catch (error) {
      this.deps.log?.warn('could not queue the webhook events of a session', {
        session: state.session.session_id,
        error: errorMessage(error),
      });
      return null;
    }
  }
}

/**
 * Who decided an approval (docs/results.md): over HTTP the token's user (honoured only in a file the
 * daemon's own OS user owns); else the reply file's owner, or whoever runs the reply from stdin.
 */
function decidedBy(
  approval: ApprovalDecision,
  claimedPath: string | null,
): { user: string; claimed_user: string | null } {
  const uid = claimedPath === null ? (process.getuid?.() ?? null) : ownerUidOf(claimedPath);
  if (approval.httpUser !== null && uid !== null && uid === process.getuid?.())
    return { user: approval.httpUser, claimed_user: null };
  return { user: uid === null ? 'unknown' : userNameOf(uid), claimed_user: approval.user };
}
