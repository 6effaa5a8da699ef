/**
 * `govflow status` in cluster mode: the whole cluster, read from Postgres (the same on any daemon's
 * root but for its witnesses): daemons alive and stale, then the sessions by state.
 */
import type pg from 'pg';
import { quoteIdentifier } from './postgres-connection.js';
import { readDaemons, STALE_RENEWALS, type DaemonRow } from './daemon-heartbeat.js';
import { witnessLines, type WitnessLag } from '../audit/checkpoint-witnesses.js';
import { webhookLines, type WebhookStatusLag } from '../notify/webhook-notifier.js';
import { countsLine } from '../store/session-listing.js';
import { ClusterListing } from './cluster-listing.js';

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
/** Session ids named per daemon line; the count says the rest. */
const SESSIONS_NAMED = 5;

function daemonJson(row: DaemonRow) {
  return {
    daemon_id: row.daemon_id,
    host: row.host,
    pid: row.pid,
    http_url: row.http_url,
    started_at: row.started_at,
    last_seen: row.last_seen,
    seconds_since_seen: Math.round(row.silent_ms / 100) / 10,
    renew_ms: row.renew_ms,
    sessions: row.sessions,
  };
}

function daemonLine(row: DaemonRow): string {
  const named = row.sessions.slice(0, SESSIONS_NAMED).join(', ') + (row.sessions.length > SESSIONS_NAMED ? ', …' : '');
  const sessions = row.sessions.length === 0 ? 'sessions=none' : `sessions=${row.sessions.length} (${named})`;
  return (
    `  ${row.daemon_id}  host=${row.host}  ` +
    `pid=${row.pid}  ${row.stale ? '' : `up=${Math.round(row.up_ms / 1000)}s  `}last_seen=${(row.silent_ms / 1000).toFixed(1)}s ` +
    `ago  ${sessions}${row.http_url ? `  http=${row.http_url}` : ''}`
  );
}

/** `witnesses` and `webhooks` are this root's daemon's: each daemon delivers what it signs and the events of the sessions it ended. */
export async function clusterStatus(
  pool: pg.Pool,
  schema: string,
  witnesses: WitnessLag[],
  webhooks: WebhookStatusLag[] = [],
  now = Date.now(),
): Promise<{ json: unknown; text: string }> {
  const sessions = `${quoteIdentifier(schema)}.sessions`;
  const select =
    `select session_id, request_id, state, owner, intake_daemon, coalesce(lease_expires_at < now(), false) as lease_expired, ` +
    `result_status, created_at, updated_at,
      coalesce((result_json::jsonb->>'messages')::int, (manifest->>'messages')::int, 0) as messages, coalesce(manifest->>'current_agent', ` +
    `manifest->>'last_agent') as current_agent, coalesce(manifest->>'question', case when state = 'paused' then ` +
    `result_json::jsonb->>'message' end) as question
    from ${sessions}`;
  const unfinished = (
    await pool.query<Row>(`${select} where state <> 'finished' order by created_at limit ${SHOWN * 3}`)
  ).rows;
  const recent = (await pool.query<Row>(`${select} where state = 'finished' order by updated_at desc limit ${RECENT}`))
    .rows;
  const counts = (
    await pool.query<{ state: string; n: number }>(`select state, count(*)::int as n from ${sessions} group by state`)
  ).rows;
  const count = (state: string) => counts.find((row) => row.state === state)?.n ?? 0;
  const queued = unfinished.filter((row) => row.state === 'queued');
  const running = unfinished.filter((row) => row.state === 'running' && !row.lease_expired);
  const interrupted = unfinished.filter((row) => row.state === 'running' && row.lease_expired);
  const paused = unfinished.filter((row) => row.state === 'paused');
  const byStatus = await new ClusterListing(pool, schema, 'UTC').counts();
  const heartbeats = await readDaemons(pool, schema);
  const alive = (heartbeats ?? []).filter((row) => !row.stale);
  const stale = (heartbeats ?? []).filter((row) => row.stale);
  const json = {
    store: schema,
    daemons: heartbeats && alive.map(daemonJson),
    stale_daemons: heartbeats && stale.map(daemonJson),
    counts: Object.fromEntries(counts.map((row) => [row.state, row.n])),
    sessions_by_status: byStatus,
    witnesses,
    webhooks,
    queued,
    running,
    interrupted,
    paused,
    recent,
  };
  const age = (from: Date) => `${Math.max(0, Math.round((now - from.getTime()) / 1000))}s`;
  const line = (row: Row) =>
    `  ${row.session_id}  ${(row.result_status ?? row.state).padEnd(9)} ${row.owner ? `daemon=${row.owner}  ` : ''}agent=` +
    `${row.current_agent ?? '-'}  messages=${row.messages}  age=${age(row.created_at)}  request=${row.request_id}`;
  const lines = [
    ...(heartbeats === null
      ? [
          `cluster store: ${schema}  daemons: unknown (the store predates daemon heartbeats: run govflow migrate, or start a daemon of this version)`,
        ]
      : [
          `cluster store: ${schema}  daemons alive: ${alive.length}${stale.length > 0 ? `, stale: ${stale.length}` : ''}`,
          `daemons alive (${alive.length}):`,
          ...alive.map((row) => daemonLine(row)),
        ]),
    ...(stale.length > 0
      ? [
          `daemons stale (${stale.length}; no heartbeat for ${STALE_RENEWALS} renewals — presumed dead, their leases are taken over):`,
          ...stale.map((row) => daemonLine(row)),
        ]
      : []),
    ...witnessLines(witnesses),
    ...webhookLines(webhooks),
    countsLine(byStatus),
    `queued (${count('queued')}):`,
    ...queued.slice(0, SHOWN).map(line),
    `running (${running.length}):`,
    ...running.map(line),
    ...(interrupted.length > 0
      ? [
          `waiting for takeover (${interrupted.length}; their daemon stopped renewing the lease — another daemon resumes them):`,
          ...interrupted.map(line),
        ]
      : []),
    `paused (${count('paused')}):`,
    ...paused.map((row) => `${line(row)}\n      question: ${row.question ?? ''}`),
    `recently finished (${count('finished')} in all):`,
    ...recent.map(line),
  ];
  return { json, text: `${lines.join('\n')}\n` };
}
