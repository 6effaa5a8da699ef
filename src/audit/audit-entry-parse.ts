/**
 * Reads audit log text back into entries: the inverse of `formatEntryBody` (see the layout in
 * audit-entry-format.ts). Strict on purpose: a line this version did not write makes the entry
 * malformed, so a forged or damaged entry is reported rather than half-read.
 */
import { TOOL_AUDIT_TAGS } from './tool-audit-lines.js';
import type { ToolAuditLines } from '../store/tool-journal-records.js';
import type { AttachmentInfo } from '../store/attachment-records.js';
import type { HandoffLine } from '../store/session-journal.js';
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
  /** 1-based line of `[TIMESTAMP: …]`; byte offset and length of the entry in the text. */
  line: number;
  offset: number;
  length: number;
  /** The lines before `[ENTRY_HASH: …]`, exactly as written: what the hash covers. */
  body: string;
  hash: string;
  /** `HH:mm:ss` in the configured zone. */
  time: string;
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
  /** Null on an operator's entry, which is not a message. */
  sequence: number | null;
  parentMessageId: string | null;
  governanceVersion: string;
  corrections: string[];
  complianceViolations: string[];
  notes: string[];
  piiRedacted: Record<string, number> | null;
  guardrails: Array<{ rule: string; action: string }>;
  formatVersion: number;
  tools?: ToolAuditLines;
  /** Null unless the entry is a delegated child session's. */
  delegation: { parentSessionId: string; depth: number } | null;
  /** An operator's entry (docs/run-control.md): its `[CONTROL]` object; such an entry has no sequence. */
  control: Record<string, unknown> | null;
  /** A message a fork reused: the original entry's hash. */
  forkedFrom: string | null;
  /** A step a steward retried with advice: the advice's SHA-256 (`[STEWARD_ADVICE]`). */
  stewardAdvice?: string;
  /** `[LIMITS]`: on a session's first entry when its request set its own limits (SPEC §25). */
  limits?: Record<string, unknown>;
  /** Calls a fork did not repeat (`[NOT_REPEATED]`). */
  notRepeated: Array<Record<string, unknown>> | null;
  /** `[ATTACHMENTS]`: on a session's first entry when its request came with files (docs/attachments.md). */
  attachments?: AttachmentInfo[];
  /** `[HANDOFF]`: on a delegated child's first entry, what its parent handed over (docs/tools.md "Delegation"). */
  handoff?: HandoffLine;
  /** `[CHAT_CONTEXT]`: on a chat turn's first entry when the client sent a context (docs/http-api.md "Chat"). */
  chatContext?: { type: string | null; sha256: string; bytes: number };
  /** `[ROUTE]`: the route its agent's `routes` decided (SPEC §24). */
  route?: Record<string, unknown>;
  /** `[REASONING]`: `{chars, sha256}` of the accepted attempt's reasoning (SPEC §24). */
  reasoning?: Record<string, unknown>;
}

/** Text after the last complete entry: a write cut short by a crash or a truncation. */
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

/** An entry's raw lines (without the closing `---`), before interpretation. */
export interface RawEntryBlock {
  line: number;
  offset: number;
  length: number;
  lines: string[];
}

/** Cuts text at each `---` line, always a real separator since no value holds a line break; what follows the last is the torn tail. */
export function splitEntryBlocks(text: string): { blocks: RawEntryBlock[]; torn: TornTail | null } {
  const blocks: RawEntryBlock[] = [];
  let start = 0; // of the current block, in characters
  let line = 1;
  let offset = 0; // of the current block, in bytes
  let lines: string[] = [];
  // An unterminated last line belongs to the torn tail.
  for (
    let position = 0, newline = text.indexOf('\n');
    newline !== -1;
    position = newline + 1, newline = text.indexOf('\n', position)
  ) {
    const lineText = text.slice(position, newline);
    if (lineText !== '---') {
      lines.push(lineText);
      continue;
    }
    const length = Buffer.byteLength(text.slice(start, newline + 1));
    blocks.push({ line, offset, length, lines });
    [start, line, offset, lines] = [newline + 1, line + lines.length + 1, offset + length, []];
  }
  const rest = text.slice(start);
  return { blocks, torn: rest === '' ? null : { line, offset, length: Buffer.byteLength(rest), text: rest } };
}

/** Parses a whole log file's text. Throws {@link AuditLogFormatError} on a malformed entry. */
export function parseEntries(text: string): ParsedEntries {
  const { blocks, torn } = splitEntryBlocks(text);
  return { entries: blocks.map(parseEntryBlock), torn };
}

