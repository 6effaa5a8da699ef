/**
 * The work queue and the leases of cluster mode, on the `sessions` table itself (docs/cluster.md
 * "The queue", which also says why not graphile-worker or pg-boss): a claim takes the oldest
 * claimable row `FOR UPDATE SKIP LOCKED` and bumps its epoch, which fences every later write.
 */
import type pg from 'pg';
import { inTransaction, prepared, tablesOf, UNIQUE_VIOLATION } from './postgres-connection.js';
import { errorCode } from '../errors.js';
import { channelsOf } from './store-committer.js';
import type { QueuedControl } from './store-controls.js';
import type { RequestLimits } from '../intake/request-limits.js';
import { insertAttachmentChunks } from './attachment-chunks.js';
import { STEWARD_WAITING } from './postgres-session-store.js';
import type { AttachmentInfo } from '../store/attachment-records.js';
import { piiEnabled, type PiiCounts } from '../privacy/pii-redactor.js';
import type { StoreVaults } from './store-vaults.js';
import { chatTurnOf, turnTaken } from './conversation-turns.js';
import { QueuedInserts } from './queued-inserts.js';

export interface QueuedRequest {
  sessionId: string;
  requestId: string;
  text: string;
  user: string | null;
  metadata: Record<string, unknown> | null;
  sourceFile: string;
  /** Where the request file was claimed (to tell our own entry from a duplicate after a crash). */
  claimedPath: string | null;
  /** A fork, retry or re-run's origin (docs/run-control.md; daemon/fork-requests.ts). */
  fork?: Record<string, unknown>;
  /** A chat message's turn (docs/http-api.md "Chat"; src/pipeline/chat-turn.ts), written by the HTTP API. */
  chat?: Record<string, unknown>;
  /** The request's own limits (SPEC §25), already checked against their caps. */
  limits?: RequestLimits;
  /**
   * A request folder's attachments (docs/attachments.md): stored with the request, read by whichever
   * daemon runs it; or (`fromSession`) a fork's, the original's stored chunks copied (docs/run-control.md).
   */
  attachments?: { folder: string; files: AttachmentInfo[] } | { fromSession: string; files: AttachmentInfo[] };
  /** A fork's original or a chat turn's previous turn: the new session's PII vault starts from its vault (docs/privacy.md). */
  inheritsFrom?: string;
  /** The claimed file that carries the request, rewritten redacted once the request is in the store. */
  redactFile?: string | null;
  /**
   * A fork, retry or re-run counts as a request (SPEC §20): set to http.max_queued, it is queued only
   * while fewer sessions wait to start, counted in the store under a lock every daemon takes.
   */
  maxQueued?: number | null;
}

export interface ClaimedSession {
  sessionId: string;
  /** When it was queued: a claim of several runs them oldest first. */
  createdAt: Date;
  requestId: string;
  epoch: number;
  /** What the session was when claimed: queued (new), running (taken over) or paused (a reply waits). */
  previousState: 'queued' | 'running' | 'paused';
  request: {
    text: string;
    user: string | null;
    metadata: Record<string, unknown> | null;
    source_file: string;
    claimed_path: string | null;
    fork?: Record<string, unknown>;
    chat?: Record<string, unknown>;
    limits?: RequestLimits;
    /** The request's attachments; their bytes are in `attachment_chunks`. */
    attachments?: AttachmentInfo[];
    /** PII the intake took out of `text` and `metadata` (store-vaults.ts). */
    pii_counts?: PiiCounts;
  };
  /** The oldest reply not applied yet, for a paused session. */
  reply: QueuedReply | null;
  /** A cancel or a steward's decision waiting for the session (store-controls.ts): it goes before anything else. */
  control: QueuedControl | null;
  /** True when the session has journal records (it ran before: resume it). */
  journaled: boolean;
  /** The governance version the session is pinned to (null until its first message). */
  governanceHash: string | null;
}

export interface QueuedReply {
  text: string;
  source_file: string;
  approval?: { approve: boolean; reason: string | null; user: string | null };
  /** PII the intake took out of `text` (store-vaults.ts). */
  pii_counts?: PiiCounts;
}

export type EnqueueOutcome =
  | { kind: 'queued' }
  | { kind: 'full' }
  /** A chat turn whose conversation has that turn or a later one, or a turn still running (SPEC §23's 409). */
  | { kind: 'turn_taken' }
  | { kind: 'duplicate'; ours: boolean; column: 'request_id' | 'session_id' };

