/**
 * Reads audit log text back into entries: the inverse of `formatEntryBody` (see the layout in
 * audit-entry-format.ts). Strict on purpose: a line this version did not write makes the entry
 * malformed, so a forged or damaged entry is reported rather than half-read.
 */
import type { ToolAuditLines } from './tool-audit-lines.js';
import { AuditLogFormatError } from './audit-errors.js';
import {
  AUDIT_FORMAT_VERSION,
  ValueDecodeError,
  decodeJson,
  decodeStringArray,
  unescapeNullableText,
  unescapeText,
} from './audit-line-encoding.js';

/** One entry read back: every value unescaped, plus where it sits and its stated hash. */
export interface ParsedAuditEntry {
  /** 1-based line of `[TIMESTAMP: …]`. */
  line: number;
  /** Byte offset of the entry in the text (UTF-8), and its length in bytes. */
  offset: number;
  length: number;
  /** The lines before `[ENTRY_HASH: …]`, exactly as written: what the hash covers. */
  body: string;
  /** The stated `ENTRY_HASH`. */
  hash: string;
  /** `HH:mm:ss` in the configured zone. */
  time: string;
  /** `timestamp.executed_at` exactly as the message stated it. */
  executedAt: string;
  agent: string;
  inputSource: string;
  /** A string when the message's input was a string, otherwise the JSON value. */
  input: unknown;
  outputType: string;
  status: { code: string; message: string };
  /** Null when the message had `error.has_error: false`. */
  error: { code: string | null; message: string | null; retryCount: number; recoverable: boolean } | null;
  complianceNotes: string | null;
  governanceFiles: string[] | null;
  messageId: string;
  sessionId: string;
  /** `[USER: …]`; null on entries written before users existed. */
  user: string | null;
  requestId: string;
  sequence: number;
  parentMessageId: string | null;
  governanceVersion: string;
  corrections: string[];
  complianceViolations: string[];
  notes: string[];
  /** `[PII_REDACTED]`: occurrences replaced by kind (SPEC §12), or null. */
  piiRedacted: Record<string, number> | null;
  /** `[GUARDRAILS]`: the rules that fired and their actions (SPEC §12). */
  guardrails: Array<{ rule: string; action: string }>;
  formatVersion: number;
  /** `[TOOL_CALLS]`, `[VIOLATIONS]`, `[APPROVALS]`, `[EVIDENCE]`, `[DELEGATIONS]` when the entry has them. */
  tools?: ToolAuditLines;
  /** `[PARENT_SESSION_ID]` and `[DEPTH]` of a delegated child session's entry (SPEC §12), else null. */
  delegation: { parentSessionId: string; depth: number } | null;
}

/** Text after the last complete entry: a write cut short by a crash (or a truncation). */
export interface TornTail {
  line: number;
  offset: number;
  length: number;
  text: string;
}

export interface ParsedEntries {
  entries: ParsedAuditEntry[];
  torn: TornTail | null;
}

/** An entry's raw lines, before interpretation. */
export interface RawEntryBlock {
  line: number;
  offset: number;
  length: number;
  /** The lines of the entry without the closing `---`. */
  lines: string[];
}

/**
 * Cuts text into entries at each `---` line. Values never hold a line break, so a `---` line is
 * always a real separator. Whatever follows the last separator is the torn tail.
 */
export function splitEntryBlocks(text: string): { blocks: RawEntryBlock[]; torn: TornTail | null } {
  const blocks: RawEntryBlock[] = [];
  let blockStart = 0;
  let blockLine = 1;
  let blockByteOffset = 0;
  let lineNumber = 1;
  let position = 0;
  let current: string[] = [];
  for (;;) {
    const newline = text.indexOf('\n', position);
    // An unterminated last line belongs to the torn tail.
    if (newline === -1) break;
    const lineText = text.slice(position, newline);
    position = newline + 1;
    lineNumber += 1;
    if (lineText !== '---') {
      current.push(lineText);
      continue;
    }
    const length = Buffer.byteLength(text.slice(blockStart, position));
    blocks.push({ line: blockLine, offset: blockByteOffset, length, lines: current });
    blockStart = position;
    blockLine = lineNumber;
    blockByteOffset += length;
    current = [];
  }
  const rest = text.slice(blockStart);
  const torn =
    rest === '' ? null : { line: blockLine, offset: blockByteOffset, length: Buffer.byteLength(rest), text: rest };
  return { blocks, torn };
}

/** Parses a whole log file's text. Throws {@link AuditLogFormatError} on a malformed entry. */
export function parseEntries(text: string): ParsedEntries {
  const { blocks, torn } = splitEntryBlocks(text);
  return { entries: blocks.map(parseEntryBlock), torn };
}

const HASH_PATTERN = /^[0-9a-f]{64}$/;
const ERROR_TAIL = / \(retry_count=(\d+), recoverable=(true|false)\)$/;

