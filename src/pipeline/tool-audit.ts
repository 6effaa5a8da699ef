/**
 * The audit lines of a step's tool loop (docs/audit-log.md): its calls (with what a command ran),
 * the refusals that are compliance violations, its delegations and approvals.
 */
import { argumentsSha256 } from '../message/canonical-json.js';
import type { ApprovalRecord, ToolAuditLines, ToolResultRecord } from '../store/tool-journal-records.js';
import type { ToolLoopState } from './session-state.js';

/** The audit lines of a step's tool loop: its calls, refusals and approvals. */
export function toolAuditLines(
  loop: ToolLoopState | undefined,
  approvals: ReadonlyMap<string, ApprovalRecord>,
): ToolAuditLines {
  const journaled = (loop?.turns ?? []).flatMap((turn) =>
    turn.calls
      .map((call) => turn.results.get(call.id))
      .filter((result): result is ToolResultRecord => result !== undefined),
  );
  // One item per call: a repeated id (given its journaled result again) is the call that ran first.
  const results = journaled.filter((result, index) => journaled.findIndex((other) => other.id === result.id) === index);
  const lines: ToolAuditLines = {};
  if (results.length > 0)
    lines.toolCalls = results.map((result) => ({
      id: result.id,
      name: result.name,
      is_error: result.is_error,
      ms: result.ms,
      // What a command ran (docs/claude-code.md): its words, how it ended, and a hash of all its output.
      ...(result.command
        ? {
            argv: result.command.argv,
            exit_code: result.command.exit_code,
            output_sha256: result.command.output_sha256,
            ...(result.command.sandbox ? { sandbox: result.command.sandbox } : {}),
          }
        : {}),
    }));
  const violations = results.flatMap((result) =>
    result.refused === 'tool_not_allowed'
      ? [{ kind: 'tool_not_allowed', detail: result.name }]
      : result.refused === 'command_not_allowed'
        ? [{ kind: 'command_not_allowed', detail: commandOf(loop, result.id) }]
        : [],
  );
  // Delegation (README "Delegation"): each child on [DELEGATIONS]; each limit that refused or stopped one is a violation.
  const delegations = results.flatMap((result) => (result.delegation ? [result.delegation] : []));
  if (delegations.length > 0)
    lines.delegations = delegations.map((item) => ({
      child_session: item.child_session,
      agent: item.agent,
      objective_sha256: item.objective_sha256,
      status: item.status,
      ms: item.ms,
      ...(item.artifacts !== undefined ? { artifacts: item.artifacts } : {}),
      ...(item.confidence !== undefined ? { confidence: item.confidence } : {}),
    }));
  for (const item of delegations)
    if (item.limit)
      violations.push({
        kind: item.status === 'refused' ? 'delegation_refused' : 'delegation_stopped',
        detail: `${item.limit.name}: ${item.limit.detail}`,
      });
  if (violations.length > 0) lines.violations = violations;
  const decided = results.map((result) => approvals.get(result.id)).filter((decision) => decision !== undefined);
  if (decided.length > 0) {
    lines.approvals = decided.map((decision) => {
      const call = loop?.turns.flatMap((turn) => turn.calls).find((candidate) => candidate.id === decision.call_id);
      return {
        call_id: decision.call_id,
        tool: decision.tool,
        approve: decision.approve,
        user: decision.user,
        ...(decision.claimed_user ? { claimed_user: decision.claimed_user } : {}),
        at: decision.at,
        reason: decision.reason,
        ...(decision.args_sha256 !== undefined
          ? {
              args_sha256: decision.args_sha256,
              executed_args_match: call !== undefined && argumentsSha256(call.input) === decision.args_sha256,
            }
          : {}),
      };
    });
  }
  return lines;
}

/** The command a run_command call asked for, as the model wrote it (cut to 500 characters). */
function commandOf(loop: ToolLoopState | undefined, callId: string): string {
  const call = loop?.turns.flatMap((turn) => turn.calls).find((candidate) => candidate.id === callId);
  const command = (call?.input as { command?: unknown } | undefined)?.command;
  const text = typeof command === 'string' ? command : JSON.stringify(call?.input ?? null);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
