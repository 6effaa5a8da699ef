/** The journal record of a tool call that waits for a person's approval (docs/tools.md "Approvals"). */
import { argumentsSha256 } from '../message/canonical-json.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import type { ApprovalRequestRecord, JournaledToolCall } from '../store/tool-journal-records.js';

/** Longest input shown in an approval question. */
const QUESTION_INPUT_CHARS = 2000;

/**
 * The approval request of `call`: its question names the call, its arguments' SHA-256 and the reply
 * that answers it; `interrupted`: it was approved and started before a stop, its end unknown (SPEC §15).
 */
export function approvalRequest(
  sessionId: string,
  step: string,
  agent: string,
  call: JournaledToolCall,
  interrupted: boolean,
  at: Date,
): ApprovalRequestRecord {
  let input = JSON.stringify(call.input) ?? 'null';
  if (input.length > QUESTION_INPUT_CHARS)
    input = `${input.slice(0, QUESTION_INPUT_CHARS)}… (${input.length} characters)`;
  const argsSha256 = argumentsSha256(call.input);
  const again = interrupted
    ? ' It was approved and started before, but the session stopped before its result was recorded: it may or may not have run.'
    : '';
  const question =
    `${agent} wants to call ${call.name} with input ${input} (call_id ${call.id}, args_sha256 ${argsSha256}).${again} Approve it? ` +
    `Reply with {"session_id": "${sessionId}", "call_id": "${call.id}", "args_sha256": "${argsSha256}", "approve": ` +
    `true} or "approve": false, with an optional "reason".`;
  return {
    v: JOURNAL_FORMAT,
    type: 'approval_request',
    agent,
    step,
    call_id: call.id,
    tool: call.name,
    input: call.input,
    args_sha256: argsSha256,
    question,
    at: at.toISOString(),
  };
}
