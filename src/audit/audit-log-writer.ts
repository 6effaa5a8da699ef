/**
 * Appends audit entries to `system/logs/YYYYMMDD.log` (SPEC §6), one file per local day in the
 * configured IANA zone, hash-chained across entries and days.
 *
 * Durability: each entry is one write() followed by fdatasync() before `append` resolves, so a
 * message is never passed on before its entry is on disk. A crash mid-write can only leave a
 * torn tail on the newest file; the next writer to take the lock after the crash (or `open`) cuts
 * it and reports the cut, so a restart never leaves a torn entry behind. Ordering: `append` does
 * all its work synchronously (sync fs calls, no await), so concurrent callers are serialized in
 * call order by the event loop itself, and a pipeline step pays no extra event-loop round trips.
 *
 * Several processes (two daemons on one root, a daemon and a CLI run) may append to the same
 * logs. Each append runs under the cross-process audit lock (audit-append-lock.ts) and first
 * reads the head record: when it still says what this writer last saw, nobody else appended and
 * the cached chain tail is current (about 15 µs in all for the lock and the check). Otherwise the
 * writer takes the tail from the head record once the log file it names is seen to end with that
 * entry, or reads the logs in full after a crash.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../errors.js';
import { AuditAppendLock, type AuditLockAcquired, DEFAULT_LOCK_STALE_MS } from './audit-append-lock.js';
import { type AuditRepair, type ChainTail, fileEndsWithEntry, scanChainTail } from './audit-chain-tail.js';
import { type AuditEntryInput, formatEntry, localDayAndTime } from './audit-entry-format.js';
import { FdatasyncQueue } from '../store/append-only-file.js';
import { AuditWriteError } from './audit-errors.js';
import { type AuditHeadRecord, HEAD_RECORD_FORMAT, HeadRecordFile, type HeadRecordRead } from './audit-head-record.js';
import { logFileDate } from './audit-log-reader.js';

export type { AuditRepair } from './audit-chain-tail.js';

export interface AuditLogWriterOptions {
  /** `<root>/system/logs`; created when missing. */
  logsDir: string;
  /** Where the head record (`audit-head.json`) and the lock (`audit.lock`) live; created when missing. */
  stateDir: string;
  /** IANA zone deciding both the TIMESTAMP and which day file an entry goes to. */
  timezone: string;
  /**
   * A lock left by a holder that cannot be shown dead (pid reused, another host) is broken once
   * it is this old. Default 10 000 ms; a live holder keeps it for one append (~0.3 ms).
   */
  lockStaleMs?: number;
  /** fdatasync each entry before `append` resolves (default true; benchmarks may turn it off). */
  durable?: boolean;
}

/** The writer of this process holding an audit-lock lease, if any (see beginLease). */
let leaseHolder: AuditLogWriter | null = null;

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

/** What the head record says, as one comparable string. */
function headKey(record: AuditHeadRecord): string {
  return `${record.file} ${record.entries} ${record.hash}`;
}

export class AuditLogWriter {
  /** Torn tails cut at open, or later when a writer died mid-append in another process. */
  readonly repairs: readonly AuditRepair[];
  /** Things found at open (or while appending) that an operator should know. */
  readonly warnings: string[];

  private readonly logsDir: string;
  private readonly timezone: string;
  private readonly head: HeadRecordFile;
  private readonly lock: AuditAppendLock;
  private readonly repairList: AuditRepair[] = [];
  private fd: number | null = null;
  private fdDay: string | null = null;
  /** Size of the current day file after this writer's last write (or last look). */
  private fileSize = 0;
  private newestDay: string | null = null;
  /** The chain tail as this writer last knew it under the lock. */
  private tailFile: string | null = null;
  private lastHash = '';
  private entries = 0;
  /** What the head record says if nobody else appended since (null: re-read the logs). */
  private expectedHead: string | null = null;
  private closed = false;
  private readonly durable: boolean;
  /** The lock is held until the end of this turn of the event loop (see beginLease). */
  private leaseHeld = false;
  /** Entries were appended since the head record was last written. */
  private headBehind = false;
  private tailMessageId: string | null = null;
  /** Group commit: the fdatasync in flight, and the one queued behind it (covering every write since). */
  private readonly syncs = new FdatasyncQueue();

