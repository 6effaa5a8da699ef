/**
 * What a daemon does with a session it claimed from the store (docs/cluster.md): a steward's
 * decision or a cancel waiting for it first (docs/run-control.md: a decision is applied and what
 * follows it runs; a cancelled session ends, nothing else runs), else the reply it
 * waited for, its start (a fork starts from its original), or its resumption from the journal.
 */
import type { OperationalLog } from '../log-contract.js';
import type { SessionRunner } from '../pipeline/session-runner.js';
import type { ClaimedSession } from './session-leases.js';
import { chatOrderOf } from '../pipeline/chat-turn.js';
import { cancelOrderOf, decisionOrderOf, forkOf, type StoreControls } from './store-controls.js';
import { ControlRejectedError } from '../pipeline/runner-contract.js';

export async function runClaimedSession(
  runner: SessionRunner,
  claimed: ClaimedSession,
  signal: AbortSignal,
  log: OperationalLog,
  controls: Pick<StoreControls, 'decisionApplied'>,
): Promise<void> {
  const { sessionId, request } = claimed;
  if (claimed.control?.action === 'intervene') {
    const queued = claimed.control;
    let run: () => Promise<unknown>;
    try {
      run = await runner.intervene(sessionId, decisionOrderOf(queued), signal);
    } catch (error) {
      if (!(error instanceof ControlRejectedError)) throw error;
      // Checked when queued, so only a race lands here: the session goes back to waiting as it was.
      log.warn("steward's decision refused: the session stays as it was", {
        session: sessionId,
        reason: error.message,
      });
      await controls.decisionApplied(sessionId, queued.control_id);
      await runner.recoverSession(sessionId, signal);
      return;
    }
    // Its operator entry is durable: applied once (claimed again after a crash, it is a no-op).
    await controls.decisionApplied(sessionId, queued.control_id);
    await run();
    return;
  }
  if (claimed.control) {
    // A cancel waits for it: the session ends cancelled before anything else runs.
    const order = cancelOrderOf(claimed.control);
    if (claimed.journaled) await runner.cancelStopped(sessionId, order, signal);
    else
      await runner.startSession(
        {
          requestId: claimed.requestId,
          sessionId,
          text: request.text,
          user: request.user,
          metadata: request.metadata,
          sourceFile: request.source_file,
          claimedPath: null,
          cancel: order,
        },
        signal,
      );
    return;
  }
  if (claimed.previousState === 'paused' && claimed.reply) {
    const reply = claimed.reply;
    // The runner logs how each session ends.
    await runner.replyToSession(
      sessionId,
      {
        text: reply.text,
        sourceFile: reply.source_file,
        claimedPath: null,
        ...(reply.pii_counts ? { piiCounts: reply.pii_counts } : {}),
        ...(reply.approval
          ? {
              approval: { approve: reply.approval.approve, reason: reply.approval.reason, user: reply.approval.user },
            }
          : {}),
      } as Parameters<typeof runner.replyToSession>[1],
      signal,
    );
  } else if (!claimed.journaled) {
    await runner.startSession(
      {
        requestId: claimed.requestId,
        sessionId,
        text: request.text,
        user: request.user,
        metadata: request.metadata,
        sourceFile: request.source_file,
        claimedPath: null,
        // The attachments come from the store, to whichever daemon runs the session (docs/attachments.md).
        ...(request.attachments?.length ? { attachments: { files: request.attachments, folder: null } } : {}),
        ...forkOf(request.fork),
        ...(request.limits ? { limits: request.limits } : {}),
        ...chatOf(request.chat),
        ...(request.pii_counts ? { piiCounts: request.pii_counts } : {}),
      },
      signal,
    );
  } else {
    if (claimed.previousState === 'running')
      log.warn('took over a session whose lease ran out; resuming it from the journal', {
        session: sessionId,
        epoch: claimed.epoch,
      });
    await runner.recoverSession(sessionId, signal);
  }
}

/** A chat turn's order as the HTTP API stored it with the request (docs/http-api.md "Chat"); a damaged one is left out. */
function chatOf(chat: Record<string, unknown> | undefined) {
  const order = chat === undefined ? 'none' : chatOrderOf(chat);
  if (typeof order === 'string') return {};
  return { chat: order, ...(order.entry_agent !== null ? { entryAgent: order.entry_agent } : {}) };
}
