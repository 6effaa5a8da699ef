/**
 * Appends audit entries to `system/logs/YYYYMMDD.log` (docs/audit-log.md), hash-chained across
 * entries and days. Only the process holding the root lock appends, so the chain tail read at open
 * stays current. `append` formats and writes with no await in between, so concurrent callers chain
 * in call order, then share fdatasyncs (group commit, AppendOnlyFile): no message is passed on
 * before its entry is on disk. A failing disk is waited out by the day file (never half an entry,
 * never two); a day file removed or replaced under the writer is reopened at its path once per
 * turn, and `verify` then shows the gap.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../errors.js';
import {
  type AuditHeadRecord,
  type AuditRepair,
  HEAD_RECORD_FORMAT,
  HeadRecordFile,
  scanChainTail,
} from './audit-chain-tail.js';
import { formatEntry, localDayAndTime } from './audit-entry-format.js';
import type { AuditEntryInput } from '../store/session-store.js';
import { AppendOnlyFile, backlogWritten, fsyncDirectory } from '../store/append-only-file.js';
import type { DiskFaults } from '../store/disk-io.js';
import { diskWaits } from '../store/disk-waits.js';
import { AuditWriteError } from './audit-errors.js';
import type { AuditPosition } from '../store/session-journal.js';

export interface AuditLogWriterOptions {
  /** `<root>/system/logs` and where the head record lives; both created when missing. */
  logsDir: string;
  stateDir: string;
  /** IANA zone deciding both the TIMESTAMP and which day file an entry goes to. */
  timezone: string;
  /** fdatasync each entry before `append` resolves (default true; benchmarks may turn it off). */
  durable?: boolean;
  /** Hears problems found while appending (a day file removed under the writer), besides `warnings`. */
  log?: (message: string, fields?: Record<string, unknown>) => void;
  /** Hears the chain's head after every durable entry (signed checkpoints, docs/audit-log.md). */
  onCommitted?: (state: { day: string; entries: number; hash: string }) => void;
  /** Failures to inject into the day files' writes (tests). */
  faults?: DiskFaults;
}

export class AuditLogWriter {
  /** Torn tails cut at open, and what an operator should know of the trail. */
  readonly repairs: AuditRepair[] = [];
  readonly warnings: string[] = [];

  private readonly head: HeadRecordFile;
  private file: AppendOnlyFile | null = null;
  private fileDay: string | null = null;
  /** Set while a new day file waits for the disk: later appends queue behind it. */
  private opening: Promise<unknown> | null = null;
  private newestDay: string | null = null;
  /** position() while no day file is open; undefined: not asked since the last append. */
  private idlePosition: AuditPosition | null | undefined = undefined;
  private lastHash = '';
  private entries = 0;
  /** The head record after this turn's appends, waiting to be written (a write is scheduled). */
  private pendingHead: AuditHeadRecord | null = null;
  private checkedThisTurn = false;
  private closed = false;

  private constructor(private readonly options: AuditLogWriterOptions) {
    this.head = new HeadRecordFile(options.stateDir);
  }

