/**
 * The journal of one session, `system/sessions/<id>/journal.jsonl`: append-only, versioned records,
 * the truth a session resumes from after a crash; `manifest.json` beside it is a cache for `govflow status`.
 * The records' types; journal-reader.ts reads them back.
 */
import type { NotRepeatedCall, ToolAuditLines, ToolJournalRecord } from './tool-journal-records.js';
import type { JOURNAL_FORMAT } from './journal-format.js';
import type { Plan } from '../message/plan.js';
import type { SentientMessage } from '../message/sentient-message.js';
import type { ChatContextLine, SessionChat } from '../pipeline/chat-turn.js';
import type { AttachmentInfo, SessionAttachments } from './attachment-records.js';
import type { RequestLimits } from '../intake/request-limits.js';

export interface RequestInfo {
  text: string;
  user: string | null;
  metadata: Record<string, unknown> | null;
  /** The request's own limits (SPEC §25; `[LIMITS]` on the session's first entry); absent: none. */
  limits?: RequestLimits;
}

/** The `[ROUTE]` value of an audit entry (SPEC §24); `index` null when no route matched but a `when` failed. */
export interface RouteDecision {
  index: number | null;
  when: string | null;
  to: string | null;
  errors?: Array<{ index: number; message: string }>;
}

/** `[REASONING]`: the accepted attempt's reasoning, all sources joined by a newline; `chars` in code points. */
export interface ReasoningDigest {
  chars: number;
  sha256: string;
}

export interface SessionRecord {
  v: typeof JOURNAL_FORMAT;
  type: 'session';
  session_id: string;
  request_id: string;
  request: RequestInfo;
  source_file: string;
  claimed_path: string | null;
  created_at: string;
  /** The agent that receives the request (the entry agent when the session was created). */
  entry_agent: string;
  /** Set on a child session started by a `delegate` tool call. */
  delegation?: DelegatedFrom;
  /** Where the audit log stood at creation: crash recovery reads the log from here (files store; absent in older journals). */
  audit_from?: AuditPosition;
  /** Set on a session made by fork, retry or re-run (docs/run-control.md): where it comes from. */
  lineage?: Lineage;
  /** With `lineage`: the rest of the operator's act, so a fork a crash cut short goes on from the journal. */
  fork?: { control_id: string; claimed_by: string | null; claimed_at: string; source_file: string };
  /** The request's attachments (docs/attachments.md), copied into the workspace before the first step; absent: none. */
  attachments?: SessionAttachments;
  /** A chat message's turn (docs/http-api.md "Chat"): conversation, turn, context and history, PII redacted. */
  chat?: SessionChat;
}

/** A forked session's origin, as its result's `lineage` shows it (docs/run-control.md). */
export interface Lineage {
  action: 'fork' | 'retry' | 'rerun';
  of_session: string;
  of_request: string;
  /** The first message run anew (messages 1 … from−1 are reused). */
  from: number;
  by: string;
  reason: string | null;
}

/** A point in the audit log: a day file (`YYYYMMDD.log`) and a byte offset in it where an entry ends. */
export interface AuditPosition {
  file: string;
  bytes: number;
}

/** Where a child session comes from and the limits it runs under. */
export interface DelegatedFrom {
  parent_session_id: string;
  /** The user's session at the top of the tree; depth 1 is its child. */
  root_session_id: string;
  depth: number;
  call_id: string;
  /** Cycle keys (`origin>target#objective_sha256`) of this delegation and its ancestors. */
  lineage: string[];
  /** The child is stopped and fails at this instant (limits.delegation_deadline_ms). */
  deadline_at: string;
  /** Tokens the child may use (limits.max_tokens_per_delegation); null: no budget of its own. */
  max_tokens: number | null;
  /** The delegate call's own `constraints`, which tightened `deadline_at` or `max_tokens` (absent: none given). */
  constraints?: DelegationConstraints;
  /** What the delegate call handed over, as the child got it (`[HANDOFF]` on its first entry; absent in older journals). */
  handoff?: HandoffLine;
}

/** A delegate call's `constraints`: each at most the configured limit. */
export interface DelegationConstraints {
  max_tokens?: number;
  deadline_ms?: number;
}

