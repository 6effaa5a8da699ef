/**
 * Regexes written by people (pii.custom patterns, guardrail `match.regex`): compiled once at load
 * time, with the answers a governance author needs when one is wrong. Accepts the `(?i)`, `(?m)`,
 * `(?s)` and `(?u)` leading inline flags of PCRE/RE2/Python (README "Privacy and guardrails" examples use `(?i)`), which
 * JavaScript has no syntax for, by turning them into RegExp flags. Rejects patterns that can
 * backtrack catastrophically (nested quantifiers, star height > 1) with safe-regex2, because a
 * runaway regex would block the daemon's only thread on one request.
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

/**
 * Compiles `pattern` into a global, Unicode-aware RegExp. Throws UserRegexError saying what is
 * wrong and how to fix it; `what` names the setting (e.g. `guardrail "no-wire" match.regex`).
 */
export function compileUserRegex(pattern: unknown, what: string): RegExp {
  if (typeof pattern !== 'string' || pattern.length === 0) {
    throw new UserRegexError(`${what} must be a non-empty string (a regular expression)`);
  }
  if (pattern.length > 1000) throw new UserRegexError(`${what} is ${pattern.length} characters long; keep patterns under 1000 characters`);
  let source = pattern;
  const flags = new Set(['g', 'u']);
  const leading = /^\(\?([a-zA-Z]+)\)/.exec(source);
  if (leading) {
    for (const letter of leading[1]) {
      if (!'imsu'.includes(letter)) throw new UserRegexError(`${what}: inline flag "(?${letter})" is not supported; use (?i), (?m) or (?s) at the start of the pattern`);
      flags.add(letter);
    }
    source = source.slice(leading[0].length);
  }
  if (/\(\?[a-zA-Z]+\)/.test(source) || /\(\?[a-zA-Z-]+:/.test(source)) {
    throw new UserRegexError(`${what}: inline flags are only supported at the very start of the pattern, e.g. "(?i)wire .* to account"`);
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
  if (regex.test('')) throw new UserRegexError(`${what} "${pattern}" matches the empty string; it must match at least one character`);
  regex.lastIndex = 0;
  return regex;
}
