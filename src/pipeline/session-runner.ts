/**
 * Runs sessions: each step is call → parse → validate → repair → stamp → journal → audit → route,
 * with plans run as a DAG, limits enforced, pauses for people, recovery from the journal, and the
 * operators' controls (docs/run-control.md): every run of a session takes the session's one
 * cancellation source (run-controls.ts), and forks start from their original's messages.
 * The runner depends on interfaces only (provider, session store, governance source).
 */
import { mkdirSync } from 'node:fs';
import type { GovflowConfig } from '../config/config-loader.js';
import { GovflowError } from '../errors.js';
import { MessageCommitter, messagesDurable, type ActiveSession, type StepOutcome } from './message-commit.js';
import { crashGiveUp, crashRetriesUsedUp, isCrash, recordCrash } from './crash-retries.js';
import { runPlan } from './plan-scheduler.js';
import { isSessionId } from '../intake/request-ids.js';
import {
  ControlRejectedError,
  ReplyRejectedError,
  SessionInterruptedError,
  type NewSessionRequest,
  type RunnerDependencies,
  type SessionOutcome,
} from './runner-contract.js';
import { limitReached } from './session-limits.js';
import { effectiveLimits } from '../intake/request-limits.js';
import { mendAuditLog, voidLostMessages } from './session-recovery.js';
import { foldRecords, hasEnded, type SessionState } from './session-state.js';
import { chainStep, loopKeyOf, type PendingStep } from './session-steps.js';
import { StepAttempts } from './step-attempts.js';
import { SessionPrivacy } from '../privacy/session-privacy.js';
import { openSessionVault } from '../privacy/session-vaults.js';
import { Delegations } from './delegation.js';
import { SessionFinisher } from './session-finish.js';
import { journalReply, type IncomingReply } from './session-replies.js';
import { cancelOf, RunControls, type CancelDelivery, type CancelOrder } from './run-controls.js';
import { commitCancel, orderFor } from './session-cancel.js';
import { forkOrderOf, forkUnfinished, SessionForks } from './session-fork.js';
import { ensureAttachments } from './session-attachments.js';
import { createSession, generateSessionId } from './session-creation.js';
import { renderStepInput } from './step-input.js';
import { commitDecision, haltFailure, type StewardOrder } from './steward-decision.js';
import { commitHalt, haltBefore } from './session-halts.js';

export class SessionRunner {
  private readonly now: () => Date;
  private readonly attempts: StepAttempts;
  private readonly committer: MessageCommitter;
  private readonly finisher: SessionFinisher;
  private readonly forks: SessionForks;
  /** One cancellation source per session this process runs. */
  private readonly controls = new RunControls();
  /** Set by `drain()`: running steps finish, no new step starts. */
  private draining = false;
  /** When each step began, for the progress log. */
  private readonly stepStarts = new WeakMap<PendingStep, number>();