/** The `[HANDOFF]` line: the context hints and the SHA-256 of the handoff data's canonical JSON (RFC 8785), as the child got them. */
export interface HandoffLine {
  context_hints: string[];
  handoff_data_sha256: string | null;
}

export interface UsageFigures {
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  cost_usd: number;
}

export interface ExchangeRecord {
  v: typeof JOURNAL_FORMAT;
  type: 'exchange';
  agent: string;
  step: string;
  attempt: number;
  provider: string;
  model: string;
  temperature: number | null;
  max_tokens: number | null;
  /** The exact system prompt is system/snapshots/prompts/<system_sha256>.md (PromptStore). */
  system_sha256: string;
  prompt: string;
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
  response: string | null;
  error: string | null;
  usage: UsageFigures;
  duration_ms: number;
  at: string;
  /**
   * What happened to the call's connections, when anything did: a kept-alive connection the server
   * had closed before the request was written, replaced by a new one (src/llm/node-http-fetch.ts).
   */
  connection?: string[];
  /** The provider's reasoning for this answer (SPEC §24); absent when it sent none. */
  reasoning?: string;
}

export type StepKind = 'chain' | 'task' | 'limit';

export interface MessageRecord {
  v: typeof JOURNAL_FORMAT;
  type: 'message';
  kind: StepKind;
  message: SentientMessage;
  task_id: string | null;
  plan_message_id: string | null;
  loop_key: string;
  governance_hash: string;
  corrections: string[];
  violations: string[];
  notes: string[];
  /** The model's last raw output when the orchestrator recorded a fallback instead. */
  raw_output: string | null;
  /** The orchestrator ended the session (limits): no on_failure routing. */
  final: boolean;
  /** The session state such an end leaves (HALTED_TIME, HALTED_COST, …); absent in older records. */
  halt?: SessionStateName | null;
  /** The validated plan, for `plan: true` agents that succeeded. */
  plan: Plan | null;
  /** Where a failed status goes (the agent's on_failure when this was committed). */
  on_failure: string | null;
  /** These three are absent in older records. */
  pii_redacted?: Record<string, number> | null;
  guardrails?: Array<{ rule: string; action: string }> | null;
  tools?: ToolAuditLines;
  /** A message a fork reused from its original, with no model call (docs/run-control.md). */
  reused?: { session_id: string; message_id: string; entry_hash: string };
  /** On a fork's first message run anew: the outside calls of the reused steps it did not repeat. */
  not_repeated?: NotRepeatedCall[];
  /** On the session's first message: its request's attachments (`[ATTACHMENTS]` on its audit entry). */
  attachments?: AttachmentInfo[];
  /** On a delegated child's first entry: what its parent handed over (`[HANDOFF]`). */
  handoff?: HandoffLine;
  /** On a chat turn's first message: its context's type, SHA-256 and size (`[CHAT_CONTEXT]` on its audit entry). */
  chat_context?: ChatContextLine;
  /** The route its agent's `routes` decided (SPEC §24; `[ROUTE]` on its audit entry); absent: none applied. */
  route?: RouteDecision;
  /** Digest of the accepted attempt's reasoning (`[REASONING]` on its audit entry); its text stays in the exchanges. */
  reasoning?: ReasoningDigest;
  /** A step a steward retried with advice (docs/run-control.md): the advice's SHA-256 (`[STEWARD_ADVICE]`). */
  steward_advice?: string;
  /** On the session's first message: its request's own limits (`[LIMITS]` on its audit entry). */
  limits?: RequestLimits;
}

/** What names an operator's control and who sent it, as its record, a queued cancel and a fork's request write it. */
export interface ControlFields {
  /** The operator entry's `[MESSAGE_ID]`; made from the claim, so a control applied again after a crash is known. */
  control_id: string;
  /** Who acted: the HTTP token's user, or the control file's owner. */
  by: string;
  /** A `by` the control file claimed: kept, not trusted. */
  claimed_by: string | null;
  reason: string | null;
  /** When the control was claimed: after it, no model or tool call of the session starts. */
  claimed_at: string;
  source_file: string;
}