const ERROR_TAIL = / \(retry_count=(\d+), recoverable=(true|false)\)$/;
/** The lines after SESSION_ID, in any order, each at most once: `[TAG: value]` or `[TAG]: value`. */
const VALUE_TAGS = [
  'USER',
  'AUDIT_FORMAT',
  'REQUEST_ID',
  'SEQUENCE',
  'PARENT_MESSAGE_ID',
  'EXECUTED_AT',
  'INPUT_ENCODING',
  'GOVERNANCE_VERSION',
  'PARENT_SESSION_ID',
  'DEPTH',
  'FORKED_FROM',
  'STEWARD_ADVICE',
];
const SECTION_TAGS = [
  'CORRECTIONS',
  'COMPLIANCE VIOLATIONS',
  'NOTES',
  'PII_REDACTED',
  'GUARDRAILS',
  'ATTACHMENTS',
  'CHAT_CONTEXT',
  'TOOL_CALLS',
  'VIOLATIONS',
  'APPROVALS',
  'EVIDENCE',
  'DELEGATIONS',
  'HANDOFF',
  'CONTROL',
  'NOT_REPEATED',
  'ROUTE',
  'REASONING',
  'LIMITS',
];
const EXTENSION_LINE = new RegExp(`^\\[(${VALUE_TAGS.join('|')}): (.*)\\]$|^\\[(${SECTION_TAGS.join('|')})\\]: (.*)$`);

