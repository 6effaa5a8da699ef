/**
 * How one value is written on one audit line, and read back (docs/audit-log.md, "One value on
 * one line"). The rules are chosen so that no value can ever contain a line break, so a request can
 * neither split an entry nor forge the `---` separator or a `[TAG: ...]` line of its own.
 *
 * Text values:
 *  - `\` → `\\`, LF → `\n`, CR → `\r`, TAB → `\t` (tab too, for readability);
 *  - every other C0 control char, DEL, every C1 control char (U+0080–U+009F: U+0085 NEL is a
 *    line break to Python's `str.splitlines()`), U+2028 and U+2029 → `\uXXXX` (the last two are
 *    line terminators for some editors and JavaScript tooling);
 *  - inside the bracket of `[STATUS: code]` / `[ERROR: code]` a `]` is also written `\u005d`, so
 *    the code cannot swallow the text after it.
 * Null (in a slot that may be null) is written `\N`, the convention of PostgreSQL's COPY text
 * format. The escaper never produces `\N` (a text backslash is always doubled), so `\N` and the
 * string "\N" (written `\\N`) or "null" (written `null`) can never be confused.
 *
 * JSON values (arrays, objects, numbers, the INPUT when it is not a string) are compact
 * `JSON.stringify` output, which escapes C0 control characters itself; DEL, C1 controls and
 * U+2028/U+2029 are escaped on top, which is still valid JSON.
 */

import { GovflowError, type GovflowErrorOptions } from '../errors.js';
import { stringifyJson } from '../message/json-text.js';

/** Written in a nullable text slot when the value is null. */
export const NULL_MARK = '\\N';

/** Version of the entry layout, written on every entry as `[AUDIT_FORMAT: 1]`. */
export const AUDIT_FORMAT_VERSION = 1;

/**
 * What is written `\uXXXX` (or `\\`, `\n`, `\r`, `\t`): a backslash, C0 and C1 controls, DEL,
 * U+2028/2029, and a UTF-16 surrogate without its partner (UTF-8 cannot hold one: it would be
 * written as U+FFFD and read back changed).
 */
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

/** Text → one-line form. */
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

/** One-line form → text. Throws {@link ValueDecodeError} on a backslash that is not ours. */
export function unescapeText(written: string): string {
  if (!written.includes('\\')) return written;
  let result = '';
  let index = 0;
  while (index < written.length) {
    const slash = written.indexOf('\\', index);
    if (slash === -1) {
      result += written.slice(index);
      break;
    }
    result += written.slice(index, slash);
    const kind = written[slash + 1];
    if (kind === '\\') result += '\\';
    else if (kind === 'n') result += '\n';
    else if (kind === 'r') result += '\r';
    else if (kind === 't') result += '\t';
    else if (kind === 'u' && /^[0-9a-f]{4}$/i.test(written.slice(slash + 2, slash + 6))) {
      result += String.fromCharCode(parseInt(written.slice(slash + 2, slash + 6), 16));
      index = slash + 6;
      continue;
    } else {
      throw new ValueDecodeError(
        `unknown escape "\\${kind ?? ''}" at column ${slash + 1} (only \\\\ \\n \\r \\t \\uXXXX are written)`,
      );
    }
    index = slash + 2;
  }
  return result;
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
