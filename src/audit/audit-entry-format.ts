/**
 * One audit entry as text and its hash: the layout in docs/audit-log.md, line for line. The
 * writer, the reader and `verify` all go through this file, so the layout is defined exactly once.
 */
import { zonedParts } from '../message/zoned-time.js';
import { sha256Hex } from '../sha256-hex.js';
import { AuditWriteError } from './audit-errors.js';
import { formatToolAuditLines } from './tool-audit-lines.js';
import type { AuditEntryInput } from '../store/session-store.js';
import { attachmentList } from '../store/attachment-records.js';
import { AUDIT_FORMAT_VERSION, encodeJson, escapeCode, escapeNullableText, escapeText } from './audit-line-encoding.js';

/** `previousHash` of the very first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** The day file's `YYYYMMDD` and the TIMESTAMP of `executedAt` in `timezone`, from one conversion so that they never disagree. */
export function localDayAndTime(executedAt: string, timezone: string): { day: string; time: string } {
  const instant = new Date(executedAt);
  if (Number.isNaN(instant.getTime())) {
    throw new AuditWriteError(
      `timestamp.executed_at "${executedAt}" is not a date; the orchestrator must stamp ISO 8601 with an offset`,
      undefined,
      undefined,
    );
  }
  const { year, month, day, hour, minute, second } = zonedParts(instant, timezone);
  const pad = (value: number) => String(value).padStart(2, '0');
  return {
    day: `${String(year).padStart(4, '0')}${pad(month)}${pad(day)}`,
    time: `${pad(hour)}:${pad(minute)}:${pad(second)}`,
  };
}

/** All lines of an entry before `[ENTRY_HASH: …]`; `timezone` is the configured zone, not the message's own label. */
export function formatEntryBody(input: AuditEntryInput, timezone: string): string {
  const { message } = input;
  const { time } = localDayAndTime(message.timestamp.executed_at, timezone);
  const content = message.input.content;
  const inputIsText = typeof content === 'string';
  const lines: string[] = [
    `[TIMESTAMP: ${time}]`,
    `[AGENT: ${escapeText(message.agent.name)}]`,
    `[INPUT SOURCE: ${escapeText(message.input.source)}]`,
    `[INPUT]: ${inputIsText ? escapeText(content) : encodeJson(content)}`,
    `[OUTPUT TYPE: ${escapeText(message.output.content_type)}]`,
    `[STATUS: ${escapeCode(message.status.code)}] ${escapeText(message.status.message)}`,
  ];
  const error = message.error;
  if (error.has_error) {
    const code = error.error_code === null ? escapeNullableText(null) : escapeCode(error.error_code);
    lines.push(
      `[ERROR: ${code}] ${escapeNullableText(error.error_message)} ` +
        `(retry_count=${encodeJson(error.retry_count)}, recoverable=${error.recoverable ? 'true' : 'false'})`,
    );
  }
  lines.push(
    `[COMPLIANCE NOTES]: ${escapeNullableText(message.audit.compliance_notes)}`,
    `[GOVERNANCE FILES]: ${encodeJson(message.audit.governance_files_consulted)}`,
    `[MESSAGE_ID: ${escapeText(message.message_id)}]`,
    `[SESSION_ID: ${escapeText(message.metadata.session_id)}]`,
    ...(input.user === undefined || input.user === null ? [] : [`[USER: ${escapeText(input.user)}]`]),
    `[AUDIT_FORMAT: ${AUDIT_FORMAT_VERSION}]`,
    `[REQUEST_ID: ${escapeText(message.metadata.request_id)}]`,
    // An operator's entry is not a message: it has no sequence number (docs/run-control.md).
    ...(input.control ? [] : [`[SEQUENCE: ${encodeJson(message.metadata.sequence_number)}]`]),
    `[PARENT_MESSAGE_ID: ${escapeNullableText(message.metadata.parent_message_id)}]`,
    `[EXECUTED_AT: ${escapeText(message.timestamp.executed_at)}]`,
  );
  if (!inputIsText) lines.push('[INPUT_ENCODING: json]');
  lines.push(`[GOVERNANCE_VERSION: ${escapeText(input.governanceHash)}]`);
  if (input.corrections.length > 0) lines.push(`[CORRECTIONS]: ${encodeJson(input.corrections)}`);
  if (input.complianceViolations.length > 0) {
    lines.push(`[COMPLIANCE VIOLATIONS]: ${encodeJson(input.complianceViolations)}`);
  }
  if (input.notes.length > 0) lines.push(`[NOTES]: ${encodeJson(input.notes)}`);
  if (input.piiRedacted && Object.keys(input.piiRedacted).length > 0)
    lines.push(`[PII_REDACTED]: ${encodeJson(input.piiRedacted)}`);
  if (input.guardrails && input.guardrails.length > 0) lines.push(`[GUARDRAILS]: ${encodeJson(input.guardrails)}`);
  if (input.delegation)
    lines.push(
      `[PARENT_SESSION_ID: ${escapeText(input.delegation.parentSessionId)}]`,
      `[DEPTH: ${encodeJson(input.delegation.depth)}]`,
    );
  if (input.handoff) lines.push(`[HANDOFF]: ${encodeJson(input.handoff)}`);
  if (input.attachments && input.attachments.length > 0)
    lines.push(`[ATTACHMENTS]: ${encodeJson(attachmentList(input.attachments))}`);
  if (input.chatContext)
    lines.push(
      `[CHAT_CONTEXT]: ${encodeJson({ type: input.chatContext.type, sha256: input.chatContext.sha256, bytes: input.chatContext.bytes })}`,
    );
  lines.push(...formatToolAuditLines(input.tools));
  if (input.control) lines.push(`[CONTROL]: ${encodeJson(input.control)}`);
  if (input.forkedFrom) lines.push(`[FORKED_FROM: ${escapeText(input.forkedFrom)}]`);
  if (input.stewardAdvice) lines.push(`[STEWARD_ADVICE: ${escapeText(input.stewardAdvice)}]`);
  if (input.limits) lines.push(`[LIMITS]: ${encodeJson(input.limits)}`);
  if (input.notRepeated && input.notRepeated.length > 0) lines.push(`[NOT_REPEATED]: ${encodeJson(input.notRepeated)}`);
  if (input.reasoning)
    lines.push(`[REASONING]: ${encodeJson({ chars: input.reasoning.chars, sha256: input.reasoning.sha256 })}`);
  if (input.route) {
    const { index, when, to, errors } = input.route;
    lines.push(`[ROUTE]: ${encodeJson({ index, when, to, ...(errors?.length ? { errors } : {}) })}`);
  }
  return lines.join('\n') + '\n';
}

/** The chain rule: SHA-256 over the previous entry's hash + this body; the first entry chains to GENESIS_HASH. */
export function computeEntryHash(previousHash: string, body: string): string {
  return sha256Hex(previousHash + body);
}

/** The two closing lines of an entry. */
export function formatEntryTrailer(hash: string): string {
  return `[ENTRY_HASH: ${hash}]\n---\n`;
}

/** A whole entry, ready to append, with its hash. */
export function formatEntry(
  input: AuditEntryInput,
  timezone: string,
  previousHash: string,
): { text: string; hash: string } {
  const body = formatEntryBody(input, timezone);
  const hash = computeEntryHash(previousHash, body);
  return { text: body + formatEntryTrailer(hash), hash };
}
