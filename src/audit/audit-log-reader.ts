/**
 * Reading the audit trail back: which day files exist, their entries, and the filters behind
 * `govflow logs`. Read-only; safe to run while the daemon appends (a half-written last entry is
 * skipped, exactly as the writer would cut it after a crash).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseEntries, type ParsedAuditEntry } from './audit-entry-format.js';
import { AuditLogFormatError } from './audit-errors.js';

const LOG_FILE_NAME = /^(\d{8})\.log$/;

/** An entry with the day file it was read from (`YYYYMMDD.log`). */
export interface LoggedEntry extends ParsedAuditEntry {
  file: string;
}

/** True for a real calendar date written `YYYYMMDD`. */
export function isLogDate(text: string): boolean {
  if (!/^\d{8}$/.test(text)) return false;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(4, 6));
  const day = Number(text.slice(6, 8));
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `YYYYMMDD.log` → `YYYYMMDD`. */
export function logFileDate(file: string): string {
  return file.slice(0, 8);
}

function sortLogNames(names: string[]): string[] {
  // YYYYMMDD sorts lexically in date order, which is also the chain order.
  return names.filter((name) => LOG_FILE_NAME.test(name) && isLogDate(name.slice(0, 8))).sort();
}

/** Day file names in chain order (oldest first); empty when the folder does not exist yet. */
export async function listLogFiles(logsDir: string): Promise<string[]> {
  try {
    return sortLogNames(await fs.promises.readdir(logsDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export function listLogFilesSync(logsDir: string): string[] {
  try {
    return sortLogNames(fs.readdirSync(logsDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export interface ReadEntriesOptions {
  /** Only files of this day (`YYYYMMDD`). */
  date?: string;
  /** Only files of this day and later (`YYYYMMDD`). */
  fromDate?: string;
}

/**
 * Entries of the selected files, in chain order. Throws {@link AuditLogFormatError} (naming the
 * file and line) when an entry is malformed: run `govflow verify` to see whether it was tampered.
 */
export async function readLogEntries(logsDir: string, options: ReadEntriesOptions = {}): Promise<LoggedEntry[]> {
  const files = (await listLogFiles(logsDir)).filter((file) => {
    const date = logFileDate(file);
    if (options.date !== undefined && date !== options.date) return false;
    return options.fromDate === undefined || date >= options.fromDate;
  });
  const entries: LoggedEntry[] = [];
  for (const file of files) {
    const text = await fs.promises.readFile(path.join(logsDir, file), 'utf8');
    let parsed;
    try {
      parsed = parseEntries(text);
    } catch (error) {
      if (error instanceof AuditLogFormatError) throw error.inFile(path.join(logsDir, file));
      throw error;
    }
    for (const entry of parsed.entries) entries.push({ ...entry, file });
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

export function entryMatches(entry: LoggedEntry, filter: EntryFilter): boolean {
  if (filter.date !== undefined && logFileDate(entry.file) !== filter.date) return false;
  if (filter.session !== undefined && entry.sessionId !== filter.session) return false;
  if (filter.agent !== undefined && entry.agent !== filter.agent) return false;
  if (filter.status !== undefined && entry.status.code !== filter.status) return false;
  return true;
}

export function filterEntries(entries: LoggedEntry[], filter: EntryFilter): LoggedEntry[] {
  return entries.filter((entry) => entryMatches(entry, filter));
}

/**
 * Message ids already in the log (from `fromDate` on, when given). After a crash the runner
 * appends only the journaled messages missing from this set, so no message is logged twice.
 */
export async function loggedMessageIds(logsDir: string, fromDate?: string): Promise<Set<string>> {
  const entries = await readLogEntries(logsDir, fromDate === undefined ? {} : { fromDate });
  return new Set(entries.map((entry) => entry.messageId));
}

/** What recovery needs to know of one logged message. */
export interface LoggedMessage {
  sequence: number;
  agent: string;
}

/**
 * The messages of one session already in the log (from `fromDate` on, when given), by message
 * id. After a crash the runner appends the journaled messages missing from it (so no message is
 * logged twice) and voids logged messages the journal lost (power loss).
 */
export async function loggedSessionMessages(logsDir: string, sessionId: string, fromDate?: string): Promise<Map<string, LoggedMessage>> {
  const entries = await readLogEntries(logsDir, fromDate === undefined ? {} : { fromDate });
  const messages = new Map<string, LoggedMessage>();
  for (const entry of entries) {
    if (entry.sessionId === sessionId) messages.set(entry.messageId, { sequence: entry.sequence, agent: entry.agent });
  }
  return messages;
}
