/**
 * Controls in cluster mode (docs/run-control.md) go through the store's queue like replies, in the
 * same table (a `{"control": …}` document): a cancel of a queued or paused session makes it
 * claimable, and whichever daemon claims it ends it cancelled; the daemon holding a running
 * session hears of it at once (NOTIFY on the work channel, its poll as the backstop) and aborts
 * its calls. A steward's decision makes its waiting session claimable; the daemon that claims it
 * applies it (claimed-run.ts) and marks it applied. The cancel's commit marks it applied (`replies_applied`), with any reply it withdrew.
 */
import type pg from 'pg';
import { forkOrderOf } from '../daemon/fork-requests.js';
import type { CancelDelivery, CancelOrder } from '../pipeline/run-controls.js';
import type { ForkOrder } from '../pipeline/runner-contract.js';
import { coalesced } from './coalesced-run.js';
import { inTransaction, tablesOf } from './postgres-connection.js';
import { channelsOf } from './store-committer.js';
import { deletedSession } from './store-deletion.js';
import type { ControlFields, StewardDecision } from '../store/session-journal.js';
import type { ControlVerdict } from '../intake/control-outcome.js';
import type { StewardOrder } from '../pipeline/steward-decision.js';

/** A cancel as the store keeps it until a daemon applies it. */
export interface QueuedCancel extends ControlFields {
  action: 'cancel';
}

/** A steward's decision as the store keeps it until the daemon that claims its session applies it. */
export interface QueuedDecision extends ControlFields {
  action: 'intervene';
  decision: StewardDecision;
  advice: string | null;
  limits: StewardOrder['limits'];
}

export type QueuedControl = QueuedCancel | QueuedDecision;

export class StoreControls {
  private readonly table: (name: string) => string;
  private readonly channels: ReturnType<typeof channelsOf>;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
  ) {
    this.table = tablesOf(schema);
    this.channels = channelsOf(schema);
  }

  /** The deletion (audit retention) that took this session, or null. */
  deletedSession(sessionId: string): Promise<{ day: string; at: string } | null> {
    return deletedSession(this.pool, this.schema, sessionId);
  }

  /**
   * Queues a cancel of a queued, running or paused session (accepted). One of several cancels of
   * one session (SPEC §18) is applied: another cancel ended the session, or its cancel is recorded
   * and the session is ending — nothing is queued, and no second operator entry is made. Refused
   * otherwise (unknown session, ended another way). The same control queued again (a crash after
   * its commit, before its file was archived) is not queued twice.
   */
  async enqueueCancel(sessionId: string, cancel: QueuedCancel): Promise<ControlVerdict> {
    return inTransaction(this.pool, async (client) => {
      const row = await client.query<{ state: string; result_status: string | null }>(
        `select state, result_status from ${this.table('sessions')} where session_id = $1 for update`,
        [sessionId],
      );
      const found = row.rows[0];
      if (found === undefined)
        return {
          status: 'refused',
          reason: `no session "${sessionId}" exists in the store, running, queued or ended: check the session_id`,
        };
      const again = await client.query(
        `select 1 from ${this.table('replies')} where session_id = $1 and reply->'control'->>'control_id' = $2`,
        [sessionId, cancel.control_id],
      );
      if ((again.rowCount ?? 0) > 0) return { status: 'accepted' };
      // Read after the row's lock (a statement of its own, so it sees a cancel committed while we waited).
      const recorded = await client.query(
        `select 1 from ${this.table('journal')} where session_id = $1
            and record::jsonb @> '{"type": "control", "action": "cancel"}' limit 1`,
        [sessionId],
      );
      if ((recorded.rowCount ?? 0) > 0 || (found.state === 'finished' && found.result_status === 'cancelled'))
        return { status: 'applied' };
      if (found.state === 'finished')
        return {
          status: 'refused',
          reason: `session "${sessionId}" has already ended (${found.result_status ?? 'finished'}): only a running, queued or paused session can be cancelled`,
        };
      await client.query(`insert into ${this.table('replies')} (session_id, reply) values ($1, $2)`, [
        sessionId,
        JSON.stringify({ control: cancel }),
      ]);
      await client.query('select pg_notify($1, $2)', [this.channels.work, sessionId]);
      return { status: 'accepted' };
    });
  }

  /**
   * Queues a steward's decision for a session waiting for one (the caller checked its journal);
   * resolves with why not (it is not paused, or another decision waits), or null. The same control
   * queued again is not queued twice. The waiting session becomes claimable with it.
   */
  async enqueueDecision(sessionId: string, decision: QueuedDecision): Promise<string | null> {
    return inTransaction(this.pool, async (client) => {
      const row = await client.query<{ state: string }>(
        `select state from ${this.table('sessions')} where session_id = $1 for update`,
        [sessionId],
      );
      const state = row.rows[0]?.state;
      if (state === undefined) return `no session "${sessionId}" exists in the store: check the session_id`;
      const waiting = await client.query<{ control_id: string }>(
        `select reply->'control'->>'control_id' as control_id from ${this.table('replies')}
          where session_id = $1 and reply->'control'->>'action' = 'intervene'
            and (not applied or reply->'control'->>'control_id' = $2)`,
        [sessionId, decision.control_id],
      );
      if (waiting.rows.some((found) => found.control_id === decision.control_id)) return null;
      if (waiting.rows.length > 0)
        return `session "${sessionId}" already has a steward's decision waiting to be applied: send another once it is`;
      if (state !== 'paused')
        return `session "${sessionId}" is not waiting for a steward: it ${state === 'finished' ? 'has ended' : `is ${state}`}`;
      await client.query(`insert into ${this.table('replies')} (session_id, reply) values ($1, $2)`, [
        sessionId,
        JSON.stringify({ control: decision }),
      ]);
      await client.query('select pg_notify($1, $2)', [this.channels.work, sessionId]);
      return null;
    });
  }

  /** Marks a steward's decision applied (its operator entry is committed, or it was refused). */
  async decisionApplied(sessionId: string, controlId: string): Promise<void> {
    await this.pool.query(
      `update ${this.table('replies')} set applied = true
        where session_id = $1 and not applied and reply->'control'->>'control_id' = $2`,
      [sessionId, controlId],
    );
  }

  /** The cancels waiting for sessions among `sessionIds` (those this daemon runs). */
  async pendingCancels(sessionIds: readonly string[]): Promise<Array<{ sessionId: string; cancel: QueuedCancel }>> {
    if (sessionIds.length === 0) return [];
    const rows = await this.pool.query<{ session_id: string; control: QueuedCancel }>(
      `select session_id, reply->'control' as control from ${this.table('replies')}
        where not applied and reply->'control'->>'action' = 'cancel' and session_id = any($1) order by id`,
      [[...sessionIds]],
    );
    return rows.rows.map((row) => ({ sessionId: row.session_id, cancel: row.control }));
  }
}

