/**
 * The head record, `<stateDir>/audit-head.json`: where the audit chain ended the last time the
 * writer appended. The log files alone cannot show that their last entries (or their last day
 * file) were deleted — a shorter chain is still a valid chain — so `verify` compares the logs
 * with this record.
 *
 * The root's one writer overwrites it in place after each batch of appends (one turn of the event
 * loop), without fsync and without truncating: the JSON is padded with spaces to a fixed
 * {@link HEAD_RECORD_SIZE} bytes and written with one pwrite at offset 0 through a file
 * descriptor kept open (a writeFile with O_TRUNC cost 0.15 ms per append on ext4, a quarter of a
 * pipeline step's budget). One write of at most one disk sector is not torn in practice; if it
 * ever is, the text is no longer valid JSON with every field well typed, and the writer rebuilds
 * the record from the logs. A crash can also leave it behind the logs (rebuilt too). A record
 * AHEAD of the logs is never rebuilt: that is the evidence of deleted entries.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const HEAD_RECORD_FILE = 'audit-head.json';
export const HEAD_RECORD_FORMAT = 1;
/** Bytes the record is padded to: one disk sector. */
export const HEAD_RECORD_SIZE = 512;

export interface AuditHeadRecord {
  format: 1;
  /** Log file name (`YYYYMMDD.log`) holding the last entry. */
  file: string;
  /** Entries across all log files. */
  entries: number;
  /** ENTRY_HASH of the last entry. */
  hash: string;
  /** message_id of the last entry. */
  message_id: string;
}

export type HeadRecordRead =
  | { state: 'missing' }
  | { state: 'unreadable'; reason: string }
  | { state: 'ok'; record: AuditHeadRecord };

export function headRecordPath(stateDir: string): string {
  return path.join(stateDir, HEAD_RECORD_FILE);
}

function validate(value: unknown): AuditHeadRecord | string {
  if (typeof value !== 'object' || value === null) return 'not a JSON object';
  const record = value as Record<string, unknown>;
  if (record.format !== HEAD_RECORD_FORMAT) return `format is ${String(record.format)}, expected ${HEAD_RECORD_FORMAT}`;
  if (typeof record.file !== 'string' || !/^\d{8}\.log$/.test(record.file)) return 'file is not YYYYMMDD.log';
  if (typeof record.entries !== 'number' || !Number.isInteger(record.entries) || record.entries < 1) {
    return 'entries is not a positive integer';
  }
  if (typeof record.hash !== 'string' || !/^[0-9a-f]{64}$/.test(record.hash)) return 'hash is not 64 hex digits';
  if (typeof record.message_id !== 'string') return 'message_id is not a string';
  return {
    format: HEAD_RECORD_FORMAT,
    file: record.file,
    entries: record.entries,
    hash: record.hash,
    message_id: record.message_id,
  };
}

export function readHeadRecord(stateDir: string): HeadRecordRead {
  let text: string;
  try {
    text = fs.readFileSync(headRecordPath(stateDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing' };
    return { state: 'unreadable', reason: (error as Error).message };
  }
  return parseHeadRecord(text);
}

/** Parses the record's text (trailing padding allowed). */
export function parseHeadRecord(text: string): HeadRecordRead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { state: 'unreadable', reason: `not JSON (torn write?): ${(error as Error).message}` };
  }
  const result = validate(parsed);
  return typeof result === 'string' ? { state: 'unreadable', reason: result } : { state: 'ok', record: result };
}

/** Serializes the record, padded to {@link HEAD_RECORD_SIZE} when it fits. */
export function encodeHeadRecord(record: AuditHeadRecord): Buffer {
  const json = Buffer.from(JSON.stringify(record), 'utf8');
  if (json.length + 1 > HEAD_RECORD_SIZE) return Buffer.concat([json, Buffer.from('\n')]);
  const padded = Buffer.alloc(HEAD_RECORD_SIZE, ' ');
  json.copy(padded);
  padded[HEAD_RECORD_SIZE - 1] = 0x0a;
  return padded;
}

/**
 * Overwrites the record through a descriptor kept open (no fsync: see the file comment). A record
 * file removed or replaced meanwhile (link count 0) is written again at its path.
 */
export class HeadRecordFile {
  private fd: number | null = null;
  /** Bytes in the file as last written: a shorter record must cut the rest. */
  private size = 0;

  constructor(private readonly stateDir: string) {}

  write(record: AuditHeadRecord): void {
    if (this.fd !== null && fs.fstatSync(this.fd).nlink === 0) this.close();
    if (this.fd === null) {
      fs.mkdirSync(this.stateDir, { recursive: true });
      this.fd = fs.openSync(headRecordPath(this.stateDir), fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644);
      this.size = fs.fstatSync(this.fd).size;
    }
    const bytes = encodeHeadRecord(record);
    fs.writeSync(this.fd, bytes, 0, bytes.length, 0);
    // Only an oversized record (a huge message id) can leave old bytes behind to cut.
    if (bytes.length < this.size) fs.ftruncateSync(this.fd, bytes.length);
    this.size = bytes.length;
  }

  close(): void {
    if (this.fd === null) return;
    try {
      fs.closeSync(this.fd);
    } finally {
      this.fd = null;
    }
  }
}

/** Overwrites the record once (tests that stage a trail). */
export function writeHeadRecord(stateDir: string, record: AuditHeadRecord): void {
  fs.writeFileSync(headRecordPath(stateDir), encodeHeadRecord(record));
}
