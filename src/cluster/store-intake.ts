/**
 * Intake in cluster mode: a claimed item is committed to the store, then archived; a duplicate or a
 * reply that cannot apply goes to system/failed/. A control (docs/run-control.md) is checked and
 * queued: a cancel for whichever daemon holds its session, a steward's decision for whichever
 * daemon claims its waiting session next, a fork, retry or re-run as a new queued
 * session. While Postgres does not answer, the item is kept (its file stays in
 * system/processing/) for `retry()`.
 */
import type { GovflowConfig } from '../config/config-loader.js';
import { errorMessage } from '../errors.js';
import type { IntakeControl, IntakeItem } from '../intake/claimed-file.js';
import { sessionIdForClaim } from '../intake/claim-name.js';
import { claimTargetOf } from '../intake/claimed-file.js';
import type { ControlVerdict } from '../intake/control-outcome.js';
import { forkPoint, type ForkAction } from '../pipeline/fork-point.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import { foldRecords } from '../pipeline/session-state.js';
import type { JournalRecord } from '../store/session-journal.js';
import { controlFieldsOf, controlOrderFor, settleControl } from '../daemon/control-claims.js';
import { forkRequestDocument, forkRequestIds, noFreeForkRequestId } from '../daemon/fork-requests.js';
import { queueFullVerdict } from '../daemon/inbox-controls.js';
import type { ControlOrder } from '../pipeline/run-controls.js';
import type { StoreControls } from './store-controls.js';
import { moveToFailed } from '../intake/failed-files.js';
import { compactInTimeZone } from '../message/zoned-time.js';
import { generateSessionId } from '../pipeline/session-creation.js';
import type { OperationalLog } from '../log-contract.js';
import { archiveRequestFile } from '../intake/request-archive.js';
import { withoutCredentials } from './postgres-connection.js';
import type { SessionLeases } from './session-leases.js';
import { coalesced } from './coalesced-run.js';
import { requestLimitsRefusal } from '../intake/request-limits.js';
import { decisionRefusal } from '../pipeline/steward-decision.js';

export class StoreIntake {
  /** Claimed items the store did not take yet (the link was down), by claimed path. */
  private readonly unqueued = new Map<string, IntakeItem>();

  constructor(
    private readonly config: GovflowConfig,
    private readonly leases: SessionLeases,
    private readonly log: OperationalLog,
    private readonly controls: {
      store: StoreControls;
      /** A session's journal records from the store (empty when it has none). */
      records: (sessionId: string) => Promise<JournalRecord[]>;
      events: SessionEvents;
    },
  ) {}

  /** Commits one claimed item (or keeps it for `retry`); never throws. */
  async handle(item: IntakeItem): Promise<void> {
    try {
      await this.enqueue(item);
      this.unqueued.delete(item.claimedPath);
    } catch (error) {
      if (!this.unqueued.has(item.claimedPath)) {
        this.log.warn('cannot commit a request to the store; it waits in system/processing/ and is retried', {
          file: item.sourceFile,
          error: withoutCredentials(errorMessage(error)),
        });
      }
      this.unqueued.set(item.claimedPath, item);
    }
  }

  /** Tries the kept items again (the daemon's poll calls this). */
  readonly retry = coalesced(async () => {
    for (const item of [...this.unqueued.values()]) await this.handle(item);
  });

  private async enqueue(item: IntakeItem): Promise<void> {
    const { config } = this;
    const archive = () =>
      archiveRequestFile(
        config.paths.archive,
        compactInTimeZone(new Date(), config.timezone),
        item.claimedPath,
        item.sourceFile,
      );
    const reject = async (reason: string) => {
      await moveToFailed(config.paths, item.claimedPath, item.sourceFile, reason, { durable: config.daemon.fsync });
      this.log.warn('request file rejected: moved to system/failed/', { file: item.sourceFile, reason });
    };
    if (item.kind === 'control') return this.enqueueControl(item, archive, reject);
    if (item.kind === 'reply') {
      const refused = await this.leases.enqueueReply(
        item.sessionId,
        {
          text: item.reply,
          source_file: item.sourceFile,
          ...(item.approval ? { approval: item.approval } : {}),
        },
        item.claimedPath,
      );
      if (refused) return reject(refused);
      archive();
      return;
    }
    // A request's own limits (SPEC §25): one above its configured cap is refused, the others ride with the request.
    const overLimit = requestLimitsRefusal(item.limits, config.limits);
    if (overLimit !== null) return reject(overLimit);
    const { requestId, text, user, metadata, sourceFile, claimedPath } = item;
    // The request id is the key: a session id made here again after a crash never makes a second session.
    const sessionId = item.sessionId ?? generateSessionId(item.receivedAt, config.timezone);
    const outcome = await this.leases.enqueue({
      sessionId,
      requestId,
      text,
      user,
      metadata,
      sourceFile,
      claimedPath,
      ...(item.fork ? { fork: item.fork } : {}),
      ...(item.limits ? { limits: item.limits } : {}),
      ...(item.attachments ? { attachments: { folder: claimedPath, files: item.attachments.files } } : {}),
      // The archived copy holds the redacted text (README "Privacy and guardrails"); attachments stay as delivered.
      redactFile: claimTargetOf(item),
    });
    if (outcome.kind === 'duplicate' && !outcome.ours) {
      return reject(
        outcome.column === 'request_id'
          ? `duplicate request_id "${item.requestId}": it was already accepted; use a new request_id`
          : `session_id "${item.sessionId}" is already in use; omit session_id or choose a new one`,
      );
    }
    archive();
  }

