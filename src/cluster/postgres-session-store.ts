/**
 * The Postgres store (docs/cluster.md), the second implementation of src/store/session-store.ts.
 * Every write is fenced by the epoch of a lease this daemon holds; once one write of a session
 * fails every later one fails at once, and whoever holds the lease next resumes it from the journal.
 */
import { readAttachmentChunks } from './attachment-chunks.js';
import type pg from 'pg';
import type { AuditEntryInput } from '../store/session-store.js';
import { parseEntries } from '../audit/audit-entry-parse.js';
import { parseJournalRecord } from '../store/journal-reader.js';
import type {
  ControlRecord,
  CrashRecord,
  ExchangeRecord,
  FinishedRecord,
  JournalRecord,
  MessageRecord,
  ReplyRecord,
  SessionManifest,
  SessionRecord,
  VoidRecord,
} from '../store/session-journal.js';
import type {
  ApprovalRecord,
  ApprovalRequestRecord,
  ToolStartRecord,
  ToolResultRecord,
  ToolTurnRecord,
} from '../store/tool-journal-records.js';
import type { AuditedMessages, SessionResultFiles, SessionStore, StoredSession } from '../store/session-store.js';
import { tablesOf } from './postgres-connection.js';
import { StoreCommitter, type SessionRowChange } from './store-committer.js';
import { GovflowError } from '../errors.js';
import { notPassedOn } from '../store/atomic-file.js';
import type { SessionVault } from '../privacy/pii-vault.js';
import type { StoreVaults } from './store-vaults.js';

interface Lease {
  epoch: number;
  /** Seq of the next journal record. */
  nextSeq: number;
}

class PostgresStoredSession implements StoredSession {
  /** Records kept with the session until the next write carries them (exchanges, tool turns). */
  private carried: string[] = [];
  private manifest: SessionManifest | null = null;
  private failure: Error | null = null;
  /** The lease was given up with the result (pause, finish): nothing more is written. */
  private released = false;

  constructor(
    readonly sessionId: string,
    private readonly lease: Lease,
    private readonly committer: StoreCommitter,
    /** The session's vault writes so far, in the store before any record that may use their placeholders. */
    private readonly vaultFlushed: () => Promise<void>,
  ) {}

  /** One fenced write: the carried records, then `records`, then `audit`, then `change`. */
  private async write(
    records: JournalRecord[],
    audit: AuditEntryInput[],
    change?: SessionRowChange,
  ): Promise<string[]> {
    if (this.failure) throw this.failure;
    try {
      await this.vaultFlushed();
    } catch (error) {
      this.failure ??= error as Error;
      throw error;
    }
    if (this.failure) throw this.failure;
    const serialized = [...this.carried, ...records.map((record) => JSON.stringify(record))];
    this.carried = [];
    const firstSeq = this.lease.nextSeq;
    this.lease.nextSeq += serialized.length;
    const withManifest = this.manifest ? { ...change, manifest: this.manifest } : change;
    this.manifest = null;
    try {
      return await this.committer.commit({
        sessionId: this.sessionId,
        epoch: this.lease.epoch,
        records: serialized,
        firstSeq,
        audit,
        ...(withManifest ? { change: withManifest } : {}),
      });
    } catch (error) {
      this.failure ??= error as Error;
      throw error;
    }
  }

  async commitSession(record: SessionRecord): Promise<void> {
    await this.write([record], [], { state: 'running' });
  }

  recordExchange(record: ExchangeRecord): void {
    this.carried.push(JSON.stringify(record));
  }

  async commitMessage(record: MessageRecord, audit: AuditEntryInput): Promise<{ entryHash: string | null }> {
    const [hash] = await this.write([record], [audit], { governance_hash: record.governance_hash });
    return { entryHash: hash ?? null };
  }

  async commitControl(record: ControlRecord, audit: AuditEntryInput): Promise<{ entryHash: string | null }> {
    // A cancel consumes the session's waiting controls and replies (they are applied, or refused by its end).
    const [hash] = await this.write(
      [record],
      [audit],
      record.action === 'cancel' ? { replies_applied: true } : undefined,
    );
    return { entryHash: hash ?? null };
  }

  async reappendAudit(audit: AuditEntryInput): Promise<void> {
    await this.write([], [audit]);
  }

