/**
 * Controls in the files backend (docs/run-control.md), applied as soon as they are claimed, each
 * reaching its session through the runner like any work: a cancel aborts a session running here
 * through its one cancellation source, or ends a paused, queued or crash-stopped one from its
 * journal or claim; a fork, retry or re-run is checked against its original and queued as a new
 * request claim. Durable like a request: the claim stays in system/processing/ until it is
 * applied (then archived) or refused (then in system/failed/), and applying it again after a crash
 * is a no-op — its operator entry and its new session are named after the claim.
 */
import { existsSync } from 'node:fs';
import { raceAbort } from '../abort-race.js';
import { errorMessage } from '../errors.js';
import type { IntakeControl } from '../intake/claimed-file.js';
import { sessionIdForClaim } from '../intake/claim-name.js';
import type { ControlVerdict } from '../intake/control-outcome.js';
import { moveToFailed } from '../intake/failed-files.js';
import type { InboxIntake } from '../intake/inbox-intake.js';
import { findQueuedRequest } from '../intake/queued-claims.js';
import { forkPoint } from '../pipeline/fork-point.js';
import type { CancelOrder, ControlOrder } from '../pipeline/run-controls.js';
import { ControlRejectedError, SessionInterruptedError } from '../pipeline/runner-contract.js';
import { foldRecords, hasEnded } from '../pipeline/session-state.js';
import { SessionJournal } from '../store/journal-reader.js';
import { controlOrderFor, settleControl } from './control-claims.js';
import { forkRequestDocument, forkRequestIds, noFreeForkRequestId } from './fork-requests.js';
import type { SessionRuns } from './session-runs.js';
import type { WorkContext } from './work-source.js';
import { sessionFolder } from '../store/session-retention.js';

/** A fork, retry or re-run past http.max_queued (SPEC §20: they count as requests): refused, into system/failed/. */
export function queueFullVerdict(action: string, maxQueued: number | null): ControlVerdict {
  return {
    status: 'refused',
    code: 'queue_full',
    reason:
      `http.max_queued (${maxQueued}) accepted requests are waiting to start, and a ${action} counts as a request: it was not ` +
      `queued; send it again once some have started`,
  };
}

export class InboxControls {
  constructor(
    private readonly context: WorkContext,
    private readonly sessionRuns: SessionRuns,
    private readonly intake: () => InboxIntake | null,
  ) {}

  /** Applies one claimed control; never throws (what went wrong is logged, the claim stays for the next start). */
  async apply(item: IntakeControl): Promise<void> {
    const order = controlOrderFor(item);
    let verdict: ControlVerdict;
    /** A steward's decision: the session's run that follows it, once the decision is settled. */
    let thereafter: (() => Promise<void>) | null = null;
    try {
      if (item.action === 'intervene') {
        thereafter = await this.intervene(item, order);
        verdict = { status: 'applied' };
      } else if (item.action === 'cancel') {
        const cancelled = await this.cancel(item, { ...order, claimedPath: item.claimedPath });
        // One of several cancels of one session (SPEC §18): archived as applied, its session's end was another's.
        if (cancelled === 'already-cancelled')
          this.intake()?.archive([{ claimedPath: item.claimedPath, sourceFile: item.sourceFile }]);
        verdict = { status: 'applied' };
      } else verdict = await this.fork(item, order);
    } catch (error) {
      if (!(error instanceof ControlRejectedError)) {
        if (!(error instanceof SessionInterruptedError))
          this.context.log.error('control failed; its file stays in system/processing/ for the next start', {
            file: item.sourceFile,
            session: item.sessionId,
            error: errorMessage(error),
          });
        return;
      }
      verdict = { status: 'refused', reason: error.message };
    }
    const { config, events } = this.context.runtime;
    if (verdict.status === 'refused') {
      await moveToFailed(config.paths, item.claimedPath, item.sourceFile, verdict.reason!, {
        durable: config.daemon.fsync,
      }).catch(() => undefined);
      this.context.log.warn('control refused: moved to system/failed/', {
        file: item.sourceFile,
        session: item.sessionId,
        reason: verdict.reason,
      });
    } else if (item.action !== 'cancel') {
      // A cancel's file is archived with its session's end (the runner reports it); a fork's now.
      this.intake()?.archive([{ claimedPath: item.claimedPath, sourceFile: item.sourceFile }]);
    }
    settleControl(item, verdict, { paths: config.paths, durable: config.daemon.fsync, log: this.context.log, events });
    await thereafter?.();
  }