function invalid(reason: string): never {
  throw new ValueDecodeError(reason);
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
  const take = (prefix: string, closing = ']'): string => {
    const text = lines[index];
    if (
      text === undefined ||
      !text.startsWith(prefix) ||
      !text.endsWith(closing) ||
      text.length < prefix.length + closing.length
    ) {
      return fail(`expected a line starting "${prefix}"${text === undefined ? ' but the entry ended' : ''}`);
    }
    index += 1;
    return text.slice(prefix.length, text.length - closing.length);
  };

  const time = take('[TIMESTAMP: ');
  if (!/^\d{2}:\d{2}:\d{2}$/.test(time)) fail('TIMESTAMP is not HH:mm:ss', index - 1);
  const agent = decode(() => unescapeText(take('[AGENT: ')));
  const inputSource = decode(() => unescapeText(take('[INPUT SOURCE: ')));
  const writtenInput = take('[INPUT]: ', '');
  const inputIndex = index - 1;
  const outputType = decode(() => unescapeText(take('[OUTPUT TYPE: ')));
  const statusMatch =
    /^\[STATUS: ([^\]]*)\] (.*)$/.exec(lines[index] ?? '') ?? fail('expected "[STATUS: code] message"');
  index += 1;
  const status = decode(() => ({ code: unescapeText(statusMatch[1]), message: unescapeText(statusMatch[2]) }));

  let error: ParsedAuditEntry['error'] = null;
  if (lines[index]?.startsWith('[ERROR: ')) {
    const head = /^\[ERROR: ([^\]]*)\] /.exec(lines[index]);
    const tail = ERROR_TAIL.exec(lines[index]);
    if (!head || !tail || tail.index < head[0].length)
      return fail('expected "[ERROR: code] message (retry_count=N, recoverable=true|false)"');
    const message = lines[index].slice(head[0].length, tail.index);
    index += 1;
    error = decode(() => ({
      code: unescapeNullableText(head[1]),
      message: unescapeNullableText(message),
      retryCount: Number(tail[1]),
      recoverable: tail[2] === 'true',
    }));
  }
  const complianceNotes = decode(() => unescapeNullableText(take('[COMPLIANCE NOTES]: ', '')));
  const governanceFiles = decode(() => {
    const written = take('[GOVERNANCE FILES]: ', '');
    return written === 'null' ? null : decodeStringArray(written);
  });
  const messageId = decode(() => unescapeText(take('[MESSAGE_ID: ')));
  const sessionId = decode(() => unescapeText(take('[SESSION_ID: ')));

  const seen = new Map<string, { value: string; at: number }>();
  for (; index < lines.length - 1; index += 1) {
    const match = EXTENSION_LINE.exec(lines[index]) ?? fail(`unknown line "${lines[index].slice(0, 40)}"`);
    const tag = match[1] ?? match[3];
    if (seen.has(tag)) fail(`${tag} appears twice`);
    seen.set(tag, { value: match[2] ?? match[4], at: index });
  }
  const hash = take('[ENTRY_HASH: ');
  if (!/^[0-9a-f]{64}$/.test(hash)) fail('ENTRY_HASH is not 64 lowercase hex digits', index - 1);

  /** An extension line's value read by `read` (its ValueDecodeError names that line); `absent` when missing, else an error. */
  const field = <T>(tag: string, read: (written: string) => T, absent?: () => T): T => {
    const line = seen.get(tag);
    if (line === undefined) return absent ? absent() : fail(`missing [${tag}: …] line`, lines.length - 1);
    return decode(() => read(line.value), line.at);
  };
  const formatVersion = field('AUDIT_FORMAT', (written) =>
    Number(written) === AUDIT_FORMAT_VERSION
      ? AUDIT_FORMAT_VERSION
      : invalid(
          `AUDIT_FORMAT ${written} is not ${AUDIT_FORMAT_VERSION}; read it with the govflow version that wrote it`,
        ),
  );
  // The JSON-object, JSON-array and SHA-256 lines, each refused with its tag when it is not one.
  const objectLine = <T = Record<string, unknown>, A = undefined>(tag: string, absent: () => A) =>
    field<T | A>(
      tag,
      (written) => {
        const value = decodeJson(written);
        return typeof value === 'object' && value !== null && !Array.isArray(value)
          ? (value as T)
          : invalid(`${tag} is not a JSON object`);
      },
      absent,
    );
  const arrayLine = <T, A = undefined>(tag: string, absent: () => A) =>
    field<T[] | A>(
      tag,
      (written) => {
        const value = decodeJson(written);
        return Array.isArray(value) ? (value as T[]) : invalid(`${tag} is not a JSON array`);
      },
      absent,
    );
  const hexLine = (tag: string) =>
    field(
      tag,
      (written) => (/^[0-9a-f]{64}$/.test(written) ? written : invalid(`${tag} is not 64 lowercase hex digits`)),
      () => null,
    );
  const control = objectLine('CONTROL', () => null);
  // An operator's entry has no sequence; every message has one.
  const sequence = field(
    'SEQUENCE',
    (written) => {
      const value = decodeJson(written);
      if (control !== null) return invalid("SEQUENCE on an operator's entry: operator entries are not messages");
      return typeof value === 'number' ? value : invalid('SEQUENCE is not a number');
    },
    control === null ? undefined : () => null,
  );
  const notRepeated = arrayLine<Record<string, unknown>, null>('NOT_REPEATED', () => null);
  const jsonInput = field(
    'INPUT_ENCODING',
    (written) => written === 'json' || invalid(`INPUT_ENCODING "${written}" is not "json"`),
    () => false,
  );
  const json = (written: string) => decodeJson(written);
  const list = (tag: string) => field(tag, decodeStringArray, () => []);
  const parentSessionId = field('PARENT_SESSION_ID', unescapeText, () => null);
  const depth = field(
    'DEPTH',
    (written) => {
      const value = decodeJson(written);
      return typeof value === 'number' && Number.isInteger(value) && value >= 1
        ? value
        : invalid('DEPTH is not a whole number of at least 1');
    },
    () => null,
  );
  if ((parentSessionId === null) !== (depth === null))
    fail('PARENT_SESSION_ID and DEPTH appear only together', (seen.get('PARENT_SESSION_ID') ?? seen.get('DEPTH'))!.at);
  let tools: ToolAuditLines | undefined;
  for (const [tag, name] of Object.entries(TOOL_AUDIT_TAGS)) {
    const value = arrayLine<unknown>(tag, () => undefined);
    if (value !== undefined) tools = { ...tools, [name]: value };
  }

  const stewardAdvice = hexLine('STEWARD_ADVICE');
  const limits = objectLine('LIMITS', () => null);
  const attachments = arrayLine<AttachmentInfo>('ATTACHMENTS', () => undefined);
  const handoff = objectLine<HandoffLine>('HANDOFF', () => undefined);
  const chatContext = field(
    'CHAT_CONTEXT',
    (written) => {
      const value = decodeJson(written) as { type?: unknown; sha256?: unknown; bytes?: unknown } | null;
      return value !== null &&
        typeof value === 'object' &&
        (value.type === null || typeof value.type === 'string') &&
        typeof value.sha256 === 'string' &&
        /^[0-9a-f]{64}$/.test(value.sha256) &&
        typeof value.bytes === 'number'
        ? { type: value.type, sha256: value.sha256, bytes: value.bytes }
        : invalid('CHAT_CONTEXT is not {"type", "sha256", "bytes"}');
    },
    () => undefined,
  );
  const route = objectLine('ROUTE', () => undefined);
  const reasoning = objectLine('REASONING', () => undefined);

  return {
    line: block.line,
    offset: block.offset,
    length: block.length,
    body: lines.slice(0, -1).join('\n') + '\n',
    hash,
    time,
    executedAt: field('EXECUTED_AT', unescapeText),
    agent,
    inputSource,
    input: decode(() => (jsonInput ? decodeJson(writtenInput) : unescapeText(writtenInput)), inputIndex),
    outputType,
    status,
    error,
    complianceNotes,
    governanceFiles,
    messageId,
    sessionId,
    user: field('USER', unescapeText, () => null),
    requestId: field('REQUEST_ID', unescapeText),
    sequence,
    parentMessageId: field('PARENT_MESSAGE_ID', unescapeNullableText),
    governanceVersion: field('GOVERNANCE_VERSION', unescapeText),
    corrections: list('CORRECTIONS'),
    complianceViolations: list('COMPLIANCE VIOLATIONS'),
    notes: list('NOTES'),
    piiRedacted: field('PII_REDACTED', json, () => null) as Record<string, number> | null,
    guardrails: field('GUARDRAILS', json, () => []) as Array<{ rule: string; action: string }>,
    formatVersion,
    delegation: parentSessionId === null || depth === null ? null : { parentSessionId, depth },
    control,
    forkedFrom: hexLine('FORKED_FROM'),
    notRepeated,
    ...(stewardAdvice ? { stewardAdvice } : {}),
    ...(limits ? { limits } : {}),
    ...(tools ? { tools } : {}),
    ...(attachments ? { attachments } : {}),
    ...(handoff ? { handoff } : {}),
    ...(chatContext ? { chatContext } : {}),
    ...(route ? { route } : {}),
    ...(reasoning ? { reasoning } : {}),
  };
}
