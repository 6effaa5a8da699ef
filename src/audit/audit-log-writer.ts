/**
 * Appends audit entries to `system/logs/YYYYMMDD.log` (SPEC §6), one file per local day in the
 * configured IANA zone, hash-chained across entries and days.
 *
 * One writer per root: the process holding the root lock (src/daemon/root-lock.ts) is the only one
 * that appends, so the chain tail read at open stays current and nothing is re-read per append.
 *
 * Durability: each entry is one write() followed by fdatasync() before `append` resolves, so a
 * message is never passed on before its entry is on disk. A crash mid-write can only leave a
 * torn tail on the newest file; `open` cuts it and reports the cut, so a restart never leaves a
 * torn entry behind. Ordering: `append` writes synchronously (no await before the write), so
 * concurrent callers are serialized in call order by the event loop itself; their fdatasyncs
 * are shared (group commit). The head record (audit-head-record.ts) is rewritten once per turn
 * of the event loop, after that turn's batch of appends.
 *
 * When the disk fails (issue 20): a write or sync refused with ENOSPC, EDQUOT, EROFS or EIO is
 * retried with backoff (disk-waits.ts) until the disk takes it — never half an entry (a partial
 * write is cut back), never two (before a retry the file is checked for the entry having landed
 * after all) — and later appends queue behind it in order. Before each batch the day file's
 * descriptor is compared with its path (one fstat, one stat): a file removed, renamed or replaced
 * under the writer is reopened at its path, the entries go there, and the problem is logged. The
 * chain then shows the gap to `govflow verify`; no new entry is lost.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../errors.js';
import { type AuditRepair, type ChainTail, scanChainTail } from './audit-chain-tail.js';
import { type AuditEntryInput, formatEntry, localDayAndTime } from './audit-entry-format.js';
import { FdatasyncQueue, backlogWritten } from '../store/append-only-file.js';
import { diskCall, diskFailureCode } from '../store/disk-io.js';
import { diskWaits } from '../store/disk-waits.js';
import { AuditWriteError } from './audit-errors.js';
import { HEAD_RECORD_FORMAT, HeadRecordFile, readHeadRecord } from './audit-head-record.js';

export type { AuditRepair } from './audit-chain-tail.js';

export interface AuditLogWriterOptions {
  /** `<root>/system/logs`; created when missing. */
  logsDir: string;
  /** Where the head record (`audit-head.json`) lives; created when missing. */
  stateDir: string;
  /** IANA zone deciding both the TIMESTAMP and which day file an entry goes to. */
  timezone: string;
  /** fdatasync each entry before `append` resolves (default true; benchmarks may turn it off). */
  durable?: boolean;
  /** Where problems found while appending go (a day file removed under the writer), besides `warnings`. */
  log?: (message: string, fields?: Record<string, unknown>) => void;
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

export class AuditLogWriter {
  /** Torn tails cut at open. */
  readonly repairs: readonly AuditRepair[];
  /** Things found at open (or while appending) that an operator should know. */
  readonly warnings: string[];

  private readonly logsDir: string;
  private readonly timezone: string;
  private readonly head: HeadRecordFile;
  private readonly repairList: AuditRepair[] = [];
  private readonly durable: boolean;
  private fd: number | null = null;
  private fdDay: string | null = null;
  /** Size of the current day file after this writer's last write. */
  private fileSize = 0;
  private newestDay: string | null = null;
  private tailFile: string | null = null;
  private lastHash = '';
  private entries = 0;
  private tailMessageId: string | null = null;
  /** Entries were appended since the head record was last written (a write is scheduled). */
  private headBehind = false;
  private closed = false;
  /** Group commit: the fdatasync in flight, and the one queued behind it (covering every write since). */
  private readonly syncs: FdatasyncQueue;
  /** Set while an entry waits for the disk: later appends queue behind it. */
  private waiting: Promise<unknown> | null = null;
  /** The day file was checked against its path in this turn of the event loop. */
  private checkedThisTurn = false;
  /** A write failed: the file may hold bytes past `fileSize` (checked before the next write). */
  private uncertain = false;
  private readonly log: (message: string, fields?: Record<string, unknown>) => void;

  private constructor(options: AuditLogWriterOptions) {
    this.logsDir = options.logsDir;
    this.timezone = options.timezone;
    this.head = new HeadRecordFile(options.stateDir);
    this.durable = options.durable ?? true;
    this.syncs = new FdatasyncQueue(fs.fdatasync, options.logsDir);
    this.log = options.log ?? (() => undefined);
    this.repairs = this.repairList;
    this.warnings = [];
  }