  /**
   * A steward's decision (docs/run-control.md): applied once no run of the session is left here,
   * durably; returns the run that follows it (the retried step, or the failed end), which holds
   * the session like any run of it and logs how it broke off.
   */
  private async intervene(item: IntakeControl, order: ControlOrder): Promise<() => Promise<void>> {
    const { runner } = this.context.runtime;
    const sessionId = item.sessionId;
    if (!runner.sessionExists(sessionId))
      throw new ControlRejectedError(`no session "${sessionId}" exists here: check the session_id`);
    while (this.sessionRuns.busy(sessionId) || runner.runs(sessionId)) {
      if (this.sessionRuns.busy(sessionId)) await this.sessionRuns.ended(sessionId);
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const end = this.sessionRuns.begin(sessionId);
    let run: () => Promise<unknown>;
    try {
      run = await runner.intervene(
        sessionId,
        { ...order, decision: item.decision ?? 'retry', advice: item.advice, limits: item.limits },
        this.context.signal,
      );
    } catch (error) {
      end();
      throw error;
    }
    return async () => {
      try {
        await run();
      } catch (error) {
        if (error instanceof SessionInterruptedError)
          this.context.log.warn('session interrupted by shutdown; it resumes at next start', { session: sessionId });
        else
          this.context.log.error('session crashed; it resumes from its journal at next start', {
            session: sessionId,
            error: errorMessage(error),
          });
      } finally {
        end();
      }
    };
  }

  /**
   * Cancels the session wherever it stands here: running, being answered, paused, stopped by a
   * crash, or queued. 'already-cancelled': another cancel ended it (at the same time, or before).
   */
  private async cancel(item: IntakeControl, order: CancelOrder): Promise<'applied' | 'already-cancelled'> {
    const { runner, config } = this.context.runtime;
    const sessionId = item.sessionId;
    // Every wait ends with a hard stop (the grace period over): the claim stays for the next start.
    const { signal } = this.context;
    for (;;) {
      const delivery = runner.cancelRunning(sessionId, order);
      if (delivery !== null) {
        if ((await raceAbort(delivery, signal)) === 'applied') return 'applied';
        continue; // its run ended or paused first: look again
      }
      if (this.sessionRuns.busy(sessionId)) {
        await raceAbort(this.sessionRuns.ended(sessionId), signal);
        continue;
      }
      if (runner.sessionExists(sessionId)) {
        if (this.cancelledByAnother(sessionId, order.controlId)) return 'already-cancelled';
        const end = this.sessionRuns.begin(sessionId);
        try {
          await runner.cancelStopped(sessionId, order, this.context.signal);
        } finally {
          end();
        }
        return 'applied';
      }
      const queued = await findQueuedRequest(
        config.paths,
        sessionId,
        config.intake.max_bytes,
        config.timezone,
        config.intake.attachments,
      );
      if (queued === null)
        throw new ControlRejectedError(
          `no session "${sessionId}" exists here, running, queued or ended: check the session_id`,
        );
      if (this.sessionRuns.busy(sessionId) || runner.runs(sessionId)) continue; // it started meanwhile
      // Queued: the session is made from its claim and ends cancelled at once; no step runs.
      const end = this.sessionRuns.begin(sessionId);
      try {
        await this.context.registry.claim(queued.requestId, queued.claimedPath);
        await runner.startSession(
          {
            requestId: queued.requestId,
            sessionId,
            text: queued.text,
            user: queued.user,
            metadata: queued.metadata,
            sourceFile: queued.sourceFile,
            claimedPath: queued.claimedPath,
            ...(queued.attachments
              ? {
                  attachments: {
                    files: queued.attachments.files,
                    folder: queued.claimedPath,
                    requestFile: queued.attachments.requestFile,
                  },
                }
              : {}),
            cancel: order,
          },
          this.context.signal,
        );
      } finally {
        end();
      }
      return 'applied';
    }
  }

  /** True when a cancel other than `controlId` ended the session (its journal says so). */
  private cancelledByAnother(sessionId: string, controlId: string): boolean {
    const { config } = this.context.runtime;
    const state = foldRecords(SessionJournal.read(SessionJournal.directoryOf(config.paths.sessions, sessionId)));
    return hasEnded(state) && state.cancelled !== null && state.cancelled.control_id !== controlId;
  }

  /** Checks the original and queues the new session's request; applying it again finds that request. */
  private async fork(item: IntakeControl, order: ControlOrder): Promise<ControlVerdict> {
    const { config } = this.context.runtime;
    const newSessionId = sessionIdForClaim(item.claimedPath, config.timezone);
    const already = await this.existingFork(newSessionId);
    if (already) return { status: 'accepted', new_session_id: newSessionId, new_request_id: already };
    // A session retention archived can be forked too (its journal read from the archive).
    const folder = sessionFolder(config.paths, item.sessionId);
    if (
      !SessionJournal.exists(config.paths.sessions, item.sessionId) &&
      folder === SessionJournal.directoryOf(config.paths.sessions, item.sessionId)
    )
      throw new ControlRejectedError(`no session "${item.sessionId}" exists here: check the session_id`);
    const state = foldRecords(SessionJournal.read(folder));
    const point = forkPoint(state, item.action as 'fork' | 'retry' | 'rerun', item.from);
    if ('refusal' in point) throw new ControlRejectedError(point.refusal);
    const intake = this.intake();
    if (!intake) throw new SessionInterruptedError('the intake is not open');
    const release = intake.reserveQueued();
    if (release === null) return queueFullVerdict(item.action, config.http.max_queued);
    try {
      return await this.queueFork(intake, item, order, state, point.from, newSessionId, release);
    } finally {
      release();
    }
  }

  private async queueFork(
    intake: InboxIntake,
    item: IntakeControl,
    order: ControlOrder,
    state: ReturnType<typeof foldRecords>,
    from: number,
    newSessionId: string,
    reservation: () => void,
  ): Promise<ControlVerdict> {
    for (const requestId of forkRequestIds(item, state.session.request_id)) {
      const document = forkRequestDocument({
        original: state.session,
        item,
        order,
        from,
        sessionId: newSessionId,
        requestId,
      });
      const submitted = await intake.submit(
        { name: `${item.action}-${requestId}.json`, text: `${JSON.stringify(document)}\n`, requestId },
        reservation,
      );
      if (submitted.kind === 'claimed')
        return { status: 'accepted', new_session_id: newSessionId, new_request_id: requestId };
    }
    throw new ControlRejectedError(noFreeForkRequestId(item, state.session.request_id));
  }

  /** The request id of a fork this control queued before a crash (its session started, or its claim waits), else null. */
  private async existingFork(newSessionId: string): Promise<string | null> {
    const { config } = this.context.runtime;
    if (SessionJournal.exists(config.paths.sessions, newSessionId)) {
      const [first] = SessionJournal.read(SessionJournal.directoryOf(config.paths.sessions, newSessionId));
      return first?.type === 'session' ? first.request_id : null;
    }
    const queued = await findQueuedRequest(
      config.paths,
      newSessionId,
      config.intake.max_bytes,
      config.timezone,
      config.intake.attachments,
    );
    return queued && existsSync(queued.claimedPath) ? queued.requestId : null;
  }
}