  static async open(options: AuditLogWriterOptions): Promise<AuditLogWriter> {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: options.timezone });
    } catch (error) {
      throw new ConfigError(
        `timezone "${options.timezone}" is not an IANA time zone; set "timezone" in govflow.config.yaml (or GOVFLOW_TIMEZONE) to a name like Asia/Singapore`,
        undefined,
        undefined,
        { cause: error },
      );
    }
    fs.mkdirSync(options.logsDir, { recursive: true });
    fs.mkdirSync(options.stateDir, { recursive: true });
    const writer = new AuditLogWriter(options);
    try {
      const tail = scanChainTail(options.logsDir, options.stateDir, writer.head);
      Object.assign(writer, { lastHash: tail.hash, entries: tail.entries, newestDay: tail.newestDay });
      writer.repairs.push(...tail.repairs);
      writer.warnings.push(...tail.warnings);
    } catch (error) {
      await writer.close();
      throw error;
    }
    return writer;
  }

  /** Resolves once the entry is on disk; an {@link AuditWriteError} leaves nothing of it behind, and the message must not be passed on. */
  async append(input: AuditEntryInput): Promise<{ file: string; hash: string }> {
    const messageId = input.message.message_id;
    this.idlePosition = undefined;
    const local = localDayAndTime(input.message.timestamp.executed_at, this.options.timezone);
    // Behind a day file (or a journal record) that waits for the disk, in call order.
    for (let gate = this.opening ?? backlogWritten(); gate !== null; gate = this.opening ?? backlogWritten())
      await gate;
    if (this.closed)
      throw new AuditWriteError(
        'the audit log writer is closed; open a new one before appending',
        undefined,
        messageId,
      );
    // Never reopen an older day: the chain runs in file order, so an entry whose clock went
    // backwards across midnight (or a late replay) stays in the newest file.
    const day = this.newestDay !== null && local.day < this.newestDay ? this.newestDay : local.day;
    const filePath = path.join(this.options.logsDir, `${day}.log`);
    let file = this.currentFile(day, filePath);
    if (file === null) {
      this.releaseFile();
      const opening = diskWaits.retry(filePath, () => this.openDayFile(day, filePath, messageId));
      this.opening = opening.catch(() => undefined);
      try {
        file = await opening;
      } finally {
        this.opening = null;
      }
    }
    const failed = (what: string, advice: string, error: unknown) =>
      new AuditWriteError(
        `could not ${what} the audit entry of message ${messageId} to ${filePath} (${(error as Error).message}); the message was not passed on: ${advice}`,
        filePath,
        messageId,
        { cause: error },
      );
    const { text, hash } = formatEntry(input, this.options.timezone, this.lastHash);
    try {
      file.append(text);
    } catch (error) {
      throw failed('write', 'fix the disk (space, permissions) and restart', error);
    }
    this.lastHash = hash;
    this.entries += 1;
    // This entry's place in the chain: other appends may come in while it syncs.
    const entries = this.entries;
    if (this.pendingHead === null) setImmediate(() => this.writeHead());
    this.pendingHead = {
      format: HEAD_RECORD_FORMAT,
      file: path.basename(filePath),
      entries: this.entries,
      hash,
      message_id: messageId,
    };
    try {
      await file.sync();
    } catch (error) {
      throw failed('fdatasync', 'fix the disk and restart (the entry may be on the page cache only)', error);
    }
    this.options.onCommitted?.({ day, entries, hash });
    return { file: filePath, hash };
  }

  /** Checked once per turn: a file removed, renamed or replaced would swallow the entries written to its descriptor. */
  private currentFile(day: string, filePath: string): AppendOnlyFile | null {
    if (this.file === null || this.fileDay !== day) return null;
    if (this.checkedThisTurn) return this.file;
    this.markChecked();
    const what = this.file.replacedAt();
    if (what === null) return this.file;
    this.warn(
      `audit log ${filePath} was ${what} while govflow was appending to it; new entries go to ${filePath} (reopened), ` +
        'and "govflow verify" will report the gap where the missing entries were: restore them from a backup if they were not archived',
      { file: filePath, entries_before_gap: this.entries },
    );
    return null;
  }

  private openDayFile(day: string, filePath: string, messageId: string): AppendOnlyFile {
    const { logsDir, durable = true, faults } = this.options;
    try {
      if (fs.mkdirSync(logsDir, { recursive: true }) !== undefined) {
        this.warn(`the audit log folder ${logsDir} was removed while govflow ran; made it again`, { folder: logsDir });
      }
      const existed = fs.existsSync(filePath);
      this.file = new AppendOnlyFile(filePath, durable, { faults });
      if (!existed) fsyncDirectory(logsDir);
    } catch (error) {
      throw new AuditWriteError(
        `could not open the audit log ${filePath} (${(error as Error).message}); check that ${logsDir} is writable`,
        filePath,
        messageId,
        {
          cause: error,
        },
      );
    }
    this.markChecked();
    this.fileDay = day;
    if (this.newestDay === null || day > this.newestDay) this.newestDay = day;
    return this.file;
  }

  private warn(message: string, fields: Record<string, unknown>): void {
    this.warnings.push(message);
    this.options.log?.(message, fields);
  }

  private markChecked(): void {
    this.checkedThisTurn = true;
    setImmediate(() => (this.checkedThisTurn = false));
  }

  private releaseFile(): void {
    const file = this.file;
    this.file = null;
    this.fileDay = null;
    if (file) void file.close().catch(() => undefined);
  }

  private writeHead(): void {
    const record = this.pendingHead;
    if (record === null) return;
    this.pendingHead = null;
    try {
      this.head.write(record);
    } catch (error) {
      // The entries are durable; the next open rebuilds a record left behind the logs.
      this.warnings.push(`could not update the audit head record: ${(error as Error).message}`);
    }
  }

  /** Where the log ends now, or null before the first entry: crash recovery reads from there. */
  position(): AuditPosition | null {
    if (this.file !== null) return { file: path.basename(this.file.file), bytes: this.file.writtenBytes };
    // No day file open yet (nothing appended since the start or a day change): the newest one's size, asked once until the next append.
    if (this.idlePosition === undefined) {
      const newest = this.newestDay === null ? null : `${this.newestDay}.log`;
      try {
        this.idlePosition =
          newest === null ? null : { file: newest, bytes: fs.statSync(path.join(this.options.logsDir, newest)).size };
      } catch {
        this.idlePosition = null;
      }
    }
    return this.idlePosition;
  }

  get entryCount(): number {
    return this.entries;
  }

  /** ENTRY_HASH of the last entry (64 zeros before the first). */
  get lastEntryHash(): string {
    return this.lastHash;
  }

  /** Writes the head record and releases the day file. Safe to call twice; appends afterwards are refused. */
  async close(): Promise<void> {
    this.closed = true;
    this.writeHead();
    const file = this.file;
    this.file = null;
    await file?.close();
    this.head.close();
  }
}