  async voidMessages(records: VoidRecord[]): Promise<void> {
    // Journal and chain commit together here, so the chain is never ahead; kept for the seam.
    if (records.length > 0) await this.write(records, []);
  }

  async recordReply(record: ReplyRecord): Promise<void> {
    await this.write([record], [], { state: 'running', replies_applied: true });
  }

  async recordCrash(record: CrashRecord): Promise<void> {
    await this.write([record], []);
  }

  recordToolCall(record: ToolTurnRecord | ToolResultRecord): void {
    this.carried.push(JSON.stringify(record));
  }

  async recordApproval(record: ApprovalRequestRecord | ApprovalRecord): Promise<void> {
    await this.write(
      [record],
      [],
      record.type === 'approval' ? { state: 'running', replies_applied: true } : undefined,
    );
  }

  async recordToolStart(record: ToolStartRecord): Promise<void> {
    await this.write([record], []);
  }

  async pause(result: SessionResultFiles): Promise<void> {
    await this.write([], [], { state: 'paused', ...resultOf(result, 'pending'), release: true });
    this.released = true;
  }

  async finish(result: SessionResultFiles, end: FinishedRecord | null, passOn?: Promise<boolean>): Promise<void> {
    if (passOn && !(await passOn)) throw notPassedOn(`the result of request ${result.requestId}`);
    await this.write(end ? [end] : [], [], { state: 'finished', ...resultOf(result), release: true });
    this.released = true;
  }

  writeManifest(manifest: SessionManifest): void {
    // Rides with the next write; close() writes a last one alone.
    this.manifest = manifest;
  }

  async close(): Promise<Error | null> {
    if (this.failure || this.released || (this.carried.length === 0 && this.manifest === null)) return null;
    try {
      await this.write([], []);
      return null;
    } catch (error) {
      return error as Error;
    }
  }
}

/** The statuses of a session paused for its steward (docs/run-control.md). */
export const STEWARD_WAITING = ['intervention_required', 'halted_cost', 'halted_time'];

/** A result as the session row keeps it; `pending`: a paused session's, whose question is notified with it. */
function resultOf(result: SessionResultFiles, pending?: 'pending'): SessionRowChange {
  // The store keeps the redacted result: the outbox's copy gets the originals back (outbox-delivery.ts).
  const json = result.redactedJson ?? result.json;
  const parsed = JSON.parse(json) as { status?: string; message?: unknown };
  const message = pending && typeof parsed.message === 'string' ? parsed.message.slice(0, 4000) : null;
  return {
    result_json: json,
    result_report: result.report,
    // A session waiting for its steward keeps its standing (SPEC §25); any other pause is pending.
    result_status: pending
      ? STEWARD_WAITING.includes(parsed.status ?? '')
        ? parsed.status!
        : pending
      : (parsed.status ?? 'failed'),
    message,
  };
}

/** A session's journal rows, parsed by the one journal parser; `lastSeq` 0 when it has none. */
export async function readJournalRows(
  pool: pg.Pool,
  table: (name: string) => string,
  sessionId: string,
): Promise<{ lastSeq: number; records: JournalRecord[] }> {
  const rows = await pool.query<{ seq: number; record: string }>(
    `select seq, record from ${table('journal')} where session_id = $1 order by seq`,
    [sessionId],
  );
  return {
    lastSeq: rows.rows.at(-1)?.seq ?? 0,
    records: rows.rows.map((row, index) =>
      parseJournalRecord(row.record, `the store's journal of session ${sessionId}`, index + 1),
    ),
  };
}

export class PostgresSessionStore implements SessionStore {
  private readonly leases = new Map<string, Lease>();
  private readonly table: (name: string) => string;

  /** `leaseMs` (cluster.lease_ms): the first lease of a session made here (a delegated child). */
  constructor(
    private readonly options: {
      pool: pg.Pool;
      schema: string;
      daemonId: string;
      committer: StoreCommitter;
      leaseMs: number;
      /** The sealed PII vaults; null without a vault key (then nothing is redacted: pii.redact needs one). */
      vaults: StoreVaults | null;
    },
  ) {
    this.table = tablesOf(options.schema);
    options.committer.countSessionsWith(() => this.leases.size);
  }

  /** This daemon holds the session's lease at `epoch` (session-leases.ts took it). */
  hold(sessionId: string, epoch: number): void {
    this.leases.set(sessionId, { epoch, nextSeq: 1 });
  }