  private constructor(options: AuditLogWriterOptions) {
    this.logsDir = options.logsDir;
    this.timezone = options.timezone;
    this.head = new HeadRecordFile(options.stateDir);
    this.lock = new AuditAppendLock(options.stateDir, options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS);
    this.durable = options.durable ?? true;
    this.repairs = this.repairList;
    this.warnings = [];
  }

  /**
   * Opens the trail: under the audit lock, cuts a torn tail off the newest file, finds the hash
   * to chain to, and checks the head record (rebuilding it when missing, torn or behind).
   */
  static async open(options: AuditLogWriterOptions): Promise<AuditLogWriter> {
    assertTimezone(options.timezone);
    fs.mkdirSync(options.logsDir, { recursive: true });
    fs.mkdirSync(options.stateDir, { recursive: true });
    const writer = new AuditLogWriter(options);
    try {
      const acquired = writer.takeLock(undefined);
      try {
        writer.noteBrokenLock(acquired);
        writer.rescan(writer.head.read());
      } finally {
        writer.releaseLock();
      }
    } catch (error) {
      await writer.close();
      throw error;
    }
    return writer;
  }

  /**
   * Writes one entry (under the cross-process lock) and fdatasyncs it (group commit, off the event
   * loop). Resolves with the day file and the entry's hash once the
   * entry is on disk; rejects with {@link AuditWriteError} (nothing of the entry left behind)
   * when it could not be written — the message must then not be passed on.
   */
  async append(input: AuditEntryInput): Promise<{ file: string; hash: string }> {
    const messageId = input.message.message_id;
    if (this.closed) {
      throw new AuditWriteError('the audit log writer is closed; open a new one before appending', undefined, messageId);
    }
    const local = localDayAndTime(input.message.timestamp.executed_at, this.timezone);
    let written: { file: string; hash: string };
    if (!this.leaseHeld) this.beginLease(messageId);
    try {
      written = this.appendLocked(input, local.day, messageId);
    } catch (error) {
      this.endLease();
      throw error;
    }
    try {
      await this.syncWrites(this.fd!);
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
   * Takes the cross-process lock for the rest of this turn of the event loop: the appends of every
   * session whose step ended in this turn (sessions in lockstep) share one lock, one catch-up and
   * one head-record write, instead of paying for them each. Another writer of this process ends
   * the lease first (it cannot wait: the lease ends on the event loop it would be blocking).
   */
  private beginLease(messageId: string): void {
    if (leaseHolder !== null && leaseHolder !== this) leaseHolder.endLease();
    const acquired = this.takeLock(messageId);
    try {
      this.noteBrokenLock(acquired);
      this.catchUp(acquired.brokeStale);
    } catch (error) {
      this.releaseLock();
      if (error instanceof AuditWriteError) throw error;
      throw new AuditWriteError(
        `could not read where the audit chain ends before writing message ${messageId} (${(error as Error).message}); ` +
          'the message was not passed on: check that the logs folder is readable, run "govflow verify" and restart',
        undefined,
        messageId,
        { cause: error },
      );
    }
    this.leaseHeld = true;
    leaseHolder = this;
    setImmediate(() => this.endLease());
  }

  /** Records the chain tail in the head record and releases the lock (idempotent). */
  private endLease(): void {
    if (!this.leaseHeld) return;
    this.leaseHeld = false;
    if (leaseHolder === this) leaseHolder = null;
    try {
      this.writeHead();
    } finally {
      this.releaseLock();
    }
  }

  /**
   * Resolves once everything written to `fd` so far is on disk. The fdatasync runs on the thread
   * pool (the event loop stays free for other sessions), and appends that arrive while one runs
   * share the next one (group commit).
   */
  private syncWrites(fd: number): Promise<void> {
    return this.durable ? this.syncs.sync(fd) : Promise.resolve();
  }

  private appendLocked(input: AuditEntryInput, messageDay: string, messageId: string): { file: string; hash: string } {
    // Never reopen an older day: the chain runs in file order, so an entry whose clock went
    // backwards across midnight (or a late replay) stays in the newest file.
    const day = this.newestDay !== null && messageDay < this.newestDay ? this.newestDay : messageDay;
    const file = this.useDayFile(day, messageId);
    const { text, hash } = formatEntry(input, this.timezone, this.lastHash);
    const bytes = Buffer.from(text, 'utf8');
    const fd = this.fd!;
    try {
      let written = 0;
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      // Leave no half entry behind; if even this fails, the next writer to lock cuts the torn tail.
      try {
        fs.ftruncateSync(fd, this.fileSize);
      } catch {
        this.expectedHead = null;
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
    this.tailFile = path.basename(file);
    this.tailMessageId = messageId;
    this.headBehind = true;
    return { file, hash };
  }

  /** Writes the head record for the last entry appended under the current lease. */
  private writeHead(): void {
    if (!this.headBehind || this.tailFile === null || this.tailMessageId === null) return;
    this.headBehind = false;
    const record: AuditHeadRecord = {
      format: HEAD_RECORD_FORMAT,
      file: this.tailFile,
      entries: this.entries,
      hash: this.lastHash,
      message_id: this.tailMessageId,
    };
    try {
      this.head.write(record);
      this.expectedHead = headKey(record);
    } catch (error) {
      // The entry is durable. A stale head record would let another writer chain to the entry
      // before this one, so remove it: every writer then re-reads the logs and rebuilds it.
      this.expectedHead = null;
      this.warnings.push(`could not update the audit head record: ${(error as Error).message}`);
      try {
        this.head.remove();
      } catch (removeError) {
        this.warnings.push(`could not remove the stale audit head record either: ${(removeError as Error).message}`);
      }
    }
  }

  /**
   * Brings the cached chain tail up to date under the lock. Fast path (nobody else appended):
   * one fstat and pread of the head record plus an fstat of the day file.
   */
  private catchUp(brokeStale: boolean): void {
    const head = this.head.read();
    if (!brokeStale && head.state === 'ok') {
      const record = head.record;
      if (headKey(record) === this.expectedHead && this.currentFileUnchanged()) return;
      if (fileEndsWithEntry(path.join(this.logsDir, record.file), record.hash)) {
        this.adopt({ file: record.file, hash: record.hash, entries: record.entries, newestDay: logFileDate(record.file) });
        this.expectedHead = headKey(record);
        return;
      }
    }
    this.rescan(head);
  }

  /** The full read of the logs (see scanChainTail); only under the lock. */
  private rescan(head: HeadRecordRead): void {
    const tail = scanChainTail({
      logsDir: this.logsDir,
      head,
      writeHead: (record) => this.head.write(record),
      repairs: this.repairList,
      warnings: this.warnings,
    });
    // The scan may have cut the current file: reopen it to learn its size.
    this.closeCurrentFile();
    this.adopt(tail);
    const after = this.head.read();
    this.expectedHead = after.state === 'ok' ? headKey(after.record) : null;
  }

  private adopt(tail: ChainTail): void {
    this.tailFile = tail.file;
    this.lastHash = tail.hash;
    this.entries = tail.entries;
    if (tail.newestDay !== null && (this.newestDay === null || tail.newestDay > this.newestDay)) this.newestDay = tail.newestDay;
    if (this.fd !== null) this.fileSize = fs.fstatSync(this.fd).size;
  }

  /** False when the current day file grew since this writer's last write: someone else appended. */
  private currentFileUnchanged(): boolean {
    return this.fd === null || fs.fstatSync(this.fd).size === this.fileSize;
  }

  private takeLock(messageId: string | undefined): AuditLockAcquired {
    try {
      return this.lock.acquire();
    } catch (error) {
      throw new AuditWriteError(
        `could not lock the audit log for ${messageId === undefined ? 'opening' : `message ${messageId}`}: ${(error as Error).message}`,
        this.lock.lockPath,
        messageId,
        { cause: error },
      );
    }
  }

  private releaseLock(): void {
    try {
      this.lock.release();
    } catch (error) {
      // The entry (if any) is durable; other writers break the lock once it is old.
      this.warnings.push((error as Error).message);
    }
  }

  private noteBrokenLock(acquired: AuditLockAcquired): void {
    if (!acquired.brokeStale) return;
    this.warnings.push(
      `removed a stale audit lock (${acquired.staleOwner ?? 'unknown holder'}): its holder died while appending; ` +
        'the chain tail was re-read from the logs',
    );
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

  /** Releases the day file and the lock's owner file. Safe to call twice; appends afterwards are refused. */
  async close(): Promise<void> {
    this.closed = true;
    this.endLease();
    await this.syncs.settled();
    this.closeCurrentFile();
    try {
      this.head.close();
    } catch {
      /* the record is complete on the page cache; nothing else to release */
    }
    try {
      this.lock.close();
    } catch (error) {
      this.warnings.push(`could not clean up the audit lock: ${(error as Error).message}`);
    }
  }
}
