/**
 * Listing sessions (SPEC §18: `govflow sessions`, `GET /v1/sessions`): the summary each one shows,
 * the filters, and a stable cursor. Sessions are listed newest accepted first (ties by session id,
 * descending); the cursor names the last one shown, so a walk neither repeats nor skips a session
 * while new ones arrive on top. Files mode keeps the rows in memory (session-index.ts), cluster
 * mode asks Postgres (src/cluster/cluster-listing.ts); both answer through {@link SessionListing}.
 */
import { GovflowError } from '../errors.js';
import { isoInTimeZone } from '../message/zoned-time.js';
import type { Lineage } from './session-journal.js';

/** The statuses a listed session can have (SPEC §18). */
export const LISTING_STATUSES = [
  'queued',
  'running',
  'paused',
  'intervention_required',
  'halted_cost',
  'halted_time',
  'success',
  'partial',
  'failed',
  'cancelled',
] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 1000;

/** Where a session made by fork, retry or rerun comes from (the `lineage` of its session record and result). */
export type SessionLineage = Lineage;

/** One session as the listings and the web view's sessions page hold it. */
export interface SessionRow {
  sessionId: string;
  requestId: string;
  /** As SPEC §18 lists it: queued, running, paused, success, partial, failed, cancelled. */
  status: ListingStatus;
  /** The finer state, lower case (running, halted_cost, …; queued while it waits). */
  state: string;
  user: string;
  requestText: string;
  /** Agents known to have answered (the current one, and every one seen live), for the search. */
  agents: string[];
  /** Session id, request id, request text and agents, lower case: what the search looks in. */
  searchText: string;
  currentAgent: string | null;
  messages: number;
  /** When the request was accepted (ISO, UTC): the listing's order and `since` key, fixed from queued to ended. */
  acceptedAt: string;
  /** When its session started (ISO, UTC); null while queued. */
  startedAt: string | null;
  /** When it ended (ISO, UTC); null while queued, running or paused. */
  finishedAt: string | null;
  updatedAt: string;
  costUsd: number;
  lineage: SessionLineage | null;
  /** The chat conversation the session is a turn of (docs/http-api.md "Chat"); outside a chat, its own id and turn 0. */
  conversationId: string;
  conversationTurn: number;
}

/** One listed session: the keys of `govflow sessions --json` and `GET /v1/sessions`. */
export interface SessionSummary {
  session_id: string;
  request_id: string;
  status: ListingStatus;
  user: string;
  started_at: string | null;
  finished_at: string | null;
  lineage: SessionLineage | null;
  conversation_id: string;
  conversation_turn: number;
}

export interface ListingQuery {
  status: ListingStatus | null;
  /** Only this user's sessions; null for everyone's. */
  user: string | null;
  /** Only sessions accepted at or after this instant (epoch ms); null for all. */
  sinceMs: number | null;
  limit: number;
  /** The `next_cursor` of the page before; null for the first page. */
  cursor: string | null;
}

export interface ListingPage {
  sessions: SessionSummary[];
  /** Null on the last page. */
  next_cursor: string | null;
}

export interface SessionListing {
  /** One page, newest first. Throws {@link ListingQueryError} for a cursor it did not write. */
  list(query: ListingQuery): Promise<ListingPage>;
  /** The sessions made from this one by fork, retry or rerun, oldest first. */
  derivedFrom(sessionId: string): Promise<SessionSummary[]>;
  /** How many sessions have each status now (`govflow status`, `/metrics`). */
  counts(): Promise<StatusCounts>;
  /** One session as listed (a queued one too, which has no journal yet); null when unknown. */
  summary(sessionId: string): Promise<SessionSummary | null>;
  /** The turns of a chat conversation (docs/http-api.md "Chat"), oldest first; empty when none has its id. */
  conversation(conversationId: string): Promise<SessionSummary[]>;
}

/** A filter or cursor that cannot be used (a usage error: exit 2, HTTP 400); the message says what to send instead. */
export class ListingQueryError extends GovflowError {
  override readonly name = 'ListingQueryError';
  constructor(message: string) {
    super('usage', message);
  }
}

/** The listing status of a session state (a manifest's SessionStateName, or Postgres's state and result status). */
export function listingStatusOf(state: string, resultStatus: string | null = null): ListingStatus {
  switch (state.toLowerCase()) {
    case 'queued':
      return 'queued';
    case 'running':
    case 'pending':
      return 'running';
    case 'paused':
      return 'paused';
    case 'intervention_required':
      return 'intervention_required';
    case 'success':
      return 'success';
    case 'partial':
      return 'partial';
    case 'cancelled':
    case 'canceled':
      return 'cancelled';
    case 'finished':
      return resultStatus === null ? 'failed' : listingStatusOf(resultStatus);
    default:
      // failed, halted_cost, halted_time: a session that ended without its result.
      return 'failed';
  }
}

/** The listing status of a manifest: a session halted for a steward (SPEC §25) waits; one a limit ended failed. */
export function manifestListingStatus(manifest: { state: string; waiting?: boolean }): ListingStatus {
  const state = manifest.state.toLowerCase();
  if (manifest.waiting && (state === 'halted_cost' || state === 'halted_time')) return state;
  return listingStatusOf(state);
}

