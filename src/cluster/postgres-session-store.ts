/**
 * The Postgres store (docs/cluster.md): the second implementation of the store seam
 * (src/store/session-store.ts). A session's journal is rows of `journal`; each message's audit
 * entry is appended to the chain in the same transaction as its journal record (store-committer.ts);
 * results go to the session's row, from which the intake daemon writes its outbox.
 *
 * A session is written only under a lease this daemon holds (`hold(sessionId, epoch)`, taken by
 * session-leases.ts); every write is fenced by that epoch. Once one write of a session fails, every
 * later one fails at once: the session is dropped here and resumed from the journal by whoever
 * holds its lease next.
 */
import type pg from 'pg';
import type { AuditEntryInput } from '../audit/audit-entry-format.js';
import { parseEntries } from '../audit/audit-entry-parse.js';
import { parseJournalRecord } from '../store/session-journal.js';
import type {
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
import type { ApprovalRecord, ApprovalRequestRecord, ToolResultRecord, ToolTurnRecord } from '../store/tool-journal-records.js';
import type { AuditedMessages, SessionResultFiles, SessionStore, StoredSession } from '../store/session-store.js';
import { quoteIdentifier } from './postgres-connection.js';
import { StoreCommitter, type SessionRowChange } from './store-committer.js';
import { GovflowError } from '../errors.js';

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
  ) {}

  /** One fenced write: the carried records, then `records`, then `audit`, then `change`. */
  private async write(records: JournalRecord[], audit: AuditEntryInput[], change?: SessionRowChange): Promise<string[]> {
    if (this.failure) throw this.failure;
    const serialized = [...this.carried, ...records.map((record) => JSON.stringify(record))];
    this.carried = [];
    const firstSeq = this.lease.nextSeq;
    this.lease.nextSeq += serialized.length;
    const withManifest = this.manifest ? { ...change, manifest: this.manifest } : change;
    this.manifest = null;
    try {
      return await this.committer.commit({ sessionId: this.sessionId, epoch: this.lease.epoch, records: serialized, firstSeq, audit, ...(withManifest ? { change: withManifest } : {}) });
    } catch (error) {
      this.failure ??= error as Error;
      throw error;
    }
  }

  /** The session's first record (create). */
  async commitSession(record: SessionRecord): Promise<void> {
    await this.write([record], [], { state: 'running' });
  }

  recordExchange(record: ExchangeRecord): void {
    this.carried.push(JSON.stringify(record));
  }

  async commitMessage(record: MessageRecord, audit: AuditEntryInput): Promise<{ entryHash: string | null }> {
    const [hash] = await this.write([record], [audit], { governanceHash: record.governance_hash });
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
    await this.write([record], [], { state: 'running', repliesApplied: true });
  }

  async recordCrash(record: CrashRecord): Promise<void> {
    await this.write([record], []);
  }

  recordToolCall(record: ToolTurnRecord | ToolResultRecord): void {
    this.carried.push(JSON.stringify(record));
  }

  async recordApproval(record: ApprovalRequestRecord | ApprovalRecord): Promise<void> {
    await this.write([record], [], record.type === 'approval' ? { state: 'running', repliesApplied: true } : undefined);
  }

  async pause(result: SessionResultFiles): Promise<void> {
    await this.write([], [], { state: 'paused', result: resultOf(result, 'pending'), release: true });
    this.released = true;
  }

  async finish(result: SessionResultFiles, end: FinishedRecord | null): Promise<void> {
    await this.write(end ? [end] : [], [], { state: 'finished', result: resultOf(result), release: true });
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

function resultOf(result: SessionResultFiles, status?: string): { json: string; report: string; status: string } {
  const parsed = JSON.parse(result.json) as { status?: string };
  return { json: result.json, report: result.report, status: status ?? parsed.status ?? 'failed' };
}

export interface PostgresSessionStoreOptions {
  pool: pg.Pool;
  schema: string;
  daemonId: string;
  committer: StoreCommitter;
  /** cluster.lease_ms: the first lease of a session made here (a delegated child). */
  leaseMs: number;
}

export class PostgresSessionStore implements SessionStore {
  private readonly leases = new Map<string, Lease>();
  private readonly table: (name: string) => string;

  constructor(private readonly options: PostgresSessionStoreOptions) {
    const schema = quoteIdentifier(options.schema);
    this.table = (name) => `${schema}.${name}`;
  }

  /** This daemon holds the session's lease at `epoch` (session-leases.ts took it). */
  hold(sessionId: string, epoch: number): void {
    this.leases.set(sessionId, { epoch, nextSeq: 1 });
  }

  /** Forgets a session this daemon no longer holds. */
  /** Every lease held here, by session: the sessions claimed and the children they started (renewed together). */
  heldLeases(): Map<string, number> {
    return new Map([...this.leases].map(([sessionId, lease]) => [sessionId, lease.epoch]));
  }

  release(sessionId: string): void {
    this.leases.delete(sessionId);
  }

  /** The epoch this daemon holds a session at, or null. */
  heldEpoch(sessionId: string): number | null {
    return this.leases.get(sessionId)?.epoch ?? null;
  }

  /** True for the sessions this daemon holds: the only ones it may open. */
  exists(sessionId: string): boolean {
    return this.leases.has(sessionId);
  }

  keepPrompt(sha256: string, text: string): void {
    this.options.committer.keepPrompt(sha256, text);
  }

  async create(record: SessionRecord): Promise<StoredSession> {
    let lease = this.leases.get(record.session_id);
    if (!lease) {
      // A session started in this process (a delegated child): its row is made here, leased to us.
      await this.options.pool.query(
        `insert into ${this.table('sessions')} (session_id, request_id, state, request, user_name, intake_daemon, owner, epoch, lease_expires_at) values ($1, $2, 'running', $3, $4, $5, $5, 1, now() + $6 * interval '1 millisecond')`,
        [record.session_id, record.request_id, JSON.stringify({ text: record.request.text, metadata: record.request.metadata, source_file: record.source_file }), record.request.user, this.options.daemonId, this.options.leaseMs],
      );
      lease = { epoch: 1, nextSeq: 1 };
      this.leases.set(record.session_id, lease);
    }
    const session = new PostgresStoredSession(record.session_id, lease, this.options.committer);
    await session.commitSession(record);
    return session;
  }

  async open(sessionId: string): Promise<{ session: StoredSession; records: JournalRecord[] }> {
    const lease = this.leases.get(sessionId);
    if (!lease) throw new GovflowError('internal', `session "${sessionId}" is not leased to this daemon`);
    const rows = await this.options.pool.query<{ seq: number; record: string }>(`select seq, record from ${this.table('journal')} where session_id = $1 order by seq`, [sessionId]);
    lease.nextSeq = (rows.rows.at(-1)?.seq ?? 0) + 1;
    return { session: new PostgresStoredSession(sessionId, lease, this.options.committer), records: rows.rows.map((row, index) => parseJournalRecord(row.record, `the store's journal of session ${sessionId}`, index + 1)) };
  }

  async auditedMessages(sessionId: string): Promise<AuditedMessages> {
    const rows = await this.options.pool.query<{ message_id: string; entry: string }>(`select message_id, entry from ${this.table('audit_entries')} where session_id = $1 order by position`, [sessionId]);
    const audited: AuditedMessages = new Map();
    for (const row of rows.rows) {
      const entry = parseEntries(row.entry).entries[0];
      if (!entry) throw new GovflowError('internal', `the store's audit entry of message ${row.message_id} (session ${sessionId}) cannot be read as an audit entry`);
      audited.set(row.message_id, { sequence: entry.sequence, agent: entry.agent });
    }
    return audited;
  }
}