/** The decision a queued store control orders, as the runner applies it. */
export function decisionOrderOf(queued: QueuedDecision): StewardOrder {
  return { ...cancelOrderOf(queued), decision: queued.decision, advice: queued.advice, limits: queued.limits };
}

/** The cancel a queued store control orders (its file was archived when the store took it). */
export function cancelOrderOf(cancel: ControlFields): CancelOrder {
  return {
    controlId: cancel.control_id,
    by: cancel.by,
    claimedBy: cancel.claimed_by,
    reason: cancel.reason,
    claimedAt: cancel.claimed_at,
    sourceFile: cancel.source_file,
    claimedPath: null,
  };
}

/** The fork a queued request carries (written by the intake that accepted it), as the runner takes it. */
export function forkOf(fork: Record<string, unknown> | undefined): { fork?: ForkOrder } {
  if (fork === undefined) return {};
  const order = forkOrderOf(fork);
  return typeof order === 'string' ? {} : { fork: order };
}

/**
 * Hands the cancels waiting in the store for sessions held here to their runs (their calls are
 * aborted now); called on a work notification naming one of them, and at every poll. A cancel a
 * run did not apply (it paused or ended first) stays queued: a paused session is claimable with
 * it, and whoever claims it ends it cancelled.
 */
export function heldCancels(
  controls: StoreControls,
  held: () => Iterable<string>,
  cancelRunning: (sessionId: string, order: CancelOrder) => Promise<CancelDelivery> | null,
): () => Promise<void> {
  const delivering = new Set<string>();
  return coalesced(async () => {
    const here = [...held()].filter((sessionId) => !delivering.has(sessionId));
    for (const { sessionId, cancel } of await controls.pendingCancels(here)) {
      if (delivering.has(sessionId)) continue;
      const delivery = cancelRunning(sessionId, cancelOrderOf(cancel));
      if (delivery === null) continue;
      delivering.add(sessionId);
      void delivery.finally(() => delivering.delete(sessionId));
    }
  });
}
