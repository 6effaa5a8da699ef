/**
 * The sessions of a files-mode root, in memory, for `GET /v1/sessions`, `govflow sessions` and the
 * web view's sessions page: one scan on first use (each session's manifest and first journal line),
 * then only the sessions a change names are read again. Requests accepted but not started come
 * from the claims (src/intake/queued-requests.ts) at each query.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { type SessionRecord } from './session-journal.js';
import { SessionJournal } from './journal-reader.js';
import {
  compareRows,
  emptyCounts,
  listingStatusOf,
  manifestListingStatus,
  pageOfRows,
  type ListingPage,
  type ListingQuery,
  type SessionListing,
  type SessionRow,
  type SessionSummary,
  type StatusCounts,
  summaryOf,
} from './session-listing.js';

const SCAN_SLICE = 500;
const ENDED = new Set(['success', 'partial', 'failed', 'cancelled']);

/** Where the claims of the root are read (the intake knows their names and files). */
export interface ClaimedRequests {
  /** Rows of requests accepted whose session has not started (`started` says which have). */
  queued(started: (sessionId: string) => boolean): Promise<SessionRow[]>;
  /** When the claim at `claimedPath` was made; null when its name does not say. */
  acceptedAt(claimedPath: string): Date | null;
}

/** What tells the index a session changed: the session event bus, adapted by its owner. */
export type SessionChanges = (listener: (sessionId: string, agent: string | null) => void) => () => void;

/** Reused for every first-line read: reads are synchronous, so one buffer serves them all. */
const FIRST_LINE_BUFFER = Buffer.allocUnsafe(256 * 1024);

/**
 * The bytes of a file's first line (without its newline), or of the whole file when it has none.
 * Most session records fit the shared buffer; a larger one (a request near intake.max_bytes) is
 * read on until its newline.
 */
function readFirstLine(descriptor: number): Buffer {
  let read = readSync(descriptor, FIRST_LINE_BUFFER, 0, FIRST_LINE_BUFFER.length, 0);
  let newline = FIRST_LINE_BUFFER.subarray(0, read).indexOf(0x0a);
  if (newline !== -1 || read < FIRST_LINE_BUFFER.length)
    return FIRST_LINE_BUFFER.subarray(0, newline === -1 ? read : newline);
  const chunks = [Buffer.from(FIRST_LINE_BUFFER)];
  let position = read;
  while (newline === -1 && read > 0) {
    const chunk = Buffer.allocUnsafe(FIRST_LINE_BUFFER.length);
    read = readSync(descriptor, chunk, 0, chunk.length, position);
    position += read;
    newline = chunk.subarray(0, read).indexOf(0x0a);
    chunks.push(chunk.subarray(0, newline === -1 ? read : newline));
  }
  return Buffer.concat(chunks);
}

/** The first line of a journal: the session record (who asked what), read without the rest. */
export function readSessionRecord(sessionsDir: string, sessionId: string): SessionRecord | null {
  let descriptor: number | null = null;
  try {
    descriptor = openSync(path.join(sessionsDir, sessionId, 'journal.jsonl'), 'r');
    const record = JSON.parse(readFirstLine(descriptor).toString('utf8')) as SessionRecord;
    return record.type === 'session' ? record : null;
  } catch {
    return null;
  } finally {
    if (descriptor !== null) closeSync(descriptor);
  }
}

/**
 * A session's row from its manifest and first journal record; from the record alone (running)
 * while it has no manifest (a crash before its first step); null when it has neither.
 */
export function readSessionRow(
  paths: Pick<SystemPaths, 'sessions'>,
  sessionId: string,
  acceptedAtOf: (claimedPath: string) => Date | null = () => null,
): SessionRow | null {
  return readRow(paths, sessionId, acceptedAtOf)?.row ?? null;
}

function readRow(
  paths: Pick<SystemPaths, 'sessions'>,
  sessionId: string,
  acceptedAtOf: (claimedPath: string) => Date | null,
): { row: SessionRow; fromManifest: boolean } | null {
  const manifest = SessionJournal.readManifest(paths.sessions, sessionId);
  const record = readSessionRecord(paths.sessions, manifest?.session_id ?? sessionId);
  if (!manifest && !record) return null;
  const createdAt = manifest?.created_at ?? record!.created_at;
  const claimedAt = record?.claimed_path ? acceptedAtOf(record.claimed_path) : null;
  const state = manifest?.state.toLowerCase() ?? 'running';
  const status = manifest ? manifestListingStatus(manifest) : listingStatusOf(state);
  const updatedAt = manifest?.updated_at ?? createdAt;
  const row: SessionRow = {
    sessionId: manifest?.session_id ?? sessionId,
    requestId: manifest?.request_id ?? record!.request_id,
    status,
    state,
    user: record?.request.user ?? 'local',
    requestText: record?.request.text ?? '',
    agents: manifest?.current_agent ? [manifest.current_agent] : [],
    currentAgent: manifest?.current_agent ?? null,
    messages: manifest?.messages ?? 0,
    acceptedAt: claimedAt !== null && claimedAt.toISOString() <= createdAt ? claimedAt.toISOString() : createdAt,
    startedAt: createdAt,
    finishedAt: ENDED.has(status) ? updatedAt : null,
    updatedAt,
    costUsd: manifest?.usage.cost_usd ?? 0,
    searchText: '',
    lineage: record?.lineage ?? null,
    conversationId: record?.chat?.conversation_id ?? manifest?.session_id ?? sessionId,
    conversationTurn: record?.chat?.turn ?? 0,
  };
  return { row, fromManifest: manifest !== null };
}

/** Sets the row's search text from its fields (after its agents change). */
export function indexRowText(row: SessionRow): SessionRow {
  row.searchText = [row.sessionId, row.requestId, row.requestText, ...row.agents].join('\n').toLowerCase();
  return row;
}