  /** Opens the trail: cuts a torn tail off the newest file, finds the hash to chain to, checks the head record. */
  static async open(options: AuditLogWriterOptions): Promise<AuditLogWriter> {
    assertTimezone(options.timezone);
    fs.mkdirSync(options.logsDir, { recursive: true });
    fs.mkdirSync(options.stateDir, { recursive: true });
    const writer = new AuditLogWriter(options);
    try {
      writer.adopt(
        scanChainTail({
          logsDir: options.logsDir,
          head: readHeadRecord(options.stateDir),
          writeHead: (record) => writer.head.write(record),
          repairs: writer.repairList,
          warnings: writer.warnings,
        }),
      );
    } catch (error) {
      await writer.close();
      throw error;
    }
    return writer;
  }

  /**
   * Writes one entry and fdatasyncs it (group commit, off the event loop). Resolves with the day
   * file and the entry's hash once the entry is on disk; rejects with {@link AuditWriteError}
   * (nothing of the entry left behind) when it could not be written — the message must then not
   * be passed on.
   */
  async append(input: AuditEntryInput): Promise<{ file: string; hash: string }> {
    const messageId = input.message.message_id;
    if (this.closed) {
      throw new AuditWriteError('the audit log writer is closed; open a new one before appending', undefined, messageId);
    }
    const local = localDayAndTime(input.message.timestamp.executed_at, this.timezone);
    // Behind an entry (or a journal record) that waits for the disk, in call order.
    for (let gate = this.waiting ?? backlogWritten(); gate !== null; gate = this.waiting ?? backlogWritten()) await gate;
    let written: { file: string; hash: string };
    try {
      written = this.writeEntry(input, local.day, messageId);
    } catch (error) {
      if (diskFailureCode(error) === null) throw error;
      written = await this.waitForDisk(path.join(this.logsDir, `${local.day}.log`), () => this.writeEntry(input, local.day, messageId));
    }
    this.scheduleHeadWrite();
    try {
      const fd = this.fd!;
      await diskWaits.retry(written.file, () => this.syncWrites(fd));
    } catch (error) {
      throw new AuditWriteError(
        `could not fdatasync the audit entry of message ${messageId} to ${written.file} (${(error as Error).message}); ` +
          'the message was not passed on: fix the disk and restart (the entry may be on the page cache only)',
        written.file,
        messageId,
        { cause: error },
      );
    }
    return written;
  }

  /**
   * Resolves once everything written to `fd` so far is on disk. The fdatasync runs on the thread
   * pool (the event loop stays free for other sessions), and appends that arrive while one runs
   * share the next one (group commit).
   */
  private syncWrites(fd: number): Promise<void> {
    return this.durable ? this.syncs.sync(fd) : Promise.resolve();
  }

  /** Retries `write` until the disk takes it; later appends wait meanwhile (see `append`). */
  private async waitForDisk<T>(file: string, write: () => T): Promise<T> {
    const attempt = diskWaits.retry(file, write);
    this.waiting = attempt.catch(() => undefined);
    try {
      return await attempt;
    } finally {
      this.waiting = null;
    }
  }

