/**
 * Journal records of the tool loop, folded by src/pipeline/session-state.ts like every other: a
 * model turn's calls (written before any runs), each result (before the next turn), approvals.
 * A call whose result is journaled is never run again.
 */
import type { JOURNAL_FORMAT } from './journal-format.js';

/** The lines an acting agent's audit entry adds after its own (src/audit/tool-audit-lines.ts writes them). */
export interface ToolAuditLines {
  /** run_command calls add what ran: argv, exit code (null: killed) and the sha256 of all its output. */
  toolCalls?: Array<{
    id: string;
    name: string;
    is_error: boolean;
    ms: number;
    argv?: string[];
    exit_code?: number | null;
    output_sha256?: string;
    sandbox?: 'none';
  }>;
  violations?: Array<{ kind: string; detail: string }>;
  approvals?: Array<{
    call_id: string;
    tool: string;
    approve: boolean;
    user: string | null;
    /** A `user` the reply file claimed: kept, not trusted. */
    claimed_user?: string;
    at: string;
    reason: string | null;
    args_sha256?: string;
    executed_args_match?: boolean;
  }>;
  evidence?: Array<{ path: string; sha256: string; bytes: number }>;
  delegations?: Array<{
    child_session: string | null;
    agent: string;
    objective_sha256: string;
    status: string;
    ms: number;
  }>;
}

/** A tool call with effects outside the workspace that a fork reused without running it again (docs/run-control.md). */
export interface NotRepeatedCall {
  /** The original session's message (sequence) whose step made the call. */
  sequence: number;
  id: string;
  name: string;
}

/** One tool call as the model made it; `input_error` when its arguments were not JSON. */
export interface JournaledToolCall {
  id: string;
  name: string;
  input: unknown;
  input_error?: string;
}

/** A model turn that called tools. */
export interface ToolTurnRecord {
  v: typeof JOURNAL_FORMAT;
  type: 'tool_turn';
  agent: string;
  /** The step key of exchange records: the sequence number, or `task:<id>`. */
  step: string;
  attempt: number;
  /** Text the model wrote alongside its calls. */
  text: string;
  calls: JournaledToolCall[];
  at: string;
}

/**
 * A call with effects outside the workspace (run_command, http_get, MCP tools) is about to run:
 * durable before it starts, so a resumed session that finds it without a result knows the call
 * may have run and does not run it again (SPEC §15, at most once per approval).
 */
export interface ToolStartRecord {
  v: typeof JOURNAL_FORMAT;
  type: 'tool_start';
  agent: string;
  step: string;
  id: string;
  name: string;
  at: string;
}

/** Why a call was not run. */
export type ToolRefusal =
  'tool_not_allowed' | 'invalid_input' | 'approval_denied' | 'delegation_refused' | 'command_not_allowed';

/** What one run of a command did, for the journal and the audit entry. */
export interface CommandRun {
  argv: string[];
  /** Null when it was killed (see `signal` and `stopped`) or never started. */
  exit_code: number | null;
  signal: string | null;
  ms: number;
  /** SHA-256 of everything it wrote to stdout and stderr, in the order read (also past the cap). */
  output_sha256: string;
  output_bytes: number;
  /** Why govflow ended it, if it did. */
  stopped: 'timeout' | 'output_limit' | null;
  /** Set when it ran without a sandbox (`tools.commands.sandbox: none`); absent: in bubblewrap (docs/tools.md). */
  sandbox?: 'none';
}

export interface ToolResultRecord {
  v: typeof JOURNAL_FORMAT;
  type: 'tool_result';
  agent: string;
  step: string;
  id: string;
  name: string;
  /** What the model was given, cut to `tools.max_result_bytes`. */
  output: string;
  /** The result was longer and was cut; `bytes` is its full size. */
  truncated: boolean;
  bytes: number;
  is_error: boolean;
  /** Set when the call was refused and never ran. */
  refused: ToolRefusal | null;
  /** A `delegate` call's child session; absent on other tools and older records. */
  delegation?: DelegationOutcome;
  /** A file tool that changed the workspace: the file as it was left (a fork rebuilds the workspace from these, docs/run-control.md). */
  wrote?: { path: string; sha256: string; bytes: number };
  /** What a run_command call ran; absent on other tools, on refused calls and on older records. */
  command?: CommandRun;
  ms: number;
  at: string;
}

/** A person approved or denied one call that waited for approval. */
export interface ApprovalRecord {
  v: typeof JOURNAL_FORMAT;
  type: 'approval';
  /** The call it decides (an approval is used once, for this call only). */
  call_id: string;
  tool: string;
  approve: boolean;
  reason: string | null;
  /** Who decided: the HTTP token's user, or the reply file's owner; the optional fields are absent on older records. */
  user: string | null;
  /** A `user` the reply file claimed: kept, not trusted. */
  claimed_user?: string | null;
  args_sha256?: string;
  source_file: string;
  claimed_path: string | null;
  at: string;
}

/** A call is waiting for a person's approval: the session pauses here. */
export interface ApprovalRequestRecord {
  v: typeof JOURNAL_FORMAT;
  type: 'approval_request';
  agent: string;
  step: string;
  call_id: string;
  tool: string;
  input: unknown;
  /** SHA-256 of `input` as canonical JSON, which an approval names (absent on older records). */
  args_sha256?: string;
  question: string;
  at: string;
}

export type ToolJournalRecord =
  ToolTurnRecord | ToolStartRecord | ToolResultRecord | ApprovalRecord | ApprovalRequestRecord;

/** What one `delegate` call did: the `[DELEGATIONS]` entry, and the limit that refused or stopped it. */
export interface DelegationOutcome {
  child_session: string | null;
  agent: string;
  objective_sha256: string;
  /** The child's result status, or `refused`. */
  status: string;
  ms: number;
  /** The origin agent: with `agent` and `objective_sha256` the cycle key. */
  origin: string;
  /** Which limit refused or stopped it (max_depth, max_fan_out, cycle, delegation_deadline_ms, max_tokens_per_delegation), with why. */
  limit?: { name: string; detail: string };
  /** A child that ran: how many files it handed back (copied under `delegations/<child>/`). */
  artifacts?: number;
  /** A child that ran and gave one: its `confidence` (0–100). */
  confidence?: number;
  /** A child that ran: its tokens and cost with its descendants' (a grandparent adds these up). */
  token_usage?: { input_tokens: number; output_tokens: number; cost_usd: number };
}
