/**
 * One audit entry as text (docs/audit-log.md) and its hash. The writer, the reader and `verify` all go
 * through this file, so the layout is defined exactly once.
 *
 * Layout (every line ends in "\n"):
 *
 *     [TIMESTAMP: HH:mm:ss]                executed_at in the configured IANA zone
 *     [AGENT: <agent.name>]
 *     [INPUT SOURCE: <input.source>]
 *     [INPUT]: <input.content>             text, or compact JSON when not a string
 *     [OUTPUT TYPE: <output.content_type>]
 *     [STATUS: <code>] <status.message>
 *     [ERROR: <code>] <message> (retry_count=N, recoverable=true|false)   only if has_error
 *     [COMPLIANCE NOTES]: <notes>          `\N` when null
 *     [GOVERNANCE FILES]: <JSON array>     `null` when null
 *     [MESSAGE_ID: <id>]
 *     [SESSION_ID: <id>]
 *     [USER: <user>]                       who asked (docs/http-api.md); `local` for file drops without one
 *     [AUDIT_FORMAT: 1]                    our lines from here on
 *     [REQUEST_ID: <id>]
 *     [SEQUENCE: <n>]
 *     [PARENT_MESSAGE_ID: <id>]            `\N` when null
 *     [EXECUTED_AT: <executed_at as the message states it>]
 *     [INPUT_ENCODING: json]               only when INPUT is JSON rather than text
 *     [GOVERNANCE_VERSION: <hash>]
 *     [CORRECTIONS]: <JSON array>          only if non-empty
 *     [COMPLIANCE VIOLATIONS]: <JSON array>  only if non-empty
 *     [NOTES]: <JSON array>                only if non-empty
 *     [PII_REDACTED]: <JSON object>        only if PII was replaced (README "Privacy and guardrails"), e.g. {"email":2}
 *     [GUARDRAILS]: <JSON array>           only if a guardrail fired: [{"rule","action"}]
 *     [PARENT_SESSION_ID: <id>]            only on a delegated child session's entries (README "Delegation")
 *     [DEPTH: <n>]                         with PARENT_SESSION_ID: 1 for a child of the user's session
 *     [TOOL_CALLS] [VIOLATIONS] [APPROVALS] [EVIDENCE] [DELEGATIONS]   see tool-audit-lines.ts
 *     [ENTRY_HASH: <64 hex>]
 *     ---
 *
 * The "body" is every line before ENTRY_HASH. ENTRY_HASH = hex SHA-256 of the UTF-8 bytes of
 * (previous entry's ENTRY_HASH + body); the first entry ever chains to 64 zeros. The chain runs
 * across day files, so deleting, editing or reordering any entry breaks it.
 */
import { zonedParts } from '../message/zoned-time.js';
import type { SentientMessage } from '../message/sentient-message.js';
import { sha256Hex } from '../sha256-hex.js';
import { AuditWriteError } from './audit-errors.js';
import { formatToolAuditLines, type ToolAuditLines } from './tool-audit-lines.js';
import {
  AUDIT_FORMAT_VERSION,
  encodeJson,
  escapeCode,
  escapeNullableText,
  escapeText,
} from './audit-line-encoding.js';

/** `previousHash` of the very first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** What the writer is given for one message. */
export interface AuditEntryInput {
  message: SentientMessage;
  /** Hash of the governance files the step ran under (`[GOVERNANCE_VERSION: …]`). */
  governanceHash: string;
  /** What the orchestrator corrected in the LLM's message (README "Write an agent"). */
  corrections: string[];
  /** From {@link complianceViolations}. */
  complianceViolations: string[];
  /** Anything else worth recording (dry run, replayed after a crash, …). */
  notes: string[];
  /** Occurrences of PII replaced for this message, by kind (README "Privacy and guardrails"). */
  piiRedacted?: Record<string, number> | null;
  /** Guardrails that fired on this message (README "Privacy and guardrails"). */
  guardrails?: ReadonlyArray<{ rule: string; action: string }> | null;
  /** The session's user (`[USER: …]`, docs/audit-log.md); the line is left out when absent (entries before users existed). */
  user?: string | null;
  /** Tool calls, tool violations, approvals and evidence (README "Give an agent tools"). */
  tools?: ToolAuditLines;
  /** Set on the entries of a delegated child session (README "Delegation"). */
  delegation?: { parentSessionId: string; depth: number } | null;
}

/**
 * The day (`YYYYMMDD`, the day file's stem) and time (`HH:mm:ss`, the TIMESTAMP) of `executedAt`
 * in `timezone`, from a single conversion so that an entry's TIMESTAMP and the file it lands in
 * can never disagree. DST days need no special case: the IANA zone data decides the wall clock.
 */
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
  return { day: `${String(year).padStart(4, '0')}${pad(month)}${pad(day)}`, time: `${pad(hour)}:${pad(minute)}:${pad(second)}` };
}

/**
 * All lines of an entry before `[ENTRY_HASH: …]`, each ending in "\n". `timezone` is the
 * configured IANA zone (not the message's own `timestamp.timezone` label).
 */
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
    `[SEQUENCE: ${encodeJson(message.metadata.sequence_number)}]`,
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
  if (input.piiRedacted && Object.keys(input.piiRedacted).length > 0) lines.push(`[PII_REDACTED]: ${encodeJson(input.piiRedacted)}`);
  if (input.guardrails && input.guardrails.length > 0) lines.push(`[GUARDRAILS]: ${encodeJson(input.guardrails)}`);
  if (input.delegation) lines.push(`[PARENT_SESSION_ID: ${escapeText(input.delegation.parentSessionId)}]`, `[DEPTH: ${encodeJson(input.delegation.depth)}]`);
  lines.push(...formatToolAuditLines(input.tools));
  return lines.join('\n') + '\n';
}

/** SHA-256 hex over `previousHash + body` (UTF-8). */
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
