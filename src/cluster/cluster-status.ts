/**
 * `govflow status` in cluster mode: the sessions of the whole cluster, read from Postgres (any
 * daemon's root shows the same): queued, running (with the daemon holding the lease), waiting for
 * takeover (lease expired), paused, and recently finished.
 */
import type pg from 'pg';
import { quoteIdentifier } from './postgres-connection.js';

interface Row {
  session_id: string;
  request_id: string;
  state: 'queued' | 'running' | 'paused' | 'finished';
  owner: string | null;
  intake_daemon: string;
  lease_expired: boolean;
  result_status: string | null;
  created_at: Date;
  updated_at: Date;
  messages: number;
  current_agent: string | null;
  question: string | null;
}

const RECENT = 10;
const SHOWN = 50;

export async function clusterStatus(pool: pg.Pool, schema: string, now = Date.now()): Promise<{ json: unknown; text: string }> {
  const sessions = `${quoteIdentifier(schema)}.sessions`;
  const select = `select session_id, request_id, state, owner, intake_daemon, coalesce(lease_expires_at < now(), false) as lease_expired, result_status, created_at, updated_at,
      coalesce((result_json::jsonb->>'messages')::int, (manifest->>'messages')::int, 0) as messages, manifest->>'current_agent' as current_agent, coalesce(manifest->>'question', case when state = 'paused' then result_json::jsonb->>'message' end) as question
    from ${sessions}`;
  const unfinished = (await pool.query<Row>(`${select} where state <> 'finished' order by created_at limit ${SHOWN * 3}`)).rows;
  const recent = (await pool.query<Row>(`${select} where state = 'finished' order by updated_at desc limit ${RECENT}`)).rows;
  const counts = (await pool.query<{ state: string; n: number }>(`select state, count(*)::int as n from ${sessions} group by state`)).rows;
  const count = (state: string) => counts.find((row) => row.state === state)?.n ?? 0;
  const queued = unfinished.filter((row) => row.state === 'queued');
  const running = unfinished.filter((row) => row.state === 'running' && !row.lease_expired);
  const interrupted = unfinished.filter((row) => row.state === 'running' && row.lease_expired);
  const paused = unfinished.filter((row) => row.state === 'paused');
  const daemons = [...new Set(running.map((row) => row.owner ?? ''))].filter(Boolean).sort();
  const json = { store: schema, daemons, counts: Object.fromEntries(counts.map((row) => [row.state, row.n])), queued, running, interrupted, paused, recent };
  const age = (from: Date) => `${Math.max(0, Math.round((now - from.getTime()) / 1000))}s`;
  const line = (row: Row) =>
    `  ${row.session_id}  ${(row.result_status ?? row.state).padEnd(9)} ${row.owner ? `daemon=${row.owner}  ` : ''}agent=${row.current_agent ?? '-'}  messages=${row.messages}  age=${age(row.created_at)}  request=${row.request_id}`;
  const lines = [
    `cluster store: ${schema}  daemons holding leases: ${daemons.length > 0 ? daemons.join(', ') : 'none'}`,
    `queued (${count('queued')}):`,
    ...queued.slice(0, SHOWN).map(line),
    `running (${running.length}):`,
    ...running.map(line),
    ...(interrupted.length > 0 ? [`waiting for takeover (${interrupted.length}; their daemon stopped renewing the lease — another daemon resumes them):`, ...interrupted.map(line)] : []),
    `paused (${count('paused')}):`,
    ...paused.map((row) => `${line(row)}\n      question: ${row.question ?? ''}`),
    `recently finished (${count('finished')} in all):`,
    ...recent.map(line),
  ];
  return { json, text: `${lines.join('\n')}\n` };
}
