/**
 * The files backend's work: a claimed item is a session run here, in an intake slot; a control is
 * applied at once (inbox-controls.ts). Recovery starts from the claimed files: controls first (a
 * cancel applies before its session would resume), then a claim maps to its session id, so its
 * session resumes from the journal or starts. Recovered requests go ahead of new ones; replies
 * once their sessions ran.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { errorMessage } from '../errors.js';
import {
  claimedItem,
  claimTargetOf,
  readClaimedFile,
  recoverClaimedFiles,
  type IntakeControl,
  type IntakeItem,
  type IntakeReply,
  type IntakeRequest,
} from '../intake/claimed-file.js';
import { claimInboxControls, peekControlText } from '../intake/control-peek.js';
import { ownerUidOf } from '../intake/file-owner.js';
import { AttachmentChangedError } from '../tools/attachment-workspace.js';
import type { ForkOrder } from '../pipeline/runner-contract.js';
import { forkOrderOf } from './fork-requests.js';
import { InboxControls } from './inbox-controls.js';
import { claimedAtOf, sessionIdForClaim } from '../intake/claim-name.js';
import { moveToFailed } from '../intake/failed-files.js';
import { requestLimitsRefusal } from '../intake/request-limits.js';
import type { InboxIntake } from '../intake/inbox-intake.js';
import { releaseUnacknowledged, repairInterruptedSubmissions } from '../intake/request-submission.js';
import { repairInterruptedFolders } from '../intake/folder-submission.js';
import { ReplyRejectedError, SessionInterruptedError } from '../pipeline/runner-contract.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import { replyApplied, sessionStartedByClaim } from './claim-journals.js';
import type { ShutdownStep, WorkContext, WorkSource } from './work-source.js';
import { resumeOrphanedRuns } from './orphaned-runs.js';
import { RecoveryProgress } from './recovery-progress.js';
import { chatOrderOf, type ChatOrder } from '../pipeline/chat-turn.js';
import { SessionRuns } from './session-runs.js';

export class InboxWork implements WorkSource {
  readonly intakeConcurrency: number;
  readonly events: SessionEvents;
  readonly label = '';
  readonly stopSteps: { taking: ShutdownStep[]; finishing: ShutdownStep[]; closing: ShutdownStep[] };
  private readonly sessionRuns: SessionRuns;
  private intake: InboxIntake | null = null;
  /** Claims a crash left in processing/, listed before anything new is claimed. */
  private leftovers: string[] = [];
  private recovery: Promise<void> = Promise.resolve();
  /** Controls a crash left claimed or that waited in the inbox, applied before anything resumes. */
  private controlRecovery: Promise<void> = Promise.resolve();
  private readonly controls: InboxControls;

  constructor(private readonly context: WorkContext) {
    const { config, events } = context.runtime;
    this.intakeConcurrency = config.intake.concurrency;
    this.events = events;
    this.sessionRuns = new SessionRuns(config.paths.sessions);
    this.controls = new InboxControls(context, this.sessionRuns, () => this.intake);
    this.stopSteps = { taking: [['recovery', () => this.recovery]], finishing: [], closing: [] };
  }

  /** A control, at its claim (the intake's own lane): after the controls recovery applies. */
  async handleControl(item: IntakeControl): Promise<void> {
    await this.controlRecovery;
    await this.controls.apply(item);
  }

  private get stopped(): boolean {
    return this.context.signal.aborted || (this.context.state() !== 'starting' && this.context.state() !== 'running');
  }

  async prepare(intake: InboxIntake): Promise<void> {
    const { config } = this.context.runtime;
    this.intake = intake;
    mkdirSync(config.paths.processing, { recursive: true });
    const repaired =
      repairInterruptedSubmissions(config.paths, this.context.registry, config.intake.max_bytes) +
      repairInterruptedFolders(config.paths, this.context.registry);
    if (repaired > 0)
      this.context.log.warn('intake: finished submissions a crash interrupted after their request id was claimed', {
        requests: repaired,
      });
    // From now on processing/ also holds this daemon's own fresh claims (inbox files, HTTP
    // submissions), which recovery must not run a second time.
    const leftovers = await recoverClaimedFiles(config.paths);
    const isControl = (claimedPath: string) => {
      const text = peekControlText(claimedPath);
      return (
        text !== null && claimedItem(claimedPath, Buffer.from(text, 'utf8'), config.intake.max_bytes).kind === 'control'
      );
    };
    const controls = leftovers.filter(isControl);
    this.leftovers = leftovers.filter((claimedPath) => !controls.includes(claimedPath));
    // Controls dropped while no daemon ran: claimed now, so they apply before any session resumes.
    this.leftoverControls = [...controls, ...claimInboxControls(config.paths, config.intake.max_bytes)];
  }

  private leftoverControls: string[] = [];

  recover(): Promise<void> {
    const { config, runner } = this.context.runtime;
    const log = this.context.log;
    this.controlRecovery = this.recoverControls(this.leftoverControls);
    this.recovery = this.controlRecovery
      .then(() => this.recoverClaims(this.leftovers))
      .then(() => resumeOrphanedRuns(config.paths.state, runner, this.context.signal, log))
      .then(() => undefined)
      .catch((error: unknown) => {
        log.error('crash recovery failed; what it did not finish is retried at the next start', {
          error: errorMessage(error),
        });
      });
    return Promise.resolve();
  }

  async started(): Promise<void> {}

  /** Applies the controls a crash or a stopped daemon left, one by one, before the sessions resume. */
  private async recoverControls(claimedPaths: string[]): Promise<void> {
    const { config } = this.context.runtime;
    if (claimedPaths.length > 0)
      this.context.log.info('applying controls left by an earlier run', { controls: claimedPaths.length });
    for (const claimedPath of claimedPaths) {
      if (this.stopped) return;
      try {
        const item = await readClaimedFile(claimedPath, config.intake.max_bytes);
        if (item.kind === 'control') await this.controls.apply(item);
      } catch (error) {
        this.cannotRecover(claimedPath, error);
      }
    }
  }

  private async recoverClaims(leftovers: string[]): Promise<void> {
    const { config } = this.context.runtime;
    const log = this.context.log;
    if (leftovers.length > 0) log.info('recovering requests left by an earlier run', { claims: leftovers.length });
    const progress = new RecoveryProgress(config.paths, leftovers.length, (error) =>
      log.warn('cannot write the recovery status for govflow status', { error: errorMessage(error) }),
    );
    const replies: IntakeReply[] = [];
    try {
      // Claims are read when a slot takes them, so a flood left claimed holds names, not texts.
      await this.intake!.adopt(leftovers, async (claimedPath) => {
        const reply = await this.recoverClaim(claimedPath);
        if (reply) replies.push(reply);
        else progress.advance();
      });
      // Replies in the order they were claimed, once their sessions have run.
      replies.sort((left, right) => leftovers.indexOf(left.claimedPath) - leftovers.indexOf(right.claimedPath));
      for (const reply of replies) {
        if (this.stopped) return;
        progress.advance();
        await this.recoverReply(reply);
      }
    } finally {
      progress.finish();
    }
  }

  /** Runs one claim a crash left; a reply is handed back for later. Logs, never throws. */
  private async recoverClaim(claimedPath: string): Promise<IntakeReply | null> {
    const { config, runner } = this.context.runtime;
    // Handled meanwhile (a cancel of its queued session archived it).
    if (!existsSync(claimedPath)) return null;
    // One damaged journal (JournalFormatError names file:line) must not stop the others.
    try {
      const item = await readClaimedFile(claimedPath, config.intake.max_bytes, config.intake.attachments);
      if (item.kind === 'rejected') {
        const released = releaseUnacknowledged(this.context.registry, claimedPath);
        const reason =
          released === null
            ? item.reason
            : `${item.reason} (an HTTP submission a power loss cut before it was acknowledged: request_id "${released}" may be submitted again)`;
        await moveToFailed(config.paths, claimedPath, item.file, reason);
        return null;
      }
      if (item.kind === 'reply') return item;
      if (item.kind === 'control') {
        await this.controls.apply(item);
        return null;
      }
      const sessionId = this.sessionIdFor(item);
      if (await sessionStartedByClaim(config.paths.sessions, sessionId, item.claimedPath)) {
        await this.runSession(sessionId, (signal) => runner.recoverSession(sessionId, signal));
      } else if ((await this.context.registry.claim(item.requestId, claimTargetOf(item))) === 'duplicate') {
        await moveToFailed(
          config.paths,
          item.claimedPath,
          item.sourceFile,
          `duplicate request_id "${item.requestId}": it was already processed; use a new request_id`,
        );
      } else {
        await this.run(item, true);
      }
    } catch (error) {
      this.cannotRecover(claimedPath, error);
    }
    return null;
  }

  private async recoverReply(reply: IntakeReply): Promise<void> {
    const { config, runner } = this.context.runtime;
    if (!existsSync(reply.claimedPath)) return; // its session applied and archived it
    let applied: boolean;
    try {
      applied = replyApplied(config.paths.sessions, reply.sessionId, reply.claimedPath);
    } catch (error) {
      this.cannotRecover(reply.claimedPath, error);
      return;
    }
    if (applied) await this.runSession(reply.sessionId, (signal) => runner.recoverSession(reply.sessionId, signal));
    else await this.run(reply, true);
  }

  private cannotRecover(file: string, error: unknown): void {
    this.context.log.error(
      'cannot recover this request; its file stays in system/processing/ until the problem is fixed and the daemon restarts',
      { file, error: errorMessage(error) },
    );
  }

  /** The session of a request: the one it names, else one derived from its claim (stable across restarts). */
  private sessionIdFor(item: IntakeRequest): string {
    return item.sessionId ?? sessionIdForClaim(item.claimedPath, this.context.runtime.config.timezone);
  }

  /** Runs one session's work; the runner logs how it ended, this logs how it broke off. */
  private async runSession(
    sessionId: string | null,
    work: (signal: AbortSignal, track: (sessionId: string) => void) => Promise<unknown>,
  ): Promise<void> {
    let tracked = sessionId;
    // One session has one writer here: a control applying to it finishes first.
    if (sessionId !== null) while (this.sessionRuns.busy(sessionId)) await this.sessionRuns.ended(sessionId);
    let ended = sessionId === null ? () => {} : this.sessionRuns.begin(sessionId);
    try {
      await work(this.context.signal, (started) => {
        tracked = started;
        ended = this.sessionRuns.begin(started);
      });
    } catch (error) {
      if (error instanceof SessionInterruptedError) {
        this.context.log.warn('session interrupted by shutdown; it resumes at next start', { session: tracked });
        return;
      }
      this.context.log.error('session crashed; it resumes from its journal at next start', {
        session: tracked,
        error: errorMessage(error),
      });
    } finally {
      ended();
    }
  }

  handle(item: IntakeItem): Promise<void> {
    if (item.kind === 'control') return this.handleControl(item);
    return this.run(item, false);
  }

  /** `recovered`: the item was claimed before a crash (its session may have left audit entries); recovery itself runs it. */
  private async run(item: IntakeItem, recovered: boolean): Promise<void> {
    const { config, runner } = this.context.runtime;
    const reject = (reason: string) =>
      moveToFailed(config.paths, item.claimedPath, item.sourceFile, reason).then(() => {
        this.context.log.warn('request file rejected: moved to system/failed/', { file: item.sourceFile, reason });
      });
    if (item.kind === 'reply') {
      // A new reply waits for crash recovery: its session may be among those recovery has yet to
      // resume or is rewriting (a paused one), and one session has one writer.
      if (!recovered) await this.recovery;
      const refused = await this.sessionRuns.replyMayApply(item.sessionId, () =>
        this.context.log.info('reply waits for its session to finish recording its pause', { session: item.sessionId }),
      );
      if (refused !== null) {
        await reject(refused);
        return;
      }
      const ended = this.sessionRuns.begin(item.sessionId);
      try {
        await runner.replyToSession(
          item.sessionId,
          {
            text: item.reply,
            sourceFile: item.sourceFile,
            claimedPath: item.claimedPath,
            ...(item.approval ? { approval: item.approval } : {}),
          },
          this.context.signal,
        );
      } catch (error) {
        if (error instanceof ReplyRejectedError) await reject(error.message);
        else if (!(error instanceof SessionInterruptedError))
          this.context.log.error('reply failed', { session: item.sessionId, error: errorMessage(error) });
      } finally {
        ended();
      }
      return;
    }
    if (item.kind === 'control') return this.controls.apply(item);
    const sessionId = this.sessionIdFor(item);
    // A control applying to this session (a cancel while it was queued) goes first.
    while (this.sessionRuns.busy(sessionId)) await this.sessionRuns.ended(sessionId);
    // Handled while it waited: a cancel made and ended its session from this very claim.
    if (!existsSync(item.claimedPath)) return;
    if (await sessionStartedByClaim(config.paths.sessions, sessionId, item.claimedPath)) {
      await this.runSession(sessionId, (signal) => runner.recoverSession(sessionId, signal));
      return;
    }
    if (runner.sessionExists(sessionId)) {
      await reject(`session_id "${sessionId}" is already in use; omit session_id or choose a new one`);
      return;
    }
    const overLimit = requestLimitsRefusal(item.limits, config.limits);
    if (overLimit !== null) {
      await reject(overLimit);
      return;
    }
    let fork: ForkOrder | undefined;
    if (item.fork !== undefined) {
      // Written by this daemon when it accepted a fork (docs/run-control.md); not a client's to send.
      const order =
        ownerUidOf(item.claimedPath) === process.getuid?.()
          ? forkOrderOf(item.fork)
          : "the file is not the daemon's own";
      if (typeof order === 'string') {
        await reject(`"fork" is the daemon's own field (${order}): to fork a session, drop a control file`);
        return;
      }
      fork = order;
    }
    let chat: ChatOrder | undefined;
    if (item.chat !== undefined) {
      // Written by this daemon's HTTP API for a chat message (docs/http-api.md "Chat"); not a client's to send.
      const order =
        ownerUidOf(item.claimedPath) === process.getuid?.()
          ? chatOrderOf(item.chat)
          : "the file is not the daemon's own";
      if (typeof order === 'string') {
        await reject(`"chat" is the daemon's own field (${order}): to chat, POST /v1/agent/chat`);
        return;
      }
      chat = order;
    }
    const request = {
      requestId: item.requestId,
      sessionId,
      text: item.text,
      user: item.user,
      metadata: item.metadata,
      ...(item.limits ? { limits: item.limits } : {}),
      sourceFile: item.sourceFile,
      claimedPath: item.claimedPath,
      ...(item.attachments
        ? {
            attachments: {
              files: item.attachments.files,
              folder: item.claimedPath,
              requestFile: item.attachments.requestFile,
            },
          }
        : {}),
      ...(recovered ? { recoveredSince: (claimedAtOf(item.claimedPath) ?? new Date(0)).toISOString() } : {}),
      ...(fork ? { fork } : {}),
      ...(chat ? { chat, ...(chat.entry_agent !== null ? { entryAgent: chat.entry_agent } : {}) } : {}),
    };
    await this.runSession(null, async (signal, track) => {
      try {
        return await runner.startSession(request, signal, track);
      } catch (error) {
        // Its attachments differ from their list (a fork's original workspace copy was changed): it
        // cannot start as accepted, and stays no claim that no session shows (docs/attachments.md).
        if (!(error instanceof AttachmentChangedError)) throw error;
        await reject(`${error.message}; nothing of the request ran`);
        return null;
      }
    });
  }
}