type ExtensionTag =
  | 'USER'
  | 'AUDIT_FORMAT'
  | 'REQUEST_ID'
  | 'SEQUENCE'
  | 'PARENT_MESSAGE_ID'
  | 'EXECUTED_AT'
  | 'INPUT_ENCODING'
  | 'GOVERNANCE_VERSION'
  | 'CORRECTIONS'
  | 'COMPLIANCE VIOLATIONS'
  | 'NOTES'
  | 'PII_REDACTED'
  | 'GUARDRAILS'
  | 'PARENT_SESSION_ID'
  | 'DEPTH'
  | ToolAuditTag;

/** The lines of agents that act (tool-audit-lines.ts), each a JSON array. */
type ToolAuditTag = 'TOOL_CALLS' | 'VIOLATIONS' | 'APPROVALS' | 'EVIDENCE' | 'DELEGATIONS';
const TOOL_AUDIT_FIELDS = { TOOL_CALLS: 'toolCalls', VIOLATIONS: 'violations', APPROVALS: 'approvals', EVIDENCE: 'evidence', DELEGATIONS: 'delegations' } as const;

/** `[TAG: value]` → value, or `[TAG]: value` → value. */
function extensionOf(line: string): { tag: ExtensionTag; value: string } | null {
  const bracketed = /^\[(USER|AUDIT_FORMAT|REQUEST_ID|SEQUENCE|PARENT_MESSAGE_ID|EXECUTED_AT|INPUT_ENCODING|GOVERNANCE_VERSION|PARENT_SESSION_ID|DEPTH): (.*)\]$/.exec(line);
  if (bracketed) return { tag: bracketed[1] as ExtensionTag, value: bracketed[2] };
  const labelled = /^\[(CORRECTIONS|COMPLIANCE VIOLATIONS|NOTES|PII_REDACTED|GUARDRAILS|TOOL_CALLS|VIOLATIONS|APPROVALS|EVIDENCE|DELEGATIONS)\]: (.*)$/.exec(line);
  if (labelled) return { tag: labelled[1] as ExtensionTag, value: labelled[2] };
  return null;
}

