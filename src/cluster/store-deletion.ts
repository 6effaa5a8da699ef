/**
 * `audit.retention.delete_after_days` in cluster mode (docs/cluster.md "Retention"): the oldest
 * days of the one chain in Postgres go, with the sessions that finished on them and their rows, in
 * one transaction under an advisory lock, so one daemon at a time deletes and a crash deletes all
 * or nothing. The transaction adds the deletion record (the chain's count and hash at the cut,
 * signed like a checkpoint when audit.signing_key is set) that `verify --store` starts from.
 */
import type pg from 'pg';
import { GENESIS_HASH, computeEntryHash } from '../audit/audit-entry-format.js';
import type { DeletionRecord } from '../audit/log-retention.js';
import { GovflowError } from '../errors.js';
import { inTransaction, tablesOf } from './postgres-connection.js';

const BATCH = 2000;
const TRAILER = /\[ENTRY_HASH: ([0-9a-f]{64})\]\n---\n$/;

export type DeletionOutcome =
  | { kind: 'busy' }
  | { kind: 'held'; daemons: string[] }
  | { kind: 'nothing' }
  | { kind: 'deleted'; record: DeletionRecord };

/** Where the store's chain starts: after the newest deletion, or at the genesis. */
export async function storeChainStart(
  db: pg.Pool | pg.PoolClient,
  schema: string,
): Promise<{ entries: number; hash: string; day: string } | null> {
  const rows = await db.query<{ entries: string; hash: string; day: string }>(
    `select entries, hash, day from ${tablesOf(schema)('audit_deletions')} order by entries desc limit 1`,
  );
  const row = rows.rows[0];
  return row ? { entries: Number(row.entries), hash: row.hash, day: row.day } : null;
}

/** The deletion that took this session, or null. */
export async function deletedSession(
  pool: pg.Pool,
  schema: string,
  sessionId: string,
): Promise<{ day: string; at: string } | null> {
  const rows = await pool.query<{ line: string }>(
    `select line from ${tablesOf(schema)('audit_deletions')} where line::jsonb -> 'sessions' ? $1 limit 1`,
    [sessionId],
  );
  return rows.rows[0] ? (JSON.parse(rows.rows[0].line) as DeletionRecord) : null;
}

/**
 * The newest day before `cutoff` whose entries all come before every later day's (a clean cut:
 * daemons committing across midnight can interleave two days), never the chain's newest day.
 */
function cutDay(
  days: Array<{ day: string; lo: number; hi: number }>,
  cutoff: string,
): { day: string; hi: number } | null {
  let best: { day: string; hi: number } | null = null;
  let highest = 0;
  for (let index = 0; index < days.length - 1; index++) {
    const { day, hi } = days[index];
    if (day >= cutoff) break;
    highest = Math.max(highest, hi);
    const laterLow = Math.min(...days.slice(index + 1).map((later) => later.lo));
    if (highest < laterLow) best = { day, hi: highest };
  }
  return best;
}

/** Walks the entries it would delete: retention never destroys the evidence of tampering. */
async function checkChain(client: pg.PoolClient, table: string, from: { entries: number; hash: string }, cut: number) {
  let [position, previous] = [from.entries, from.hash];
  while (position < cut) {
    const rows = await client.query<{ position: string; message_id: string; entry: string; hash: string }>(
      `select position, message_id, entry, hash from ${table} where position > $1 and position <= $2 order by position limit ${BATCH}`,
      [position, cut],
    );
    for (const row of rows.rows) {
      const stated = TRAILER.exec(row.entry);
      const body = stated ? row.entry.slice(0, stated.index) : row.entry;
      if (Number(row.position) !== position + 1 || computeEntryHash(previous, body) !== row.hash) {
        throw new GovflowError(
          'audit',
          `the store's chain does not hold at position ${position + 1} (message_id ${row.message_id}); nothing deleted: run "govflow verify --store"`,
        );
      }
      [position, previous] = [Number(row.position), row.hash];
    }
    if (rows.rows.length === 0) break;
  }
  return previous;
}

export async function deleteStoreDays(options: {
  pool: pg.Pool;
  schema: string;
  /** Days before it (`YYYYMMDD`) are older than delete_after_days. */
  cutoff: string;
  now: Date;
  sign?: <T extends object>(fields: T) => T & { key: string; sig: string };
}): Promise<DeletionOutcome> {
  const { schema, cutoff, now } = options;
  const table = tablesOf(schema);
  return inTransaction(options.pool, async (client) => {
    const lock = await client.query<{ ok: boolean }>('select pg_try_advisory_xact_lock(hashtext($1)) as ok', [
      `govflow-retention:${schema}`,
    ]);
    if (!lock.rows[0].ok) return { kind: 'busy' };
    const holds = await client.query<{ daemon_id: string }>(`select daemon_id from ${table('legal_holds')}`);
    if (holds.rows.length > 0) return { kind: 'held', daemons: holds.rows.map((row) => row.daemon_id) };
    const days = await client.query<{ day: string; lo: string; hi: string }>(
      `select day, min(position) lo, max(position) hi from ${table('audit_entries')} group by day order by day`,
    );
    const cut = cutDay(
      days.rows.map((row) => ({ day: row.day, lo: Number(row.lo), hi: Number(row.hi) })),
      cutoff,
    );
    if (cut === null) return { kind: 'nothing' };
    const start = (await storeChainStart(client, schema)) ?? { entries: 0, hash: GENESIS_HASH };
    const hash = await checkChain(client, table('audit_entries'), start, cut.hi);
    // Sessions that finished with every entry at or before the cut, unless a parent they were delegated from still runs.
    const sessions = await client.query<{ session_id: string; request_id: string }>(
      `select s.session_id, s.request_id from ${table('sessions')} s
        where s.state = 'finished'
          and exists (select 1 from ${table('audit_entries')} e where e.session_id = s.session_id and e.position <= $1)
          and not exists (select 1 from ${table('audit_entries')} e where e.session_id = s.session_id and e.position > $1)
          and not exists (select 1 from ${table('journal')} j join ${table('sessions')} p
                 on p.session_id = (j.record::jsonb -> 'delegation' ->> 'parent_session_id')
               where j.session_id = s.session_id and j.seq = 1 and p.state <> 'finished')
        order by s.session_id`,
      [cut.hi],
    );
    const ids = sessions.rows.map((row) => row.session_id);
    const fields = {
      day: cut.day,
      entries: cut.hi,
      hash,
      at: now.toISOString(),
      days: days.rows.map((row) => row.day).filter((day) => day <= cut.day),
      sessions: ids,
      requests: sessions.rows.map((row) => row.request_id).sort(),
    };
    const record = options.sign ? options.sign(fields) : fields;
    await client.query(
      `insert into ${table('audit_deletions')} (entries, day, hash, line, deleted_at) values ($1, $2, $3, $4, $5)`,
      [cut.hi, cut.day, hash, JSON.stringify(record), now],
    );
    for (const name of ['replies', 'journal', 'attachment_chunks', 'pii_vaults'])
      await client.query(`delete from ${table(name)} where session_id = any($1)`, [ids]);
    await client.query(`delete from ${table('sessions')} where session_id = any($1)`, [ids]);
    await client.query(
      `insert into ${table('deleted_requests')} (request_id, deleted_through) select unnest($1::text[]), $2 on conflict do nothing`,
      [fields.requests, cut.day],
    );
    await client.query(`delete from ${table('audit_entries')} where position <= $1`, [cut.hi]);
    await client.query(`delete from ${table('user_spend')} where day <= $1`, [cut.day]);
    return { kind: 'deleted', record };
  });
}
