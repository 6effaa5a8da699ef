/**
 * The files store (files mode): a session is `system/sessions/<id>/` (journal.jsonl, append-only,
 * and manifest.json, a cache of its state for `govflow status`), its audit entries go to the
 * hash-chained `system/logs/`, its result to `system/outbox/`. The ordering promises of
 * `SessionStore` are kept here; the record types and readers are in session-journal.ts.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AuditEntryInput } from '../audit/audit-entry-format.js';
import { AppendOnlyFile, fsyncDirectoryAsync, fsyncSharedDirectory } from './append-only-file.js';
import { writeOutboxResult } from './atomic-file.js';
import type { DiskFaults } from './disk-io.js';
import { diskWaits } from './disk-waits.js';
import { ManifestFile } from './manifest-file.js';
import { PromptStore } from './prompt-store.js';
import {
  SessionJournal,
  type AuditPosition,
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
import type { ApprovalRecord, ApprovalRequestRecord, ToolResultRecord, ToolTurnRecord } from './tool-journal-records.js';
import type { AuditedMessages, SessionResultFiles, SessionStore, StoredSession } from './session-store.js';
import { GovflowError } from '../errors.js';

export interface FilesSessionStoreOptions {
  /** `system/sessions/`. */
  sessionsDir: string;
  /** `system/outbox/`. */
  outboxDir: string;
  /** fdatasync journals and results (`daemon.fsync`). */
  durable: boolean;
  /**
   * The audit trail (the AuditLogWriter): `append` resolves once the entry is durable, with its
   * hash; `position` is where the log ends now (noted on each new session as `audit_from`).
   */
  audit: { append(input: AuditEntryInput): Promise<{ hash: string }>; position?(): AuditPosition | null };
  /** The session's audit entries logged from `sinceIso` on, after `from` as SessionStore.auditedMessages says (reads system/logs/). */
  auditedMessages: (sessionId: string, sinceIso: string, from?: AuditPosition | null) => Promise<AuditedMessages>;
  /** `system/snapshots/`: system prompts go to `prompts/<sha256>.md` under it. */
  snapshotsDir: string;
  /** Failures to inject into journal, result and prompt writes (tests). */
  faults?: DiskFaults;
}

const SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** One session of the files store: its journal and manifest, plus the shared audit writer and outbox. */
class FilesStoredSession implements StoredSession {
  private readonly manifest: ManifestFile;

  /** `entriesDurable`: a new session's folder entries, synced in the background, awaited by the first sync. */
  constructor(
    readonly sessionId: string,
    private readonly journal: AppendOnlyFile,
    private readonly options: FilesSessionStoreOptions,
    private readonly entriesDurable: Promise<unknown> = Promise.resolve(),
  ) {
    this.manifest = new ManifestFile(path.join(path.dirname(journal.file), 'manifest.json'));
  }

  append(...records: JournalRecord[]): void {
    for (const record of records) this.journal.append(`${JSON.stringify(record)}\n`);
  }

  /** Appends, then resolves once every record so far (and the session's folder entries) is on disk. */
  private async appendDurable(...records: JournalRecord[]): Promise<void> {
    this.append(...records);
    await Promise.all([this.entriesDurable, this.journal.sync()]);
  }

  recordExchange(record: ExchangeRecord): void {
    // Not synced on its own: the next message's durable write carries it to disk with it.
    this.append(record);
  }

  async commitMessage(record: MessageRecord, audit: AuditEntryInput): Promise<{ entryHash: string | null }> {
    // One durable write per step: the audit entry. The journal record goes to the page cache
    // first, so a killed process never leaves an audited message the journal lacks; the journal
    // is synced when the session pauses or ends. After power loss the audit log may be ahead of
    // the journal: recovery voids those entries (voidMessages) and runs their steps again.
    this.append(record);
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

  private async writeResult(result: SessionResultFiles): Promise<void> {
    await writeOutboxResult(this.options.outboxDir, result, this.options.durable, this.options.faults);
  }

  async pause(result: SessionResultFiles): Promise<void> {
    await Promise.all([this.appendDurable(), this.writeResult(result)]);
  }

  async finish(result: SessionResultFiles, end: FinishedRecord | null): Promise<void> {
    // The journal is durable before anything else moves on (the request file's archive move):
    // until then recovery finds the claimed file and writes the result again from the journal.
    await Promise.all([this.appendDurable(), this.writeResult(result)]);
    // Not synced: finishing again after a crash writes the same result and this same record.
    if (end) this.append(end);
  }

  /** Rewritten in place, off the event loop; a cache of the journal, so never synced. */
  writeManifest(manifest: SessionManifest): void {
    this.manifest.write(`${JSON.stringify(manifest, null, 2)}\n`);
  }

  /** Closes the journal once the last manifest write has landed (a failed one is reported). */
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

  /** Nothing here waits for the disk: the first record and the folder entries are durable with the first sync. */
  async create(record: SessionRecord): Promise<StoredSession> {
    const { sessionsDir, durable } = this.options;
    const directory = SessionJournal.directoryOf(sessionsDir, record.session_id);
    // A disk that refuses the new folder or file (ENOSPC, ...) is waited out (disk-waits.ts).
    const journal = await diskWaits.retry(directory, async () => {
      await mkdir(directory, { recursive: true });
      return AppendOnlyFile.open(path.join(directory, 'journal.jsonl'), durable, this.options.faults);
    });
    const entriesDurable = durable ? Promise.all([fsyncDirectoryAsync(directory), fsyncSharedDirectory(sessionsDir)]) : undefined;
    const session = new FilesStoredSession(record.session_id, journal, this.options, entriesDurable);
    // Where its entries can begin: crash recovery reads the log from there, not from the day's start.
    const auditFrom = this.options.audit.position?.() ?? null;
    session.append(auditFrom === null ? record : { ...record, audit_from: auditFrom });
    return session;
  }

  async open(sessionId: string): Promise<{ session: StoredSession; records: JournalRecord[] }> {
    if (!this.exists(sessionId)) throw new GovflowError('internal', `no session "${sessionId}" under ${this.options.sessionsDir}`);
    const directory = SessionJournal.directoryOf(this.options.sessionsDir, sessionId);
    const records = SessionJournal.read(directory, true);
    const journal = new AppendOnlyFile(path.join(directory, 'journal.jsonl'), this.options.durable, { faults: this.options.faults });
    return { session: new FilesStoredSession(sessionId, journal, this.options), records };
  }

  auditedMessages(sessionId: string, sinceIso: string, from?: AuditPosition | null): Promise<AuditedMessages> {
    return this.options.auditedMessages(sessionId, sinceIso, from);
  }
}