  /** Checks a control against the store and queues it (throws only when Postgres does not answer: kept for retry). */
  private async enqueueControl(
    item: IntakeControl,
    archive: () => void,
    reject: (reason: string) => Promise<void>,
  ): Promise<void> {
    const order = controlOrderFor(item);
    let verdict: ControlVerdict;
    if (item.action === 'cancel') {
      // One of several cancels of one session (SPEC §18) is archived as applied: another's ended it.
      verdict = await this.controls.store.enqueueCancel(item.sessionId, {
        action: 'cancel',
        ...controlFieldsOf(order),
      });
    } else if (item.action === 'intervene') verdict = await this.enqueueDecision(item, order);
    else verdict = await this.enqueueFork(item, order);
    if (verdict.status === 'refused') await reject(verdict.reason!);
    else archive();
    settleControl(item, verdict, {
      paths: this.config.paths,
      durable: this.config.daemon.fsync,
      log: this.log,
      events: this.controls.events,
    });
  }

  /**
   * A steward's decision (docs/run-control.md): checked against the session's journal (a waiting
   * session is held by no daemon, so it stands still), then queued; whichever daemon claims the
   * session applies it and runs what follows.
   */
  private async enqueueDecision(item: IntakeControl, order: ControlOrder): Promise<ControlVerdict> {
    const records = await this.controls.records(item.sessionId);
    if (records.length === 0) return { status: 'refused', reason: await this.missingSession(item.sessionId) };
    const decision = item.decision ?? 'retry';
    const refusal = decisionRefusal(foldRecords(records), decision);
    if (refusal !== null) return { status: 'refused', reason: refusal };
    const refused = await this.controls.store.enqueueDecision(item.sessionId, {
      action: 'intervene',
      ...controlFieldsOf(order),
      decision,
      advice: item.advice ?? null,
      limits: item.limits ?? null,
    });
    return refused === null ? { status: 'accepted' } : { status: 'refused', reason: refused };
  }

  /** Why a session has no journal: audit retention deleted it, or there never was one. */
  private async missingSession(sessionId: string): Promise<string> {
    const deletion = await this.controls.store.deletedSession(sessionId);
    return deletion === null
      ? `no session "${sessionId}" exists in the store: check the session_id`
      : `session "${sessionId}" ended on a day audit retention deleted (through ${deletion.day}, at ${deletion.at}): its journal is ` +
          `gone (audit.retention.delete_after_days)`;
  }

  private async enqueueFork(item: IntakeControl, order: ControlOrder): Promise<ControlVerdict> {
    const records = await this.controls.records(item.sessionId);
    if (records.length === 0) return { status: 'refused', reason: await this.missingSession(item.sessionId) };
    const state = foldRecords(records);
    const point = forkPoint(state, item.action as ForkAction, item.from);
    if ('refusal' in point) return { status: 'refused', reason: point.refusal };
    // The same claim gives the same new session id: applied again after a crash, it finds its own.
    const sessionId = sessionIdForClaim(item.claimedPath, this.config.timezone);
    for (const requestId of forkRequestIds(item, state.session.request_id)) {
      const document = forkRequestDocument({
        original: state.session,
        item,
        order,
        from: point.from,
        sessionId,
        requestId,
      });
      const queued = await this.leases.enqueue({
        sessionId,
        requestId,
        text: document.request,
        user: document.user ?? null,
        metadata: (document.metadata as Record<string, unknown> | undefined) ?? null,
        sourceFile: `${item.action}-${requestId}.json`,
        claimedPath: item.claimedPath,
        fork: document.fork as Record<string, unknown>,
        inheritsFrom: item.sessionId,
        maxQueued: this.config.http.max_queued,
        // The original's attachments come with it (docs/run-control.md): its stored chunks, copied.
        ...(state.session.attachments?.files.length
          ? { attachments: { fromSession: item.sessionId, files: state.session.attachments.files } }
          : {}),
      });
      if (queued.kind === 'full') return queueFullVerdict(item.action, this.config.http.max_queued);
      if (queued.kind === 'queued' || (queued.kind === 'duplicate' && queued.ours))
        return { status: 'accepted', new_session_id: sessionId, new_request_id: requestId };
      if (queued.kind === 'duplicate' && queued.column === 'session_id') {
        const ownRequest = await this.leases.requestIdOf(sessionId);
        if (ownRequest !== null) return { status: 'accepted', new_session_id: sessionId, new_request_id: ownRequest };
      }
    }
    return { status: 'refused', reason: noFreeForkRequestId(item, state.session.request_id) };
  }
}