/** Interprets one block. Throws {@link AuditLogFormatError} naming the offending line. */
export function parseEntryBlock(block: RawEntryBlock): ParsedAuditEntry {
  const lines = block.lines;
  let index = 0;
  const fail = (reason: string, at = index): never => {
    throw new AuditLogFormatError(`malformed audit entry: ${reason}`, block.line + at);
  };
  /** Runs a value decoder; by default the failing line is the one just taken. */
  const decode = <T>(read: () => T, at?: number): T => {
    try {
      return read();
    } catch (error) {
      if (error instanceof ValueDecodeError) return fail(error.message, at ?? index - 1);
      throw error;
    }
  };
  /** The value of `[TAG: value]` on the next line, or of `prefix value` when `closing` is ''. */
  const take = (prefix: string, closing: string): string => {
    const text = lines[index];
    if (text === undefined || !text.startsWith(prefix) || !text.endsWith(closing) || text.length < prefix.length + closing.length) {
      return fail(`expected a line starting "${prefix}"${text === undefined ? ' but the entry ended' : ''}`);
    }
    index += 1;
    return text.slice(prefix.length, text.length - closing.length);
  };

  const time = take('[TIMESTAMP: ', ']');
  if (!/^\d{2}:\d{2}:\d{2}$/.test(time)) fail('TIMESTAMP is not HH:mm:ss', index - 1);
  const agent = decode(() => unescapeText(take('[AGENT: ', ']')));
  const inputSource = decode(() => unescapeText(take('[INPUT SOURCE: ', ']')));
  const writtenInput = take('[INPUT]: ', '');
  const inputIndex = index - 1;
  const outputType = decode(() => unescapeText(take('[OUTPUT TYPE: ', ']')));
  const statusMatch = /^\[STATUS: ([^\]]*)\] (.*)$/.exec(lines[index] ?? '');
  if (!statusMatch) fail('expected "[STATUS: code] message"');
  index += 1;
  const status = decode(() => ({ code: unescapeText(statusMatch![1]), message: unescapeText(statusMatch![2]) }));

  let error: ParsedAuditEntry['error'] = null;
  if (lines[index]?.startsWith('[ERROR: ')) {
    const errorLine = lines[index];
    const head = /^\[ERROR: ([^\]]*)\] /.exec(errorLine);
    const tail = ERROR_TAIL.exec(errorLine);
    if (!head || !tail || tail.index < head[0].length) {
      fail('expected "[ERROR: code] message (retry_count=N, recoverable=true|false)"');
    }
    const messageText = errorLine.slice(head![0].length, tail!.index);
    error = decode(() => ({
      code: unescapeNullableText(head![1]),
      message: unescapeNullableText(messageText),
      retryCount: Number(tail![1]),
      recoverable: tail![2] === 'true',
    }), index);
    index += 1;
  }

  const complianceNotes = decode(() => unescapeNullableText(take('[COMPLIANCE NOTES]: ', '')));
  const governanceFiles = decode(() => {
    const written = take('[GOVERNANCE FILES]: ', '');
    return written === 'null' ? null : decodeStringArray(written);
  });
  const messageId = decode(() => unescapeText(take('[MESSAGE_ID: ', ']')));
  const sessionId = decode(() => unescapeText(take('[SESSION_ID: ', ']')));

  const seen = new Map<ExtensionTag, string>();
  const seenAt = new Map<ExtensionTag, number>();
  while (index < lines.length - 1) {
    const extension = extensionOf(lines[index]);
    if (!extension) fail(`unknown line "${lines[index].slice(0, 40)}"`);
    if (seen.has(extension!.tag)) fail(`${extension!.tag} appears twice`);
    seen.set(extension!.tag, extension!.value);
    seenAt.set(extension!.tag, index);
    index += 1;
  }
  const hashText = take('[ENTRY_HASH: ', ']');
  if (!HASH_PATTERN.test(hashText)) fail('ENTRY_HASH is not 64 lowercase hex digits', index - 1);
  if (index !== lines.length) fail('text after ENTRY_HASH');

  const required = (tag: ExtensionTag): string => seen.get(tag) ?? fail(`missing [${tag}: …] line`, lines.length - 1);
  const formatVersion = Number(required('AUDIT_FORMAT'));
  if (formatVersion !== AUDIT_FORMAT_VERSION) {
    fail(
      `AUDIT_FORMAT ${seen.get('AUDIT_FORMAT')} is not ${AUDIT_FORMAT_VERSION}; read it with the govflow version that wrote it`,
      seenAt.get('AUDIT_FORMAT'),
    );
  }
  const sequence = decode(() => decodeJson(required('SEQUENCE')), seenAt.get('SEQUENCE'));
  if (typeof sequence !== 'number') fail('SEQUENCE is not a number', seenAt.get('SEQUENCE'));
  const encoding = seen.get('INPUT_ENCODING');
  if (encoding !== undefined && encoding !== 'json') {
    fail(`INPUT_ENCODING "${encoding}" is not "json"`, seenAt.get('INPUT_ENCODING'));
  }
  const input = decode(() => (encoding === 'json' ? decodeJson(writtenInput) : unescapeText(writtenInput)), inputIndex);
  const list = (tag: ExtensionTag): string[] => {
    const written = seen.get(tag);
    return written === undefined ? [] : decode(() => decodeStringArray(written), seenAt.get(tag));
  };

  const parseDelegation = (): ParsedAuditEntry['delegation'] => {
    const parent = seen.get('PARENT_SESSION_ID');
    const depthText = seen.get('DEPTH');
    if (parent === undefined && depthText === undefined) return null;
    if (parent === undefined || depthText === undefined) return fail('PARENT_SESSION_ID and DEPTH appear only together', seenAt.get(parent === undefined ? 'DEPTH' : 'PARENT_SESSION_ID'));
    const depth = decode(() => decodeJson(depthText), seenAt.get('DEPTH'));
    if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 1) fail('DEPTH is not a whole number of at least 1', seenAt.get('DEPTH'));
    return { parentSessionId: decode(() => unescapeText(parent), seenAt.get('PARENT_SESSION_ID')), depth: depth as number };
  };

  let tools: ToolAuditLines | undefined;
  for (const [tag, field] of Object.entries(TOOL_AUDIT_FIELDS) as Array<[ToolAuditTag, keyof ToolAuditLines]>) {
    const written = seen.get(tag);
    if (written === undefined) continue;
    const value = decode(() => decodeJson(written), seenAt.get(tag));
    if (!Array.isArray(value)) fail(`${tag} is not a JSON array`, seenAt.get(tag));
    tools = { ...tools, [field]: value };
  }

  return {
    line: block.line,
    offset: block.offset,
    length: block.length,
    body: lines.slice(0, -1).join('\n') + '\n',
    hash: hashText,
    time,
    executedAt: decode(() => unescapeText(required('EXECUTED_AT')), seenAt.get('EXECUTED_AT')),
    agent,
    inputSource,
    input,
    outputType,
    status,
    error,
    complianceNotes,
    governanceFiles,
    messageId,
    sessionId,
    user: seen.has('USER') ? decode(() => unescapeText(seen.get('USER')!), seenAt.get('USER')) : null,
    requestId: decode(() => unescapeText(required('REQUEST_ID')), seenAt.get('REQUEST_ID')),
    sequence: sequence as number,
    parentMessageId: decode(() => unescapeNullableText(required('PARENT_MESSAGE_ID')), seenAt.get('PARENT_MESSAGE_ID')),
    governanceVersion: decode(() => unescapeText(required('GOVERNANCE_VERSION')), seenAt.get('GOVERNANCE_VERSION')),
    corrections: list('CORRECTIONS'),
    complianceViolations: list('COMPLIANCE VIOLATIONS'),
    notes: list('NOTES'),
    piiRedacted: seen.has('PII_REDACTED') ? (decode(() => decodeJson(seen.get('PII_REDACTED')!), seenAt.get('PII_REDACTED')) as Record<string, number>) : null,
    guardrails: seen.has('GUARDRAILS') ? (decode(() => decodeJson(seen.get('GUARDRAILS')!), seenAt.get('GUARDRAILS')) as Array<{ rule: string; action: string }>) : [],
    formatVersion,
    delegation: parseDelegation(),
    ...(tools ? { tools } : {}),
  };
}