/**
 * An operator's act on a session (docs/run-control.md): a cancel of this session, or the fork,
 * retry or re-run that made it (then its first record after the session record). It has an audit
 * entry of its own, which is not a message.
 */
export interface ControlRecord extends ControlFields {
  v: typeof JOURNAL_FORMAT;
  type: 'control';
  action: 'cancel' | 'fork' | 'retry' | 'rerun' | 'intervene' | 'halt';
  at: string;
  /** The claimed control file, archived when the session ends; null when it was archived already. */
  claimed_path: string | null;
  governance_hash: string;
  /** A cancel that reached this delegated child through its parent's. */
  via_session?: string;
  /** Fork, retry, re-run: the original, and the first message run anew. */
  of_session?: string;
  of_request?: string;
  from?: number;
  /** How many of the original's records (messages and replies) the fork reuses. */
  reused?: number;
  not_repeated?: NotRepeatedCall[];
  /** A cancel that is a delegated child's first entry: what its parent handed over (`[HANDOFF]`). */
  handoff?: HandoffLine;
  /** A steward's decision on a session waiting for one (docs/run-control.md), with its advice for a retry. */
  decision?: StewardDecision;
  advice?: string | null;
  advice_sha256?: string | null;
  /** continue: the session's new totals (`limits` of the decision), and whether one is above its configured value (admins only). */
  limits?: { cost_usd?: number; time_minutes?: number } | null;
  beyond_configured?: boolean;
  /** A halt (`reason`: cost or time): what would have been crossed, before which call. */
  detail?: string;
}

/** What a steward decides for a session waiting in `intervention_required` (docs/run-control.md). */
export type StewardDecision = 'retry' | 'fail' | 'continue';

export interface ReplyRecord {
  v: typeof JOURNAL_FORMAT;
  type: 'reply';
  reply: string;
  source_file: string;
  claimed_path: string | null;
  at: string;
  /** A reply a fork reused from its original (docs/run-control.md). */
  reused?: true;
}

/**
 * An audit entry whose message record power loss took from the journal (the journal is synced at
 * the end of a session, the audit log at every message). The entry stays in the log; its step runs
 * again with the next sequence number, and the message that replaces it says so in its notes.
 */
export interface VoidRecord {
  v: typeof JOURNAL_FORMAT;
  type: 'void';
  message_id: string;
  sequence: number;
  agent: string;
  at: string;
}

export interface FinishedRecord {
  v: typeof JOURNAL_FORMAT;
  type: 'finished';
  status: string;
  at: string;
}

/** A step failed with an unexpected internal error; counted here so restarts count toward `limits.max_crash_retries` too. */
export interface CrashRecord {
  v: typeof JOURNAL_FORMAT;
  type: 'crash';
  /** The error's message (never a stack: journals are read by auditors). */
  error: string;
  at: string;
}

export type JournalRecord =
  | SessionRecord
  | ExchangeRecord
  | MessageRecord
  | ReplyRecord
  | VoidRecord
  | FinishedRecord
  | CrashRecord
  | ControlRecord
  | ToolJournalRecord;

/** Seed 001's job states. */
export type SessionStateName =
  | 'PENDING'
  | 'RUNNING'
  | 'PAUSED'
  | 'INTERVENTION_REQUIRED'
  | 'SUCCESS'
  | 'PARTIAL'
  | 'FAILED'
  | 'HALTED_COST'
  | 'HALTED_TIME'
  | 'CANCELLED';

export interface SessionManifest {
  v: typeof JOURNAL_FORMAT;
  session_id: string;
  request_id: string;
  state: SessionStateName;
  current_agent: string | null;
  /** The agent of the last message (what a finished session ended on); absent in manifests written before it was added. */
  last_agent?: string | null;
  source_file: string;
  created_at: string;
  updated_at: string;
  messages: number;
  usage: UsageFigures;
  /** Wall time from creation to this update, and the part of it spent in model calls. */
  elapsed_ms: number;
  model_time_ms: number;
  governance_hash: string | null;
  question: string | null;
  /** True while the session waits for a steward at a halt (SPEC §25): `state` HALTED_* is then a pause, not an end. */
  waiting?: boolean;
}
