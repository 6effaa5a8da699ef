/**
 * The files store (files mode): a session is `system/sessions/<id>/` (journal.jsonl and a
 * manifest), its audit entries go to the hash-chained `system/logs/`, its result to
 * `system/outbox/`. It wraps SessionJournal, the audit writer and the atomic result writes by
 * their public methods only; the ordering promises of `SessionStore` are kept here.
 */
import path from 'node:path';
import type { AuditEntryInput } from '../audit/audit-entry-format.js';
import { writeFileAtomicAsync } from './atomic-file.js';
import { PromptStore } from './prompt-store.js';
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

/** The audit trail as the files store needs it: a durable append (the AuditLogWriter). */
export interface AuditAppender {
  /** Resolves once the entry is durable, with its hash where the writer knows it. */
  append(input: AuditEntryInput): Promise<{ hash?: string } | unknown>;
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
}

const SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

function entryHashOf(appended: unknown): string | null {
  const hash = (appended as { hash?: unknown } | undefined)?.hash;
  return typeof hash === 'string' ? hash : null;
}

/** One session of the files store: its journal, plus the shared audit writer and outbox. */
class FilesStoredSession implements StoredSession {
  constructor(
    readonly sessionId: string,
    private readonly journal: SessionJournal,
    private readonly options: FilesSessionStoreOptions,
  ) {}

  recordExchange(record: ExchangeRecord): void {
    // Not synced on its own: the next message's durable write carries it to disk with it.
    this.journal.append(record);
  }

  async commitMessage(record: MessageRecord, audit: AuditEntryInput): Promise<{ entryHash: string | null }> {
    // One durable write per step: the audit entry. The journal record goes to the page cache
    // first, so a killed process never leaves an audited message the journal lacks; the journal
    // is synced when the session pauses or ends. After power loss the audit log may be ahead of
    // the journal: recovery voids those entries (voidMessages) and runs their steps again.
    this.journal.append(record);
    return { entryHash: entryHashOf(await this.options.audit.append(audit)) };
  }

  async reappendAudit(audit: AuditEntryInput): Promise<void> {
    await this.options.audit.append(audit);
  }

  async voidMessages(records: VoidRecord[]): Promise<void> {
    if (records.length === 0) return;
    for (const record of records) this.journal.append(record);
    await this.journal.sync();
  }

  async recordReply(record: ReplyRecord): Promise<void> {
    await this.journal.appendDurable(record);
  }

  async recordCrash(record: CrashRecord): Promise<void> {
    await this.journal.appendDurable(record);
  }

  recordToolCall(record: ToolTurnRecord | ToolResultRecord): void {
    this.journal.append(record);
  }

  async recordApproval(record: ApprovalRequestRecord | ApprovalRecord): Promise<void> {
    await this.journal.appendDurable(record);
  }

  private async writeResult(result: SessionResultFiles): Promise<void> {
    const { outboxDir, durable } = this.options;
    await Promise.all([
      writeFileAtomicAsync(path.join(outboxDir, `${result.requestId}.md`), result.report, false),
      writeFileAtomicAsync(path.join(outboxDir, `${result.requestId}.json`), result.json, durable),
    ]);
  }

  async pause(result: SessionResultFiles): Promise<void> {
    await Promise.all([this.journal.sync(), this.writeResult(result)]);
  }

  async finish(result: SessionResultFiles, end: FinishedRecord | null): Promise<void> {
    // The journal is durable before anything else moves on (the request file's archive move):
    // until then recovery finds the claimed file and writes the result again from the journal.
    await Promise.all([this.journal.sync(), this.writeResult(result)]);
    // Not synced: finishing again after a crash writes the same result and this same record.
    if (end) this.journal.append(end);
  }

  writeManifest(manifest: SessionManifest): void {
    this.journal.writeManifest(manifest);
  }

  close(): Promise<Error | null> {
    return this.journal.close();
  }
}

export class FilesSessionStore implements SessionStore {
  private readonly prompts: PromptStore;

  constructor(private readonly options: FilesSessionStoreOptions) {
    this.prompts = new PromptStore(path.join(options.snapshotsDir, 'prompts'), options.durable);
  }

  keepPrompt(sha256: string, text: string): void {
    this.prompts.ensure(sha256, text);
  }

  exists(sessionId: string): boolean {
    return SESSION_ID.test(sessionId) && SessionJournal.exists(this.options.sessionsDir, sessionId);
  }

  async create(record: SessionRecord): Promise<StoredSession> {
    const journal = await SessionJournal.create(this.options.sessionsDir, record, this.options.durable);
    return new FilesStoredSession(record.session_id, journal, this.options);
  }

  async open(sessionId: string): Promise<{ session: StoredSession; records: JournalRecord[] }> {
    if (!this.exists(sessionId)) throw new Error(`no session "${sessionId}" under ${this.options.sessionsDir}`);
    const { journal, records } = SessionJournal.open(this.options.sessionsDir, sessionId, this.options.durable);
    return { session: new FilesStoredSession(sessionId, journal, this.options), records };
  }

  list(): string[] {
    return SessionJournal.list(this.options.sessionsDir);
  }

  auditedMessages(sessionId: string, sinceIso: string): Promise<AuditedMessages> {
    return this.options.auditedMessages(sessionId, sinceIso);
  }
}
