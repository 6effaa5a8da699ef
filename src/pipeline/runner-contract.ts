/** What the session runner needs from the world and gives back, and the errors callers act on. */
import type { GovflowConfig } from '../config/config-loader.js';
import { GovflowError, type GovflowErrorOptions } from '../errors.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import type { LlmProvider } from '../llm/provider.js';
import type { SentientMessage } from '../message/sentient-message.js';
import type { ResultDocument, ResultStatus } from './session-result.js';
import type { SessionStore } from '../store/session-store.js';
import type { SessionEvents } from './session-events.js';
import type { OperationalLog } from '../log-contract.js';
import type { ToolBox } from '../tools/tool-box.js';
import type { PiiCounts } from '../privacy/pii-redactor.js';
import type { DelegatedFrom } from '../store/session-journal.js';
import type { HandoffRequest } from './delegation-envelope.js';
import type { CancelOrder, ControlOrder } from './run-controls.js';
import type { AttachmentInfo } from '../store/attachment-records.js';
import type { SessionNotice } from '../notify/webhook-events.js';
import type { ChatOrder } from './chat-turn.js';
import type { UserSpend } from '../store/user-spend.js';
import type { RequestLimits } from '../intake/request-limits.js';

export interface RunnerDependencies {
  config: GovflowConfig;
  /** The governance snapshot for the next step of `sessionId` (hot reload swaps it; a cluster pins it). */
  governance: (sessionId?: string) => GovernanceSnapshot;
  provider: LlmProvider;
  /** Every durable effect of a session (journal, audit entries, results): the store seam. */
  store: SessionStore;
  /** Names a message gives in audit.governance_files_consulted that were not in its prompt. */
  complianceViolations: (message: SentientMessage, filesInPrompt: string[]) => string[];
  /** USD for one call's usage. */
  costUsd: (model: string, usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number }) => number;
  now?: () => Date;
  log?: OperationalLog;
  /** Live events for listeners (HTTP stream, tracing, metrics); none when absent. */
  events?: SessionEvents;
  /** Tools agents may be offered (README "Give an agent tools"); without it, agents that name tools get none. */
  tools?: ToolBox;
  /**
   * Webhooks (docs/webhooks.md): queues a session end's or pause's events durably, held until the
   * returned function is called once the end is durable. Never rejects. None: nothing is told.
   */
  notices?: (notice: SessionNotice) => Promise<() => void>;
  /** Daily spend per user (limits.user_daily_usd); none: no daily budgets. */
  spend?: UserSpend;
}

export interface NewSessionRequest {
  requestId: string;
  sessionId?: string | null;
  text: string;
  user?: string | null;
  metadata?: Record<string, unknown> | null;
  /** The request's own limits (SPEC §25), checked against the configured ones by the intake. */
  limits?: RequestLimits;
  sourceFile: string;
  /** The claimed request file, archived when the session ends (null: leave the file alone). */
  claimedPath: string | null;
  /** Set when recovery starts this session over (journal lost): its audit entries from then on are voided first. */
  recoveredSince?: string;
  /** The agent the session starts at (default: the entry agent); set for delegated children. */
  entryAgent?: string;
  /** Set when a `delegate` tool call starts this session (README "Delegation"). */
  delegation?: DelegatedFrom;
  /** With `delegation`: the call's context hints and handoff data, redacted and appended to the request text. */
  handoff?: HandoffRequest;
  /** A cancel that came while the request was queued: the session is made and ends cancelled, no step runs. */
  cancel?: CancelOrder;
  /** Set when a fork, retry or re-run makes this session (docs/run-control.md). */
  fork?: ForkOrder;
  /** The request's attachments (docs/attachments.md), copied into the workspace before the first step. */
  attachments?: RequestAttachments;
  /** Set for a chat message's turn (docs/http-api.md "Chat"): its conversation, context and history. */
  chat?: ChatOrder;
  /** PII the intake took out of `text` and `metadata` already (cluster mode), counted on the first message. */
  piiCounts?: PiiCounts;
}

/** A fork, retry or re-run as the runner applies it; `ForkOrder` of a session whose messages it reuses. */
export interface ForkOrder extends ControlOrder {
  action: 'fork' | 'retry' | 'rerun';
  ofSession: string;
  /** The first message run anew (1 … the original's last sequence + 1). */
  from: number;
}

/** Where a new session's attachments come from. */
export interface RequestAttachments {
  files: AttachmentInfo[];
  /** The request folder holding them as delivered; null: the store keeps them (cluster mode). */
  folder: string | null;
  /** The request file in `folder` (`request.txt`, …), redacted in place like a request file. */
  requestFile?: string;
}

export interface SessionOutcome {
  sessionId: string;
  requestId: string;
  status: ResultStatus;
  result: ResultDocument;
}

/** Thrown when a run stops because of shutdown: the journal is consistent, recovery continues it. */
export class SessionInterruptedError extends GovflowError {
  override readonly name = 'SessionInterruptedError';
  constructor(message: string, options?: GovflowErrorOptions) {
    super('interrupted', message, { retryable: true, ...options });
  }
}

/** A control that cannot apply (unknown session, a cancel of an ended one, `from` out of range): its file goes to failed/. */
export class ControlRejectedError extends GovflowError {
  override readonly name = 'ControlRejectedError';
  constructor(message: string, options?: GovflowErrorOptions) {
    super('request', message, options);
  }
}

/** A reply that cannot be applied (unknown session, not paused): the reply file goes to failed/. */
export class ReplyRejectedError extends GovflowError {
  override readonly name = 'ReplyRejectedError';
  constructor(message: string, options?: GovflowErrorOptions) {
    super('request', message, options);
  }
}
