/**
 * A second SessionStore, in memory, for the store-seam test: if the session runner ran a whole
 * session through it and touched no session file, the runner depends only on the interface (the
 * Postgres store of SPEC §15 plugs in the same way). It keeps the interface's order: a message's
 * record is in `records` before its audit entry is in `audit`.
 */
import type { AuditEntryInput } from '../../src/store/session-store.js';
import type { FinishedRecord, JournalRecord, SessionManifest, SessionRecord } from '../../src/store/session-journal.js';
import type {
  AuditedMessages,
  SessionResultFiles,
  SessionStore,
  StoredSession,
} from '../../src/store/session-store.js';

export interface MemorySession {
  records: JournalRecord[];
  audit: AuditEntryInput[];
  /** How many records were in `records` when each audit entry was added. */
  recordsAtAudit: number[];
  results: Array<{ kind: 'pause' | 'finish'; files: SessionResultFiles }>;
  manifests: SessionManifest[];
  closed: number;
}

export class MemorySessionStore implements SessionStore {
  readonly sessions = new Map<string, MemorySession>();
  readonly prompts = new Map<string, string>();

  keepPrompt(sha256: string, text: string): void {
    this.prompts.set(sha256, text);
  }

  exists(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  async create(record: SessionRecord): Promise<StoredSession> {
    if (this.sessions.has(record.session_id)) throw new Error(`session ${record.session_id} exists already`);
    const session: MemorySession = {
      records: [record],
      audit: [],
      recordsAtAudit: [],
      results: [],
      manifests: [],
      closed: 0,
    };
    this.sessions.set(record.session_id, session);
    return this.handle(record.session_id, session);
  }

  async open(sessionId: string): Promise<{ session: StoredSession; records: JournalRecord[] }> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    return { session: this.handle(sessionId, session), records: structuredClone(session.records) };
  }

  async records(sessionId: string): Promise<JournalRecord[]> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    return structuredClone(session.records);
  }

  async auditedMessages(sessionId: string): Promise<AuditedMessages> {
    const audited: AuditedMessages = new Map();
    for (const [index, entry] of (this.sessions.get(sessionId)?.audit ?? []).entries()) {
      audited.set(entry.message.message_id, {
        sequence: entry.control ? null : entry.message.metadata.sequence_number,
        agent: entry.message.agent.name,
        hash: `memory-${index + 1}`,
      });
    }
    return audited;
  }

  private handle(sessionId: string, session: MemorySession): StoredSession {
    const addAudit = (entry: AuditEntryInput) => {
      session.audit.push(structuredClone(entry));
      session.recordsAtAudit.push(session.records.length);
    };
    return {
      sessionId,
      recordExchange: (record) => void session.records.push(structuredClone(record)),
      commitMessage: async (record, audit) => {
        session.records.push(structuredClone(record));
        await Promise.resolve();
        addAudit(audit);
        return { entryHash: `memory-${session.audit.length}` };
      },
      commitControl: async (record, audit) => {
        session.records.push(structuredClone(record));
        addAudit(audit);
        return { entryHash: `memory-${session.audit.length}` };
      },
      reappendAudit: async (audit) => addAudit(audit),
      voidMessages: async (records) => void session.records.push(...structuredClone(records)),
      recordReply: async (record) => void session.records.push(structuredClone(record)),
      recordCrash: async (record) => void session.records.push(structuredClone(record)),
      recordToolCall: (record) => void session.records.push(structuredClone(record)),
      recordApproval: async (record) => void session.records.push(structuredClone(record)),
      recordToolStart: async (record) => void session.records.push(structuredClone(record)),
      pause: async (files) => void session.results.push({ kind: 'pause', files }),
      finish: async (files, end: FinishedRecord | null) => {
        session.results.push({ kind: 'finish', files });
        if (end) session.records.push(structuredClone(end));
      },
      writeManifest: (manifest) => void session.manifests.push(structuredClone(manifest)),
      close: async () => {
        session.closed += 1;
        return null;
      },
    };
  }
}
