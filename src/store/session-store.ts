/**
 * The store seam: every durable effect of a session behind one interface, so the session runner
 * never touches files. Implementations: files-session-store.ts, and Postgres (src/cluster/). The
 * promises each keeps (the durability tests hold the files store to them):
 * - `commitMessage` journals the message and THEN makes its audit entry durable before it resolves
 *   (on disk before the message is passed on). A crash in between leaves a journaled message
 *   without an entry, which recovery appends again — never an audited message the journal lacks,
 *   short of power loss.
 * - `pause` and `finish` make the journal and the result durable before they resolve; both may run
 *   again after a crash (recovery rewrites the same result).
 * - `open` returns every complete record, in order; a torn last record is cut.
 */
import type { SessionVault } from '../privacy/pii-vault.js';
import type { RequestLimits } from '../intake/request-limits.js';
import type {
  AuditPosition,
  ControlRecord,
  CrashRecord,
  ExchangeRecord,
  FinishedRecord,
  JournalRecord,
  HandoffLine,
  MessageRecord,
  ReplyRecord,
  ReasoningDigest,
  RouteDecision,
  SessionManifest,
  SessionRecord,
  VoidRecord,
} from './session-journal.js';
import type {
  ApprovalRecord,
  ApprovalRequestRecord,
  ToolStartRecord,
  ToolResultRecord,
  ToolTurnRecord,
} from './tool-journal-records.js';
import type { SentientMessage } from '../message/sentient-message.js';
import type { NotRepeatedCall, ToolAuditLines } from './tool-journal-records.js';
import type { AttachmentInfo } from './attachment-records.js';

/** What the audit writer is given for one message (src/audit/audit-entry-format.ts writes it). */
export interface AuditEntryInput {
  message: SentientMessage;
  /** Hash of the governance files the step ran under (`[GOVERNANCE_VERSION: …]`). */
  governanceHash: string;
  /** What the orchestrator corrected in the LLM's message. */
  corrections: string[];
  complianceViolations: string[];
  /** Anything else worth recording (dry run, replayed after a crash, …). */
  notes: string[];
  /** Occurrences of PII replaced, by kind. */
  piiRedacted?: Record<string, number> | null;
  guardrails?: ReadonlyArray<{ rule: string; action: string }> | null;
  /** The session's user; no `[USER: …]` line when absent. */
  user?: string | null;
  tools?: ToolAuditLines;
  /** Set on the entries of a delegated child session. */
  delegation?: { parentSessionId: string; depth: number } | null;
  /** On a delegated child's first entry: what its parent handed over (`[HANDOFF]`, docs/tools.md "Delegation"). */
  handoff?: HandoffLine | null;
  /**
   * Set on an operator's entry (docs/run-control.md): a cancel, fork, retry or re-run. It is not a
   * message: `message` carries its §6 lines, and no `[SEQUENCE]` is written.
   */
  control?: ControlAuditLine | null;
  /** Set on a message a fork reused: the ENTRY_HASH of the original's entry (`[FORKED_FROM: …]`). */
  forkedFrom?: string | null;
  /** Calls with effects outside the workspace (http_get, MCP) a fork did not repeat (`[NOT_REPEATED]`). */
  notRepeated?: ReadonlyArray<NotRepeatedCall> | null;
  /** The request's attachments, on the session's first entry (`[ATTACHMENTS]`, docs/attachments.md). */
  attachments?: readonly AttachmentInfo[];
  /** A chat turn's context, on the session's first entry (`[CHAT_CONTEXT]`, docs/http-api.md "Chat"). */
  chatContext?: { type: string | null; sha256: string; bytes: number };
  /** The route its agent's `routes` decided (`[ROUTE]`, SPEC §24). */
  route?: RouteDecision | null;
  /** The accepted attempt's reasoning digest (`[REASONING]`, SPEC §24). */
  reasoning?: ReasoningDigest | null;
  /** A step a steward retried with advice: the advice's SHA-256 (`[STEWARD_ADVICE: …]`, docs/run-control.md). */
  stewardAdvice?: string | null;
  /** The request's own limits, on the session's first entry (`[LIMITS]: {…}`, SPEC §25). */
  limits?: RequestLimits | null;
}

/** The `[CONTROL]` line of an operator's entry, keys in this order. */
export interface ControlAuditLine {
  action: 'cancel' | 'fork' | 'retry' | 'rerun' | 'intervene' | 'halt';
  /** A steward's decision (`intervene`): retry, fail or continue. */
  decision?: string;
  /** Who acted: the HTTP token's user, or the control file's owner. */
  by: string;
  /** A `by` the control file claimed: kept, not trusted. */
  claimed_by?: string;
  reason: string | null;
  at: string;
  /** Fork, retry, re-run: the session the new one comes from, and its first message run anew. */
  of_session?: string;
  from?: number;
  /** A steward's retry with advice: the advice's SHA-256 (the advice itself is in the journal). */
  advice_sha256?: string;
  /** A steward's continue: the session's new totals, and whether an admin raised one beyond its configured value. */
  limits?: { cost_usd?: number; time_minutes?: number };
  beyond_configured?: boolean;
}

