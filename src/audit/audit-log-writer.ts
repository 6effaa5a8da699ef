/**
 * Appends audit entries to `system/logs/YYYYMMDD.log` (SPEC §6), one file per local day in the
 * configured IANA zone, hash-chained across entries and days.
 *
 * Durability: each entry is one write() followed by fdatasync() before `append` resolves, so a
 * message is never passed on before its entry is on disk. A crash mid-write can only leave a
 * torn tail on the newest file; `open` cuts it (and reports the cut), so a restart never leaves a
 * torn entry behind. Ordering: `append` does all its work synchronously (sync fs calls, no
 * await), so concurrent callers are serialized in call order by the event loop itself, and a
 * pipeline step pays no extra event-loop round trips.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../errors.js';
import { type AuditEntryInput, GENESIS_HASH, formatEntry, localDayAndTime } from './audit-entry-format.js';
import { parseEntryBlock, splitEntryBlocks } from './audit-entry-parse.js';
import { AuditLogFormatError, AuditWriteError } from './audit-errors.js';
import {
  type AuditHeadRecord,
  HEAD_RECORD_FORMAT,
  HeadRecordFile,
  readHeadRecord,
  writeHeadRecord,
} from './audit-head-record.js';
import { listLogFilesSync, logFileDate } from './audit-log-reader.js';

export interface AuditLogWriterOptions {
  /** `<root>/system/logs`; created when missing. */
  logsDir: string;
  /** Where the head record lives (`audit-head.json`); created when missing. */
  stateDir: string;
  /** IANA zone deciding both the TIMESTAMP and which day file an entry goes to. */
  timezone: string;
}

/** A torn tail cut at open; the daemon should log it. */
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

interface ChainEnd {
  file: string;
  hash: string;
  messageId: string;
}

function assertTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch (error) {
    throw new ConfigError(
      `timezone "${timezone}" is not an IANA time zone; set "timezone" in govflow.config.yaml (or GOVFLOW_TIMEZONE) to a name like Asia/Singapore`,
      undefined,
      undefined,
      { cause: error },
    );
  }
}

