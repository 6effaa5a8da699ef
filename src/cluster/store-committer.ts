/**
 * Every durable write of the Postgres store goes through here, group-committed: the writes that
 * arrive while a transaction runs share the next one. One transaction:
 *
 *   1. locks the sessions' rows (in id order) and checks each write's fence: the row's `owner`
 *      and `epoch` must still be this daemon's lease; a write whose lease was lost is dropped and
 *      rejected with LeaseLostError (SPEC §15: a daemon that lost its lease cannot commit);
 *   2. appends the journal records;
 *   3. when any write carries audit entries, locks the chain head (`audit_head`, FOR UPDATE: the
 *      lock that serialises appends across daemons), formats each entry exactly as the files
 *      mode does (audit-entry-format.ts), chains it, and inserts it with its day and position;
 *   4. applies session changes (state, result, manifest, lease release);
 *   5. notifies listeners (new audit entries, results), delivered at commit.
 *
 * A failed transaction (connection cut, server gone) rejects every write in it with
 * StoreUnavailableError: the runner drops that work, the lease runs out, and whoever claims the
 * session next resumes it from the journal — whatever committed is there, whatever did not is not.
 */
import type pg from 'pg';
import { formatEntry, localDayAndTime, type AuditEntryInput } from '../audit/audit-entry-format.js';
import { errorMessage } from '../errors.js';
import { SessionInterruptedError } from '../pipeline/runner-contract.js';
import { quoteIdentifier, withoutCredentials } from './postgres-connection.js';

/** The lease this write was made under no longer holds: another daemon owns the session. */
export class LeaseLostError extends SessionInterruptedError {
  override readonly name = 'LeaseLostError' as 'SessionInterruptedError';
}

/** Postgres could not take the write (connection lost, server down): the work is dropped. */
export class StoreUnavailableError extends SessionInterruptedError {
  override readonly name = 'StoreUnavailableError' as 'SessionInterruptedError';
}

/** Changes to a session's row made with a write. */
export interface SessionRowChange {
  state?: 'running' | 'paused' | 'finished';
  result?: { json: string; report: string; status: string };
  manifest?: unknown;
  governanceHash?: string;
  /** Give the lease up (the session paused or finished). */
  release?: boolean;
  /** Mark the replies of the session as applied. */
  repliesApplied?: boolean;
}

export interface StoreWrite {
  sessionId: string;
  /** The lease epoch the write was made under (the fence). */
  epoch: number;
  /** Serialized journal records, numbered from `firstSeq`. */
  records: string[];
  firstSeq: number;
  audit: AuditEntryInput[];
  change?: SessionRowChange;
}

interface Pending {
  write: StoreWrite;
  resolve: (hashes: string[]) => void;
  reject: (error: Error) => void;
}

export interface CommitterOptions {
  pool: pg.Pool;
  schema: string;
  daemonId: string;
  timezone: string;
  /** Writes per transaction at most (the rest wait for the next one). */
  maxBatch?: number;
}

/** What `<schema>_results` carries: a session paused or finished (every daemon hears it). */
export interface ResultNotice {
  /** The daemon whose outbox gets the result. */
  intake: string;
  session: string;
  request: string;
  status: string;
  state: 'running' | 'paused' | 'finished';
  /** The question of a paused session. */
  message: string | null;
}

function messageOf(resultJson: string): string | null {
  try {
    const message = (JSON.parse(resultJson) as { message?: unknown }).message;
    return typeof message === 'string' ? message.slice(0, 4000) : null;
  } catch {
    return null;
  }
}

/** Notification channels of a schema: new audit entries, and results to write to an outbox. */
export function channelsOf(schema: string): { audit: string; results: string; work: string } {
  return { audit: `${schema}_audit`, results: `${schema}_results`, work: `${schema}_work` };
}

