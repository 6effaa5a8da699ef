/**
 * Journals and results follow their audit days into the archive (docs/audit-log.md "Retention
 * and archives"), gzipped under `system/logs/archive/YYYYMMDD/`. Running and paused sessions never
 * move; nor does a delegated child while its parent runs, or a session whose request file is still
 * claimed (recovery reads them). Crash-safe: the copies are synced before the live files are
 * removed, the session folder last, so a crash only makes the next pass copy them again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { archiveFolderOf, writeGzip } from './atomic-file.js';
import type { SystemPaths } from '../config/system-paths.js';
import { compactInTimeZone } from '../message/zoned-time.js';
import { type JournalRecord, type SessionStateName } from './session-journal.js';
import { SessionJournal } from './journal-reader.js';
import { ATTACHMENTS_FOLDER } from './attachment-records.js';
import { parseEntries } from '../audit/audit-entry-parse.js';
import { listArchivedLogFiles } from '../audit/log-retention.js';
import type { AuditedMessages } from './session-store.js';

type ArchivePaths = Pick<SystemPaths, 'sessions' | 'logs'>;

const ENDED: ReadonlySet<SessionStateName> = new Set([
  'SUCCESS',
  'PARTIAL',
  'FAILED',
  'HALTED_COST',
  'HALTED_TIME',
  'CANCELLED',
]);

/** The day (`YYYYMMDD`) the session ended, or null while it runs or waits for a person. */
function endDay(records: JournalRecord[], timezone: string): string | null {
  const last = records.at(-1);
  return last?.type === 'finished' && last.status !== 'pending' ? compactInTimeZone(new Date(last.at), timezone) : null;
}

function readJournal(sessionsDir: string, sessionId: string): JournalRecord[] | null {
  try {
    return SessionJournal.read(SessionJournal.directoryOf(sessionsDir, sessionId));
  } catch {
    return null; // damaged or gone: left where it is
  }
}

/** Archives the sessions that ended before the day `before`; the manifest (a cache that may lag) only skips early, the journal decides. */
export function archiveFinishedSessions(options: {
  paths: SystemPaths;
  timezone: string;
  before: string;
  /** tools.workspace: a session's copy of its attachments goes with it (the archived request folder keeps them, docs/attachments.md). */
  workspace?: string;
}): string[] {
  const { paths, timezone, before } = options;
  const archived: string[] = [];
  for (const sessionId of SessionJournal.list(paths.sessions)) {
    const manifest = SessionJournal.readManifest(paths.sessions, sessionId);
    if (
      manifest &&
      (!ENDED.has(manifest.state) || compactInTimeZone(new Date(manifest.updated_at), timezone) >= before)
    )
      continue;
    const records = readJournal(paths.sessions, sessionId);
    const day = records && endDay(records, timezone);
    const session = records?.[0];
    if (!day || day >= before || session?.type !== 'session') continue;
    // Its request file still claimed: a crash came before intake archived it, and recovery reads this journal.
    if (session.claimed_path !== null && fs.existsSync(session.claimed_path)) continue;
    const parent = session.delegation?.parent_session_id;
    if (
      parent !== undefined &&
      SessionJournal.exists(paths.sessions, parent) &&
      endDay(readJournal(paths.sessions, parent) ?? [], timezone) === null
    )
      continue;
    const dayFolder = path.join(archiveFolderOf(paths.logs), day);
    const results = copyResultsToArchive(paths, session.request_id, day);
    const folder = SessionJournal.directoryOf(paths.sessions, sessionId);
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(folder, entry.name);
      // The PII vault keeps its mode 0600 (README "Privacy and guardrails").
      writeGzip(
        path.join(dayFolder, 'sessions', sessionId, `${entry.name}.gz`),
        fs.readFileSync(file),
        fs.statSync(file).mode & 0o777,
      );
    }
    for (const file of results) fs.rmSync(file);
    fs.rmSync(folder, { recursive: true, force: true });
    if (options.workspace && session.attachments)
      fs.rmSync(path.join(options.workspace, sessionId, ATTACHMENTS_FOLDER), { recursive: true, force: true });
    archived.push(sessionId);
  }
  return archived;
}

/** Copies the request's outbox results (`.json`, `.md`) to the day's archive folder; returns the live files, removed by the caller once the rest is copied. */
export function copyResultsToArchive(
  paths: Pick<SystemPaths, 'outbox' | 'logs'>,
  requestId: string,
  day: string,
): string[] {
  const results = [`${requestId}.json`, `${requestId}.md`]
    .map((name) => path.join(paths.outbox, name))
    .filter((file) => fs.existsSync(file));
  for (const file of results)
    writeGzip(
      path.join(archiveFolderOf(paths.logs), day, 'outbox', `${path.basename(file)}.gz`),
      fs.readFileSync(file),
    );
  return results;
}

/** The archived file `YYYYMMDD/<relative>` of the newest day that has it, or null. */
function findArchived(paths: ArchivePaths, relative: string): string | null {
  const archive = archiveFolderOf(paths.logs);
  let days: string[];
  try {
    days = fs.readdirSync(archive).filter((name) => /^\d{8}$/.test(name));
  } catch {
    return null;
  }
  for (const day of days.sort().reverse()) {
    const file = path.join(archive, day, relative);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

/** The session's folder: in system/sessions/, else in the archive; the live path when neither has it. */
export function sessionFolder(paths: ArchivePaths, sessionId: string): string {
  const live = SessionJournal.directoryOf(paths.sessions, sessionId);
  if (SessionJournal.exists(paths.sessions, sessionId)) return live;
  const archived = findArchived(paths, path.join('sessions', sessionId, 'journal.jsonl.gz'));
  return archived === null ? live : path.dirname(archived);
}

/** The request's archived result document (docs/results.md), or null when the archive has none. */
export function archivedResult(paths: ArchivePaths, requestId: string): Record<string, unknown> | null {
  const archived = findArchived(paths, path.join('outbox', `${requestId}.json.gz`));
  try {
    return archived === null
      ? null
      : (JSON.parse(gunzipSync(fs.readFileSync(archived)).toString('utf8')) as Record<string, unknown>);
  } catch {
    return null;
  }
}

/**
 * An archived session's audited messages (a fork of it names their entries, docs/run-control.md):
 * read from the archived day files `YYYYMMDD.log.gz` from `fromDay` on.
 */
export function archivedAuditedMessages(logsDir: string, sessionId: string, fromDay: string): AuditedMessages {
  const found: AuditedMessages = new Map();
  const archive = archiveFolderOf(logsDir);
  for (const name of listArchivedLogFiles(logsDir)) {
    if (name.slice(0, 8) < fromDay) continue;
    const text = gunzipSync(fs.readFileSync(path.join(archive, name))).toString('utf8');
    for (const entry of parseEntries(text).entries)
      if (entry.sessionId === sessionId)
        found.set(entry.messageId, { sequence: entry.sequence, agent: entry.agent, hash: entry.hash });
  }
  return found;
}