/** Makes a new directory entry (a day file) survive a crash. */
function fsyncDirectory(directory: string): void {
  const fd = fs.openSync(directory, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Cuts a torn tail off `file`, returning what was cut (or null when the file ends cleanly). */
function cutTornTail(file: string): AuditRepair | null {
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

export class AuditLogWriter {
  /** Torn tails cut at open. */
  readonly repairs: readonly AuditRepair[];
  /** Things found at open (or while appending) that an operator should know. */
  readonly warnings: string[];

  private readonly logsDir: string;
  private readonly timezone: string;
  private fd: number | null = null;
  private fdDay: string | null = null;
  private fileSize = 0;
  private newestDay: string | null;
  private lastHash: string;
  private entries: number;
  private closed = false;
  private readonly head: HeadRecordFile;

  private constructor(
    options: AuditLogWriterOptions,
    state: { newestDay: string | null; lastHash: string; entries: number; repairs: AuditRepair[]; warnings: string[] },
  ) {
    this.logsDir = options.logsDir;
    this.head = new HeadRecordFile(options.stateDir);
    this.timezone = options.timezone;
    this.newestDay = state.newestDay;
    this.lastHash = state.lastHash;
    this.entries = state.entries;
    this.repairs = state.repairs;
    this.warnings = state.warnings;
  }

  /**
   * Opens the trail: cuts a torn tail off the newest file, finds the hash to chain to, and
   * checks the head record (rebuilding it when missing, torn or behind).
   */
  static async open(options: AuditLogWriterOptions): Promise<AuditLogWriter> {
    assertTimezone(options.timezone);
    fs.mkdirSync(options.logsDir, { recursive: true });
    fs.mkdirSync(options.stateDir, { recursive: true });
    const files = listLogFilesSync(options.logsDir);
    const repairs: AuditRepair[] = [];
    const warnings: string[] = [];
    const newest = files.at(-1);
    if (newest !== undefined) {
      const repair = cutTornTail(path.join(options.logsDir, newest));
      if (repair) repairs.push(repair);
    }

    const counts = new Map<string, number>();
    let end: ChainEnd | null = null;
    for (let index = files.length - 1; index >= 0 && end === null; index -= 1) {
      const file = files[index];
      const fullPath = path.join(options.logsDir, file);
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

    const entries = AuditLogWriter.reconcileHead(options, files, counts, end, warnings);
    return new AuditLogWriter(options, {
      newestDay: newest === undefined ? null : logFileDate(newest),
      lastHash: end?.hash ?? GENESIS_HASH,
      entries,
      repairs,
      warnings,
    });
  }

  /** The entry count to continue from, after comparing the head record with the logs. */
  private static reconcileHead(
    options: AuditLogWriterOptions,
    files: string[],
    counts: Map<string, number>,
    end: ChainEnd | null,
    warnings: string[],
  ): number {
    const head = readHeadRecord(options.stateDir);
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
      const record: AuditHeadRecord = {
        format: HEAD_RECORD_FORMAT,
        file: end.file,
        entries: total,
        hash: end.hash,
        message_id: end.messageId,
      };
      writeHeadRecord(options.stateDir, record);
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

  /**
   * Writes one entry and fdatasyncs it. Resolves with the day file and the entry's hash once the
   * entry is on disk; rejects with {@link AuditWriteError} (nothing of the entry left behind)
   * when it could not be written — the message must then not be passed on.
   */
  async append(input: AuditEntryInput): Promise<{ file: string; hash: string }> {
    const messageId = input.message.message_id;
    if (this.closed) {
      throw new AuditWriteError('the audit log writer is closed; open a new one before appending', undefined, messageId);
    }
    let { day } = localDayAndTime(input.message.timestamp.executed_at, this.timezone);
    // Never reopen an older day: the chain runs in file order, so an entry whose clock went
    // backwards across midnight (or a late replay) stays in the newest file.
    if (this.newestDay !== null && day < this.newestDay) day = this.newestDay;
    const file = this.useDayFile(day, messageId);
    const { text, hash } = formatEntry(input, this.timezone, this.lastHash);
    const bytes = Buffer.from(text, 'utf8');
    const fd = this.fd!;
    try {
      let written = 0;
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
      fs.fdatasyncSync(fd);
    } catch (error) {
      // Leave no half entry behind; if even this fails, the next open cuts the torn tail.
      try {
        fs.ftruncateSync(fd, this.fileSize);
      } catch {
        /* reported through the original error */
      }
      throw new AuditWriteError(
        `could not write the audit entry of message ${messageId} to ${file} (${(error as Error).message}); ` +
          'the message was not passed on: fix the disk (space, permissions) and restart',
        file,
        messageId,
        { cause: error },
      );
    }
    this.fileSize += bytes.length;
    this.lastHash = hash;
    this.entries += 1;
    try {
      this.head.write({
        format: HEAD_RECORD_FORMAT,
        file: path.basename(file),
        entries: this.entries,
        hash,
        message_id: messageId,
      });
    } catch (error) {
      // The entry is durable; a stale head record is rebuilt at the next open.
      this.warnings.push(`could not update the audit head record: ${(error as Error).message}`);
    }
    return { file, hash };
  }

  /** Opens (creating if needed) the day file and makes it current; returns its path. */
  private useDayFile(day: string, messageId: string): string {
    const file = path.join(this.logsDir, `${day}.log`);
    if (this.fdDay === day && this.fd !== null) return file;
    this.closeCurrentFile();
    try {
      const existed = fs.existsSync(file);
      this.fd = fs.openSync(file, 'a');
      this.fdDay = day;
      this.fileSize = fs.fstatSync(this.fd).size;
      if (!existed) fsyncDirectory(this.logsDir);
    } catch (error) {
      this.closeCurrentFile();
      throw new AuditWriteError(
        `could not open the audit log ${file} (${(error as Error).message}); check that ${this.logsDir} is writable`,
        file,
        messageId,
        { cause: error },
      );
    }
    if (this.newestDay === null || day > this.newestDay) this.newestDay = day;
    return file;
  }

  private closeCurrentFile(): void {
    if (this.fd !== null) {
      try {
        fs.closeSync(this.fd);
      } catch {
        /* already closed or never valid: nothing left to release */
      }
    }
    this.fd = null;
    this.fdDay = null;
  }

  /** Entries in the whole trail so far (as the head record counts them). */
  get entryCount(): number {
    return this.entries;
  }

  /** ENTRY_HASH of the last entry (64 zeros before the first). */
  get lastEntryHash(): string {
    return this.lastHash;
  }

  /** Releases the day file. Safe to call twice; appends afterwards are refused. */
  async close(): Promise<void> {
    this.closed = true;
    this.closeCurrentFile();
    try {
      this.head.close();
    } catch {
      /* the record is complete on the page cache; nothing else to release */
    }
  }
}
