/**
 * The sessions page's rows: every session of the root from its manifest (state, request id,
 * times, current agent) and the first journal record (user, request text), filtered by status
 * and by a search over session id, request id, request text and the agents that answered.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { SessionJournal, type SessionManifest, type SessionRecord } from '../store/session-journal.js';

export interface SessionRow {
  sessionId: string;
  requestId: string;
  /** Lower case: running, paused, success, partial, failed, halted_cost, … */
  status: string;
  user: string;
  requestText: string;
  currentAgent: string | null;
  messages: number;
  createdAt: string;
  updatedAt: string;
  costUsd: number;
}

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

/** The first line of a journal: the session record (who asked what), read without the rest. */
export function readSessionRecord(sessionsDir: string, sessionId: string): SessionRecord | null {
  let descriptor: number | null = null;
  try {
    descriptor = openSync(path.join(sessionsDir, sessionId, 'journal.jsonl'), 'r');
    const buffer = Buffer.alloc(256 * 1024);
    const read = readSync(descriptor, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    const newline = text.indexOf('\n');
    const record = JSON.parse(newline === -1 ? text : text.slice(0, newline)) as SessionRecord;
    return record.type === 'session' ? record : null;
  } catch {
    return null;
  } finally {
    if (descriptor !== null) closeSync(descriptor);
  }
}

function rowOf(paths: SystemPaths, manifest: SessionManifest): SessionRow {
  const record = readSessionRecord(paths.sessions, manifest.session_id);
  return {
    sessionId: manifest.session_id,
    requestId: manifest.request_id,
    status: manifest.state.toLowerCase(),
    user: record?.request.user ?? 'local',
    requestText: record?.request.text ?? '',
    currentAgent: manifest.current_agent,
    messages: manifest.messages,
    createdAt: manifest.created_at,
    updatedAt: manifest.updated_at,
    costUsd: manifest.usage.cost_usd,
  };
}

/** Agents that answered in a session (for the search), read from its journal. */
function agentsOf(paths: SystemPaths, sessionId: string): string[] {
  try {
    return SessionJournal.read(SessionJournal.directoryOf(paths.sessions, sessionId))
      .filter((record) => record.type === 'message')
      .map((record) => (record.type === 'message' ? record.message.agent.name : ''));
  } catch {
    return [];
  }
}

export function listSessions(paths: SystemPaths, query: SessionQuery): SessionPage {
  const visible: SessionRow[] = [];
  for (const sessionId of SessionJournal.list(paths.sessions)) {
    const manifest = SessionJournal.readManifest(paths.sessions, sessionId);
    if (!manifest) continue;
    const row = rowOf(paths, manifest);
    if (query.user !== null && row.user !== query.user) continue;
    visible.push(row);
  }
  const search = query.search?.trim().toLowerCase() ?? '';
  const searched = search === ''
    ? visible
    : visible.filter(
        (row) =>
          row.sessionId.toLowerCase().includes(search) ||
          row.requestId.toLowerCase().includes(search) ||
          row.requestText.toLowerCase().includes(search) ||
          (row.currentAgent ?? '').toLowerCase().includes(search) ||
          agentsOf(paths, row.sessionId).some((agent) => agent.toLowerCase().includes(search)),
      );
  const byStatus: Record<string, number> = {};
  for (const row of searched) byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
  const filtered = query.status ? searched.filter((row) => row.status === query.status) : searched;
  filtered.sort((left, right) => right.createdAt.localeCompare(left.createdAt) || right.sessionId.localeCompare(left.sessionId));
  const pages = Math.max(1, Math.ceil(filtered.length / query.pageSize));
  const page = Math.min(Math.max(1, query.page), pages);
  return { rows: filtered.slice((page - 1) * query.pageSize, page * query.pageSize), total: filtered.length, page, pages, byStatus };
}