/**
 * The audit entries a session already has, by message id (crash recovery, forks): `sequence` is
 * null on an operator's entry (docs/run-control.md); `hash` is the entry's ENTRY_HASH.
 */
export type AuditedMessages = Map<string, { sequence: number | null; agent: string; hash: string }>;

/** A session's result as files: the result JSON (docs/results.md; durable) and the human-readable report. */
export interface SessionResultFiles {
  requestId: string;
  json: string;
  /** A rendering of the journal: not made durable on its own. */
  report: string;
  /** Set when `json` carries PII originals (pii.restore_in_result): the redacted document, for stores that keep only that. */
  redactedJson?: string;
}

/** One session open in this process. */
export interface StoredSession {
  readonly sessionId: string;
  /** A model call's record: kept with the session, durable with the next commit. */
  recordExchange(record: ExchangeRecord): void;
  /** Journal record, then its durable audit entry; the entry's hash is null when the trail does not expose one. */
  commitMessage(record: MessageRecord, audit: AuditEntryInput): Promise<{ entryHash: string | null }>;
  /**
   * An operator's act (docs/run-control.md): the record durable in the journal, THEN its durable
   * audit entry (a control is rare; it never leaves an entry the journal lacks, even after power loss).
   */
  commitControl(record: ControlRecord, audit: AuditEntryInput): Promise<{ entryHash: string | null }>;
  /** Appends again the audit entry of a journaled message the audit trail lacks (recovery). */
  reappendAudit(audit: AuditEntryInput): Promise<void>;
  /** Records audit entries whose journal records power loss took as void; durable on return. */
  voidMessages(records: VoidRecord[]): Promise<void>;
  /** Records a person's reply to a paused session; durable on return. */
  recordReply(record: ReplyRecord): Promise<void>;
  /** Records a crashed step (`limits.max_crash_retries` counts these); durable on return. */
  recordCrash(record: CrashRecord): Promise<void>;
  /** A tool turn or a tool's result: kept with the session, durable with the step's message. */
  recordToolCall(record: ToolTurnRecord | ToolResultRecord): void;
  /** A call that waits for a person, or the person's decision; durable on return. */
  recordApproval(record: ApprovalRequestRecord | ApprovalRecord): Promise<void>;
  /** A call with effects outside the workspace is about to run (run at most once, SPEC §15); durable on return. */
  recordToolStart(record: ToolStartRecord): Promise<void>;
  /** The session waits for a person: its journal and its pending result are durable on return. */
  pause(result: SessionResultFiles): Promise<void>;
  /**
   * Journal and result durable, then the end record (`null` when an earlier run recorded it already).
   * `passOn` (default: at once) resolves true once the result may be published, when the session's
   * last messages are on disk; the result is written meanwhile. False: it is not published, and this throws.
   */
  finish(result: SessionResultFiles, end: FinishedRecord | null, passOn?: Promise<boolean>): Promise<void>;
  /** Bookkeeping for `govflow status`, written off the hot path; may lag. */
  writeManifest(manifest: SessionManifest): void;
  /** Releases the session; resolves with the error of a failed manifest write, else null. */
  close(): Promise<Error | null>;
}

export interface SessionStore {
  /** True when this daemon may open the session: on Postgres, only one whose lease it holds. */
  exists(sessionId: string): boolean;
  create(record: SessionRecord): Promise<StoredSession>;
  /** Opens a session for a reply or recovery, with its records in order. */
  open(sessionId: string): Promise<{ session: StoredSession; records: JournalRecord[] }>;
  /**
   * The audit entries of `sessionId` logged from `sinceIso` on (crash recovery). `from` is the
   * session record's `audit_from` (null in older journals); left out for a claimed request whose
   * session never started, the store bounds it by where the run that claimed it began.
   */
  auditedMessages(sessionId: string, sinceIso: string, from?: AuditPosition | null): Promise<AuditedMessages>;
  /** Keeps the exact system prompt sent to a model, once per SHA-256 (exchange records name it by it). */
  keepPrompt(sha256: string, text: string): void;
  /** Reads any session's records, without opening it (a fork reads its original); throws when it has none. */
  records(sessionId: string): Promise<JournalRecord[]>;
  /**
   * The bytes of an attachment the store keeps (cluster mode: any daemon may run the session);
   * absent on stores that keep none (files: the request folder and the workspace hold them).
   */
  readAttachment?(sessionId: string, file: string, signal: AbortSignal): AsyncIterable<Uint8Array>;
  /**
   * A session's PII vault as the store keeps it (cluster mode: sealed in the store, so any daemon
   * keeps its placeholders); absent on stores whose sessions keep it in their folder (files).
   */
  openVault?(sessionId: string): Promise<SessionVault>;
}