/** Sessions per listing status, every status present (0 when none). */
export type StatusCounts = Record<ListingStatus, number>;

export function emptyCounts(): StatusCounts {
  return Object.fromEntries(LISTING_STATUSES.map((status) => [status, 0])) as StatusCounts;
}

/** `sessions: 2 queued, 1 running, 0 paused, 40 success, …` (govflow status). */
export function countsLine(counts: StatusCounts): string {
  const total = LISTING_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  return `sessions (${total}): ${LISTING_STATUSES.map((status) => `${counts[status]} ${status}`).join(', ')}`;
}

/** Parses the filters as the CLI and the API take them; throws ListingQueryError naming the bad one. */
export function parseListingFilters(raw: {
  status?: string | null;
  user?: string | null;
  since?: string | null;
  limit?: string | null;
  cursor?: string | null;
}): ListingQuery {
  const given = (value: string | null | undefined) =>
    value === undefined || value === null || value === '' ? null : value;
  const status = given(raw.status);
  if (status !== null && !(LISTING_STATUSES as readonly string[]).includes(status))
    throw new ListingQueryError(`status "${status.slice(0, 40)}" is not one of ${LISTING_STATUSES.join(', ')}`);
  const since = given(raw.since);
  const sinceMs = since === null ? null : Date.parse(since);
  if (sinceMs !== null && (!/^\d{4}-\d{2}-\d{2}/.test(since!) || !Number.isFinite(sinceMs)))
    throw new ListingQueryError(
      `since "${since!.slice(0, 40)}" is not an ISO 8601 time: write it like 2026-03-08 or 2026-03-08T14:30:00+08:00`,
    );
  const limitText = given(raw.limit);
  const limit = limitText === null ? DEFAULT_LIST_LIMIT : Number(limitText);
  if (!/^\d+$/.test(limitText ?? '1') || limit < 1 || limit > MAX_LIST_LIMIT)
    throw new ListingQueryError(`limit must be a whole number from 1 to ${MAX_LIST_LIMIT}, got "${limitText}"`);
  const cursor = given(raw.cursor);
  if (cursor !== null) decodeCursor(cursor);
  return { status: status as ListingStatus | null, user: given(raw.user), sinceMs, limit, cursor };
}

/** A cursor: the order key and session id of the last session shown, as base64url JSON. */
export function encodeCursor(key: string, sessionId: string): string {
  return Buffer.from(JSON.stringify([key, sessionId]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { key: string; sessionId: string } {
  let value: unknown = null;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // reported below
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    typeof value[0] !== 'string' ||
    typeof value[1] !== 'string' ||
    !Number.isFinite(Date.parse(value[0]))
  )
    throw new ListingQueryError(
      'cursor is not one this listing wrote: pass the next_cursor of the page before unchanged, or leave it out for the first page',
    );
  return { key: value[0], sessionId: value[1] };
}

/** Newest accepted first (then by session id, descending): the order of every listing. */
export function compareRows(left: SessionRow, right: SessionRow): number {
  if (left.acceptedAt !== right.acceptedAt) return left.acceptedAt < right.acceptedAt ? 1 : -1;
  return left.sessionId < right.sessionId ? 1 : left.sessionId > right.sessionId ? -1 : 0;
}

export function summaryOf(row: SessionRow, timezone: string): SessionSummary {
  const at = (iso: string | null) => (iso === null ? null : isoInTimeZone(new Date(iso), timezone));
  return {
    session_id: row.sessionId,
    request_id: row.requestId,
    status: row.status,
    user: row.user,
    started_at: at(row.startedAt),
    finished_at: at(row.finishedAt),
    lineage: row.lineage,
    conversation_id: row.conversationId,
    conversation_turn: row.conversationTurn,
  };
}

/** One page of rows already in listing order (see compareRows), found from the cursor by binary search. */
export function pageOfRows(ordered: readonly SessionRow[], query: ListingQuery, timezone: string): ListingPage {
  let start = 0;
  if (query.cursor !== null) {
    const { key, sessionId } = decodeCursor(query.cursor);
    const after = { acceptedAt: key, sessionId } as SessionRow;
    let low = 0;
    let high = ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareRows(ordered[middle], after) <= 0) low = middle + 1;
      else high = middle;
    }
    start = low;
  }
  const sessions: SessionSummary[] = [];
  let last: SessionRow | null = null;
  let more = false;
  for (let index = start; index < ordered.length; index++) {
    const row = ordered[index];
    // Rows are newest first: past `since`, nothing further can match.
    if (query.sinceMs !== null && Date.parse(row.acceptedAt) < query.sinceMs) break;
    if (query.status !== null && row.status !== query.status) continue;
    if (query.user !== null && row.user !== query.user) continue;
    if (sessions.length === query.limit) {
      more = true;
      break;
    }
    sessions.push(summaryOf(row, timezone));
    last = row;
  }
  return { sessions, next_cursor: more && last ? encodeCursor(last.acceptedAt, last.sessionId) : null };
}
