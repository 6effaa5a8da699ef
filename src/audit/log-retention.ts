/**
 * Retention of the audit trail and of its days' journals and results (docs/audit-log.md "Retention
 * and archives"). The newest day file never moves: the writer chains to it. A deletion is recorded
 * in `archive/deleted.jsonl` first, so verify can start the chain there. Crash-safe: sources go only
 * after their archive is synced, readers take a day's `.log` while it exists, and days the record
 * names but still on disk are a deletion a crash cut: skipped, then removed by the next pass.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { GovflowError } from '../errors.js';
import { compactInTimeZone } from '../message/zoned-time.js';
import { fsyncDirectory } from '../store/append-only-file.js';
import { archiveFolderOf, writeFileAtomic, writeGzip } from '../store/atomic-file.js';
import { GENESIS_HASH, computeEntryHash } from './audit-entry-format.js';
import { parseEntryBlock, splitEntryBlocks } from './audit-entry-parse.js';
import { listLogFiles } from './audit-log-reader.js';

/** Under system/state/: while it exists, retention deletes nothing. */
export const LEGAL_HOLD_FILE = 'legal-hold';
const DELETIONS_FILE = 'deleted.jsonl';
const DAY = 86_400_000;

/** One deletion: the chain up to the end of `day`, and what went; signed like a checkpoint when a key is set. */
export interface DeletionRecord {
  day: string;
  entries: number;
  hash: string;
  at: string;
  days: string[];
  sessions: string[];
  requests: string[];
  key?: string;
  sig?: string;
}

/** Every deletion, oldest first, with its `file:line`; `problem` names a line that is not one. */
export function readDeletions(logsDir: string): {
  records: Array<{ record: DeletionRecord; where: string; line: string }>;
  problem: { file: string; line: number; detail: string } | null;
} {
  const file = path.join(archiveFolderOf(logsDir), DELETIONS_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { records: [], problem: null };
  }
  const records = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const where = `${file}:${index + 1}`;
    let record: DeletionRecord;
    try {
      record = JSON.parse(line) as DeletionRecord;
    } catch {
      return { records, problem: { file, line: index + 1, detail: 'not JSON' } };
    }
    if (
      !/^\d{8}$/.test(String(record.day)) ||
      !Number.isInteger(record.entries) ||
      !/^[0-9a-f]{64}$/.test(String(record.hash))
    ) {
      return {
        records,
        problem: { file, line: index + 1, detail: 'not a deletion record ("day", "entries" and "hash" are required)' },
      };
    }
    records.push({ record, where, line });
  }
  return { records, problem: null };
}

const deletionIndex = new Map<string, { stamp: string; byId: Map<string, DeletionRecord> }>();

