/**
 * What the session runner needs from the world and what it gives back: the interfaces its
 * adapters implement (audit sink, operational log), its dependencies, requests and outcomes, and
 * the errors callers act on.
 */
import type { GovflowConfig } from '../config/config-loader.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import type { LlmProvider } from '../llm/provider.js';
import type { SentientMessage } from '../message/sentient-message.js';
import type { ResultDocument, ResultStatus } from './session-result.js';
import type { EntryMaker } from '../store/spare-entries.js';
import type { SessionEvents } from './session-events.js';

/** What the audit trail receives for every committed message. */
export interface AuditRecordInput {
  message: SentientMessage;
  governanceHash: string;
  corrections: string[];
  complianceViolations: string[];
  notes: string[];
  /** The session's user, written as `[USER: …]` (SPEC §11). */
  user?: string | null;
}

export interface AuditSink {
  /** Appends durably; resolves with the entry's hash where the sink knows it. */
  append(input: AuditRecordInput): Promise<{ hash?: string } | unknown>;
}

export interface OperationalLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface RunnerDependencies {
  config: GovflowConfig;
  /** The governance snapshot for the next step (hot reload swaps it). */
  governance: () => GovernanceSnapshot;
  provider: LlmProvider;
  audit: AuditSink;
  /** Names a message gives in audit.governance_files_consulted that were not in its prompt. */
  complianceViolations: (message: SentientMessage, filesInPrompt: string[]) => string[];
  /** USD for one call's usage. */
  costUsd: (model: string, usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number }) => number;
  /** The session's messages already in the audit log from `sinceIso` on, by id (crash recovery). */
  auditedMessages: (sessionId: string, sinceIso: string) => Promise<Map<string, { sequence: number; agent: string }>>;
  now?: () => Date;
  log?: OperationalLog;
  /** Where session folders and files come from (spares made ahead of need); plain creation when absent. */
  entries?: EntryMaker;
  /** Live events for listeners (HTTP stream, tracing, metrics); none when absent. */
  events?: SessionEvents;
}

export interface NewSessionRequest {
  requestId: string;
  sessionId?: string | null;
  text: string;
  user?: string | null;
  metadata?: Record<string, unknown> | null;
  sourceFile: string;
  /** The claimed request file, archived when the session ends (null: leave the file alone). */
  claimedPath: string | null;
  /**
   * Set when crash recovery starts this session over (its journal was lost): audit entries the
   * session id already has from this instant on are voided before it runs.
   */
  recoveredSince?: string;
}

export interface SessionOutcome {
  sessionId: string;
  requestId: string;
  status: ResultStatus;
  result: ResultDocument;
}

/** Thrown when a run stops because of shutdown: the journal is consistent, recovery continues it. */
export class SessionInterruptedError extends Error {
  override readonly name = 'SessionInterruptedError';
}

/** A reply that cannot be applied (unknown session, not paused): the reply file goes to failed/. */
export class ReplyRejectedError extends Error {
  override readonly name = 'ReplyRejectedError';
}
