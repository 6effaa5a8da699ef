/** Reading the audit trail back, for `govflow logs`: safe while the daemon appends (a half-written last entry is skipped). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseEntries, type ParsedAuditEntry } from './audit-entry-parse.js';
import { AuditLogFormatError } from './audit-errors.js';
import { errorCode } from '../errors.js';

/** An entry with the day file it was read from (`YYYYMMDD.log`). */
export interface LoggedEntry extends ParsedAuditEntry {
  file: string;
}

/** True for a real calendar date written `YYYYMMDD`. */
export function isLogDate(text: string): boolean {
  if (!/^\d{8}$/.test(text)) return false;
  const [year, month, day] = [Number(text.slice(0, 4)), Number(text.slice(4, 6)), Number(text.slice(6, 8))];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function logFileDate(file: string): string {
  return file.slice(0, 8);
}

/** Day file names in chain order (oldest first: YYYYMMDD sorts by date); empty when the folder does not exist yet. */
export function listLogFiles(logsDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(logsDir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  return names.filter((name) => /^\d{8}\.log$/.test(name) && isLogDate(name.slice(0, 8))).sort();
}

export interface ReadEntriesOptions {
  /** Only files of this day (`YYYYMMDD`). */
  date?: string;
}

/** In chain order; {@link AuditLogFormatError} names the file and line of a malformed entry. */
export async function readLogEntries(logsDir: string, options: ReadEntriesOptions = {}): Promise<LoggedEntry[]> {
  const files = listLogFiles(logsDir).filter(
    (file) => options.date === undefined || logFileDate(file) === options.date,
  );
  const entries: LoggedEntry[] = [];
  for (const file of files) {
    const text = await fs.promises.readFile(path.join(logsDir, file), 'utf8');
    try {
      for (const entry of parseEntries(text).entries) entries.push({ ...entry, file });
    } catch (error) {
      throw error instanceof AuditLogFormatError ? error.inFile(path.join(logsDir, file)) : error;
    }
  }
  return entries;
}

/** What `govflow logs` can filter on; every given criterion must match. */
export interface EntryFilter {
  /** `YYYYMMDD`: entries of that day's file. */
  date?: string;
  session?: string;
  agent?: string;
  /** A status code: success, partial, failed, pending. */
  status?: string;
}

/** An entry as JSON (`govflow logs --json`, `GET /v1/logs`): its parsed fields and file, without the raw text. */
export function entryJson(entry: LoggedEntry): Omit<LoggedEntry, 'body' | 'offset' | 'length'> {
  const { body: _body, offset: _offset, length: _length, ...fields } = entry;
  return fields;
}

export function filterEntries(entries: LoggedEntry[], filter: EntryFilter): LoggedEntry[] {
  return entries.filter(
    (entry) =>
      (filter.date === undefined || logFileDate(entry.file) === filter.date) &&
      (filter.session === undefined || entry.sessionId === filter.session) &&
      (filter.agent === undefined || entry.agent === filter.agent) &&
      (filter.status === undefined || entry.status.code === filter.status),
  );
}
