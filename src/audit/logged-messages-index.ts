/**
 * Which messages of which sessions the audit log already holds, for crash recovery: each day file
 * is parsed once, then only the bytes appended since, so the cost of a restart follows what is
 * pending, not the size of the log.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AuditLogFormatError } from './audit-errors.js';
import { listLogFiles, logFileDate } from './audit-log-reader.js';
import { unescapeText } from './audit-line-encoding.js';
import type { AuditPosition } from '../store/session-journal.js';

export type SessionMessages = Map<string, { sequence: number | null; agent: string; hash: string }>;

/** Reads `length` bytes of `file` from `offset` (the disk seam; tests count the reads). */
export type RangeReader = (file: string, offset: number, length: number) => Promise<Buffer>;

interface IndexedFile {
  /** The byte range indexed so far, [start, bytes): both where entries end (or the file begins). */
  start: number;
  bytes: number;
  sessions: Map<string, SessionMessages>;
}

async function readRange(file: string, offset: number, length: number): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export class LoggedMessagesIndex {
  private readonly files = new Map<string, IndexedFile>();
  /** The reads of one file run one after another: concurrent recoveries share what was read. */
  private readonly refreshing = new Map<string, { startAt: number; done: Promise<void> }>();

  constructor(
    private readonly logsDir: string,
    private readonly read: RangeReader = readRange,
  ) {}

  /** By message id; nothing before `fromDate`, nor before `from` (where the store noted the session's entries begin), is read. */
  async messagesOf(sessionId: string, fromDate?: string, from?: AuditPosition | null): Promise<SessionMessages> {
    const found: SessionMessages = new Map();
    for (const file of listLogFiles(this.logsDir)) {
      if (fromDate !== undefined && logFileDate(file) < fromDate) continue;
      if (from && file < from.file) continue;
      await this.refresh(file, from && file === from.file ? from.bytes : 0);
      for (const [messageId, place] of this.files.get(file)?.sessions.get(sessionId) ?? []) found.set(messageId, place);
    }
    return found;
  }

  private refresh(file: string, startAt: number): Promise<void> {
    // Concurrent recoveries share a read that covers them; one that needs an earlier start queues after it.
    const running = this.refreshing.get(file);
    if (running && running.startAt <= startAt) return running.done;
    const done = (running?.done.catch(() => undefined) ?? Promise.resolve()).then(() => this.readNew(file, startAt));
    const entry = { startAt, done };
    this.refreshing.set(file, entry);
    void done
      .catch(() => undefined)
      .then(() => {
        if (this.refreshing.get(file) === entry) this.refreshing.delete(file);
      });
    return done;
  }

  private async readNew(file: string, wantedStart: number): Promise<void> {
    const full = path.join(this.logsDir, file);
    let size: number;
    try {
      size = (await fs.promises.stat(full)).size;
    } catch {
      this.files.delete(file);
      return;
    }
    let indexed = this.files.get(file);
    // A file cut shorter (a torn tail removed at start) is read again.
    if (indexed !== undefined && size < indexed.bytes) indexed = undefined;
    if (indexed === undefined || wantedStart < indexed.start) {
      // A point past the end or not where an entry begins (the file was replaced since) reads it all.
      const startAt =
        wantedStart > size ||
        (wantedStart > 0 &&
          wantedStart < size &&
          !(await this.read(full, wantedStart, ENTRY_START.length)).equals(ENTRY_START))
          ? 0
          : wantedStart;
      if (indexed === undefined) {
        indexed = { start: startAt, bytes: startAt, sessions: new Map() };
        this.files.set(file, indexed);
      } else if (startAt < indexed.start) {
        await this.indexRange(full, startAt, indexed.start, indexed.sessions);
        indexed.start = startAt;
      }
    }
    indexed.bytes = await this.indexRange(full, indexed.bytes, size, indexed.sessions);
  }

  /** Returns where the last whole entry ends: a torn last one waits for its end. In slices: a busy day's file can be larger than one string may be. */
  private async indexRange(
    full: string,
    from: number,
    to: number,
    sessions: Map<string, SessionMessages>,
  ): Promise<number> {
    let at = from;
    while (at < to) {
      const length = Math.min(SLICE_BYTES, to - at);
      const bytes = await this.read(full, at, length);
      const last = bytes.lastIndexOf(ENTRY_END);
      if (last === -1) {
        if (length === SLICE_BYTES)
          throw new AuditLogFormatError(`no entry end ("---") in ${SLICE_BYTES} bytes`, 1, full);
        return at;
      }
      const end = last + ENTRY_END.length;
      indexEntries(bytes.subarray(0, end).toString('utf8'), sessions);
      at += end;
      if (end < bytes.length && length < SLICE_BYTES) return at;
    }
    return at;
  }
}

/** Bytes read at a time; an entry is far smaller (answers are capped at llm.max_output_bytes, 1 MiB). */
const SLICE_BYTES = 16 * 1024 * 1024;
const ENTRY_END = Buffer.from('\n---\n');
const ENTRY_START = Buffer.from('[TIMESTAMP: ');
/**
 * The lines recovery and forks need, without parsing whole entries: no value holds a newline, and
 * ENTRY_HASH closes every entry. An operator's entry has no SEQUENCE (docs/run-control.md).
 */
const FIELD_LINE = /^\[(AGENT|MESSAGE_ID|SESSION_ID|SEQUENCE|ENTRY_HASH): ([^\n]*)\]$/gm;

function indexEntries(text: string, sessions: Map<string, SessionMessages>): void {
  let fields: Record<string, string> = {};
  for (const match of text.matchAll(FIELD_LINE)) {
    const value = match[2]!.includes('\\') ? unescapeText(match[2]!) : match[2]!;
    if (match[1] !== 'ENTRY_HASH') {
      fields[match[1]!] = value;
      continue;
    }
    const messages = sessions.get(fields.SESSION_ID ?? '') ?? new Map();
    messages.set(fields.MESSAGE_ID ?? '', {
      sequence: fields.SEQUENCE === undefined ? null : Number(fields.SEQUENCE),
      agent: fields.AGENT ?? '',
      hash: value,
    });
    sessions.set(fields.SESSION_ID ?? '', messages);
    fields = {};
  }
}