  private writeEntry(input: AuditEntryInput, messageDay: string, messageId: string): { file: string; hash: string } {
    // Never reopen an older day: the chain runs in file order, so an entry whose clock went
    // backwards across midnight (or a late replay) stays in the newest file.
    const day = this.newestDay !== null && messageDay < this.newestDay ? this.newestDay : messageDay;
    const file = this.useDayFile(day, messageId);
    const { text, hash } = formatEntry(input, this.timezone, this.lastHash);
    const bytes = Buffer.from(text, 'utf8');
    const fd = this.fd!;
    if (this.uncertain && this.landedAfterAll(fd, bytes)) return this.advance(bytes.length, hash, file, messageId);
    try {
      let written = 0;
      while (written < bytes.length) written += diskCall('write', file, () => fs.writeSync(fd, bytes, written, bytes.length - written));
    } catch (error) {
      this.uncertain = true;
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
    return this.advance(bytes.length, hash, file, messageId);
  }

  private advance(length: number, hash: string, file: string, messageId: string): { file: string; hash: string } {
    this.fileSize += length;
    this.lastHash = hash;
    this.entries += 1;
    this.tailFile = path.basename(file);
    this.tailMessageId = messageId;
    return { file, hash };
  }

  /**
   * Before writing: true when the file already ends with exactly this entry after the last one
   * this writer knows (a failed write whose bytes reached the file and could not be cut back);
   * any other excess (half an entry) is cut. Only after a failed write.
   */
  private landedAfterAll(fd: number, bytes: Buffer): boolean {
    const size = fs.fstatSync(fd).size;
    this.uncertain = false;
    if (size === this.fileSize) return false;
    if (size === this.fileSize + bytes.length) {
      const onDisk = Buffer.alloc(bytes.length);
      fs.readSync(fd, onDisk, 0, bytes.length, this.fileSize);
      if (onDisk.equals(bytes)) return true;
    }
    if (size > this.fileSize) fs.ftruncateSync(fd, this.fileSize);
    return false;
  }

  /**
   * Once per turn of the event loop: is the open day file still the file at its path? A file
   * removed (rm -rf system/logs), renamed (archived by hand, a rotation tool) or replaced would
   * swallow the entries written to its descriptor; it is closed so the path is opened again.
   */
  private checkDayFile(file: string): void {
    if (this.checkedThisTurn || this.fd === null) return;
    this.checkedThisTurn = true;
    setImmediate(() => (this.checkedThisTurn = false));
    const open = fs.fstatSync(this.fd);
    let what: string | null = null;
    try {
      const atPath = fs.statSync(file);
      if (atPath.ino !== open.ino || atPath.dev !== open.dev) what = open.nlink === 0 ? 'removed and another file put at its path' : 'renamed away and another file put at its path';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      what = open.nlink === 0 ? 'removed' : 'renamed away (or its folder was removed)';
    }
    if (what === null) return;
    const message =
      `audit log ${file} was ${what} while govflow was appending to it; new entries go to ${file} (reopened), ` +
      'and "govflow verify" will report the gap where the missing entries were: restore them from a backup if they were not archived';
    this.warnings.push(message);
    this.log(message, { file, entries_before_gap: this.entries });
    this.closeCurrentFile();
    this.fileSize = 0;
  }

  /** The head record follows the appends of this turn once they are all written. */
  private scheduleHeadWrite(): void {
    if (this.headBehind) return;
    this.headBehind = true;
    setImmediate(() => this.writeHead());
  }

  /** Writes the head record for the last entry appended. */
  private writeHead(): void {
    if (!this.headBehind || this.tailFile === null || this.tailMessageId === null) return;
    this.headBehind = false;
    try {
      this.head.write({ format: HEAD_RECORD_FORMAT, file: this.tailFile, entries: this.entries, hash: this.lastHash, message_id: this.tailMessageId });
    } catch (error) {
      // The entries are durable; the next open rebuilds a record left behind the logs.
      this.warnings.push(`could not update the audit head record: ${(error as Error).message}`);
    }
  }

  private adopt(tail: ChainTail): void {
    this.tailFile = tail.file;
    this.lastHash = tail.hash;
    this.entries = tail.entries;
    this.newestDay = tail.newestDay;
  }

  /** Opens (creating if needed) the day file and makes it current; returns its path. */
  private useDayFile(day: string, messageId: string): string {
    const file = path.join(this.logsDir, `${day}.log`);
    if (this.fdDay === day && this.fd !== null) this.checkDayFile(file);
    if (this.fdDay === day && this.fd !== null) return file;
    this.closeCurrentFile();
    try {
      const existed = fs.existsSync(file);
      if (!existed && !fs.existsSync(this.logsDir)) {
        fs.mkdirSync(this.logsDir, { recursive: true });
        const message = `the audit log folder ${this.logsDir} was removed while govflow ran; made it again`;
        this.warnings.push(message);
        this.log(message, { folder: this.logsDir });
      }
      this.fd = diskCall('open', file, () => fs.openSync(file, 'a'));
      this.checkedThisTurn = true;
      setImmediate(() => (this.checkedThisTurn = false));
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
      const fd = this.fd;
      // A group-commit sync may still be queued on this descriptor: close it after that.
      const release = () => {
        try {
          if (this.durable) fs.fdatasyncSync(fd);
          fs.closeSync(fd);
        } catch {
          /* already closed or never valid: nothing left to release */
        }
      };
      if (this.syncs.busy) void this.syncs.settled().then(release);
      else release();
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

  /** Writes the head record and releases the day file. Safe to call twice; appends afterwards are refused. */
  async close(): Promise<void> {
    this.closed = true;
    this.writeHead();
    await this.syncs.settled();
    this.closeCurrentFile();
    try {
      this.head.close();
    } catch {
      /* the record is complete on the page cache; nothing else to release */
    }
  }
}