/** Merges two lists already in listing order. */
function mergeOrdered(left: readonly SessionRow[], right: readonly SessionRow[]): SessionRow[] {
  const merged: SessionRow[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) merged.push(compareRows(left[i], right[j]) <= 0 ? left[i++] : right[j++]);
  while (i < left.length) merged.push(left[i++]);
  while (j < right.length) merged.push(right[j++]);
  return merged;
}

export interface SessionIndexOptions {
  /** Results' time zone: listed times are written in it, as the results write theirs. */
  timezone: string;
  /** The root's claims; without them no session is listed as queued. */
  claims?: ClaimedRequests;
  /** Changes as they happen (a daemon); without them the index is a snapshot of its first scan. */
  changes?: SessionChanges;
}

export class SessionIndex implements SessionListing {
  private rows: Map<string, SessionRow> | null = null;
  /** The started sessions in listing order; null after one was added (re-sorted at the next query). */
  private ordered: SessionRow[] | null = null;
  private readonly dirty = new Set<string>();
  /** Agents seen answering, per session, since this process started. */
  private readonly seenAgents = new Map<string, Set<string>>();
  private readonly unsubscribe: () => void;
  private building: Promise<void> | null = null;

  constructor(
    private readonly paths: Pick<SystemPaths, 'sessions'>,
    private readonly options: SessionIndexOptions,
  ) {
    this.unsubscribe =
      options.changes?.((sessionId, agent) => {
        this.dirty.add(sessionId);
        if (agent !== null)
          this.seenAgents.set(sessionId, (this.seenAgents.get(sessionId) ?? new Set<string>()).add(agent));
      }) ?? (() => {});
  }

  close(): void {
    this.unsubscribe();
  }

  /** The first scan, yielding to the event loop between slices: 100,000 sessions take seconds, and running sessions must not stall. */
  private build(): Promise<void> {
    this.building ??= (async () => {
      this.rows = new Map<string, SessionRow>();
      const ids = SessionJournal.list(this.paths.sessions);
      for (let start = 0; start < ids.length; start += SCAN_SLICE) {
        for (const sessionId of ids.slice(start, start + SCAN_SLICE)) this.refresh(sessionId);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    return this.building;
  }

  /** False while the session has no manifest (it is read again at the next query). */
  private refresh(sessionId: string): boolean {
    const read = readRow(this.paths, sessionId, (claimed) => this.options.claims?.acceptedAt(claimed) ?? null);
    if (!read) return this.forgetIfGone(sessionId);
    const { row } = read;
    const seen = this.seenAgents.get(sessionId);
    if (seen) row.agents = [...new Set([...row.agents, ...seen])];
    indexRowText(row);
    const known = this.rows!.get(sessionId);
    if (known) Object.assign(known, row);
    else {
      this.rows!.set(sessionId, row);
      this.ordered = null;
    }
    return read.fromManifest;
  }

  /** A listed session whose journal is gone (retention archived it) leaves the listing; true when it did. */
  private forgetIfGone(sessionId: string): boolean {
    if (!this.rows!.has(sessionId) || SessionJournal.exists(this.paths.sessions, sessionId)) return false;
    this.rows!.delete(sessionId);
    this.seenAgents.delete(sessionId);
    this.ordered = null;
    return true;
  }

  /** Every session in listing order, queued ones included: read again where a change was heard. */
  async orderedRows(): Promise<readonly SessionRow[]> {
    await this.build();
    for (const sessionId of [...this.dirty]) if (this.refresh(sessionId)) this.dirty.delete(sessionId);
    const rows = this.rows!;
    const claims = this.options.claims;
    if (!claims) return (this.ordered ??= [...rows.values()].sort(compareRows));
    const started = (sessionId: string): boolean => {
      if (rows.has(sessionId)) return true;
      if (!SessionJournal.exists(this.paths.sessions, sessionId)) return false;
      // Started before its start was heard (a fork's first record still being synced): read it now,
      // or it is listed nowhere meanwhile; with no record yet it stays listed as queued.
      if (!this.refresh(sessionId)) this.dirty.add(sessionId);
      return rows.has(sessionId);
    };
    const queued = await claims.queued(started);
    this.ordered ??= [...rows.values()].sort(compareRows);
    for (const row of queued)
      if (row.lineage && row.lineage.of_request === '')
        row.lineage = { ...row.lineage, of_request: rows.get(row.lineage.of_session)?.requestId ?? '' };
    return queued.length === 0 ? this.ordered : mergeOrdered(this.ordered, queued.map(indexRowText).sort(compareRows));
  }

  async list(query: ListingQuery): Promise<ListingPage> {
    return pageOfRows(await this.orderedRows(), query, this.options.timezone);
  }

  async counts(): Promise<StatusCounts> {
    const counts = emptyCounts();
    for (const row of await this.orderedRows()) counts[row.status] += 1;
    return counts;
  }

  async summary(sessionId: string): Promise<SessionSummary | null> {
    const row = (await this.orderedRows()).find((candidate) => candidate.sessionId === sessionId);
    return row ? summaryOf(row, this.options.timezone) : null;
  }

  async conversation(conversationId: string): Promise<SessionSummary[]> {
    const rows = await this.orderedRows();
    return rows
      .filter((row) => row.conversationId === conversationId)
      .sort((left, right) => left.conversationTurn - right.conversationTurn)
      .map((row) => summaryOf(row, this.options.timezone));
  }

  async derivedFrom(sessionId: string): Promise<SessionSummary[]> {
    const rows = await this.orderedRows();
    return rows
      .filter((row) => row.lineage?.of_session === sessionId)
      .reverse()
      .map((row) => summaryOf(row, this.options.timezone));
  }
}
