/**
 * Where the audit chain ends: the head record (docs/audit-log.md "Head record") and the scan the
 * writer runs once, at open. The record is padded to one 512-byte sector and overwritten with one
 * pwrite through a descriptor kept open, without fsync (a writeFile with O_TRUNC cost 0.15 ms per
 * append on ext4). A record AHEAD of the logs is never rebuilt: it is the evidence of deleted entries.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GENESIS_HASH } from './audit-entry-format.js';
import { parseEntryBlock, splitEntryBlocks } from './audit-entry-parse.js';
import { AuditLogFormatError, AuditWriteError } from './audit-errors.js';
import { listLogFiles } from './audit-log-reader.js';
import { archiveFolderOf } from '../store/atomic-file.js';
import { chainStart, listArchivedLogFiles } from './log-retention.js';
import { gunzipSync } from 'node:zlib';
import { errorCode } from '../errors.js';

export const HEAD_RECORD_FORMAT = 1;
const HEAD_RECORD_FILE = 'audit-head.json';
const SECTOR = 512;

/** The last entry appended: its day file (`YYYYMMDD.log`), the chain's length, its hash and message id. */
export interface AuditHeadRecord {
  format: 1;
  file: string;
  entries: number;
  hash: string;
  message_id: string;
}

export type HeadRecordRead =
  { state: 'missing' } | { state: 'unreadable'; reason: string } | { state: 'ok'; record: AuditHeadRecord };

/** Why a parsed record is not one, or null when it is. */
function invalidBecause(record: Partial<Record<keyof AuditHeadRecord, unknown>>): string | null {
  if (record.format !== HEAD_RECORD_FORMAT) return `format is ${String(record.format)}, expected ${HEAD_RECORD_FORMAT}`;
  if (typeof record.file !== 'string' || !/^\d{8}\.log$/.test(record.file)) return 'file is not YYYYMMDD.log';
  if (!Number.isInteger(record.entries) || (record.entries as number) < 1) return 'entries is not a positive integer';
  if (typeof record.hash !== 'string' || !/^[0-9a-f]{64}$/.test(record.hash)) return 'hash is not 64 hex digits';
  return typeof record.message_id === 'string' ? null : 'message_id is not a string';
}

export function readHeadRecord(stateDir: string): HeadRecordRead {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(path.join(stateDir, HEAD_RECORD_FILE), 'utf8'));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { state: 'missing' };
    const torn = error instanceof SyntaxError ? 'not JSON (torn write?): ' : '';
    return { state: 'unreadable', reason: torn + (error as Error).message };
  }
  if (typeof value !== 'object' || value === null) return { state: 'unreadable', reason: 'not a JSON object' };
  const record = value as AuditHeadRecord;
  const reason = invalidBecause(record);
  if (reason !== null) return { state: 'unreadable', reason };
  return {
    state: 'ok',
    record: { format: 1, file: record.file, entries: record.entries, hash: record.hash, message_id: record.message_id },
  };
}

/** The record's bytes, padded with spaces to one sector when it fits. */
function encode(record: AuditHeadRecord): Buffer {
  const json = `${JSON.stringify(record)}\n`;
  return Buffer.from(Buffer.byteLength(json) >= SECTOR ? json : `${json.slice(0, -1).padEnd(SECTOR - 1)}\n`);
}

/** The record, overwritten in place (see the file comment); a file removed meanwhile is made again. */
export class HeadRecordFile {
  private fd: number | null = null;
  /** Bytes in the file as last written: a shorter record must cut the rest. */
  private size = 0;

  constructor(private readonly stateDir: string) {}

  write(record: AuditHeadRecord): void {
    if (this.fd !== null && fs.fstatSync(this.fd).nlink === 0) this.close();
    if (this.fd === null) {
      fs.mkdirSync(this.stateDir, { recursive: true });
      this.fd = fs.openSync(
        path.join(this.stateDir, HEAD_RECORD_FILE),
        fs.constants.O_RDWR | fs.constants.O_CREAT,
        0o644,
      );
      this.size = fs.fstatSync(this.fd).size;
    }
    const bytes = encode(record);
    fs.writeSync(this.fd, bytes, 0, bytes.length, 0);
    // Only an oversized record (a huge message id) can leave old bytes behind to cut.
    if (bytes.length < this.size) fs.ftruncateSync(this.fd, bytes.length);
    this.size = bytes.length;
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      fs.closeSync(fd);
    } catch {
      /* the record is complete on the page cache; nothing else to release */
    }
  }
}

/** A torn tail cut off the newest file (the daemon logs it): its 1-based line, the offset cut to, the bytes cut and their start. */
export interface AuditRepair {
  file: string;
  line: number;
  offset: number;
  bytes: number;
  excerpt: string;
}

const SEPARATOR = Buffer.from('\n---\n');
const NEWLINE = Buffer.from('\n');
const FIRST_WINDOW = 1024 * 1024;

/**
 * The byte offsets just past the last `separators` "---" lines of `file`, oldest first, read from
 * the end in growing windows: a day file may be larger than one string may be.
 */
