/**
 * Regexes people write (pii.custom, guardrail `match.regex`), compiled at load with answers an author
 * needs. Leading `(?i)`, `(?m)`, `(?s)`, `(?u)` (PCRE/RE2/Python; README examples use `(?i)`) become
 * RegExp flags. safe-regex2 rejects catastrophic backtracking: it would block the daemon's thread.
 */
import safeRegex from 'safe-regex2';
import { GovflowError } from '../errors.js';

/** A pattern that cannot be used, with the reason in words. */
export class UserRegexError extends GovflowError {
  override readonly name = 'UserRegexError';
  constructor(message: string) {
    super('config', message);
  }
}

/** `pattern` as a global, Unicode-aware RegExp; UserRegexError says what to fix in `what` (the setting). */
export function compileUserRegex(pattern: unknown, what: string): RegExp {
  if (typeof pattern !== 'string' || pattern.length === 0) {
    throw new UserRegexError(`${what} must be a non-empty string (a regular expression)`);
  }
  if (pattern.length > 1000)
    throw new UserRegexError(`${what} is ${pattern.length} characters long; keep patterns under 1000 characters`);
  let source = pattern;
  const flags = new Set(['g', 'u']);
  const leading = /^\(\?([a-zA-Z]+)\)/.exec(source);
  if (leading) {
    for (const letter of leading[1]) {
      if (!'imsu'.includes(letter))
        throw new UserRegexError(
          `${what}: inline flag "(?${letter})" is not supported; use (?i), (?m) or (?s) at the start of the pattern`,
        );
      flags.add(letter);
    }
    source = source.slice(leading[0].length);
  }
  if (/\(\?[a-zA-Z]+\)/.test(source) || /\(\?[a-zA-Z-]+:/.test(source)) {
    throw new UserRegexError(
      `${what}: inline flags are only supported at the very start of the pattern, e.g. "(?i)wire .* to account"`,
    );
  }
  let regex: RegExp;
  try {
    regex = new RegExp(source, [...flags].join(''));
  } catch (error) {
    // Some patterns valid without the u flag (e.g. "\-" outside a class) are errors with it.
    try {
      regex = new RegExp(source, [...flags].filter((flag) => flag !== 'u').join(''));
    } catch {
      throw new UserRegexError(`${what} is not a valid regular expression: ${(error as Error).message}`);
    }
  }
  if (!safeRegex(regex)) {
    throw new UserRegexError(
      `${what} "${pattern}" can backtrack catastrophically (a repeated group holds another repetition, e.g. "(a+)+"); ` +
        'rewrite it without nested repetition',
    );
  }
  if (regex.test(''))
    throw new UserRegexError(`${what} "${pattern}" matches the empty string; it must match at least one character`);
  regex.lastIndex = 0;
  return regex;
}
