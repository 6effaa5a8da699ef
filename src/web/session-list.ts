/** The sessions page's rows, from each session's manifest and first journal record, and the in-memory query over them. */
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { SessionJournal, type SessionRecord } from '../store/session-journal.js';
import type { SessionRow } from '../store/session-reads.js';

export interface SessionQuery {
  status: string | null;
  search: string | null;
  page: number;
  pageSize: number;
  /** Only sessions this user may see; null for everything. */
  user: string | null;
}

export interface SessionPage {
  rows: SessionRow[];
  total: number;
  page: number;
  pages: number;
  /** Count of every visible session per status, before the status filter. */
  byStatus: Record<string, number>;
}

/** Reused for every first-line read: reads are synchronous, so one buffer serves them all. */
const FIRST_LINE_BUFFER = Buffer.allocUnsafe(256 * 1024);

/** The first line of a journal: the session record (who asked what), read without the rest. */
export function readSessionRecord(sessionsDir: string, sessionId: string): SessionRecord | null {
  let descriptor: number | null = null;
  try {
    descriptor = openSync(path.join(sessionsDir, sessionId, 'journal.jsonl'), 'r');
    const read = readSync(descriptor, FIRST_LINE_BUFFER, 0, FIRST_LINE_BUFFER.length, 0);
    const text = FIRST_LINE_BUFFER.subarray(0, read).toString('utf8');
    const newline = text.indexOf('\n');
    const record = JSON.parse(newline === -1 ? text : text.slice(0, newline)) as SessionRecord;
    return record.type === 'session' ? record : null;
  } catch {
    return null;
  } finally {
    if (descriptor !== null) closeSync(descriptor);
  }
}

/** A session's row from its manifest and first journal record; null while it has no manifest. */
export function readSessionRow(paths: SystemPaths, sessionId: string): SessionRow | null {
  const manifest = SessionJournal.readManifest(paths.sessions, sessionId);
  if (!manifest) return null;
  const record = readSessionRecord(paths.sessions, manifest.session_id);
  return {
    sessionId: manifest.session_id,
    requestId: manifest.request_id,
    status: manifest.state.toLowerCase(),
    user: record?.request.user ?? 'local',
    requestText: record?.request.text ?? '',
    agents: manifest.current_agent ? [manifest.current_agent] : [],
    currentAgent: manifest.current_agent,
    messages: manifest.messages,
    createdAt: manifest.created_at,
    updatedAt: manifest.updated_at,
    costUsd: manifest.usage.cost_usd,
    searchText: '',
  };
}

/** Sets the row's search text from its fields (after its agents change). */
export function indexRowText(row: SessionRow): SessionRow {
  row.searchText = [row.sessionId, row.requestId, row.requestText, ...row.agents].join('\n').toLowerCase();
  return row;
}

/** Newest first (then by session id): the order of the sessions page. */
export function compareRows(left: SessionRow, right: SessionRow): number {
  if (left.createdAt !== right.createdAt) return left.createdAt < right.createdAt ? 1 : -1;
  return left.sessionId < right.sessionId ? 1 : left.sessionId > right.sessionId ? -1 : 0;
}

/** Filters, counts and pages rows already in page order (see compareRows), in memory. */
export function querySessions(ordered: readonly SessionRow[], query: SessionQuery): SessionPage {
  const search = query.search?.trim().toLowerCase() ?? '';
  const byStatus: Record<string, number> = {};
  const matches = (row: SessionRow) =>
    (query.user === null || row.user === query.user) && (search === '' || row.searchText.includes(search));
  // One pass counts and keeps only the requested page's rows (no array of every match).
  const collect = (page: number) => {
    const first = (page - 1) * query.pageSize;
    const rows: SessionRow[] = [];
    let total = 0;
    for (const row of ordered) {
      if (!matches(row)) continue;
      byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
      if (query.status && row.status !== query.status) continue;
      if (total >= first && rows.length < query.pageSize) rows.push(row);
      total += 1;
    }
    return { rows, total };
  };
  const wanted = Math.max(1, Math.floor(query.page));
  let { rows, total } = collect(wanted);
  const pages = Math.max(1, Math.ceil(total / query.pageSize));
  const page = Math.min(wanted, pages);
  if (page !== wanted) {
    for (const key of Object.keys(byStatus)) delete byStatus[key];
    ({ rows, total } = collect(page));
  }
  return { rows, total, page, pages, byStatus };
}