export class SessionLeases {
  private readonly table: (name: string) => string;
  private readonly channels: ReturnType<typeof channelsOf>;
  /** The hot statements, prepared once per connection (claims, renewals). */
  private readonly statements: Record<'claim' | 'renew', { name: string; text: string }>;
  /** Plain requests, inserted a burst at a time. */
  private readonly inserts: QueuedInserts;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly daemonId: string,
    private readonly leaseMs: number,
    /** The sealed PII vaults: requests and replies are redacted before the store keeps them; null without pii.redact. */
    private readonly vaults: StoreVaults | null,
  ) {
    this.table = tablesOf(schema);
    this.channels = channelsOf(schema);
    this.inserts = new QueuedInserts(pool, this.table('sessions'), daemonId, this.channels.work);
    this.statements = {
      claim: prepared(
        `with candidate as (
         select s.session_id, s.state from ${this.table('sessions')} s
         where s.state = 'queued'
            or (s.state = 'running' and s.lease_expires_at < now())
            or (s.state = 'paused' and exists (select 1 from ${this.table('replies')} r where r.session_id = s.session_id and not r.applied))
         order by s.created_at
         limit $3
         for update skip locked
       )
       update ${this.table('sessions')} s
          set state = 'running', owner = $1, epoch = s.epoch + 1, lease_expires_at = now() + $2 * interval '1 millisecond', updated_at = now()
         from candidate
        where s.session_id = candidate.session_id
       returning s.session_id as "sessionId", s.request_id as "requestId", s.epoch::float8 as epoch, candidate.state as "previousState", s.request,
         s.governance_hash as "governanceHash",
         (select r.reply from ${this.table('replies')} r where r.session_id = s.session_id and not r.applied and not (r.reply ? 'control') ` +
          `order by r.id limit 1) as reply,
         (select r.reply->'control' from ${this.table('replies')} r where r.session_id = s.session_id and not r.applied and r.reply ? ` +
          `'control' order by r.id limit 1) as control,
         exists (select 1 from ${this.table('journal')} j where j.session_id = s.session_id) as journaled,
         s.created_at as "createdAt"`,
      ),
      renew: prepared(
        `with mine as (
         select session_id from ${this.table('sessions')} where session_id = any($1) and owner = $2 and state = 'running' order by session_id for update
       )
       update ${this.table('sessions')} s set lease_expires_at = now() + $3 * interval '1 millisecond'
         from mine where s.session_id = mine.session_id
       returning s.session_id, s.epoch`,
      ),
    };
  }

  /** The request id of a session, or null when the store has no such session. */
  async requestIdOf(sessionId: string): Promise<string | null> {
    const found = await this.pool.query<{ request_id: string }>(
      `select request_id from ${this.table('sessions')} where session_id = $1`,
      [sessionId],
    );
    return found.rows[0]?.request_id ?? null;
  }

  /** A request or session id the store has is a duplicate; `ours`: this very file, enqueued before a crash (archive it, no error). */
  async enqueue(request: QueuedRequest): Promise<EnqueueOutcome> {
    // PII leaves the request before the store keeps it; the originals go to its sealed vault, in the same transaction.
    const redacted =
      this.vaults && piiEnabled(this.vaults.pii)
        ? await this.vaults.redactRequest(
            request.sessionId,
            request.inheritsFrom ?? null,
            { text: request.text, metadata: request.metadata, ...(request.chat ? { chat: request.chat } : {}) },
            request.redactFile ?? null,
          )
        : null;
    const document = {
      text: redacted ? redacted.value.text : request.text,
      user: request.user,
      metadata: redacted ? redacted.value.metadata : request.metadata,
      source_file: request.sourceFile,
      claimed_path: request.claimedPath,
      ...(request.fork ? { fork: request.fork } : {}),
      ...(request.chat ? { chat: redacted?.value.chat ?? request.chat } : {}),
      ...(request.limits ? { limits: request.limits } : {}),
      ...(request.attachments ? { attachments: request.attachments.files } : {}),
      ...(redacted && Object.keys(redacted.counts).length > 0 ? { pii_counts: redacted.counts } : {}),
    };
    const redactFile = () => {
      if (redacted && request.redactFile) redacted.redactFile(request.redactFile);
    };
    try {
      const maxQueued = request.maxQueued ?? null;
      const turn = chatTurnOf(request.chat);
      if (request.attachments || redacted || maxQueued !== null || turn !== null) {
        // Request, vault and attachments in one transaction: a daemon that claims the session finds them all.
        const attachments = request.attachments;
        const refused = await inTransaction(this.pool, async (client): Promise<EnqueueOutcome | null> => {
          if (maxQueued !== null && (await this.queueFull(client, request, maxQueued))) return { kind: 'full' };
          if (turn !== null && (await turnTaken(client, this.table('sessions'), request.sessionId, turn)))
            return { kind: 'turn_taken' };
          await client.query(
            `insert into ${this.table('sessions')} (session_id, request_id, state, request, user_name, intake_daemon) values ($1, $2, 'queued', $3, $4, $5)`,
            [request.sessionId, request.requestId, JSON.stringify(document), request.user, this.daemonId],
          );
          await redacted?.commit(client);
          if (attachments && 'fromSession' in attachments)
            await client.query(
              `insert into ${this.table('attachment_chunks')} (session_id, path, seq, data) select $1, path, seq, data ` +
                `from ${this.table('attachment_chunks')} where session_id = $2`,
              [request.sessionId, attachments.fromSession],
            );
          else if (attachments)
            await insertAttachmentChunks(
              client,
              this.table('attachment_chunks'),
              request.sessionId,
              attachments.folder,
              attachments.files,
            );
          await client.query('select pg_notify($1, $2)', [this.channels.work, request.sessionId]);
          return null;
        });
        if (refused) return refused;
        redactFile();
        return { kind: 'queued' };
      }
      const inserted = await this.inserts.queue({
        sessionId: request.sessionId,
        requestId: request.requestId,
        document: JSON.stringify(document),
        user: request.user,
      });
      return inserted ? { kind: 'queued' } : await this.duplicateOutcome(request, redactFile);
    } catch (error) {
      if (errorCode(error) !== UNIQUE_VIOLATION) throw error;
      return this.duplicateOutcome(request, redactFile);
    }
  }

  /** A request whose id (or session id) the store already holds: ours when a crash cut our own first try short. */
  private async duplicateOutcome(request: QueuedRequest, redactFile: () => void): Promise<EnqueueOutcome> {
    const existing = await this.pool.query<{
      intake_daemon: string;
      request: { claimed_path?: string | null };
      request_id: string;
    }>(
      `select intake_daemon, request, request_id from ${this.table('sessions')} where request_id = $1 or session_id = $2`,
      [request.requestId, request.sessionId],
    );
    const row = existing.rows[0];
    const ours =
      row !== undefined &&
      row.intake_daemon === this.daemonId &&
      request.claimedPath !== null &&
      row.request.claimed_path === request.claimedPath;
    // Our own request, committed before a crash: its archived copy is redacted as the first try would have.
    if (ours) redactFile();
    // No row: the request id of a session audit retention deleted, which stays taken.
    const column = row === undefined || row.request_id === request.requestId ? 'request_id' : 'session_id';
    return { kind: 'duplicate', ours, column };
  }

  /**
   * True when `maxQueued` sessions wait to start and `request` is not among them (applied again
   * after a crash, it finds its own row as a duplicate). The lock, held to the transaction's end,
   * makes the forks of every daemon count one after the other.
   */
  private async queueFull(client: pg.PoolClient, request: QueuedRequest, maxQueued: number): Promise<boolean> {
    await client.query('select pg_advisory_xact_lock(hashtext($1))', [`${this.table('sessions')} max_queued`]);
    const counted = await client.query<{ mine: boolean; n: number }>(
      `select exists (select 1 from ${this.table('sessions')} where session_id = $1 or request_id = $2) as mine,
              (select count(*)::int from ${this.table('sessions')} where state = 'queued') as n`,
      [request.sessionId, request.requestId],
    );
    const { mine, n } = counted.rows[0]!;
    return !mine && n >= maxQueued;
  }

  /**
   * Queues a reply to a paused session; null when accepted, else why not. Its PII is redacted with
   * the session's vault under the row's lock (no daemon holds a paused session), `file` rewritten so.
   */
  async enqueueReply(sessionId: string, reply: QueuedReply, file: string | null = null): Promise<string | null> {
    let redactFile = () => undefined as void;
    const refused = await inTransaction(this.pool, async (client) => {
      const row = await client.query<{ state: string; result_status: string | null }>(
        `select state, result_status from ${this.table('sessions')} where session_id = $1 for update`,
        [sessionId],
      );
      const state = row.rows[0]?.state;
      if (state === undefined)
        return `no session "${sessionId}" exists in the store; check the session_id in the pending result`;
      // Refused here, not by the daemon that would claim it (SPEC §25): a steward decides, a reply does not apply.
      if (state === 'paused' && STEWARD_WAITING.includes(row.rows[0]?.result_status ?? ''))
        return (
          `session "${sessionId}" waits for a steward's decision (${row.rows[0]!.result_status}), not for a reply: decide with ` +
          `govflow intervene ${sessionId}, or an "intervene" control file`
        );
      if (state !== 'paused')
        return (
          `session "${sessionId}" ${state === 'finished' ? 'has already finished' : 'is not waiting for a reply'}; a reply only resumes ` +
          `a session whose result is pending`
        );
      let stored = reply;
      if (this.vaults && piiEnabled(this.vaults.pii)) {
        const redacted = await this.vaults.redactReply(client, sessionId, reply.text, file);
        await redacted.commit(client);
        stored = {
          ...reply,
          text: redacted.value,
          ...(Object.keys(redacted.counts).length > 0 ? { pii_counts: redacted.counts } : {}),
        };
        if (file !== null) redactFile = () => redacted.redactFile(file);
      }
      await client.query(`insert into ${this.table('replies')} (session_id, reply) values ($1, $2)`, [
        sessionId,
        JSON.stringify(stored),
      ]);
      await client.query('select pg_notify($1, $2)', [this.channels.work, sessionId]);
      return null;
    });
    if (refused === null) redactFile();
    return refused;
  }

  /** Sessions accepted and waiting for a daemon to start them (http.max_queued). */
  async countQueued(): Promise<number> {
    const result = await this.pool.query<{ n: number }>(
      `select count(*)::int as n from ${this.table('sessions')} where state = 'queued'`,
    );
    return result.rows[0]?.n ?? 0;
  }

  /** Leases the oldest claimable session to this daemon, or resolves null when none is. */
  async claimNext(): Promise<ClaimedSession | null> {
    return (await this.claim(1))[0] ?? null;
  }

  /** Leases up to `max` of the oldest claimable sessions to this daemon in one statement, oldest first. */
  async claim(max: number): Promise<ClaimedSession[]> {
    const result = await this.pool.query<ClaimedSession>({
      ...this.statements.claim,
      values: [this.daemonId, this.leaseMs, max],
    });
    return result.rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /** Renews this daemon's leases; resolves with the sessions it still holds (the rest were lost). */
  async renew(held: Map<string, number>): Promise<Set<string>> {
    if (held.size === 0) return new Set();
    const ids = [...held.keys()].sort();
    const result = await this.pool.query<{ session_id: string; epoch: string }>({
      ...this.statements.renew,
      values: [ids, this.daemonId, this.leaseMs],
    });
    return new Set(
      result.rows.filter((row) => held.get(row.session_id) === Number(row.epoch)).map((row) => row.session_id),
    );
  }

  /**
   * At start: leases still held by this daemon id were its previous, dead run's (we hold the root
   * lock); they expire now, not after `lease_ms`, and the next claim's epoch still fences.
   */
  async releaseOwn(): Promise<number> {
    const result = await this.pool.query(
      `with released as (update ${this.table('sessions')} set lease_expires_at = now() - interval '1 millisecond', updated_at = now()
         where owner = $1 and state = 'running' and lease_expires_at >= now() returning session_id)
       select pg_notify($2, session_id) from released`,
      [this.daemonId, this.channels.work],
    );
    return result.rowCount ?? 0;
  }

  /** Gives a session back to the queue at once (shutdown): another daemon may take it now. */
  async giveBack(sessionId: string, epoch: number): Promise<void> {
    await this.pool.query(
      `with given as (update ${this.table('sessions')} set state = 'queued', owner = null, lease_expires_at = null, updated_at = now()
         where session_id = $1 and owner = $2 and epoch = $3 and state = 'running' returning session_id)
       select pg_notify($4, session_id) from given`,
      [sessionId, this.daemonId, epoch, this.channels.work],
    );
  }
}