export class StoreCommitter {
  private readonly queue: Pending[] = [];
  private flushing = false;
  private readonly table: (name: string) => string;
  private readonly prompts = new Map<string, string>();
  private readonly channels: ReturnType<typeof channelsOf>;
  /** Transactions and writes committed, for the benchmark's figures. */
  readonly stats = { transactions: 0, writes: 0, entries: 0 };

  constructor(private readonly options: CommitterOptions) {
    const schema = quoteIdentifier(options.schema);
    this.table = (name) => `${schema}.${name}`;
    this.channels = channelsOf(options.schema);
  }

  /** Queues a write; resolves with the hashes of its audit entries once committed. */
  commit(write: StoreWrite): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** A system prompt to keep (content-addressed); committed with the next transaction. */
  keepPrompt(sha256: string, text: string): void {
    this.prompts.set(sha256, text);
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxBatch ?? 256);
        await this.commitBatch(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async commitBatch(batch: Pending[]): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.options.pool.connect();
    } catch (error) {
      this.rejectAll(batch, error);
      return;
    }
    let broken = false;
    try {
      await client.query('begin');
      const { accepted, fenced } = await this.checkFences(client, batch);
      const hashes = await this.writeAll(client, accepted);
      await client.query('commit');
      this.stats.transactions++;
      this.stats.writes += accepted.length;
      accepted.forEach((pending, index) => pending.resolve(hashes[index]));
      for (const pending of fenced) {
        pending.reject(new LeaseLostError(`session ${pending.write.sessionId}: the lease (epoch ${pending.write.epoch}) was taken over by another daemon; this daemon's work on it is dropped`, { sessionId: pending.write.sessionId }));
      }
    } catch (error) {
      broken = true;
      await client.query('rollback').catch(() => undefined);
      this.rejectAll(batch, error);
    } finally {
      client.release(broken);
    }
  }

  private rejectAll(batch: Pending[], error: unknown): void {
    for (const pending of batch) {
      pending.reject(new StoreUnavailableError(`session ${pending.write.sessionId}: the Postgres store did not take the write (${withoutCredentials(errorMessage(error))}); the work is dropped and the session resumes from its journal`, { sessionId: pending.write.sessionId, cause: error }));
    }
  }

  /** Locks the sessions' rows (id order, so transactions never deadlock) and sorts writes by fence. */
  private async checkFences(client: pg.PoolClient, batch: Pending[]): Promise<{ accepted: Pending[]; fenced: Pending[] }> {
    const ids = [...new Set(batch.map((pending) => pending.write.sessionId))].sort();
    const rows = await client.query<{ session_id: string; owner: string | null; epoch: string }>(
      `select session_id, owner, epoch from ${this.table('sessions')} where session_id = any($1) order by session_id for update`,
      [ids],
    );
    const leases = new Map(rows.rows.map((row) => [row.session_id, row]));
    const accepted: Pending[] = [];
    const fenced: Pending[] = [];
    for (const pending of batch) {
      const lease = leases.get(pending.write.sessionId);
      const ours = lease !== undefined && lease.owner === this.options.daemonId && Number(lease.epoch) === pending.write.epoch;
      (ours ? accepted : fenced).push(pending);
    }
    return { accepted, fenced };
  }

  private async writeAll(client: pg.PoolClient, accepted: Pending[]): Promise<string[][]> {
    const journal = { ids: [] as string[], seqs: [] as number[], records: [] as string[] };
    for (const { write } of accepted) {
      write.records.forEach((record, index) => {
        journal.ids.push(write.sessionId);
        journal.seqs.push(write.firstSeq + index);
        journal.records.push(record);
      });
    }
    if (journal.ids.length > 0) {
      await client.query(`insert into ${this.table('journal')} (session_id, seq, record) select * from unnest($1::text[], $2::int[], $3::text[])`, [journal.ids, journal.seqs, journal.records]);
    }
    const hashes = await this.appendAudit(client, accepted);
    for (const { write } of accepted) if (write.change) await this.changeSession(client, write);
    if (this.prompts.size > 0) {
      const prompts = [...this.prompts];
      this.prompts.clear();
      await client.query(`insert into ${this.table('prompts')} (sha256, text) select * from unnest($1::text[], $2::text[]) on conflict do nothing`, [prompts.map(([sha]) => sha), prompts.map(([, text]) => text)]);
    }
    return hashes;
  }

  /** Appends every audit entry of the batch to the chain, under the head's row lock. */
  private async appendAudit(client: pg.PoolClient, accepted: Pending[]): Promise<string[][]> {
    const hashes: string[][] = accepted.map(() => []);
    if (!accepted.some((pending) => pending.write.audit.length > 0)) return hashes;
    const head = await client.query<{ position: string; hash: string; day: string | null }>(
      `select h.position, h.hash, e.day from ${this.table('audit_head')} h left join ${this.table('audit_entries')} e on e.position = h.position where h.id = 1 for update of h`,
    );
    let position = Number(head.rows[0].position);
    let previous = head.rows[0].hash;
    // As the files writer does: an entry stamped before the newest day goes to the newest day's
    // file, so the day files read oldest first are the chain in order.
    let newestDay = head.rows[0].day ?? '';
    const rows = { positions: [] as number[], days: [] as string[], sessions: [] as string[], messages: [] as string[], entries: [] as string[], hashes: [] as string[] };
    accepted.forEach(({ write }, index) => {
      for (const input of write.audit) {
        const { text, hash } = formatEntry(input, this.options.timezone, previous);
        position++;
        previous = hash;
        hashes[index].push(hash);
        rows.positions.push(position);
        const day = localDayAndTime(input.message.timestamp.executed_at, this.options.timezone).day;
        if (day > newestDay) newestDay = day;
        rows.days.push(newestDay);
        rows.sessions.push(write.sessionId);
        rows.messages.push(input.message.message_id);
        rows.entries.push(text);
        rows.hashes.push(hash);
      }
    });
    await client.query(
      `insert into ${this.table('audit_entries')} (position, day, session_id, message_id, entry, hash) select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
      [rows.positions, rows.days, rows.sessions, rows.messages, rows.entries, rows.hashes],
    );
    await client.query(`update ${this.table('audit_head')} set position = $1, hash = $2 where id = 1`, [position, previous]);
    await client.query('select pg_notify($1, $2)', [this.channels.audit, String(position)]);
    this.stats.entries += rows.positions.length;
    return hashes;
  }

  private async changeSession(client: pg.PoolClient, write: StoreWrite): Promise<void> {
    const change = write.change!;
    const sets: string[] = ['updated_at = now()'];
    const values: unknown[] = [write.sessionId];
    const set = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if (change.state) set('state', change.state);
    if (change.governanceHash) set('governance_hash', change.governanceHash);
    if (change.manifest !== undefined) set('manifest', JSON.stringify(change.manifest));
    if (change.result) {
      set('result_json', change.result.json);
      set('result_report', change.result.report);
      set('result_status', change.result.status);
      sets.push('result_version = result_version + 1');
    }
    if (change.release) sets.push('owner = null', 'lease_expires_at = null');
    const updated = await client.query<{ intake_daemon: string; request_id: string }>(`update ${this.table('sessions')} set ${sets.join(', ')} where session_id = $1 returning intake_daemon, request_id`, values);
    if (change.repliesApplied) await client.query(`update ${this.table('replies')} set applied = true where session_id = $1 and not applied`, [write.sessionId]);
    if (change.result) {
      const row = updated.rows[0];
      const notice: ResultNotice = { intake: row?.intake_daemon ?? '', session: write.sessionId, request: row?.request_id ?? '', status: change.result.status, state: change.state ?? 'finished', message: change.state === 'paused' ? messageOf(change.result.json) : null };
      await client.query('select pg_notify($1, $2)', [this.channels.results, JSON.stringify(notice)]);
    }
    if (change.release) await client.query('select pg_notify($1, $2)', [this.channels.work, write.sessionId]);
  }
}