  /** Every lease held here, by session: the sessions claimed and the children they started (renewed together). */
  heldLeases(): Map<string, number> {
    return new Map([...this.leases].map(([sessionId, lease]) => [sessionId, lease.epoch]));
  }

  release(sessionId: string): void {
    this.leases.delete(sessionId);
    this.options.vaults?.forget(sessionId);
  }

  /** The session's vault, sealed in the store; its writes are fenced by this daemon's lease. */
  async openVault(sessionId: string): Promise<SessionVault> {
    const { vaults } = this.options;
    if (!vaults)
      return {
        entries: [],
        write: () => {
          throw new GovflowError(
            'internal',
            'no PII vault key: cluster mode with pii.redact refuses to start without one',
          );
        },
      };
    return vaults.open(sessionId, () => this.leases.get(sessionId)?.epoch);
  }

  private flushedVault(sessionId: string): () => Promise<void> {
    const { vaults } = this.options;
    return vaults ? () => vaults.flushed(sessionId) : () => Promise.resolve();
  }

  /** True for the sessions this daemon holds: the only ones it may open. */
  exists(sessionId: string): boolean {
    return this.leases.has(sessionId);
  }

  keepPrompt(sha256: string, text: string): void {
    this.options.committer.keepPrompt(sha256, text);
  }

  /** An attachment's bytes from `attachment_chunks` (docs/attachments.md), one chunk per query. */
  readAttachment(sessionId: string, file: string, signal: AbortSignal): AsyncIterable<Uint8Array> {
    return readAttachmentChunks(this.options.pool, this.table('attachment_chunks'), sessionId, file, signal);
  }

  async create(record: SessionRecord): Promise<StoredSession> {
    let lease = this.leases.get(record.session_id);
    if (!lease) {
      // A session started in this process (a delegated child): its row is made here, leased to us.
      await this.options.pool.query(
        `insert into ${this.table('sessions')} (session_id, request_id, state, request, user_name, intake_daemon, owner, epoch, ` +
          `lease_expires_at) values ($1, $2, 'running', $3, $4, $5, $5, 1, now() + $6 * interval '1 millisecond')`,
        [
          record.session_id,
          record.request_id,
          JSON.stringify({
            text: record.request.text,
            metadata: record.request.metadata,
            source_file: record.source_file,
          }),
          record.request.user,
          this.options.daemonId,
          this.options.leaseMs,
        ],
      );
      lease = { epoch: 1, nextSeq: 1 };
      this.leases.set(record.session_id, lease);
    }
    const session = new PostgresStoredSession(
      record.session_id,
      lease,
      this.options.committer,
      this.flushedVault(record.session_id),
    );
    await session.commitSession(record);
    return session;
  }

  async open(sessionId: string): Promise<{ session: StoredSession; records: JournalRecord[] }> {
    const lease = this.leases.get(sessionId);
    if (!lease) throw new GovflowError('internal', `session "${sessionId}" is not leased to this daemon`);
    const { lastSeq, records } = await readJournalRows(this.options.pool, this.table, sessionId);
    lease.nextSeq = lastSeq + 1;
    return {
      session: new PostgresStoredSession(sessionId, lease, this.options.committer, this.flushedVault(sessionId)),
      records,
    };
  }

  async records(sessionId: string): Promise<JournalRecord[]> {
    const { records } = await readJournalRows(this.options.pool, this.table, sessionId);
    if (records.length === 0) throw new GovflowError('request', `no session "${sessionId}" in the store`);
    return records;
  }

  async auditedMessages(sessionId: string): Promise<AuditedMessages> {
    const rows = await this.options.pool.query<{ message_id: string; entry: string }>(
      `select message_id, entry from ${this.table('audit_entries')} where session_id = $1 order by position`,
      [sessionId],
    );
    const audited: AuditedMessages = new Map();
    for (const row of rows.rows) {
      const entry = parseEntries(row.entry).entries[0];
      if (!entry)
        throw new GovflowError(
          'internal',
          `the store's audit entry of message ${row.message_id} (session ${sessionId}) cannot be read as an audit entry`,
        );
      audited.set(row.message_id, { sequence: entry.sequence, agent: entry.agent, hash: entry.hash });
    }
    return audited;
  }
}