/** The deletion that removed this request's (or session's) result and journal, or null (read again when the file changed). */
export function deletedRequest(
  logsDir: string,
  id: string,
  kind: 'requests' | 'sessions' = 'requests',
): DeletionRecord | null {
  let stamp: string;
  try {
    const stat = fs.statSync(path.join(archiveFolderOf(logsDir), DELETIONS_FILE));
    stamp = `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return null;
  }
  let known = deletionIndex.get(logsDir);
  if (known?.stamp !== stamp) {
    known = { stamp, byId: new Map() };
    for (const { record } of readDeletions(logsDir).records) {
      for (const request of record.requests ?? []) known.byId.set(`requests:${request}`, record);
      for (const session of record.sessions ?? []) known.byId.set(`sessions:${session}`, record);
    }
    deletionIndex.set(logsDir, known);
  }
  return known.byId.get(`${kind}:${id}`) ?? null;
}

/** Where the chain starts: the newest deletion, or null while nothing was deleted. */
export function chainStart(logsDir: string): DeletionRecord | null {
  return readDeletions(logsDir).records.at(-1)?.record ?? null;
}

/** Archived day files (`YYYYMMDD.log.gz`) not also still in logs/ and not deleted (days after `after`), oldest first. */
export function listArchivedLogFiles(logsDir: string, after = chainStart(logsDir)?.day ?? ''): string[] {
  const current = new Set(listLogFiles(logsDir));
  return readNames(archiveFolderOf(logsDir))
    .filter((name) => /^\d{8}\.log\.gz$/.test(name) && name.slice(0, 8) > after && !current.has(name.slice(0, -3)))
    .sort();
}

/** The names in `folder`; none when it cannot be read (not made yet, or gone). */
export function readNames(folder: string): string[] {
  try {
    return fs.readdirSync(folder);
  } catch {
    return [];
  }
}

export interface RetentionOptions {
  logsDir: string;
  timezone: string;
  keepDays: number;
  now?: Date;
}

/** The day (`YYYYMMDD`, configured zone) `days` before `now`: days before it are older than `days`. */
export function dayCutoff(now: Date, days: number, timezone: string): string {
  return compactInTimeZone(new Date(now.getTime() - days * DAY), timezone);
}

/** Archives the day files older than `keepDays`; returns the days moved. */
export function archiveOldDays(options: RetentionOptions): string[] {
  const cutoff = dayCutoff(options.now ?? new Date(), options.keepDays, options.timezone);
  const archiveDir = archiveFolderOf(options.logsDir);
  const moved: string[] = [];
  for (const name of listLogFiles(options.logsDir).slice(0, -1)) {
    const day = name.slice(0, 8);
    if (day >= cutoff) break;
    const target = path.join(archiveDir, `${name}.gz`);
    if (!fs.existsSync(target)) writeGzip(target, fs.readFileSync(path.join(options.logsDir, name)));
    fs.rmSync(path.join(options.logsDir, name));
    moved.push(day);
  }
  if (moved.length > 0) fsyncDirectory(options.logsDir);
  return moved;
}

export interface DeletionOptions {
  logsDir: string;
  stateDir: string;
  timezone: string;
  deleteAfterDays: number;
  now?: Date;
  /** Signs the record's fields (audit.signing_key), as checkpoints are signed. */
  sign?: <T extends object>(fields: T) => T & { key: string; sig: string };
}

/** Unless the legal hold exists; throws when the chain it would delete does not hold: retention never destroys the evidence of tampering. */
export function deleteOldDays(options: DeletionOptions): { deleted: string[]; held: boolean } {
  const now = options.now ?? new Date();
  const cutoff = dayCutoff(now, options.deleteAfterDays, options.timezone);
  const archiveDir = archiveFolderOf(options.logsDir);
  const start = chainStart(options.logsDir);
  // Day folders only before the first day still in logs/: the record's day must precede every kept entry.
  const firstKept = listLogFiles(options.logsDir)[0]?.slice(0, 8) ?? '99999999';
  const deletedThrough = start?.day ?? '';
  const names = readNames(archiveDir);
  const folders = names.filter(
    (name) => /^\d{8}$/.test(name) && name > deletedThrough && name < cutoff && name < firstKept,
  );
  const logs = listArchivedLogFiles(options.logsDir, deletedThrough).filter((name) => name.slice(0, 8) < cutoff);
  // What a crash left of an earlier deletion (its record is written): removed, not recorded again.
  const leftovers = names.filter((name) => /^\d{8}(\.log\.gz)?$/.test(name) && name.slice(0, 8) <= deletedThrough);
  if (folders.length === 0 && logs.length === 0 && leftovers.length === 0) return { deleted: [], held: false };
  if (fs.existsSync(path.join(options.stateDir, LEGAL_HOLD_FILE))) return { deleted: [], held: true };
  const days = [...new Set([...folders, ...logs.map((name) => name.slice(0, 8))])].sort();
  if (days.length > 0) {
    let entries = start?.entries ?? 0;
    let hash = start?.hash ?? GENESIS_HASH;
    for (const name of logs) {
      const file = path.join(archiveDir, name);
      for (const block of splitEntryBlocks(gunzipSync(fs.readFileSync(file)).toString('utf8')).blocks) {
        const entry = parseEntryBlock(block);
        if (computeEntryHash(hash, entry.body) !== entry.hash) {
          throw new GovflowError(
            'audit',
            `${file}: entry ${entry.messageId} (line ${block.line}) does not chain to the entry before it; nothing deleted: run "govflow verify"`,
          );
        }
        [entries, hash] = [entries + 1, entry.hash];
      }
    }
    const listed = (sub: string, suffix: string) =>
      folders
        .flatMap((day) =>
          readNames(path.join(archiveDir, day, sub))
            .filter((name) => name.endsWith(suffix))
            .map((name) => name.slice(0, name.length - suffix.length)),
        )
        .sort();
    const fields = {
      day: days.at(-1)!,
      entries,
      hash,
      at: now.toISOString(),
      days,
      sessions: listed('sessions', ''),
      requests: listed('outbox', '.json.gz'),
    };
    appendDeletionLines(options.logsDir, [JSON.stringify(options.sign ? options.sign(fields) : fields)]);
  }
  for (const name of [...folders, ...logs, ...leftovers])
    fs.rmSync(path.join(archiveDir, name), { recursive: true, force: true });
  fsyncDirectory(archiveDir);
  return { deleted: days, held: false };
}

/** Adds deletion records (JSON lines) to `archive/deleted.jsonl`, the whole file written anew and synced. */
export function appendDeletionLines(logsDir: string, lines: string[]): void {
  if (lines.length === 0) return;
  const file = path.join(archiveFolderOf(logsDir), DELETIONS_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  writeFileAtomic(file, `${before}${lines.map((line) => `${line}\n`).join('')}`);
}

/**
 * Cluster mode: removes this root's files of the days the store deleted through `through` — day
 * files in logs/ (a projection that was down when they went) and in the archive, and the archive's
 * day folders. The caller copied the deletion record first, so verify starts the chain after them.
 */
export function removeDeletedDays(logsDir: string, through: string): string[] {
  const archiveDir = archiveFolderOf(logsDir);
  const removed: string[] = [];
  for (const [folder, pattern] of [
    [logsDir, /^\d{8}\.log$/],
    [archiveDir, /^\d{8}(\.log\.gz)?$/],
  ] as const) {
    const names = readNames(folder).filter((name) => pattern.test(name) && name.slice(0, 8) <= through);
    for (const name of names) fs.rmSync(path.join(folder, name), { recursive: true, force: true });
    if (names.length > 0) fsyncDirectory(folder);
    removed.push(...names);
  }
  return removed;
}
