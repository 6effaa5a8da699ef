/**
 * How one value is written on one audit line, and read back (docs/audit-log.md "One value on one
 * line"): no value can hold a line break, so a request can neither split an entry nor forge a line.
 * C1 controls are escaped because U+0085 (NEL) is a line break to Python's `str.splitlines()`;
 * U+2028/2029 because some editors break lines there. Null is `\N`, as in PostgreSQL's COPY text
 * format: the escaper doubles every text backslash, so it never writes `\N` for text.
 */
import { GovflowError, type GovflowErrorOptions } from '../errors.js';
import { stringifyJson } from '../message/json-text.js';

/** Written in a nullable text slot when the value is null. */
export const NULL_MARK = '\\N';

/** Version of the entry layout, written on every entry as `[AUDIT_FORMAT: 1]`. */
export const AUDIT_FORMAT_VERSION = 1;

/** A lone UTF-16 surrogate is escaped too: UTF-8 cannot hold one, it would be read back as U+FFFD. */
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const ESCAPABLE = new RegExp(`[\\\\\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]|${LONE_SURROGATE}`, 'g');
/** The same, plus `]` (inside the bracket of `[STATUS: code]` / `[ERROR: code]`). */
const ESCAPABLE_IN_CODE = new RegExp(`[\\\\\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\]]|${LONE_SURROGATE}`, 'g');
/** What JSON.stringify leaves raw but must not appear raw on an audit line. */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029]/g;
const SHORT_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(char: string): string {
  return SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

export function escapeText(value: string): string {
  return value.replace(ESCAPABLE, escapeChar);
}

/** Like {@link escapeText}, also escaping `]` (for the code inside `[STATUS: …]`/`[ERROR: …]`). */
export function escapeCode(value: string): string {
  return value.replace(ESCAPABLE_IN_CODE, escapeChar);
}

export function escapeNullableText(value: string | null): string {
  return value === null ? NULL_MARK : escapeText(value);
}

/** Compact JSON on one line; `undefined` (not representable) is written as `null`. */
export function encodeJson(value: unknown): string {
  // Any depth: a value too deep for the native writer is written with an explicit stack.
  const json = stringifyJson(value) ?? 'null';
  return json.replace(RAW_IN_JSON, escapeChar);
}

/** Why a value could not be read back; the parser adds the line number. */
export class ValueDecodeError extends GovflowError {
  override readonly name = 'ValueDecodeError';
  constructor(message: string, options?: GovflowErrorOptions) {
    super('audit', message, options);
  }
}

const WRITTEN_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|([\\nrt])|([^]?))/g;
const SHORT_UNESCAPES: Record<string, string> = { '\\': '\\', n: '\n', r: '\r', t: '\t' };

/** One-line form → text. Throws {@link ValueDecodeError} on a backslash that is not ours. */
export function unescapeText(written: string): string {
  return written.replace(
    WRITTEN_ESCAPE,
    (_escape, hex: string | undefined, short: string | undefined, other: string, at: number) => {
      if (hex !== undefined) return String.fromCharCode(parseInt(hex, 16));
      if (short !== undefined) return SHORT_UNESCAPES[short];
      throw new ValueDecodeError(
        `unknown escape "\\${other}" at column ${at + 1} (only \\\\ \\n \\r \\t \\uXXXX are written)`,
      );
    },
  );
}

export function unescapeNullableText(written: string): string | null {
  return written === NULL_MARK ? null : unescapeText(written);
}

export function decodeJson(written: string): unknown {
  try {
    return JSON.parse(written);
  } catch (error) {
    throw new ValueDecodeError(`not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

/** A JSON array of strings, as written for governance files, corrections, violations, notes. */
export function decodeStringArray(written: string): string[] {
  const value = decodeJson(written);
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new ValueDecodeError('expected a JSON array of strings');
  }
  return value as string[];
}