function readTail(file: string, separators: number): { ends: number[]; size: number; read: (from: number) => Buffer } {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    for (let window = FIRST_WINDOW; ; window *= 4) {
      const start = Math.max(0, size - window);
      const bytes = Buffer.alloc(size - start);
      fs.readSync(fd, bytes, 0, bytes.length, start);
      const ends: number[] = [];
      for (
        let at = bytes.lastIndexOf(SEPARATOR);
        at !== -1 && ends.length < separators;
        at = at === 0 ? -1 : bytes.lastIndexOf(SEPARATOR, at - 1)
      ) {
        ends.unshift(start + at + SEPARATOR.length);
      }
      if (ends.length >= separators || start === 0) {
        return { ends, size, read: (from) => bytes.subarray(from - start) };
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** How often `needle` occurs in `file` before byte `end`, read in slices for the same reason. */
function countInFile(file: string, needle: Buffer, end = Infinity): number {
  const fd = fs.openSync(file, 'r');
  try {
    const slice = Buffer.alloc(16 * 1024 * 1024);
    let count = 0;
    for (let position = 0; position < end;) {
      const read = fs.readSync(fd, slice, 0, Math.min(slice.length, end - position), position);
      const bytes = slice.subarray(0, read);
      let last = -1;
      for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1))
        [count, last] = [count + 1, at];
      if (read < slice.length) break;
      // Overlap the needle's length, so one split across two slices is counted once.
      position += last === -1 ? read - needle.length + 1 : last + needle.length;
    }
    return count;
  } finally {
    fs.closeSync(fd);
  }
}

/** Cuts a torn tail off `file`, returning what was cut (or null when the file ends cleanly). */
export function cutTornTail(file: string): AuditRepair | null {
  const tail = readTail(file, 1);
  const end = tail.ends.at(-1) ?? 0;
  if (end === tail.size) return null;
  const cut = tail.read(end);
  const fd = fs.openSync(file, 'r+');
  try {
    fs.ftruncateSync(fd, end);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  const line = end === 0 ? 1 : countInFile(file, NEWLINE, end) + 1;
  return { file, line, offset: end, bytes: cut.length, excerpt: cut.subarray(0, 200).toString('utf8') };
}

/** The last whole entry block of `file`, read from its end (null for a file with none). */
function lastEntryBlock(file: string) {
  const tail = readTail(file, 2);
  const end = tail.ends.at(-1);
  if (end === undefined) return undefined;
  // Fewer than two ends means the window reached the file's start, where the entry begins.
  const start = tail.ends.length >= 2 ? tail.ends.at(-2)! : 0;
  const text = tail
    .read(start)
    .subarray(0, end - start)
    .toString('utf8');
  return splitEntryBlocks(text).blocks.at(-1);
}

/**
 * Cuts a torn tail off the newest file, finds the last entry and the chain's length, and rewrites
 * the head record when it is missing, torn or behind. Only the root's one writer calls it: a tail
 * being written by a live writer would look torn.
 */
export function scanChainTail(logsDir: string, stateDir: string, head: HeadRecordFile) {
  const files = listLogFiles(logsDir);
  const newest = files.at(-1);
  const repair = newest === undefined ? null : cutTornTail(path.join(logsDir, newest));
  let end: { file: string; hash: string; messageId: string } | null = null;
  for (let index = files.length - 1; index >= 0 && end === null; index -= 1) {
    const fullPath = path.join(logsDir, files[index]);
    const last = lastEntryBlock(fullPath);
    if (last === undefined) continue;
    try {
      const entry = parseEntryBlock(last);
      end = { file: files[index], hash: entry.hash, messageId: entry.messageId };
    } catch (error) {
      if (!(error instanceof AuditLogFormatError)) throw error;
      throw new AuditWriteError(
        `cannot continue the audit chain: the last entry of ${error.inFile(fullPath).describe()}; ` +
          'run "govflow verify", then move the damaged file aside or restore it from a backup and restart',
        fullPath,
        undefined,
        { cause: error },
      );
    }
  }
  const read = readHeadRecord(stateDir);
  const newestDay = newest === undefined ? null : newest.slice(0, 8);
  const repairs = repair ? [repair] : [];
  if (read.state === 'ok' && end !== null && read.record.file === end.file && read.record.hash === end.hash) {
    return {
      file: end.file as string | null,
      hash: end.hash,
      entries: read.record.entries,
      newestDay,
      repairs,
      warnings: [] as string[],
    };
  }
  // Every day counts: those retention archived or deleted too.
  const archived = listArchivedLogFiles(logsDir).map(
    (name) =>
      splitEntryBlocks(gunzipSync(fs.readFileSync(path.join(archiveFolderOf(logsDir), name))).toString('utf8')).blocks
        .length,
  );
  const total = files.reduce(
    (sum, file) => sum + countInFile(path.join(logsDir, file), SEPARATOR),
    (chainStart(logsDir)?.entries ?? 0) + archived.reduce((sum, entries) => sum + entries, 0),
  );
  const warnings: string[] = [];
  let entries = total;
  if (read.state === 'ok' && read.record.entries >= total) {
    // Never rebuild a record ahead of (or disagreeing with) the logs: it is the only evidence
    // that entries were deleted. Keep its count so `verify` keeps reporting the gap.
    const { record } = read;
    warnings.push(
      `audit head record says ${record.entries} entries ending with message ${record.message_id} in ${record.file}, ` +
        `but the logs hold ${total}${end ? ` ending with message ${end.messageId} in ${end.file}` : ''}; ` +
        'entries may have been deleted or replaced: run "govflow verify"',
    );
    entries = record.entries;
  } else if (end !== null) {
    const why =
      read.state === 'missing'
        ? 'it was missing'
        : read.state === 'unreadable'
          ? `it was unreadable: ${read.reason}`
          : `it was behind the logs: ${read.record.entries} entries`;
    head.write({
      format: HEAD_RECORD_FORMAT,
      file: end.file,
      entries: total,
      hash: end.hash,
      message_id: end.messageId,
    });
    warnings.push(`audit head record rebuilt from the logs (${why}): ${total} entries`);
  }
  return { file: end?.file ?? null, hash: end?.hash ?? GENESIS_HASH, entries, newestDay, repairs, warnings };
}
