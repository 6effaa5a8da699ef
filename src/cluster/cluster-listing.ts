/**
 * Listing the cluster's sessions from Postgres (SPEC §18 `GET /v1/sessions`, `govflow sessions`):
 * the same rows, order and cursor as a files-mode root (src/store/session-listing.ts), each page one
 * query that starts after the cursor's (accepted at, session id), so a walk costs one page a step.
 */
import type pg from 'pg';
import {
  emptyCounts,
  decodeCursor,
  encodeCursor,
  summaryOf,
  type ListingPage,
  type ListingQuery,
  listingStatusOf,
  type ListingStatus,
  manifestListingStatus,
  type SessionListing,
  type SessionRow,
  type SessionSummary,
  type StatusCounts,
} from '../store/session-listing.js';
import { tablesOf } from './postgres-connection.js';
import { CONVERSATION_OF_REQUEST } from './conversation-turns.js';
import { STEWARD_WAITING } from './postgres-session-store.js';

interface ListedRow {
  sessionId: string;
  requestId: string;
  state: string;
  resultStatus: string | null;
  user: string;
  requestText: string;
  currentAgent: string | null;
  messages: number;
  costUsd: number;
  /** The accepted time to the microsecond, as the cursor keeps it. */
  key: string;
  acceptedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  updatedAt: Date;
  lineage: SessionRow['lineage'];
  conversationId: string;
  conversationTurn: number;
}

/** The listing status as SQL: a finished session's result status (SPEC §18 names), else its state. */
const STATUS_SQL = `case when state = 'finished' then coalesce(result_status, 'failed')
  when state = 'paused' and result_status in ('intervention_required', 'halted_cost', 'halted_time') then result_status else state end`;

/**
 * A fork, retry or re-run's lineage before its result has one: from the `fork` its request carries
 * (daemon/fork-requests.ts), with the original's request id looked up.
 */
const FORK_LINEAGE_SQL = `case when request ? 'fork' then jsonb_build_object('action', request->'fork'->'action',
    'of_session', request->'fork'->'of_session',
    'of_request', (select original.request_id from $sessions original where original.session_id = listed.request->'fork'->>'of_session'),
    'from', request->'fork'->'from', 'by', request->'fork'->'by', 'reason', request->'fork'->'reason') end`;

/** A session's chat conversation (docs/http-api.md "Chat"): its result's, else its request's `chat`, else its own id. */
const CONVERSATION_SQL = `coalesce(result->>'conversation_id', request->'chat'->>'conversation_id', session_id)`;
const CONVERSATION_TURN_SQL = `coalesce((result->>'conversation_turn')::int, (request->'chat'->>'turn')::int, 0)`;

/** The sessions table with each row's result document parsed once (`result`; `offset 0` keeps the planner from copying the cast into every use). */
function fromSessions(table: string): string {
  return `${table} listed cross join lateral (select listed.result_json::jsonb as result offset 0) parsed`;
}

/** Columns of a listed row; `request_text` only when `withText` (the web view searches it). */
function columns(withText: boolean, table: string): string {
  return (
    `session_id as "sessionId", request_id as "requestId", state, result_status as "resultStatus",
    coalesce(user_name, 'local') as "user", ${withText ? `coalesce(request->>'text', '')` : `''`} as "requestText",
    manifest->>'current_agent' as "currentAgent",
    coalesce((result->>'messages')::int, (manifest->>'messages')::int, 0) as messages,
    coalesce((result->'usage'->>'cost_usd')::float8, (manifest->'usage'->>'cost_usd')::float8, 0) as "costUsd",
    to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key, created_at as "acceptedAt",
    case when state = 'queued' then null else coalesce((manifest->>'created_at')::timestamptz, (result->>'started_at')::timestamptz, ` +
    `created_at) end as "startedAt",
    case when state = 'finished' then coalesce((result->>'finished_at')::timestamptz, updated_at) end as "finishedAt",
    updated_at as "updatedAt",
    coalesce(result->'lineage', ${FORK_LINEAGE_SQL.replace('$sessions', table)}) as lineage,
    ${CONVERSATION_SQL} as "conversationId", ${CONVERSATION_TURN_SQL} as "conversationTurn"`
  );
}

