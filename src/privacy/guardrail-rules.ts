/**
 * Guardrail rules (README "Privacy and guardrails"; seed 000 §9): read from config `guardrails:` and from the
 * frontmatter of governance/guardrails.md, checked and compiled once per governance snapshot.
 * Every problem names file and line; a snapshot with a bad rule is rejected as a whole, so a hot
 * reload keeps the last good rules (and the daemon logs why).
 *
 *     - name: english-only          unique, [A-Za-z0-9_.-]+
 *       on: output                  input | output | tool_result
 *       match: { script: Han }      exactly one of: regex | script | max_chars | pii_present
 *       action: retry               flag | redact | retry | intervene
 *       message: Answer in English. sent back with retry; the reason for the others
 */
import { ConfigError } from '../errors.js';
import { PII_KINDS } from './pii-detectors.js';
import { compileUserRegex, UserRegexError } from './user-regex.js';
import { isPlainObject } from '../message/json-text.js';

export const GUARDRAIL_STAGES = ['input', 'output', 'tool_result'] as const;
export const GUARDRAIL_ACTIONS = ['flag', 'redact', 'retry', 'intervene'] as const;
export type GuardrailStage = (typeof GUARDRAIL_STAGES)[number];
export type GuardrailAction = (typeof GUARDRAIL_ACTIONS)[number];

/** What a rule looks for, compiled. */
export type GuardrailMatcher =
  | { kind: 'regex'; regex: RegExp; source: string }
  | { kind: 'script'; regex: RegExp; script: string }
  | { kind: 'max_chars'; max: number }
  | { kind: 'pii_present'; kinds: readonly string[] | null };

export interface GuardrailRule {
  name: string;
  on: GuardrailStage;
  action: GuardrailAction;
  message: string | null;
  matcher: GuardrailMatcher;
  declaredIn: { file: string; line: number };
}

/** Where a list of raw rules came from, and how to find a key's line in it. */
export interface GuardrailSource {
  file: string;
  /** Line of `path` inside the list (path starts at the rule's index). */
  lineOf(path: readonly (string | number)[]): number;
}

const RULE_KEYS = new Set(['name', 'on', 'match', 'action', 'message', 'description']);
const MATCH_KEYS = ['regex', 'script', 'max_chars', 'pii_present'] as const;

/**
 * Compiles `raw` (a YAML list) into rules, pushing one ConfigError per problem onto `errors`.
 * `taken` holds names already used (config rules, then the file's), so names stay unique.
 */
export function compileGuardrails(raw: unknown, source: GuardrailSource, errors: ConfigError[], taken: Map<string, string>): GuardrailRule[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    errors.push(new ConfigError('guardrails must be a list of rules (- {name, on, match, action, message})', source.file, source.lineOf([])));
    return [];
  }
  const rules: GuardrailRule[] = [];
  for (const [index, rule] of raw.entries()) {
    const fail = (message: string, path: readonly (string | number)[] = []) =>
      errors.push(new ConfigError(`guardrails[${index}]${nameOf(rule)}: ${message}`, source.file, source.lineOf([index, ...path])));
    if (!isPlainObject(rule)) {
      fail('each rule must be a mapping with name, on, match and action');
      continue;
    }
    const unknown = Object.keys(rule).filter((key) => !RULE_KEYS.has(key));
    if (unknown.length > 0) {
      fail(`unknown key(s) ${unknown.map((key) => `"${key}"`).join(', ')}; a rule has name, on, match, action and message`, [unknown[0]]);
      continue;
    }
    if (typeof rule.name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(rule.name)) {
      fail('name must be 1-64 characters of letters, digits, "_", "." or "-"', ['name']);
      continue;
    }
    const where = `${source.file}:${source.lineOf([index, 'name'])}`;
    const earlier = taken.get(rule.name);
    if (earlier) {
      fail(`name "${rule.name}" is already used by the rule at ${earlier}; names must be unique`, ['name']);
      continue;
    }
    taken.set(rule.name, where);
    if (!(GUARDRAIL_STAGES as readonly unknown[]).includes(rule.on)) {
      fail(`on must be one of ${GUARDRAIL_STAGES.join(', ')} (got ${JSON.stringify(rule.on)})`, ['on']);
      continue;
    }
    if (!(GUARDRAIL_ACTIONS as readonly unknown[]).includes(rule.action)) {
      fail(`action must be one of ${GUARDRAIL_ACTIONS.join(', ')} (got ${JSON.stringify(rule.action)})`, ['action']);
      continue;
    }
    if (rule.action === 'retry' && rule.on === 'input') {
      fail('action retry asks the model again, which cannot change the input; use flag, redact or intervene for on: input', ['action']);
      continue;
    }
    if (rule.message !== undefined && rule.message !== null && typeof rule.message !== 'string') {
      fail('message must be a string', ['message']);
      continue;
    }
    if (rule.action === 'retry' && (typeof rule.message !== 'string' || rule.message.trim() === '')) {
      fail('action retry needs a message: the text sent back to the model (e.g. "Answer in English.")', ['action']);
      continue;
    }
    const matcher = compileMatcher(rule.match, (message, path) => fail(message, ['match', ...path]), rule.name);
    if (!matcher) continue;
    rules.push({
      name: rule.name,
      on: rule.on as GuardrailStage,
      action: rule.action as GuardrailAction,
      message: typeof rule.message === 'string' ? rule.message : null,
      matcher,
      declaredIn: { file: source.file, line: source.lineOf([index, 'name']) },
    });
  }
  return rules;
}

