/**
 * The result of a session (docs/results.md): `system/outbox/<request_id>.json`, written atomically, next
 * to a human-readable `<request_id>.md` report.
 */
import { isoInTimeZone } from '../message/zoned-time.js';
import type { SessionState } from './session-state.js';
import { describeControl } from './operator-entry.js';
import type { Lineage } from '../store/session-journal.js';
import { attachmentList, type AttachmentInfo } from '../store/attachment-records.js';
import type { AgentDefinition } from '../governance/agent-definition.js';
import { resultAnswer } from './result-answer.js';
import { interventionOf, type InterventionInfo } from './steward-summary.js';

/** Version of the result document. */
export const RESULT_FORMAT = 1 as const;

export type ResultStatus =
  'success' | 'partial' | 'failed' | 'pending' | 'cancelled' | 'intervention_required' | 'halted_cost' | 'halted_time';

export interface ResultDocument {
  format: typeof RESULT_FORMAT;
  request_id: string;
  session_id: string;
  source_file: string;
  status: ResultStatus;
  output: unknown;
  message: string;
  /** The text meant for the person (result-answer.ts). */
  answer: string;
  /** The chat conversation the session is a turn of (docs/http-api.md "Chat"); a session outside a chat is its own, turn 0. */
  conversation_id: string;
  conversation_turn: number;
  error: Record<string, unknown> | null;
  messages: number;
  started_at: string;
  finished_at: string;
  usage: { input_tokens: number; output_tokens: number; cost_usd: number };
  /** Present while a tool call waits for a person's approval (README "Give an agent tools"). */
  awaiting?: 'approval';
  /** The call an approval decides (docs/results.md): a reply names its `call_id` and `args_sha256`. */
  approval?: { call_id: string; tool: string; args_sha256: string };
  /** A cancelled session's cancel (docs/run-control.md). */
  control?: { action: 'cancel'; by: string; reason: string | null; at: string };
  /** A session made by fork, retry or re-run: where it comes from (docs/run-control.md). */
  lineage?: Lineage;
  /** A session waiting for a steward's decision on a failed message (docs/run-control.md). */
  intervention?: InterventionInfo;
  /** The request's attachments (docs/attachments.md), as its first audit entry lists them; absent: none. */
  attachments?: AttachmentInfo[];
}

/** The session's result as it stands: final, or pending while paused. `finishedAt` is any ISO instant; both times are written in the configured zone. */
export function buildResult(
  state: SessionState,
  finishedAt: string,
  timezone: string,
  finalAgent?: AgentDefinition | null,
): ResultDocument {
  const final = state.final?.message;
  const last = state.messages[state.messages.length - 1]?.message;
  const decisive = final ?? last;
  const cancel = state.cancelled;
  const intervention = interventionOf(state);
  const status: ResultStatus = cancel
    ? 'cancelled'
    : intervention
      ? 'intervention_required'
      : state.paused?.awaiting === 'halt'
        ? (`halted_${state.paused.halt ?? 'cost'}` as ResultStatus)
        : state.paused
          ? 'pending'
          : ((final?.status.code as ResultStatus | undefined) ?? 'failed');
  const halted = state.paused?.awaiting === 'halt' && !cancel;
  const error = !cancel && !halted && decisive?.error?.has_error ? { ...decisive.error } : null;
  const lineage = state.session.lineage;
  const message = cancel
    ? describeControl(cancel)
    : state.paused && !intervention
      ? state.paused.question
      : (decisive?.status.message ?? 'the session ended without a message');
  return {
    format: RESULT_FORMAT,
    request_id: state.session.request_id,
    session_id: state.session.session_id,
    source_file: state.session.source_file,
    status,
    output: decisive?.output.content ?? null,
    message,
    answer: cancel
      ? message
      : resultAnswer(final ?? null, intervention ? null : (state.paused?.question ?? null), message, finalAgent, state),
    conversation_id: state.session.chat?.conversation_id ?? state.session.session_id,
    conversation_turn: state.session.chat?.turn ?? 0,
    error,
    messages: state.messages.length,
    started_at: isoInTimeZone(new Date(state.session.created_at), timezone),
    finished_at: isoInTimeZone(new Date(finishedAt), timezone),
    usage: {
      input_tokens: state.usage.input_tokens,
      output_tokens: state.usage.output_tokens,
      cost_usd: Math.round(state.usage.cost_usd * 1e6) / 1e6,
    },
    ...(state.session.attachments && state.session.attachments.files.length > 0
      ? { attachments: attachmentList(state.session.attachments.files) }
      : {}),
    ...(state.paused?.awaiting === 'approval'
      ? {
          awaiting: 'approval' as const,
          approval: {
            call_id: state.paused.callId ?? '',
            tool: state.paused.tool ?? '',
            args_sha256: state.paused.argsSha256 ?? '',
          },
        }
      : {}),
    ...(cancel
      ? {
          control: {
            action: 'cancel' as const,
            by: cancel.by,
            reason: cancel.reason,
            at: isoInTimeZone(new Date(cancel.at), timezone),
          },
        }
      : {}),
    ...(lineage ? { lineage: { ...lineage } } : {}),
    ...(intervention ? { intervention } : {}),
  };
}
