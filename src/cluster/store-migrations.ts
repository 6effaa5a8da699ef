/**
 * The Postgres store's tables, as versioned migrations (schema-migrate.ts applies them at every
 * start and in `govflow migrate`). Never edit a released migration: add the next version.
 */
import { GENESIS_HASH } from '../audit/audit-entry-format.js';
import { COMMIT_WRITES_SET_BASED } from './commit-writes-sql.js';
import { CONVERSATION_OF_REQUEST } from './conversation-turns.js';

export interface Migration {
  version: number;
  name: string;
  /** SQL with `$schema` standing for the quoted schema name. */
  sql: string;
}

/** The columns migration 13 compresses with lz4: what every committed message writes, or reads back whole. */
export const LZ4_COLUMNS: ReadonlyArray<readonly [table: string, column: string]> = [
  ['journal', 'record'],
  ['audit_entries', 'entry'],
  ['prompts', 'text'],
  ['sessions', 'request'],
  ['sessions', 'manifest'],
  ['sessions', 'result_json'],
  ['sessions', 'result_report'],
];

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
  {
    version: 2,
    name: 'commit_writes: a group commit in one statement',
    // The committer's whole transaction (store-committer.ts) as one function, so a commit is one
    // round trip and the chain head's lock is held for microseconds, not for several round trips.
    // Entry bodies are formatted by govflow (audit-entry-format.ts); the hash is the same SHA-256
    // over previous hash + body, computed here under the head's lock.
    sql: `
create function $schema.commit_writes(daemon text, writes jsonb, prompts jsonb, audit_channel text, results_channel text)
returns jsonb language plpgsql as $fn$
declare
  n int := jsonb_array_length(writes);
  w jsonb; a jsonb; ch jsonb;
  ours boolean[] := '{}';
  any_audit boolean := false;
  head_position bigint; head_hash text; newest text;
  entry_hash text; entry_day text;
  hashes jsonb := '[]'; write_hashes jsonb; fenced jsonb := '[]';
  intake text; request text; releasing boolean;
begin
  perform 1 from $schema.sessions
    where session_id in (select x->>'session' from jsonb_array_elements(writes) x)
    order by session_id for update;
  for i in 0 .. n - 1 loop
    w := writes->i;
    ours[i + 1] := exists (select 1 from $schema.sessions s where s.session_id = w->>'session' and s.owner = daemon and s.epoch = (w->>'epoch')::bigint);
    if ours[i + 1] and jsonb_array_length(w->'audit') > 0 then any_audit := true; end if;
  end loop;
  if any_audit then
    select h.position, h.hash, coalesce(e.day, '') into head_position, head_hash, newest
      from $schema.audit_head h left join $schema.audit_entries e on e.position = h.position
      where h.id = 1 for update of h;
  end if;
  for i in 0 .. n - 1 loop
    w := writes->i;
    write_hashes := '[]';
    if not ours[i + 1] then
      fenced := fenced || to_jsonb(i);
      hashes := hashes || jsonb_build_array(write_hashes);
      continue;
    end if;
    insert into $schema.journal (session_id, seq, record)
      select w->>'session', (w->>'first_seq')::int + t.ord::int - 1, t.record
      from jsonb_array_elements_text(w->'records') with ordinality as t(record, ord);
    for a in select value from jsonb_array_elements(w->'audit') loop
      entry_hash := encode(sha256(convert_to(head_hash || (a->>'body'), 'UTF8')), 'hex');
      entry_day := greatest(a->>'day', newest);
      newest := entry_day;
      head_position := head_position + 1;
      insert into $schema.audit_entries (position, day, session_id, message_id, entry, hash)
        values (head_position, entry_day, w->>'session', a->>'message_id', (a->>'body') || '[ENTRY_HASH: ' || entry_hash || E']\n---\n', entry_hash);
      head_hash := entry_hash;
      write_hashes := write_hashes || to_jsonb(entry_hash);
    end loop;
    hashes := hashes || jsonb_build_array(write_hashes);
    ch := w->'change';
    if ch is not null and jsonb_typeof(ch) = 'object' then
      releasing := coalesce((ch->>'release')::boolean, false);
      update $schema.sessions set
          updated_at = now(),
          state = coalesce(ch->>'state', state),
          governance_hash = coalesce(ch->>'governance_hash', governance_hash),
          manifest = coalesce(ch->'manifest', manifest),
          result_json = coalesce(ch->>'result_json', result_json),
          result_report = coalesce(ch->>'result_report', result_report),
          result_status = coalesce(ch->>'result_status', result_status),
          result_version = result_version + (case when ch ? 'result_json' then 1 else 0 end),
          owner = case when releasing then null else owner end,
          lease_expires_at = case when releasing then null else lease_expires_at end
        where session_id = w->>'session'
        returning intake_daemon, request_id into intake, request;
      if coalesce((ch->>'replies_applied')::boolean, false) then
        update $schema.replies set applied = true where session_id = w->>'session' and not applied;
      end if;
      if ch ? 'result_json' then
        perform pg_notify(results_channel, json_build_object('intake', intake, 'session', w->>'session', 'request', request,
          'status', ch->>'result_status', 'state', coalesce(ch->>'state', 'finished'), 'message', ch->>'message')::text);
      end if;
    end if;
  end loop;
  if any_audit then
    update $schema.audit_head set position = head_position, hash = head_hash where id = 1;
    perform pg_notify(audit_channel, head_position::text);
  end if;
  insert into $schema.prompts (sha256, text) select key, value from jsonb_each_text(prompts) on conflict do nothing;
  return jsonb_build_object('fenced', fenced, 'hashes', hashes);
end
$fn$;
`,
  },
  {
    version: 3,
    name: 'daemons: one heartbeat row per live daemon',
    // Leases only say who holds a session; an idle daemon holds none. Each daemon upserts its row at
    // its lease-renewal pace and deletes it on a clean stop, so a row whose last_seen is older than
    // three of its own renewal intervals (renew_ms: the daemons of one cluster may differ) is a
    // daemon presumed dead. last_seen is Postgres's clock, so hosts' clocks need not agree.
    sql: `
create table $schema.daemons (
  daemon_id text primary key,
  host text not null,
  pid int not null,
  http_url text,
  renew_ms int not null,
  sessions text[] not null default '{}',
  started_at timestamptz not null default now(),
  last_seen timestamptz not null default now()
);
`,
  },
  {
    version: 4,
    name: 'audit_checkpoints: the signed checkpoints of the chain',
    // One stream for the one chain (store-checkpoints.ts): the entry count is the key, so two
    // checkpoints can never name the same count, and rows are only added under an advisory lock
    // past the newest one, so counts and signing times rise together. `line` is the signed JSON
    // line as delivered to the witnesses; verify reads it, never the other columns.
    sql: `
create table $schema.audit_checkpoints (
  entries bigint primary key,
  day text not null,
  hash text not null,
  signed_at timestamptz not null,
  daemon text not null,
  line text not null
);
`,
  },
  {
    version: 5,
    name: 'user_spend: USD spent on model calls per user and day (limits.user_daily_usd)',
    // One row per user and day (the configured zone's YYYYMMDD), added to by every daemon in one
    // atomic upsert per priced model call (store-user-spend.ts).
    sql: `
create table $schema.user_spend (
  day text not null,
  user_name text not null,
  usd float8 not null default 0,
  updated_at timestamptz not null default now(),
  primary key (day, user_name)
);
`,
  },
  {
    version: 6,
    name: 'attachment_chunks: the files of requests with attachments',
    // A request's attachments travel with it (docs/attachments.md): whichever daemon runs the
    // session copies them into its workspace from here. Stored in 1 MiB chunks (attachment-chunks.ts),
    // written in the transaction that queues the request, so neither the writer nor a reader
    // holds a whole file in memory. The list itself (path, sha256, bytes, type) is in sessions.request.
    sql: `
create table $schema.attachment_chunks (
  session_id text not null references $schema.sessions (session_id),
  path text not null,
  seq int not null,
  data bytea not null,
  primary key (session_id, path, seq)
);
`,
  },
  {
    version: 7,
    name: 'sessions_listing: the listing order (govflow sessions, GET /v1/sessions)',
    // Each page of a listing starts after its cursor's (created_at, session_id), newest first
    // (cluster-listing.ts): with this index a page reads its rows, not the whole table.
    sql: `
create index sessions_listing on $schema.sessions (created_at desc, session_id desc);
`,
  },
  {
    version: 8,
    name: 'pii_vaults: the PII vault of each session, sealed with the vault key (AES-256-GCM)',
    // One row per session (store-vaults.ts): iv | tag | ciphertext of the vault's JSON, the session
    // id as additional data. The key is never in the database (GOVFLOW_VAULT_KEY or
    // privacy.vault_key_file); this is the one place in the store that holds original PII values.
    sql: `
create table $schema.pii_vaults (
  session_id text primary key references $schema.sessions (session_id),
  sealed bytea not null,
  updated_at timestamptz not null default now()
);
`,
  },
  {
    version: 9,
    name: 'rate_limit_events: http.rate_limit counted across daemons (a sliding minute)',
    // store-rate-limits.ts: one row per call counted (a user's call, a failed token of an address)
    // within the window; rate_limit_hit counts and records under an advisory lock per key, so
    // daemons answering at once see each other's calls. Postgres's clock: hosts need not agree.
    sql: `
create table $schema.rate_limit_events (
  key text not null,
  at timestamptz not null
);
create index rate_limit_events_key on $schema.rate_limit_events (key, at);
create function $schema.rate_limit_hit(k text, window_ms bigint, max_calls bigint, counting boolean)
returns table (hits bigint, ttl_ms bigint) language plpgsql as $fn$
declare
  n bigint;
  oldest timestamptz;
  t timestamptz := clock_timestamp();
  span interval := window_ms * interval '1 millisecond';
begin
  perform pg_advisory_xact_lock(hashtext('govflow-rate:' || k));
  delete from $schema.rate_limit_events e where e.key = k and e.at <= t - span;
  select count(*), min(e.at) into n, oldest from $schema.rate_limit_events e where e.key = k;
  if counting then
    if n < max_calls then
      insert into $schema.rate_limit_events (key, at) values (k, t);
      oldest := coalesce(oldest, t);
    end if;
    -- A refused call is not recorded: the window frees when its oldest counted call leaves it.
    n := n + 1;
  end if;
  return query select n, case when oldest is null then 0::bigint
    else greatest(0, ceil(extract(epoch from (oldest + span - t)) * 1000))::bigint end;
end
$fn$;
`,
  },
  {
    version: 10,
    name: 'audit_deletions, legal_holds: audit.retention.delete_after_days in cluster mode',
    // store-retention.ts: one daemon at a time (an advisory lock) deletes the oldest days of the
    // chain with the sessions that finished on them, in one transaction that also adds the record
    // of that deletion (the chain's count and hash at the cut; `line` is the JSON line, signed when
    // audit.signing_key is set) which verify --store starts from and every daemon copies to its
    // system/logs/archive/deleted.jsonl. A root's system/state/legal-hold is a row here while it
    // exists, so a hold on any daemon's root holds the whole store. A deleted request's id stays
    // taken (as in files mode): inserting it again is a unique violation, a duplicate to intake.
    sql: `
create table $schema.audit_deletions (
  entries bigint primary key,
  day text not null,
  hash text not null,
  line text not null,
  deleted_at timestamptz not null default now()
);
create table $schema.legal_holds (
  daemon_id text primary key,
  host text not null,
  root text not null,
  since timestamptz not null default now()
);
create table $schema.deleted_requests (
  request_id text primary key,
  deleted_through text not null
);
create function $schema.refuse_deleted_request() returns trigger language plpgsql as $fn$
begin
  if exists (select 1 from $schema.deleted_requests d where d.request_id = new.request_id) then
    raise unique_violation using message = 'request_id ' || new.request_id || ' was deleted by audit retention';
  end if;
  return new;
end
$fn$;
create trigger sessions_refuse_deleted before insert on $schema.sessions
  for each row execute function $schema.refuse_deleted_request();
`,
  },
  {
    version: 11,
    name: 'commit_writes set-based; sessions rows narrow, with room for in-place updates',
    // Same arguments, result and guarantees as version 2's (an older daemon still calls it alike);
    // about half the statements per commit (commit-writes-sql.ts, issue 55).
    sql: COMMIT_WRITES_SET_BASED,
  },
  {
    version: 12,
    name: 'sessions_conversation: the sessions of a chat conversation, by its id',
    // A chat message's new turn is checked against its conversation's sessions (conversation-turns.ts
    // turnTaken) under a lock per conversation: with this index it reads them, not the whole table.
    sql: `
create index sessions_conversation on $schema.sessions ((${CONVERSATION_OF_REQUEST}));
`,
  },
  {
    version: 13,
    name: 'journal records, audit entries, prompts and session documents compressed with lz4',
    // A model call's journal records run to kilobytes, and Postgres compresses each one it stores:
    // lz4 does it for less CPU than the default pglz (a session's 14 records, 0.54–0.72 against
    // 0.65–1.15 ms, bench/RESULTS.md, issue 55), where the server has it (PostgreSQL 14+ built with
    // lz4); elsewhere nothing changes. Values already stored keep their compression; both read alike.
    sql: `
do $lz4$
begin
  if exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)) then
    ${LZ4_COLUMNS.map(([table, column]) => `alter table $schema.${table} alter column ${column} set compression lz4;`).join('\n    ')}
  end if;
end
$lz4$;
`,
  },
]);