function nameOf(entry: unknown): string {
  const name = (entry as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? ` ("${name}")` : '';
}

function compileMatcher(match: unknown, fail: (message: string, path: readonly string[]) => void, ruleName: string): GuardrailMatcher | null {
  if (!isPlainObject(match)) {
    fail(`match must be a mapping with one of ${MATCH_KEYS.join(', ')}, e.g. match: { regex: "wire .* to account" }`, []);
    return null;
  }
  const keys = Object.keys(match);
  if (keys.length !== 1 || !(MATCH_KEYS as readonly string[]).includes(keys[0])) {
    fail(`match must hold exactly one of ${MATCH_KEYS.join(', ')} (got ${keys.length === 0 ? 'none' : keys.join(', ')})`, keys.slice(0, 1));
    return null;
  }
  const key = keys[0] as (typeof MATCH_KEYS)[number];
  const value = match[key];
  switch (key) {
    case 'regex':
      try {
        return { kind: 'regex', regex: compileUserRegex(value, `match.regex`), source: String(value) };
      } catch (error) {
        fail(error instanceof UserRegexError ? error.message : String(error), ['regex']);
        return null;
      }
    case 'script': {
      if (typeof value !== 'string' || !/^[A-Za-z_]{2,40}$/.test(value)) {
        fail('script must be a Unicode script name such as Han, Cyrillic, Arabic, Latin', ['script']);
        return null;
      }
      try {
        return { kind: 'script', regex: new RegExp(`\\p{Script=${value}}+`, 'gu'), script: value };
      } catch {
        fail(`script "${value}" is not a Unicode script name (e.g. Han, Cyrillic, Arabic, Hangul, Latin)`, ['script']);
        return null;
      }
    }
    case 'max_chars':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
        fail('max_chars must be a positive whole number', ['max_chars']);
        return null;
      }
      return { kind: 'max_chars', max: value };
    case 'pii_present': {
      if (value === true) return { kind: 'pii_present', kinds: null };
      const kinds = Array.isArray(value) ? value : null;
      const unknownKinds = kinds?.filter((kind) => typeof kind !== 'string' || !(PII_KINDS as readonly string[]).includes(kind));
      if (!kinds || kinds.length === 0 || (unknownKinds && unknownKinds.length > 0)) {
        fail(`pii_present must be true or a list of kinds (${PII_KINDS.join(', ')}) for rule "${ruleName}"`, ['pii_present']);
        return null;
      }
      return { kind: 'pii_present', kinds: kinds as string[] };
    }
  }
}
