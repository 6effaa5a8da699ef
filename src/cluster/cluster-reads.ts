/**
 * The HTTP API's view of the store in cluster mode (docs/cluster.md: results, session status, the event
 * stream and the web view read from the database on any daemon): a request's result and owner,
 * and a session's journal, fetched from Postgres before each handler runs and kept for a short
 * while (the handlers read synchronously: src/store/session-reads.ts); what was not fetched is read
 * from this root's files, as the files backend reads it. A submission is enqueued straight into Postgres, whose unique request id answers 202 or 409.
 */
import type pg from 'pg';
import type { SystemPaths } from '../config/system-paths.js';
import { FilesSessionReads, type SessionReads } from '../store/session-reads.js';
import type { SessionRow } from '../web/session-list.js';
import { JournalFormatError, parseJournalRecord, type JournalRecord } from '../store/session-journal.js';
import { httpSubmissionName } from '../intake/request-submission.js';
import { quoteIdentifier } from './postgres-connection.js';
import type { SessionLeases } from './session-leases.js';

/** Fetched entries live this long; a stream reads them once, right after the fetch. */
const TTL_MS = 5_000;
const MAX_ENTRIES = 2_000;
/** The sessions list shows the newest sessions up to this many. */
const MAX_LISTED = 10_000;

interface Cached<T> {
  value: T;
  at: number;
}

export class ClusterReads implements SessionReads {
  private readonly results = new Map<string, Cached<Record<string, unknown> | null>>();
  /** A session's records, or the JournalFormatError that reading them met (thrown by `records`, as the files reader does). */
  private readonly journals = new Map<string, Cached<JournalRecord[] | JournalFormatError | undefined>>();
  private readonly table: (name: string) => string;
  private readonly files: FilesSessionReads;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly leases: SessionLeases,
    paths: Pick<SystemPaths, 'outbox' | 'sessions' | 'logs'>,
  ) {
    this.files = new FilesSessionReads(paths);
    const quoted = quoteIdentifier(schema);
    this.table = (name) => `${quoted}.${name}`;
  }

  async prefetch(ids: { requestId?: string; sessionId?: string }): Promise<void> {
    let sessionId = ids.sessionId;
    if (ids.requestId !== undefined) {
      const row = await this.pool.query<{ session_id: string; result_json: string | null }>(`select session_id, result_json from ${this.table('sessions')} where request_id = $1`, [ids.requestId]);
      const found = row.rows[0];
      this.remember(this.results, ids.requestId, found?.result_json ? (JSON.parse(found.result_json) as Record<string, unknown>) : null);
      sessionId ??= found?.session_id;
    }
    if (sessionId !== undefined) {
      const rows = await this.pool.query<{ record: string }>(`select record from ${this.table('journal')} where session_id = $1 order by seq`, [sessionId]);
      this.remember(this.journals, sessionId, rows.rows.length > 0 ? parsedJournal(rows.rows, sessionId) : undefined);
    }
  }

  result(requestId: string): Record<string, unknown> | null {
    const fetched = this.fresh(this.results, requestId);
    return fetched !== undefined ? fetched : this.files.result(requestId);
  }

  records(sessionId: string): JournalRecord[] {
    const fetched = this.fresh(this.journals, sessionId);
    if (fetched instanceof JournalFormatError) throw fetched;
    return fetched ?? this.files.records(sessionId);
  }

  async ownerOf(requestId: string): Promise<{ user: string; sessionId: string | null } | null> {
    const row = await this.pool.query<{ user_name: string | null; session_id: string }>(`select user_name, session_id from ${this.table('sessions')} where request_id = $1`, [requestId]);
    const found = row.rows[0];
    return found ? { user: found.user_name ?? 'local', sessionId: found.session_id } : null;
  }

  async submit(request: { requestId: string; sessionId: string; text: string; user: string; metadata: Record<string, unknown> | null }): Promise<'queued' | 'duplicate'> {
    const outcome = await this.leases.enqueue({ ...request, sourceFile: httpSubmissionName(request.requestId), claimedPath: null });
    return outcome.kind === 'queued' ? 'queued' : 'duplicate';
  }

  async sessionRows(): Promise<SessionRow[]> {
    const rows = await this.pool.query<{
      session_id: string; request_id: string; state: string; result_status: string | null; user_name: string | null; text: string | null;
      current_agent: string | null; messages: number; created_at: Date; updated_at: Date; cost: number | null;
    }>(
      `select session_id, request_id, state, result_status, user_name, request->>'text' as text, manifest->>'current_agent' as current_agent,
         coalesce((result_json::jsonb->>'messages')::int, (manifest->>'messages')::int, 0) as messages, created_at, updated_at,
         coalesce((result_json::jsonb->'usage'->>'cost_usd')::float8, (manifest->'usage'->>'cost_usd')::float8, 0) as cost
       from ${this.table('sessions')} order by created_at desc limit ${MAX_LISTED}`,
    );
    return rows.rows.map((row) => ({
      sessionId: row.session_id,
      requestId: row.request_id,
      status: row.state === 'finished' ? (row.result_status ?? 'failed') : row.state,
      user: row.user_name ?? 'local',
      requestText: row.text ?? '',
      agents: row.current_agent ? [row.current_agent] : [],
      searchText: '',
      currentAgent: row.current_agent,
      messages: row.messages,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      costUsd: row.cost ?? 0,
    }));
  }

  private remember<T>(map: Map<string, Cached<T>>, key: string, value: T): void {
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, { value, at: Date.now() });
  }

  private fresh<T>(map: Map<string, Cached<T>>, key: string): T | undefined {
    const entry = map.get(key);
    if (!entry) return undefined;
    if (Date.now() - entry.at > TTL_MS) {
      map.delete(key);
      return undefined;
    }
    return entry.value;
  }
}

/** The records of a session's journal rows, or the error naming the first one that is not a record this govflow reads. */
function parsedJournal(rows: Array<{ record: string }>, sessionId: string): JournalRecord[] | JournalFormatError {
  try {
    return rows.map((row, index) => parseJournalRecord(row.record, `the store's journal of session ${sessionId}`, index + 1));
  } catch (error) {
    if (error instanceof JournalFormatError) return error;
    throw error;
  }
}
