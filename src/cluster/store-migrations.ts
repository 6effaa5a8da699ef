/**
 * The Postgres store's tables, as versioned migrations applied in order at every start (and by
 * `govflow migrate` alone). Each runs once, in its own transaction, under an advisory lock so
 * daemons starting together do not race; `schema_migrations` records what ran. Never edit a
 * released migration: add the next version.
 */
import type pg from 'pg';
import { GENESIS_HASH } from '../audit/audit-entry-format.js';
import { quoteIdentifier } from './postgres-connection.js';

interface Migration {
  version: number;
  name: string;
  /** SQL with `$schema` standing for the quoted schema name. */
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = Object.freeze([
  {
    version: 1,
    name: 'sessions, journal, audit chain, governance, prompts',
    sql: `
create table $schema.sessions (
  session_id text primary key,
  request_id text not null unique,
  -- queued: waiting for a daemon; running: leased; paused: waits for a person; finished
  state text not null check (state in ('queued', 'running', 'paused', 'finished')),
  request jsonb not null,
  user_name text,
  intake_daemon text not null,
  owner text,
  epoch bigint not null default 0,
  lease_expires_at timestamptz,
  governance_hash text,
  result_json text,
  result_report text,
  result_status text,
  result_version int not null default 0,
  outbox_version int not null default 0,
  manifest jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index sessions_work on $schema.sessions (state, created_at);
create index sessions_outbox on $schema.sessions (intake_daemon) where result_version > outbox_version;
create table $schema.journal (
  session_id text not null references $schema.sessions (session_id),
  seq int not null,
  record text not null,
  primary key (session_id, seq)
);
create table $schema.audit_head (
  id int primary key check (id = 1),
  position bigint not null,
  hash text not null
);
insert into $schema.audit_head values (1, 0, '${GENESIS_HASH}');
create table $schema.audit_entries (
  position bigint primary key,
  day text not null,
  session_id text not null,
  message_id text not null,
  entry text not null,
  hash text not null unique,
  committed_at timestamptz not null default now()
);
create index audit_entries_session on $schema.audit_entries (session_id);
create table $schema.replies (
  id bigserial primary key,
  session_id text not null,
  reply jsonb not null,
  applied boolean not null default false,
  created_at timestamptz not null default now()
);
create index replies_open on $schema.replies (session_id) where not applied;
create table $schema.governance_snapshots (
  hash text primary key,
  files jsonb not null,
  created_at timestamptz not null default now()
);
create table $schema.prompts (
  sha256 text primary key,
  text text not null
);
`,
  },
]);

/** Advisory lock key of the migrations (any constant; one per schema via hashtext). */
const LOCK_SQL = 'select pg_advisory_xact_lock(hashtext($1))';

/** Applies every migration the schema lacks; resolves with the versions applied now. */
export async function migrate(pool: pg.Pool, schema: string): Promise<number[]> {
  const quoted = quoteIdentifier(schema);
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('begin');
    await client.query(LOCK_SQL, [`govflow-migrations:${schema}`]);
    await client.query(`create schema if not exists ${quoted}`);
    await client.query(`create table if not exists ${quoted}.schema_migrations (version int primary key, name text not null, applied_at timestamptz not null default now())`);
    const done = new Set((await client.query<{ version: number }>(`select version from ${quoted}.schema_migrations`)).rows.map((row) => row.version));
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql.replaceAll('$schema', quoted));
      await client.query(`insert into ${quoted}.schema_migrations (version, name) values ($1, $2)`, [migration.version, migration.name]);
      applied.push(migration.version);
    }
    const newest = Math.max(0, ...done);
    const known = MIGRATIONS.at(-1)?.version ?? 0;
    if (newest > known) throw new Error(`the store's schema "${schema}" is at version ${newest}, newer than this govflow knows (${known}): run the newer govflow`);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return applied;
}
