/**
 * The files store: a session is `system/sessions/<id>/` (journal.jsonl, and manifest.json, a cache
 * for `govflow status`), its audit entries go to `system/logs/`, its result to `system/outbox/`.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AuditEntryInput } from './session-store.js';
import { AppendOnlyFile, fsyncDirectoryAsync, fsyncSharedDirectory } from './append-only-file.js';
import { writeOutboxResult } from './atomic-file.js';
import type { DiskFaults } from './disk-io.js';
import { diskWaits } from './disk-waits.js';
import { ManifestFile } from './manifest-file.js';
import { PromptStore } from './prompt-store.js';
import {
  type AuditPosition,
  type ControlRecord,
  type CrashRecord,
  type ExchangeRecord,
  type FinishedRecord,
  type JournalRecord,
  type MessageRecord,
  type ReplyRecord,
  type SessionManifest,
  type SessionRecord,
  type VoidRecord,
} from './session-journal.js';
import { SessionJournal } from './journal-reader.js';
import type {
  ApprovalRecord,
  ApprovalRequestRecord,
  ToolStartRecord,
  ToolResultRecord,
  ToolTurnRecord,
} from './tool-journal-records.js';
import type { AuditedMessages, SessionResultFiles, SessionStore, StoredSession } from './session-store.js';
import { GovflowError } from '../errors.js';
import { archivedAuditedMessages, sessionFolder } from './session-retention.js';

export interface FilesSessionStoreOptions {
  sessionsDir: string;
  outboxDir: string;
  /** fdatasync journals and results (`daemon.fsync`). */
  durable: boolean;
  /** The AuditLogWriter; `position` is noted on each new session as `audit_from`. */
  audit: { append(input: AuditEntryInput): Promise<{ hash: string }>; position?(): AuditPosition | null };
  /** SessionStore.auditedMessages, read from system/logs/. */
  auditedMessages: (sessionId: string, sinceIso: string, from?: AuditPosition | null) => Promise<AuditedMessages>;
  /** System prompts go to `prompts/<sha256>.md` under it. */
  snapshotsDir: string;
  /** system/logs/: an archived session (retention) is read from its archive, so it can be forked. */
  logsDir?: string;
  faults?: DiskFaults;
}

const SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

class FilesStoredSession implements StoredSession {
  private readonly manifest: ManifestFile;

  private entriesSynced: Promise<unknown> | null = null;

  /** `syncEntries`: makes the session folder's entries durable; run by its first durable write, not before. */
  constructor(
    readonly sessionId: string,
    private readonly journal: AppendOnlyFile,
    private readonly options: FilesSessionStoreOptions,
    private readonly syncEntries: () => Promise<unknown>,
  ) {
    this.manifest = new ManifestFile(path.join(path.dirname(journal.file), 'manifest.json'));
  }

  append(...records: JournalRecord[]): void {
    for (const record of records) this.journal.append(`${JSON.stringify(record)}\n`);
  }

  /** Resolves once every record so far, and the session's folder entries, are on disk. */
  private async appendDurable(...records: JournalRecord[]): Promise<void> {
    this.append(...records);
    await Promise.all([(this.entriesSynced ??= this.syncEntries()), this.journal.sync()]);
  }

  recordExchange(record: ExchangeRecord): void {
    // Not synced on its own: the next message's durable write carries it to disk with it.
    this.append(record);
  }

  async commitMessage(record: MessageRecord, audit: AuditEntryInput): Promise<{ entryHash: string | null }> {
    // One durable write per step, the audit entry; the journal record reaches the page cache
    // first, so a killed process never leaves an audited message the journal lacks. After power
    // loss the log may be ahead: recovery voids those entries and runs their steps again.
    this.append(record);
    return { entryHash: (await this.options.audit.append(audit)).hash };
  }

  async commitControl(record: ControlRecord, audit: AuditEntryInput): Promise<{ entryHash: string | null }> {
    await this.appendDurable(record);
    return { entryHash: (await this.options.audit.append(audit)).hash };
  }

  async reappendAudit(audit: AuditEntryInput): Promise<void> {
    await this.options.audit.append(audit);
  }

  async voidMessages(records: VoidRecord[]): Promise<void> {
    if (records.length > 0) await this.appendDurable(...records);
  }

  recordReply(record: ReplyRecord): Promise<void> {
    return this.appendDurable(record);
  }

  recordCrash(record: CrashRecord): Promise<void> {
    return this.appendDurable(record);
  }

  recordToolCall(record: ToolTurnRecord | ToolResultRecord): void {
    this.append(record);
  }

  recordApproval(record: ApprovalRequestRecord | ApprovalRecord): Promise<void> {
    return this.appendDurable(record);
  }

  recordToolStart(record: ToolStartRecord): Promise<void> {
    return this.appendDurable(record);
  }

  private async writeResult(result: SessionResultFiles, passOn?: Promise<boolean>): Promise<void> {
    await writeOutboxResult(this.options.outboxDir, result, this.options.durable, this.options.faults, passOn);
  }

