/**
 * Which messages of which sessions the audit log already holds, for crash recovery: each day file
 * is parsed once, and afterwards only the bytes appended since (complete entries; a torn last one
 * waits for its end). A restart that recovers a thousand sessions or claims thus reads the day's
 * log once, not once per session — the cost of a restart follows what is pending, not the size
 * of the log.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseEntryBlock, splitEntryBlocks } from './audit-entry-parse.js';
import { AuditLogFormatError } from './audit-errors.js';
import { listLogFiles, logFileDate } from './audit-log-reader.js';

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
    if (size === indexed.bytes) return;
    const text = (await this.read(full, indexed.bytes, size - indexed.bytes)).toString('utf8');
    const { blocks } = splitEntryBlocks(text);
    for (const block of blocks) {
      let entry;
      try {
        entry = parseEntryBlock(block);
      } catch (error) {
        throw error instanceof AuditLogFormatError ? error.inFile(full) : error;
      }
      const messages = indexed.sessions.get(entry.sessionId) ?? new Map();
      messages.set(entry.messageId, { sequence: entry.sequence, agent: entry.agent });
      indexed.sessions.set(entry.sessionId, messages);
      indexed.bytes += block.length;
    }
  }
}
