/**
 * The files store (files mode): a session is `system/sessions/<id>/` (journal.jsonl, append-only,
 * and manifest.json, a cache of its state for `govflow status`), its audit entries go to the
 * hash-chained `system/logs/`, its result to `system/outbox/`. The ordering promises of
 * `SessionStore` are kept here; the record types and readers are in session-journal.ts.
 */
import { renameSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AuditEntryInput } from '../audit/audit-entry-format.js';
import { AppendOnlyFile, fsyncDirectoryAsync, fsyncSharedDirectory } from './append-only-file.js';
import { writeOutboxResult } from './atomic-file.js';
import { diskCall, diskFailureCode } from './disk-io.js';
import { diskWaits } from './disk-waits.js';
import { ManifestFile } from './manifest-file.js';
import { PromptStore } from './prompt-store.js';
import { discard, removeSpareFolders, spareSessionFolders, type Spares } from './spares.js';
import {
  SessionJournal,
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

/** The audit trail as the files store needs it: a durable append (the AuditLogWriter). */
export interface AuditAppender {
  /** Resolves once the entry is durable, with its hash. */
  append(input: AuditEntryInput): Promise<{ hash: string }>;
}

export interface FilesSessionStoreOptions {
  /** `system/sessions/`. */
  sessionsDir: string;
  /** `system/outbox/`. */
  outboxDir: string;
  /** fdatasync journals and results (`daemon.fsync`). */
  durable: boolean;
  audit: AuditAppender;
  /** The session's audit entries logged from `sinceIso` on (reads system/logs/). */
  auditedMessages: (sessionId: string, sinceIso: string) => Promise<AuditedMessages>;
  /** `system/snapshots/`: system prompts go to `prompts/<sha256>.md` under it. */
  snapshotsDir: string;
  /**
   * Keep new session folders made ahead (the daemon: a session's start then waits for no folder
   * or file creation); spares a crash left are removed here. close() removes the rest.
   */
  spareFolders?: boolean;
}

const SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** One session of the files store: its journal and manifest, plus the shared audit writer and outbox. */
class FilesStoredSession implements StoredSession {
  private readonly manifest: ManifestFile;

  /**
   * `entriesDurable`: a new session's folder entries, synced in the background, awaited by the first
   * sync. `after`: the session's request, not on disk yet; the first sync starts once it is.
   */
  constructor(
    readonly sessionId: string,
    private readonly journal: AppendOnlyFile,
    private readonly options: FilesSessionStoreOptions,
    private readonly entriesDurable: Promise<unknown> = Promise.resolve(),
    private readonly after?: Promise<void>,
  ) {
    this.manifest = new ManifestFile(path.join(path.dirname(journal.file), 'manifest.json'));
  }

  append(...records: JournalRecord[]): void {
    for (const record of records) this.journal.append(`${JSON.stringify(record)}\n`);
  }

  /** Appends, then resolves once every record so far (and the session's folder entries) is on disk. */
  private async appendDurable(...records: JournalRecord[]): Promise<void> {
    this.append(...records);
    if (this.after) await this.after;
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
    if (this.after) await this.after;
    return { entryHash: (await this.options.audit.append(audit)).hash };
  }

  async reappendAudit(audit: AuditEntryInput): Promise<void> {
    if (this.after) await this.after;
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
    if (this.after) await this.after;
    await writeOutboxResult(this.options.outboxDir, result, this.options.durable);
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
  private readonly spares: Spares | null = null;

  constructor(private readonly options: FilesSessionStoreOptions) {
    this.prompts = new PromptStore(path.join(options.snapshotsDir, 'prompts'), options.durable);
    if (options.spareFolders) {
      removeSpareFolders(options.sessionsDir);
      this.spares = spareSessionFolders(options.sessionsDir);
    }
  }

  /** Removes the spare session folders not used. */
  async close(): Promise<void> {
    await this.spares?.close();
  }

  keepPrompt(sha256: string, text: string): void {
    this.prompts.ensure(sha256, text);
  }

  exists(sessionId: string): boolean {
    return SESSION_ID.test(sessionId) && SessionJournal.exists(this.options.sessionsDir, sessionId);
  }

  /**
   * Nothing here waits for the disk: the first record and the folder entries are durable with the
   * first sync. With a spare ready, nothing here waits for the thread pool either.
   */
  async create(record: SessionRecord, after?: Promise<void>): Promise<StoredSession> {
    const { sessionsDir, durable } = this.options;
    const directory = SessionJournal.directoryOf(sessionsDir, record.session_id);
    // A disk that refuses the new folder or file (ENOSPC, ...) is waited out (disk-waits.ts).
    const journal = await diskWaits.retry(directory, async () => {
      const adopted = this.fromSpare(directory);
      if (adopted) return adopted;
      await mkdir(directory, { recursive: true });
      return AppendOnlyFile.open(path.join(directory, 'journal.jsonl'), durable);
    });
    const entriesDurable = durable ? Promise.all([fsyncDirectoryAsync(directory), fsyncSharedDirectory(sessionsDir)]) : undefined;
    const session = new FilesStoredSession(record.session_id, journal, this.options, entriesDurable, after);
    session.append(record);
    return session;
  }

  /**
   * The session's folder and journal made of a spare, renamed into place; null when none is ready
   * or the folder exists already. A refusal of the disk throws, to be waited out as a creation's.
   */
  private fromSpare(directory: string): AppendOnlyFile | null {
    const spare = this.spares?.take();
    if (!spare) return null;
    const file = path.join(directory, 'journal.jsonl');
    try {
      diskCall('open', file, () => renameSync(spare.path, directory));
    } catch (error) {
      discard(spare);
      if (diskFailureCode(error) !== null) throw error;
      return null;
    }
    return new AppendOnlyFile(file, this.options.durable, spare.fd);
  }

  async open(sessionId: string): Promise<{ session: StoredSession; records: JournalRecord[] }> {
    if (!this.exists(sessionId)) throw new GovflowError('internal', `no session "${sessionId}" under ${this.options.sessionsDir}`);
    const directory = SessionJournal.directoryOf(this.options.sessionsDir, sessionId);
    const records = SessionJournal.read(directory, true);
    const journal = new AppendOnlyFile(path.join(directory, 'journal.jsonl'), this.options.durable);
    return { session: new FilesStoredSession(sessionId, journal, this.options), records };
  }

  list(): string[] {
    return SessionJournal.list(this.options.sessionsDir);
  }

  auditedMessages(sessionId: string, sinceIso: string): Promise<AuditedMessages> {
    return this.options.auditedMessages(sessionId, sinceIso);
  }
}
