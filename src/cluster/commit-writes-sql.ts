/**
 * Migration 11's `commit_writes` (store-migrations.ts): the same group commit as migration 2's, with
 * the same arguments, result and guarantees, in a fixed number of statements per call instead of
 * several per write (issue 55: Postgres CPU per committed message). The rows are locked and fenced
 * in one statement, journal records and audit entries inserted in one statement each, and each
 * session's row updated once with its writes' changes folded in write order (a later value wins,
 * as when they were applied one after the other). Only the chain's hashes are computed in a loop:
 * each one covers the previous.
 */
export const COMMIT_WRITES_SET_BASED = `
create or replace function $schema.commit_writes(daemon text, writes jsonb, prompts jsonb, audit_channel text, results_channel text)
returns jsonb language plpgsql as $fn$
declare
  fenced int[];
  any_audit boolean; any_replies boolean; any_results boolean;
  head_position bigint; head_hash text; newest text; entry_hash text;
  a record;
  e_positions bigint[] := '{}'; e_days text[] := '{}'; e_sessions text[] := '{}'; e_message_ids text[] := '{}';
  e_entries text[] := '{}'; e_hashes text[] := '{}'; e_writes int[] := '{}';
  hashes jsonb;
begin
  -- Rows locked in session order (two daemons never deadlock), then every write checked against
  -- its row as locked: one made under a lease epoch that no longer holds is fenced.
  with locked as materialized (
    select s.session_id, s.owner, s.epoch from $schema.sessions s
      where s.session_id in (select x->>'session' from jsonb_array_elements(writes) x)
      order by s.session_id for update
  )
  select coalesce(array_agg((x.wn - 1)::int order by x.wn) filter (where l.session_id is null), '{}'),
         coalesce(bool_or(jsonb_array_length(x.w->'audit') > 0) filter (where l.session_id is not null), false),
         coalesce(bool_or(jsonb_typeof(x.w->'change') = 'object' and coalesce((x.w->'change'->>'replies_applied')::boolean, false))
           filter (where l.session_id is not null), false),
         coalesce(bool_or(jsonb_typeof(x.w->'change') = 'object' and x.w->'change' ? 'result_json')
           filter (where l.session_id is not null), false)
    into fenced, any_audit, any_replies, any_results
    from jsonb_array_elements(writes) with ordinality x(w, wn)
    left join locked l on l.session_id = x.w->>'session' and l.owner = daemon and l.epoch = (x.w->>'epoch')::bigint;

  insert into $schema.journal (session_id, seq, record)
    select x.w->>'session', (x.w->>'first_seq')::int + t.rn::int - 1, t.record
      from jsonb_array_elements(writes) with ordinality x(w, wn)
      cross join lateral jsonb_array_elements_text(x.w->'records') with ordinality t(record, rn)
      where (x.wn - 1)::int <> all(fenced);

  if any_audit then
    select h.position, h.hash, coalesce(e.day, '') into head_position, head_hash, newest
      from $schema.audit_head h left join $schema.audit_entries e on e.position = h.position
      where h.id = 1 for update of h;
    for a in
      select (x.wn - 1)::int as i, x.w->>'session' as session_id, e.value->>'message_id' as message_id,
             e.value->>'body' as body, e.value->>'day' as day
        from jsonb_array_elements(writes) with ordinality x(w, wn)
        cross join lateral jsonb_array_elements(x.w->'audit') with ordinality e(value, en)
        where (x.wn - 1)::int <> all(fenced)
        order by x.wn, e.en
    loop
      entry_hash := encode(sha256(convert_to(head_hash || a.body, 'UTF8')), 'hex');
      newest := greatest(a.day, newest);
      head_position := head_position + 1;
      e_positions := e_positions || head_position;
      e_days := e_days || newest;
      e_sessions := e_sessions || a.session_id;
      e_message_ids := e_message_ids || a.message_id;
      e_entries := e_entries || (a.body || '[ENTRY_HASH: ' || entry_hash || E']\\n---\\n');
      e_hashes := e_hashes || entry_hash;
      e_writes := e_writes || a.i;
      head_hash := entry_hash;
    end loop;
    insert into $schema.audit_entries (position, day, session_id, message_id, entry, hash)
      select * from unnest(e_positions, e_days, e_sessions, e_message_ids, e_entries, e_hashes);
    update $schema.audit_head set position = head_position, hash = head_hash where id = 1;
    perform pg_notify(audit_channel, head_position::text);
  end if;

  select coalesce(jsonb_agg(coalesce(h.list, '[]'::jsonb) order by x.wn), '[]'::jsonb) into hashes
    from jsonb_array_elements(writes) with ordinality x(w, wn)
    left join (select u.i, jsonb_agg(u.hash order by u.position) as list
                 from unnest(e_writes, e_hashes, e_positions) u(i, hash, position) group by u.i) h
      on h.i = (x.wn - 1)::int;

  -- One update per session: of its writes' changes, the last value of each column wins.
  update $schema.sessions s set
      updated_at = now(),
      state = coalesce(c.state, s.state),
      governance_hash = coalesce(c.governance_hash, s.governance_hash),
      manifest = coalesce(c.manifest, s.manifest),
      result_json = coalesce(c.result_json, s.result_json),
      result_report = coalesce(c.result_report, s.result_report),
      result_status = coalesce(c.result_status, s.result_status),
      result_version = s.result_version + c.results,
      owner = case when c.releasing then null else s.owner end,
      lease_expires_at = case when c.releasing then null else s.lease_expires_at end
    from (
      select x.w->>'session' as session_id,
        (array_agg(x.w->'change'->>'state' order by x.wn desc) filter (where x.w->'change'->>'state' is not null))[1] as state,
        (array_agg(x.w->'change'->>'governance_hash' order by x.wn desc)
          filter (where x.w->'change'->>'governance_hash' is not null))[1] as governance_hash,
        (array_agg(x.w->'change'->'manifest' order by x.wn desc) filter (where x.w->'change'->'manifest' is not null))[1] as manifest,
        (array_agg(x.w->'change'->>'result_json' order by x.wn desc)
          filter (where x.w->'change'->>'result_json' is not null))[1] as result_json,
        (array_agg(x.w->'change'->>'result_report' order by x.wn desc)
          filter (where x.w->'change'->>'result_report' is not null))[1] as result_report,
        (array_agg(x.w->'change'->>'result_status' order by x.wn desc)
          filter (where x.w->'change'->>'result_status' is not null))[1] as result_status,
        (count(*) filter (where x.w->'change' ? 'result_json'))::int as results,
        bool_or(coalesce((x.w->'change'->>'release')::boolean, false)) as releasing
      from jsonb_array_elements(writes) with ordinality x(w, wn)
      where (x.wn - 1)::int <> all(fenced) and jsonb_typeof(x.w->'change') = 'object'
      group by x.w->>'session'
    ) c
    where s.session_id = c.session_id;

  if any_replies then
    update $schema.replies set applied = true
      where not applied and session_id in (
        select x.w->>'session' from jsonb_array_elements(writes) with ordinality x(w, wn)
          where (x.wn - 1)::int <> all(fenced) and jsonb_typeof(x.w->'change') = 'object'
            and coalesce((x.w->'change'->>'replies_applied')::boolean, false));
  end if;

  -- One notice per new result, in write order (pg_notify runs after the sort: it is volatile).
  if any_results then
    perform pg_notify(results_channel, json_build_object('intake', s.intake_daemon, 'session', s.session_id, 'request', s.request_id,
        'status', x.w->'change'->>'result_status', 'state', coalesce(x.w->'change'->>'state', 'finished'),
        'message', x.w->'change'->>'message')::text)
      from jsonb_array_elements(writes) with ordinality x(w, wn)
      join $schema.sessions s on s.session_id = x.w->>'session'
      where (x.wn - 1)::int <> all(fenced) and jsonb_typeof(x.w->'change') = 'object' and x.w->'change' ? 'result_json'
      order by x.wn;
  end if;

  if prompts <> '{}'::jsonb then
    insert into $schema.prompts (sha256, text) select key, value from jsonb_each_text(prompts) on conflict do nothing;
  end if;
  return jsonb_build_object('fenced', to_jsonb(fenced), 'hashes', hashes);
end
$fn$;
-- Every statement above takes its parameters from the writes' JSON, whose row counts no planner
-- can estimate: one generic plan per connection serves as well as a custom plan at every call.
alter function $schema.commit_writes(text, jsonb, jsonb, text, text) set plan_cache_mode = force_generic_plan;
-- Every write updates its session's row (the manifest): rows kept narrow (the request, result and
-- manifest documents out of line) and pages with room update in place (HOT), without touching the
-- row's five indexes or rewriting its unchanged documents.
alter table $schema.sessions set (fillfactor = 70, toast_tuple_target = 256);
`;
