/**
 * Where the audit chain ends on disk: the last complete entry (its file and hash) and how many
 * entries the trail holds. The writer (the one writer of its root) reads it once, at open:
 * {@link scanChainTail} cuts a torn tail off the newest file, parses the last entry, and
 * reconciles the head record (rebuilding it when missing, torn or behind).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GENESIS_HASH } from './audit-entry-format.js';
import { parseEntryBlock, splitEntryBlocks } from './audit-entry-parse.js';
import { AuditLogFormatError, AuditWriteError } from './audit-errors.js';
import { type AuditHeadRecord, HEAD_RECORD_FORMAT, type HeadRecordRead } from './audit-head-record.js';
import { listLogFilesSync, logFileDate } from './audit-log-reader.js';

/** A torn tail cut off the newest file; the daemon should log it. */
export interface AuditRepair {
  file: string;
  /** 1-based line where the cut text began. */
  line: number;
  /** Byte offset the file was truncated to, and how many bytes were cut. */
  offset: number;
  bytes: number;
  /** The start of what was cut, for the operator. */
  excerpt: string;
}

/** The end of the chain as the logs (and the head record) show it. */
export interface ChainTail {
  /** Log file (`YYYYMMDD.log`) holding the last entry; null while the trail is empty. */
  file: string | null;
  /** ENTRY_HASH of the last entry (64 zeros before the first). */
  hash: string;
  /** Entries in the whole trail, as the head record counts them. */
  entries: number;
  /** The newest day file present, even an empty one (`YYYYMMDD`). */
  newestDay: string | null;
}

interface ChainEnd {
  file: string;
  hash: string;
  messageId: string;
}

/** Cuts a torn tail off `file`, returning what was cut (or null when the file ends cleanly). */
export function cutTornTail(file: string): AuditRepair | null {
  const bytes = fs.readFileSync(file);
  const separator = bytes.lastIndexOf('\n---\n');
  const end = separator === -1 ? 0 : separator + 5;
  if (end === bytes.length) return null;
  const line = end === 0 ? 1 : bytes.subarray(0, end).toString('utf8').split('\n').length;
  const fd = fs.openSync(file, 'r+');
  try {
    fs.ftruncateSync(fd, end);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return {
    file,
    line,
    offset: end,
    bytes: bytes.length - end,
    excerpt: bytes.subarray(end, end + 200).toString('utf8'),
  };
}

export interface ScanOptions {
  logsDir: string;
  /** The head record as read at open. */
  head: HeadRecordRead;
  /** Rebuilds the head record (called at most once). */
  writeHead: (record: AuditHeadRecord) => void;
  /** Receive cut torn tails and what an operator should know. */
  repairs: AuditRepair[];
  warnings: string[];
}

/**
 * The full read: cuts a torn tail off the newest file, finds the hash to chain to, and checks the
 * head record against the logs. Only the root's one writer calls it (it holds the root lock): a
 * tail being written by a live writer would look torn.
 */
export function scanChainTail(options: ScanOptions): ChainTail {
  const { logsDir } = options;
  const files = listLogFilesSync(logsDir);
  const newest = files.at(-1);
  if (newest !== undefined) {
    const repair = cutTornTail(path.join(logsDir, newest));
    if (repair) options.repairs.push(repair);
  }

  const counts = new Map<string, number>();
  let end: ChainEnd | null = null;
  for (let index = files.length - 1; index >= 0 && end === null; index -= 1) {
    const file = files[index];
    const fullPath = path.join(logsDir, file);
    const { blocks } = splitEntryBlocks(fs.readFileSync(fullPath, 'utf8'));
    counts.set(file, blocks.length);
    const last = blocks.at(-1);
    if (last === undefined) continue;
    try {
      const entry = parseEntryBlock(last);
      end = { file, hash: entry.hash, messageId: entry.messageId };
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

  return {
    file: end?.file ?? null,
    hash: end?.hash ?? GENESIS_HASH,
    entries: reconcileHead(options, files, counts, end),
    newestDay: newest === undefined ? null : logFileDate(newest),
  };
}

/** The entry count to continue from, after comparing the head record with the logs. */
function reconcileHead(options: ScanOptions, files: string[], counts: Map<string, number>, end: ChainEnd | null): number {
  const { head, warnings } = options;
  if (head.state === 'ok' && end !== null && head.record.file === end.file && head.record.hash === end.hash) {
    return head.record.entries;
  }
  let total = 0;
  for (const file of files) {
    let count = counts.get(file);
    if (count === undefined) {
      count = splitEntryBlocks(fs.readFileSync(path.join(options.logsDir, file), 'utf8')).blocks.length;
    }
    total += count;
  }
  const rebuild = (why: string): number => {
    if (end === null) return 0;
    options.writeHead({
      format: HEAD_RECORD_FORMAT,
      file: end.file,
      entries: total,
      hash: end.hash,
      message_id: end.messageId,
    });
    warnings.push(`audit head record rebuilt from the logs (${why}): ${total} entries`);
    return total;
  };
  if (head.state === 'missing') return end === null ? 0 : rebuild('it was missing');
  if (head.state === 'unreadable') return rebuild(`it was unreadable: ${head.reason}`);
  const record = head.record;
  if (record.entries < total) return rebuild(`it was behind the logs: ${record.entries} entries`);
  // Never rebuild a head record that is ahead of (or disagrees with) the logs: it is the only
  // evidence that entries were deleted. Keep its count so `verify` keeps reporting the gap.
  warnings.push(
    `audit head record says ${record.entries} entries ending with message ${record.message_id} in ${record.file}, ` +
      `but the logs hold ${total}${end ? ` ending with message ${end.messageId} in ${end.file}` : ''}; ` +
      'entries may have been deleted or replaced: run "govflow verify"',
  );
  return Math.max(record.entries, total);
}