function rowOf(listed: ListedRow): SessionRow {
  // A session waiting for its steward (SPEC §25) is listed so; its row's state is paused.
  const waiting = listed.state === 'paused' && STEWARD_WAITING.includes(listed.resultStatus ?? '');
  const status = waiting ? (listed.resultStatus as ListingStatus) : listingStatusOf(listed.state, listed.resultStatus);
  return {
    sessionId: listed.sessionId,
    requestId: listed.requestId,
    status,
    state: listed.state === 'finished' || waiting ? (listed.resultStatus ?? 'failed') : listed.state,
    user: listed.user,
    requestText: listed.requestText,
    agents: listed.currentAgent ? [listed.currentAgent] : [],
    searchText: '',
    currentAgent: listed.currentAgent,
    messages: listed.messages,
    acceptedAt: listed.acceptedAt.toISOString(),
    startedAt: listed.startedAt?.toISOString() ?? null,
    finishedAt: listed.finishedAt?.toISOString() ?? null,
    updatedAt: listed.updatedAt.toISOString(),
    costUsd: listed.costUsd,
    lineage: listed.lineage ?? null,
    conversationId: listed.conversationId,
    conversationTurn: listed.conversationTurn,
  };
}

export class ClusterListing implements SessionListing {
  private readonly table: (name: string) => string;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly timezone: string,
  ) {
    this.table = tablesOf(schema);
  }

  async list(query: ListingQuery): Promise<ListingPage> {
    const where: string[] = [];
    const values: unknown[] = [];
    const value = (given: unknown) => `$${values.push(given)}`;
    if (query.status !== null) where.push(`${STATUS_SQL} = ${value(query.status)}`);
    if (query.user !== null) where.push(`coalesce(user_name, 'local') = ${value(query.user)}`);
    if (query.sinceMs !== null)
      where.push(`created_at >= ${value(new Date(query.sinceMs).toISOString())}::timestamptz`);
    if (query.cursor !== null) {
      const { key, sessionId } = decodeCursor(query.cursor);
      where.push(`(created_at, session_id) < (${value(key)}::timestamptz, ${value(sessionId)})`);
    }
    // The page's ids first (the filters read plain columns), its columns only for them: no result document is parsed for rows not shown.
    const result = await this.pool.query<ListedRow>(
      `with page as (select session_id from ${this.table('sessions')}${where.length > 0 ? ` where ${where.join(' and ')}` : ''}
         order by created_at desc, session_id desc limit ${query.limit + 1})
       select ${columns(false, this.table('sessions'))} from ${fromSessions(this.table('sessions'))} join page using (session_id) order by ` +
        `created_at desc, session_id desc`,
      values,
    );
    const rows = result.rows.slice(0, query.limit);
    const last = rows.at(-1);
    return {
      sessions: rows.map((row) => summaryOf(rowOf(row), this.timezone)),
      next_cursor: result.rows.length > query.limit && last ? encodeCursor(last.key, last.sessionId) : null,
    };
  }

  async counts(): Promise<StatusCounts> {
    const result = await this.pool.query<{ status: string; waiting: boolean; n: number }>(
      `select ${STATUS_SQL} as status, state = 'paused' as waiting, count(*)::int as n from ${this.table('sessions')} group by 1, 2`,
    );
    const counts = emptyCounts();
    for (const row of result.rows) counts[manifestListingStatus({ state: row.status, waiting: row.waiting })] += row.n;
    return counts;
  }

  async summary(sessionId: string): Promise<SessionSummary | null> {
    const result = await this.pool.query<ListedRow>(
      `select ${columns(false, this.table('sessions'))} from ${fromSessions(this.table('sessions'))} where session_id = $1`,
      [sessionId],
    );
    const row = result.rows[0];
    return row ? summaryOf(rowOf(row), this.timezone) : null;
  }

  async derivedFrom(sessionId: string): Promise<SessionSummary[]> {
    const result = await this.pool.query<ListedRow>(
      `select ${columns(false, this.table('sessions'))} from ${fromSessions(this.table('sessions'))}
       where coalesce(result->'lineage'->>'of_session', request->'fork'->>'of_session') = $1 order by created_at, session_id`,
      [sessionId],
    );
    return result.rows.map((row) => summaryOf(rowOf(row), this.timezone));
  }

  /** A conversation's sessions, found by what their requests name (the index of migration 12; the result says the same). */
  async conversation(conversationId: string): Promise<SessionSummary[]> {
    const result = await this.pool.query<ListedRow>(
      `select ${columns(false, this.table('sessions'))} from ${fromSessions(this.table('sessions'))}
       where ${CONVERSATION_OF_REQUEST} = $1 order by ${CONVERSATION_TURN_SQL}, created_at`,
      [conversationId],
    );
    return result.rows.map((row) => summaryOf(rowOf(row), this.timezone));
  }

  /** The newest `limit` sessions with their request text, for the web view's sessions page. */
  async newestRows(limit: number): Promise<SessionRow[]> {
    const result = await this.pool.query<ListedRow>(
      `select ${columns(true, this.table('sessions'))} from ${fromSessions(this.table('sessions'))} order by created_at desc, session_id desc limit ${limit}`,
    );
    return result.rows.map(rowOf);
  }
}