  async pause(result: SessionResultFiles): Promise<void> {
    await Promise.all([this.appendDurable(), this.writeResult(result)]);
  }

  async finish(result: SessionResultFiles, end: FinishedRecord | null, passOn?: Promise<boolean>): Promise<void> {
    // The journal is durable before anything else moves on (the request file's archive move):
    // until then recovery finds the claimed file and writes the result again from the journal.
    await Promise.all([this.appendDurable(), this.writeResult(result, passOn)]);
    // Not synced: finishing again after a crash writes the same result and this same record.
    if (end) this.append(end);
  }

  /** Rewritten in place, off the event loop; a cache of the journal, so never synced. */
  writeManifest(manifest: SessionManifest): void {
    this.manifest.write(`${JSON.stringify(manifest, null, 2)}\n`);
  }

  async close(): Promise<Error | null> {
    const manifestError = await this.manifest.close();
    await this.journal.close();
    return manifestError;
  }
}

export class FilesSessionStore implements SessionStore {
  private readonly prompts: PromptStore;

  constructor(private readonly options: FilesSessionStoreOptions) {
    this.prompts = new PromptStore(path.join(options.snapshotsDir, 'prompts'), options.durable, options.faults);
  }

  keepPrompt(sha256: string, text: string): void {
    this.prompts.ensure(sha256, text);
  }

  exists(sessionId: string): boolean {
    return SESSION_ID.test(sessionId) && SessionJournal.exists(this.options.sessionsDir, sessionId);
  }

  /** Nothing here waits for the disk: the first record and the folder entries are durable with the journal's first sync. */
  async create(record: SessionRecord): Promise<StoredSession> {
    const { sessionsDir, durable } = this.options;
    const directory = SessionJournal.directoryOf(sessionsDir, record.session_id);
    const journal = await diskWaits.retry(directory, async () => {
      await mkdir(directory, { recursive: true });
      return AppendOnlyFile.open(path.join(directory, 'journal.jsonl'), durable, this.options.faults);
    });
    const session = new FilesStoredSession(record.session_id, journal, this.options, this.syncEntries(directory));
    // Where its entries can begin: crash recovery reads the log from there, not from the day's start.
    const auditFrom = this.options.audit.position?.() ?? null;
    session.append(auditFrom === null ? record : { ...record, audit_from: auditFrom });
    return session;
  }

  async open(sessionId: string): Promise<{ session: StoredSession; records: JournalRecord[] }> {
    if (!this.exists(sessionId))
      throw new GovflowError('internal', `no session "${sessionId}" under ${this.options.sessionsDir}`);
    const directory = SessionJournal.directoryOf(this.options.sessionsDir, sessionId);
    const records = SessionJournal.read(directory, true);
    const journal = new AppendOnlyFile(path.join(directory, 'journal.jsonl'), this.options.durable, {
      faults: this.options.faults,
    });
    // A session recovered after a crash may never have had its folder synced: its first durable write does it.
    return { session: new FilesStoredSession(sessionId, journal, this.options, this.syncEntries(directory)), records };
  }

  /**
   * Makes a session folder's entries durable, run with the journal's first sync (a pause or the
   * end, usually) rather than while a burst of sessions starts: the folder's entries are worth no
   * more on disk than the records they hold, which reach it only then.
   */
  private syncEntries(directory: string): () => Promise<unknown> {
    if (!this.options.durable) return () => Promise.resolve();
    return () => Promise.all([fsyncDirectoryAsync(directory), fsyncSharedDirectory(this.options.sessionsDir)]);
  }

  async records(sessionId: string): Promise<JournalRecord[]> {
    if (this.exists(sessionId))
      return SessionJournal.read(SessionJournal.directoryOf(this.options.sessionsDir, sessionId));
    const archived = this.archivedFolder(sessionId);
    if (archived === null)
      throw new GovflowError('request', `no session "${sessionId}" under ${this.options.sessionsDir}`);
    return SessionJournal.read(archived);
  }

  async auditedMessages(sessionId: string, sinceIso: string, from?: AuditPosition | null): Promise<AuditedMessages> {
    const live = await this.options.auditedMessages(sessionId, sinceIso, from);
    const { logsDir } = this.options;
    if (logsDir === undefined || this.archivedFolder(sessionId) === null) return live;
    // Archived by retention: its entries are in the archived day files (a fork names them).
    const fromDay = new Date(Date.parse(sinceIso) - 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
    return new Map([...archivedAuditedMessages(logsDir, sessionId, fromDay), ...live]);
  }

  /** The archive folder of a session retention moved (system/logs/archive/YYYYMMDD/sessions/<id>/), or null. */
  private archivedFolder(sessionId: string): string | null {
    const { logsDir, sessionsDir } = this.options;
    if (logsDir === undefined || !SESSION_ID.test(sessionId) || SessionJournal.exists(sessionsDir, sessionId))
      return null;
    const folder = sessionFolder({ sessions: sessionsDir, logs: logsDir }, sessionId);
    return folder === SessionJournal.directoryOf(sessionsDir, sessionId) ? null : folder;
  }
}
