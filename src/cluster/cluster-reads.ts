/**
 * The HTTP API's view of the store in cluster mode: a request's result and owner and a session's
 * journal, fetched from Postgres before each handler runs and kept briefly, because the handlers
 * read synchronously (src/store/session-reads.ts); the rest is read from this root's files.
 */
import type { AttachmentInfo } from '../store/attachment-records.js';
import { httpFolderName } from '../intake/folder-submission.js';
import type pg from 'pg';
import type { SystemPaths } from '../config/system-paths.js';
import { FilesSessionReads, type SessionReads } from '../store/session-reads.js';
import type { CancelTarget, SessionStanding, StoreSubmission } from '../store/session-reads.js';
import type { SessionRow } from '../store/session-listing.js';
import type { JournalRecord } from '../store/session-journal.js';
import { JournalFormatError } from '../store/journal-format.js';
import { httpSubmissionName } from '../intake/request-submission.js';
import { tablesOf } from './postgres-connection.js';
import { GovflowError } from '../errors.js';
import { readJournalRows } from './postgres-session-store.js';
import type { SessionLeases } from './session-leases.js';
import { ClusterListing } from './cluster-listing.js';
import { STEWARD_WAITING } from './postgres-session-store.js';

/** Fetched entries live this long; a stream reads them once, right after the fetch. */
const TTL_MS = 5_000;
const MAX_ENTRIES = 2_000;
/** The web view's sessions page shows the newest sessions up to this many (the API's listing pages through all). */
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
  readonly listing: ClusterListing;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    /** The queue submissions go to; null for a reader that submits nothing (the CLI). */
    private readonly leases: SessionLeases | null,
    paths: Pick<SystemPaths, 'outbox' | 'sessions' | 'logs'>,
    timezone: string,
  ) {
    this.files = new FilesSessionReads(paths);
    this.table = tablesOf(schema);
    this.listing = new ClusterListing(pool, schema, timezone);
  }

  async prefetch(ids: { requestId?: string; sessionId?: string }): Promise<void> {
    let sessionId = ids.sessionId;
    if (ids.requestId !== undefined) {
      const row = await this.pool.query<{ session_id: string; result_json: string | null }>(
        `select session_id, result_json from ${this.table('sessions')} where request_id = $1`,
        [ids.requestId],
      );
      const found = row.rows[0];
      this.remember(
        this.results,
        ids.requestId,
        found?.result_json ? (JSON.parse(found.result_json) as Record<string, unknown>) : null,
      );
      sessionId ??= found?.session_id;
    }
    if (sessionId !== undefined) {
      let records: JournalRecord[] | JournalFormatError;
      try {
        records = (await readJournalRows(this.pool, this.table, sessionId)).records;
      } catch (error) {
        if (!(error instanceof JournalFormatError)) throw error;
        records = error;
      }
      this.remember(
        this.journals,
        sessionId,
        records instanceof JournalFormatError || records.length > 0 ? records : undefined,
      );
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
    const row = await this.pool.query<{ user_name: string | null; session_id: string }>(
      `select user_name, session_id from ${this.table('sessions')} where request_id = $1`,
      [requestId],
    );
    const found = row.rows[0];
    return found ? { user: found.user_name ?? 'local', sessionId: found.session_id } : null;
  }

  async submit(request: {
    requestId: string;
    sessionId: string;
    text: string;
    user: string;
    metadata: Record<string, unknown> | null;
    chat?: Record<string, unknown>;
    attachments?: { folder: string; files: AttachmentInfo[] };
  }): Promise<StoreSubmission> {
    if (!this.leases) throw new GovflowError('internal', 'this store reader takes no submissions');
    const previousTurn = request.chat?.previous_session_id;
    const outcome = await this.leases.enqueue({
      ...request,
      // A conversation's turn starts from a copy of its previous turn's vault (src/pipeline/chat-turn.ts).
      ...(typeof previousTurn === 'string' ? { inheritsFrom: previousTurn } : {}),
      sourceFile: request.attachments ? httpFolderName(request.requestId) : httpSubmissionName(request.requestId),
      claimedPath: null,
    });
    return outcome.kind === 'queued' || outcome.kind === 'turn_taken' ? outcome.kind : 'duplicate';
  }

  async sessionRows(): Promise<SessionRow[]> {
    return this.listing.newestRows(MAX_LISTED);
  }

  async sessionStanding(sessionId: string): Promise<SessionStanding | null> {
    const row = await this.pool.query<{ user_name: string | null; state: string; result_status: string | null }>(
      `select user_name, state, result_status from ${this.table('sessions')} where session_id = $1`,
      [sessionId],
    );
    const found = row.rows[0];
    if (!found) return null;
    return {
      user: found.user_name ?? 'local',
      status:
        found.state === 'finished'
          ? (found.result_status ?? 'failed')
          : found.state === 'paused' && STEWARD_WAITING.includes(found.result_status ?? '')
            ? found.result_status!
            : found.state,
    };
  }

  async unfinishedSessions(): Promise<CancelTarget[]> {
    // A delegated child (its request's source names its parent) goes with its parent's cancel.
    const rows = await this.pool.query<Omit<CancelTarget, 'createdAt'> & { createdAt: Date }>(
      `select session_id as "sessionId", request_id as "requestId", coalesce(user_name, 'local') as "user", state as status, created_at as "createdAt"
         from ${this.table('sessions')}
        where state in ('queued', 'running', 'paused') and coalesce(request->>'source_file', '') not like 'delegate:%'
        order by created_at`,
    );
    return rows.rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
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
