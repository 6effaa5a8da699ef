/**
 * Which messages of which sessions the audit log already holds, for crash recovery: each day file
 * is parsed once, and afterwards only the bytes appended since (complete entries; a torn last one
 * waits for its end). A restart that recovers a thousand sessions or claims thus reads the day's
 * log once, not once per session — the cost of a restart follows what is pending, not the size
 * of the log.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AuditLogFormatError } from './audit-errors.js';
import { listLogFiles, logFileDate } from './audit-log-reader.js';
import { unescapeText } from './audit-line-encoding.js';

export type SessionMessages = Map<string, { sequence: number; agent: string }>;

/** Reads `length` bytes of `file` from `offset` (the disk seam; tests count the reads). */
export type RangeReader = (file: string, offset: number, length: number) => Promise<Buffer>;

interface IndexedFile {
  /** Bytes of whole entries indexed so far. */
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
  /** One refresh of a file at a time: concurrent recoveries wait for the same read. */
  private readonly refreshing = new Map<string, Promise<void>>();

  constructor(
    private readonly logsDir: string,
    private readonly read: RangeReader = readRange,
  ) {}

  /** The messages of `sessionId` in the day files from `fromDate` (`YYYYMMDD`) on, by message id. */
  async messagesOf(sessionId: string, fromDate?: string): Promise<SessionMessages> {
    const found: SessionMessages = new Map();
    for (const file of listLogFiles(this.logsDir)) {
      if (fromDate !== undefined && logFileDate(file) < fromDate) continue;
      await this.refresh(file);
      for (const [messageId, place] of this.files.get(file)?.sessions.get(sessionId) ?? []) found.set(messageId, place);
    }
    return found;
  }

  private refresh(file: string): Promise<void> {
    const running = this.refreshing.get(file);
    if (running) return running;
    const done = this.readNew(file).finally(() => this.refreshing.delete(file));
    this.refreshing.set(file, done);
    return done;
  }

  private async readNew(file: string): Promise<void> {
    const full = path.join(this.logsDir, file);
    let size: number;
    try {
      size = (await fs.promises.stat(full)).size;
    } catch {
      this.files.delete(file);
      return;
    }
    let indexed = this.files.get(file);
    // A file cut shorter (a torn tail removed at start) is read again from its start.
    if (indexed === undefined || size < indexed.bytes) {
      indexed = { bytes: 0, sessions: new Map() };
      this.files.set(file, indexed);
    }
    // In slices of whole entries: a busy day's file can be larger than one string may be.
    while (indexed.bytes < size) {
      const length = Math.min(SLICE_BYTES, size - indexed.bytes);
      const bytes = await this.read(full, indexed.bytes, length);
      // Whole entries only (each ends with "---\n"); a torn last one waits for its end.
      const last = bytes.lastIndexOf(ENTRY_END);
      if (last === -1) {
        if (length === SLICE_BYTES) throw new AuditLogFormatError(`no entry end ("---") in ${SLICE_BYTES} bytes`, 1, full);
        return;
      }
      const end = last + ENTRY_END.length;
      indexEntries(bytes.subarray(0, end).toString('utf8'), indexed.sessions);
      indexed.bytes += end;
      if (end < bytes.length && length < SLICE_BYTES) return;
    }
  }
}

/** Bytes read at a time; an entry is far smaller (answers are capped at llm.max_output_bytes, 1 MiB). */
const SLICE_BYTES = 16 * 1024 * 1024;
const ENTRY_END = Buffer.from('\n---\n');
/**
 * The four header lines recovery needs, read without parsing whole entries (verify does that):
 * every field is one line (newlines in values are escaped), so a line that starts with `[AGENT: `
 * is that field. In an entry they come in this order; SEQUENCE closes the set.
 */
const FIELD_LINE = /^\[(AGENT|MESSAGE_ID|SESSION_ID|SEQUENCE): ([^\n]*)\]$/gm;

function indexEntries(text: string, sessions: Map<string, SessionMessages>): void {
  const fields: Record<string, string> = {};
  for (const match of text.matchAll(FIELD_LINE)) {
    const value = match[2]!.includes('\\') ? unescapeText(match[2]!) : match[2]!;
    if (match[1] !== 'SEQUENCE') {
      fields[match[1]!] = value;
      continue;
    }
    const messages = sessions.get(fields.SESSION_ID ?? '') ?? new Map();
    messages.set(fields.MESSAGE_ID ?? '', { sequence: Number(value), agent: fields.AGENT ?? '' });
    sessions.set(fields.SESSION_ID ?? '', messages);
  }
}
