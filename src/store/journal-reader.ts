/**
 * Reading a session's journal and manifest back (`system/sessions/<id>/journal.jsonl`,
 * `manifest.json`) and the one parser of journal records, whichever store keeps them. The records'
 * types are in session-journal.ts; the files store writes them (files-session-store.ts).
 */
import { existsSync, readFileSync, readdirSync, truncateSync } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { errorCode } from '../errors.js';
import { JournalFormatError, SUPPORTED_JOURNAL_VERSIONS } from './journal-format.js';
import type { JournalRecord, SessionManifest } from './session-journal.js';

/** Reading journals and manifests back (the files store writes them: files-session-store.ts). */
export class SessionJournal {
  static directoryOf(sessionsDir: string, sessionId: string): string {
    return path.join(sessionsDir, sessionId);
  }

  private static fileOf(sessionsDir: string, sessionId: string): string {
    return path.join(sessionsDir, sessionId, 'journal.jsonl');
  }

  static exists(sessionsDir: string, sessionId: string): boolean {
    return existsSync(SessionJournal.fileOf(sessionsDir, sessionId));
  }

  /**
   * exists(), looked up on libuv's pool: a name new to sessions/ waits for the folder's lock, which
   * sessions starting hold (creating their folders; on ext4 without a journal, through the folder's
   * fsync). On the event loop that was 0.6 ms per request in a burst of 1,000 (bench/real-path.mjs).
   */
  static async existsOffLoop(sessionsDir: string, sessionId: string): Promise<boolean> {
    try {
      await access(SessionJournal.fileOf(sessionsDir, sessionId));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * With `repair`, truncates a torn final line (one without its "\n": a crash cut the append
   * short). Any other line that is not a record throws {@link JournalFormatError}: that is damage, never cut.
   */
  static read(directory: string, repair = false): JournalRecord[] {
    const file = path.join(directory, 'journal.jsonl');
    // An archived session's journal is gzipped (store/session-retention.ts); it is never repaired.
    const archived = !existsSync(file) && existsSync(`${file}.gz`);
    const text = archived ? gunzipSync(readFileSync(`${file}.gz`)).toString('utf8') : readFileSync(file, 'utf8');
    const records: JournalRecord[] = [];
    let offset = 0;
    for (let lineNumber = 1; offset < text.length; lineNumber++) {
      const end = text.indexOf('\n', offset);
      if (end === -1) break; // the torn final line
      records.push(parseJournalRecord(text.slice(offset, end), file, lineNumber));
      offset = end + 1;
    }
    if (repair && !archived && offset < text.length) truncateSync(file, Buffer.byteLength(text.slice(0, offset)));
    return records;
  }

  /** The session ids that have a folder (hidden names are not sessions). */
  static list(sessionsDir: string): string[] {
    if (!existsSync(sessionsDir)) return [];
    return readdirSync(sessionsDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name);
  }

  /** The manifest, or null when missing; a read that met a rewrite in progress is retried. */
  static readManifest(sessionsDir: string, sessionId: string): SessionManifest | null {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return JSON.parse(readFileSync(path.join(sessionsDir, sessionId, 'manifest.json'), 'utf8')) as SessionManifest;
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return null;
      }
    }
    return null;
  }

  /**
   * The manifest or, where there is none, what the journal alone says: its process was killed
   * before writing one, or the session has just started and its manifest has not landed (the
   * file is created off the event loop: manifest-file.ts). Null with neither.
   */
  static readManifestOrJournal(sessionsDir: string, sessionId: string): SessionManifest | null {
    return SessionJournal.readManifest(sessionsDir, sessionId) ?? manifestFromJournal(sessionsDir, sessionId);
  }
}

/** What the journal alone says of a session, as its manifest would. */
function manifestFromJournal(sessionsDir: string, sessionId: string): SessionManifest | null {
  let records;
  try {
    records = SessionJournal.read(SessionJournal.directoryOf(sessionsDir, sessionId));
  } catch {
    return null;
  }
  const first = records[0];
  if (!first || first.type !== 'session') return null;
  const finished = records.find((record) => record.type === 'finished');
  const messageRecords = records.filter((record) => record.type === 'message');
  const messages = messageRecords.length;
  return {
    v: first.v,
    session_id: sessionId,
    request_id: first.request_id,
    state: finished
      ? finished.status === 'success'
        ? 'SUCCESS'
        : finished.status === 'partial'
          ? 'PARTIAL'
          : finished.status === 'cancelled'
            ? 'CANCELLED'
            : 'FAILED'
      : 'RUNNING',
    current_agent: null,
    last_agent: messageRecords.at(-1)?.message.agent.name ?? null,
    source_file: first.source_file,
    created_at: first.created_at,
    updated_at: finished?.at ?? first.created_at,
    messages,
    usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cost_usd: 0 },
    elapsed_ms: 0,
    model_time_ms: 0,
    governance_hash: null,
    question: null,
  };
}

/** The one parser of journal records, whichever store keeps them; `file` may name a store row. */
export function parseJournalRecord(line: string, file: string, lineNumber: number): JournalRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new JournalFormatError(
      `not a journal record (${(error as Error).message}); the journal is damaged: restore it from a backup, or move the session folder aside ` +
        `to start the request over`,
      file,
      lineNumber,
    );
  }
  const record = value as Partial<JournalRecord> | null;
  if (typeof record !== 'object' || record === null || typeof record.type !== 'string') {
    throw new JournalFormatError(
      'not a journal record (no "type"); the journal is damaged: restore it from a backup',
      file,
      lineNumber,
    );
  }
  if (!SUPPORTED_JOURNAL_VERSIONS.includes(record.v as number)) {
    throw new JournalFormatError(
      `journal record version v=${JSON.stringify(record.v)} is not one this govflow reads (${SUPPORTED_JOURNAL_VERSIONS.join(', ')}); ` +
        'it was written by another govflow version: run that version to finish the session',
      file,
      lineNumber,
    );
  }
  return record as JournalRecord;
}
