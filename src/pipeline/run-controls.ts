/**
 * One cancellation source per session this process runs (docs/run-control.md): an AbortController
 * whose signal, joined with the caller's (the daemon's shutdown) by `AbortSignal.any`, is the one
 * every model call, tool call, MCP call and delegated child of the session takes. A cancel aborts
 * it with a {@link CancelRequest} as the reason, so whatever is in flight stops at once and the
 * runner, seeing that reason, ends the session `cancelled`.
 */
import { setMaxListeners } from 'node:events';
import { GovflowError } from '../errors.js';

/** What every operator's control carries as the runner applies it (docs/run-control.md): who, why, and where it came from. */
export interface ControlOrder {
  /** The operator entry's id, made from the claim (a control applied again after a crash is known by it). */
  controlId: string;
  by: string;
  /** A `by` the control file claimed: kept, not trusted. */
  claimedBy: string | null;
  reason: string | null;
  /** When the control was claimed (ISO). */
  claimedAt: string;
  sourceFile: string;
}

/** A cancel as the runner applies it. */
export interface CancelOrder extends ControlOrder {
  /** The claimed control file, archived when the session ends; null: nothing to archive. */
  claimedPath: string | null;
  /** Set when the cancel reached a delegated child through its parent. */
  viaSession?: string;
  /** The session the cancel was sent to (its children see the same reason through its signal). */
  sessionId?: string;
}

/** The abort reason of a cancelled session's signal: what stopped its calls, not a failure of theirs. */
export class CancelRequest extends GovflowError {
  override readonly name = 'CancelRequest';
  constructor(readonly order: CancelOrder) {
    super('interrupted', `cancelled by ${order.by}${order.reason ? `: ${order.reason}` : ''}`, {
      sessionId: order.sessionId,
    });
  }
}

/** The cancel a signal was aborted with, or null (not aborted, or stopped for another reason). */
export function cancelOf(signal: AbortSignal): CancelOrder | null {
  return signal.aborted && signal.reason instanceof CancelRequest ? signal.reason.order : null;
}

/** How a cancel sent to a running session went: applied by its run, or not (the run ended or paused first). */
export type CancelDelivery = 'applied' | 'not-applied';

interface Entry {
  controller: AbortController;
  /** Runs of this session in this process (a child's recovery may nest). */
  holders: number;
  /** The cancel sent and not settled yet. */
  pending: { settle: (delivery: CancelDelivery) => void; done: Promise<CancelDelivery> } | null;
}

export class RunControls {
  private readonly sessions = new Map<string, Entry>();

  /** True while this process runs the session. */
  running(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /**
   * Registers a run of `sessionId`; its signal is `outer` joined with the session's own source.
   * `release` settles a cancel the run did not apply as 'not-applied'.
   */
  enter(sessionId: string, outer: AbortSignal): { signal: AbortSignal; release: () => void } {
    let entry = this.sessions.get(sessionId);
    if (!entry) {
      const controller = new AbortController();
      // Every call of the session listens on it, and a plan runs several at once.
      setMaxListeners(0, controller.signal);
      entry = { controller, holders: 0, pending: null };
      this.sessions.set(sessionId, entry);
    }
    entry.holders += 1;
    const signal = AbortSignal.any([outer, entry.controller.signal]);
    setMaxListeners(0, signal);
    const held = entry;
    let released = false;
    return {
      signal,
      release: () => {
        if (released) return;
        released = true;
        held.holders -= 1;
        if (held.holders > 0) return;
        if (this.sessions.get(sessionId) === held) this.sessions.delete(sessionId);
        held.pending?.settle('not-applied');
      },
    };
  }

  /**
   * Cancels a session this process runs: its calls in flight are aborted now. Resolves once its run
   * applied the cancel, or ended without it; null when the session does not run here.
   */
  cancel(sessionId: string, order: CancelOrder): Promise<CancelDelivery> | null {
    const entry = this.sessions.get(sessionId);
    if (!entry) return null;
    if (entry.pending) return entry.pending.done.then(() => 'not-applied' as const);
    let settle: (delivery: CancelDelivery) => void = () => {};
    const done = new Promise<CancelDelivery>((resolve) => (settle = resolve));
    entry.pending = {
      done,
      settle: (delivery) => {
        entry.pending = null;
        settle(delivery);
      },
    };
    entry.controller.abort(new CancelRequest({ ...order, sessionId }));
    return done;
  }

  /** The run applied the session's cancel (its journal and audit entry are durable). */
  applied(sessionId: string): void {
    this.sessions.get(sessionId)?.pending?.settle('applied');
  }
}