  constructor(private readonly deps: RunnerDependencies) {
    this.now = deps.now ?? (() => new Date());
    for (const folder of Object.values(deps.config.paths)) mkdirSync(folder, { recursive: true });
    this.attempts = new StepAttempts(deps, this.now, new Delegations(deps, () => this, this.now));
    this.finisher = new SessionFinisher(deps, this.now);
    this.forks = new SessionForks(deps, this.now);
    this.committer = new MessageCommitter(
      deps,
      this.now,
      (active) => this.finisher.scheduleManifest(active),
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

  /** True while this process runs the session (a run, a reply, a recovery or a cancel of it). */
  runs(sessionId: string): boolean {
    return this.controls.running(sessionId);
  }

  /**
   * Cancels a session this process runs (docs/run-control.md): its model, tool and MCP calls in
   * flight and its delegated children are aborted now, and no call starts after. Resolves once the
   * run applied it, or ended first ('not-applied': see cancelStopped); null when it does not run here.
   */
  cancelRunning(sessionId: string, order: CancelOrder): Promise<CancelDelivery> | null {
    return this.controls.cancel(sessionId, order);
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
    const entered = this.controls.enter(sessionId, signal);
    // A cancel that came while the request was queued: made and ended at once, no step runs.
    if (request.cancel) void this.controls.cancel(sessionId, request.cancel);
    try {
      const { active, fork, forkRefusal } = await createSession(
        this.deps,
        this.forks,
        request,
        { sessionId, createdAt, entryAgent: snapshot.entryAgent },
        signal,
      );
      if (request.recoveredSince !== undefined)
        await voidLostMessages(
          active,
          await this.deps.store.auditedMessages(sessionId, request.recoveredSince),
          this.now(),
          this.deps.log,
        );
      if (fork) await this.forks.reuse(active, fork);
      if (forkRefusal !== null) await this.refuseFork(active, forkRefusal);
      return await this.run(active, entered.signal);
    } finally {
      entered.release();
    }
  }

  /** Applies a person's reply to a paused session and runs it on. */
  async replyToSession(sessionId: string, reply: IncomingReply, signal: AbortSignal): Promise<SessionOutcome> {
    if (!isSessionId(sessionId) || !this.sessionExists(sessionId)) {
      throw new ReplyRejectedError(
        `no session "${sessionId}" exists on this root; check the session_id in the pending result`,
        { sessionId },
      );
    }
    const entered = this.controls.enter(sessionId, signal);
    try {
      const active = await this.openSession(sessionId);
      try {
        await journalReply(active, reply, this.now, this.deps.log);
      } catch (error) {
        await this.closeJournal(active);
        throw error;
      }
      return await this.run(active, entered.signal);
    } finally {
      entered.release();
    }
  }

  /** Continues a session after a crash or restart, mending its audit log first (session-recovery.ts). */
  async recoverSession(sessionId: string, signal: AbortSignal): Promise<SessionOutcome> {
    const entered = this.controls.enter(sessionId, signal);
    try {
      return await this.recover(sessionId, entered.signal);
    } finally {
      entered.release();
    }
  }

  /**
   * Cancels a session no run of this process holds (paused, or left running by a crash): its
   * journal and audit log mended first, then the cancel and its one result. A cancel applied
   * before (the same control, after a crash) finishes again; any other on an ended session is a
   * ControlRejectedError naming its status.
   */
  async cancelStopped(sessionId: string, order: CancelOrder, signal: AbortSignal): Promise<SessionOutcome> {
    if (!isSessionId(sessionId) || !this.sessionExists(sessionId))
      throw new ControlRejectedError(`no session "${sessionId}" exists: check the session_id`, { sessionId });
    const entered = this.controls.enter(sessionId, signal);
    try {
      const active = await this.openSession(sessionId);
      try {
        const { state } = active;
        if (hasEnded(state) && state.cancelled?.control_id !== order.controlId) {
          throw new ControlRejectedError(
            `session "${sessionId}" has already ended (${endStatusOf(state)}): only a running, queued or paused session can be cancelled`,
            { sessionId },
          );
        }
        await mendAuditLog(active, this.deps, this.now());
        await commitCancel(active, order, this.deps, this.now);
        return await this.finisher.finish(active);
      } finally {
        await this.closeJournal(active);
      }
    } finally {
      entered.release();
    }
  }

  /**
   * Applies a steward's decision to a session waiting for one (docs/run-control.md) and returns
   * once it is durable, with the run that follows it: the failed agent again (retry) or the
   * session's end (fail). A decision that cannot apply is a ControlRejectedError.
   */
  async intervene(sessionId: string, order: StewardOrder, signal: AbortSignal): Promise<() => Promise<SessionOutcome>> {
    if (!isSessionId(sessionId) || !this.sessionExists(sessionId))
      throw new ControlRejectedError(`no session "${sessionId}" exists: check the session_id`, { sessionId });
    const entered = this.controls.enter(sessionId, signal);
    let active: ActiveSession | null = null;
    try {
      active = await this.openSession(sessionId);
      await mendAuditLog(active, this.deps, this.now());
      await commitDecision(active, order, this.deps, this.now);
    } catch (error) {
      if (active) await this.closeJournal(active);
      entered.release();
      throw error;
    }
    const decided = active;
    return async () => {
      try {
        return await this.run(decided, entered.signal);
      } finally {
        entered.release();
      }
    };
  }

  private async recover(sessionId: string, signal: AbortSignal): Promise<SessionOutcome> {
    const active = await this.openSession(sessionId);
    await mendAuditLog(active, this.deps, this.now());
    const forkOrder = forkUnfinished(active.state) ? forkOrderOf(active.state.session) : null;
    if (forkOrder) {
      try {
        await this.forks.reuse(active, await this.forks.prepare(forkOrder));
      } catch (error) {
        await this.closeJournal(active);
        throw error;
      }
    }
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
      privacy: SessionPrivacy.forSession(this.config, await openSessionVault(this.config, this.deps.store, sessionId)),
    };
  }

  private async run(active: ActiveSession, signal: AbortSignal): Promise<SessionOutcome> {
    const maxCrashRetries = this.config.limits.max_crash_retries;
    const { state } = active;
    const sessionId = state.session.session_id;
    active.signal = signal;
    try {
      if (state.finishedAt === null) this.finisher.writeManifest(active);
      if (!state.final && !state.cancelled && state.finishedAt === null)
        await ensureAttachments(this.config, this.deps.store, state.session, signal);
      try {
        if (crashRetriesUsedUp(state, maxCrashRetries) && !cancelOf(signal)) await this.giveUpAfterCrashes(active);
        while (!state.final && !state.paused && !state.cancelled && state.finishedAt === null) {
          if (cancelOf(signal)) break;
          if (signal.aborted || this.draining)
            throw new SessionInterruptedError(`session ${sessionId} interrupted by shutdown`, { sessionId });
          if (state.plan)
            await runPlan(
              active,
              this.config.limits,
              (step) => this.runStep(active, step, signal),
              () => this.draining,
            );
          else if (state.cursor) await this.runStep(active, state.cursor, signal);
          else throw new GovflowError('internal', `session ${sessionId} has no next step (corrupt journal?)`);
        }
      } catch (error) {
        // A cancel stops whatever was in flight: what it threw is the cancel, not a crash.
        if (!cancelOf(signal)) throw error;
      }
      const cancel = cancelOf(signal);
      const applies = cancel !== null && !state.final && !state.cancelled && state.finishedAt === null;
      if (applies) await commitCancel(active, orderFor(sessionId, cancel), this.deps, this.now);
      const outcome = await this.finisher.finish(active);
      if (applies) this.controls.applied(sessionId);
      return outcome;
    } catch (error) {
      if (!isCrash(error, signal, this.draining)) throw error;
      await recordCrash(active, error, this.now(), maxCrashRetries, this.deps.log);
      // Giving up crashed too (or the session had ended and its result cannot be written): stop here.
      // A last message that never reached the disk did not end it: the journal decides, as after a restart.
      const ended = active.state.final !== null && active.commitFailure === undefined;
      if (active.state.crashes > maxCrashRetries + 1 || ended) throw error;
    } finally {
      await this.closeJournal(active);
    }
    // Run again from the journal, exactly as a restart would; past the limit this ends it failed.
    return this.recover(sessionId, signal);
  }

  /** Commits the PROCESSING_ERROR message that ends a session whose crash retries are used up. */
  private async giveUpAfterCrashes(active: ActiveSession): Promise<void> {
    const giveUp = crashGiveUp(active.state, this.config.limits.max_crash_retries);
    if (giveUp) await this.commitOutcome(active, giveUp.step, giveUp.outcome);
  }

  /** A fork whose original can no longer be forked so (it changed since the control was accepted) ends failed, saying why. */
  private async refuseFork(active: ActiveSession, refusal: string): Promise<void> {
    const { session } = active.state;
    await this.commitOutcome(active, chainStep(session.entry_agent, 'user', session.request.text, null), {
      kind: 'halt',
      failure: {
        code: 'DEPENDENCY_ERROR',
        message: `the fork could not start: ${refusal}`,
        recoverable: false,
        notes: 'Orchestrator: fork refused when the session started.',
      },
      halt: null,
    });
  }

  /** Commits an outcome the orchestrator decided for `step`, no model asked. */
  private async commitOutcome(active: ActiveSession, step: PendingStep, outcome: StepOutcome): Promise<void> {
    const snapshot = this.deps.governance(active.state.session.session_id);
    const agent = snapshot.agents.get(step.agent) ?? null;
    await this.committer.commit(active, step, snapshot, loopKeyOf(step.agent, step.input), agent, outcome);
  }

  private async closeJournal(active: ActiveSession): Promise<void> {
    const manifestError = await active.stored.close();
    if (manifestError)
      this.deps.log?.warn('could not update the session manifest (a cache for govflow status)', {
        session: active.state.session.session_id,
        error: manifestError.message,
      });
  }

  private async runStep(active: ActiveSession, next: PendingStep, signal: AbortSignal): Promise<void> {
    const { state } = active;
    // After a cancel (or a hard stop) no step starts: no model or tool call of this session is made.
    if (signal.aborted)
      throw new SessionInterruptedError(`session ${state.session.session_id} stopped before ${next.agent}'s step`);
    // The messages it is passed are on disk first (SPEC §6).
    await messagesDurable(active);
    const snapshot = this.deps.governance(state.session.session_id);
    const agent = snapshot.agents.get(next.agent) ?? null;
    // An `input:` template replaces the input before anything else sees it (SPEC §24).
    const rendered = agent?.input ? renderStepInput(agent.input, next, state) : null;
    const step = rendered?.ok ? rendered.step : next;
    this.stepStarts.set(step, performance.now());
    const loopKey = loopKeyOf(step.agent, step.input);
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
      const limits = effectiveLimits(this.config.limits, state.session.request.limits, state.raised);
      const reached = limitReached(limits, state, step.agent, loopKey, this.now());
      // A halt (docs/run-control.md) pauses before the call; max_steps and loops always fail.
      const halt =
        reached?.failure.code === 'LOOP_DETECTED' || state.messages.length >= limits.max_steps
          ? null
          : await haltBefore(active, step, agent, snapshot, limits, this.deps, this.now());
      if (halt && !state.haltFailed) {
        await commitHalt(active, halt, this.deps, this.now);
        return;
      }
      const attempted =
        (state.haltFailed ? haltFailure(state.haltFailed, step.agent) : reached) ??
        (rendered && !rendered.ok
          ? { kind: 'failure' as const, failure: rendered.failure, retryCount: 0 }
          : await this.attempts.run(active, step, snapshot, agent, signal));
      // A tool call waits for approval: nothing to commit, the session is paused (README "Give an agent tools").
      if (attempted.kind === 'paused') return;
      outcome = attempted;
    }
    await this.committer.commit(active, step, snapshot, loopKey, agent, outcome);
  }
}

/** How an ended session ended, for a refusal: its final status, or cancelled. */
function endStatusOf(state: SessionState): string {
  if (state.cancelled) return `cancelled by ${state.cancelled.by}`;
  return state.final?.message.status.code ?? 'finished';
}
