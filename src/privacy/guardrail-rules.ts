/**
 * Guardrail rules (README "Privacy and guardrails"), compiled once per governance snapshot; every
 * problem names file and line, and a bad rule rejects the snapshot (a hot reload keeps the last good).
 *
 *     - name: english-only          unique, [A-Za-z0-9_.-]+
 *       on: output                  input | output | tool_result
 *       match: { script: Han }      exactly one of: regex | script | max_chars | pii_present
 *       action: retry               flag | redact | retry | intervene
 *       message: Answer in English. sent back with retry; the reason for the others
 */
import { ConfigError } from '../errors.js';
import { PII_KINDS } from '../config/config-vocabulary.js';
import { compileUserRegex, UserRegexError } from '../config/user-regex.js';
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

/** Compiles `raw` (a YAML list), one ConfigError per problem onto `errors`; `taken`: names used so far. */
export function compileGuardrails(
  raw: unknown,
  source: GuardrailSource,
  errors: ConfigError[],
  taken: Map<string, string>,
): GuardrailRule[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    errors.push(
      new ConfigError(
        'guardrails must be a list of rules (- {name, on, match, action, message})',
        source.file,
        source.lineOf([]),
      ),
    );
    return [];
  }
  const rules: GuardrailRule[] = [];
  for (const [index, rule] of raw.entries()) {
    try {
      rules.push(compileRule(rule, index, source, taken));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      errors.push(error);
    }
  }
  return rules;
}

type Problem = (message: string, path?: readonly (string | number)[]) => ConfigError;

/** One rule; throws a ConfigError naming it and the line of the key at fault. */
function compileRule(rule: unknown, index: number, source: GuardrailSource, taken: Map<string, string>): GuardrailRule {
  const name = (rule as { name?: unknown } | null)?.name;
  const problem: Problem = (message, path = []) =>
    new ConfigError(
      `guardrails[${index}]${typeof name === 'string' ? ` ("${name}")` : ''}: ${message}`,
      source.file,
      source.lineOf([index, ...path]),
    );
  if (!isPlainObject(rule)) throw problem('each rule must be a mapping with name, on, match and action');
  const unknown = Object.keys(rule).filter((key) => !RULE_KEYS.has(key));
  if (unknown.length > 0)
    throw problem(
      `unknown key(s) ${unknown.map((key) => `"${key}"`).join(', ')}; a rule has name, on, match, action and message`,
      [unknown[0]],
    );
  if (typeof rule.name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(rule.name))
    throw problem('name must be 1-64 characters of letters, digits, "_", "." or "-"', ['name']);
  const line = source.lineOf([index, 'name']);
  const earlier = taken.get(rule.name);
  if (earlier)
    throw problem(`name "${rule.name}" is already used by the rule at ${earlier}; names must be unique`, ['name']);
  taken.set(rule.name, `${source.file}:${line}`);
  if (!(GUARDRAIL_STAGES as readonly unknown[]).includes(rule.on))
    throw problem(`on must be one of ${GUARDRAIL_STAGES.join(', ')} (got ${JSON.stringify(rule.on)})`, ['on']);
  if (!(GUARDRAIL_ACTIONS as readonly unknown[]).includes(rule.action))
    throw problem(`action must be one of ${GUARDRAIL_ACTIONS.join(', ')} (got ${JSON.stringify(rule.action)})`, [
      'action',
    ]);
  if (rule.action === 'retry' && rule.on === 'input') {
    throw problem(
      'action retry asks the model again, which cannot change the input; use flag, redact or intervene for on: input',
      ['action'],
    );
  }
  if (rule.message !== undefined && rule.message !== null && typeof rule.message !== 'string')
    throw problem('message must be a string', ['message']);
  if (rule.action === 'retry' && (typeof rule.message !== 'string' || rule.message.trim() === '')) {
    throw problem('action retry needs a message: the text sent back to the model (e.g. "Answer in English.")', [
      'action',
    ]);
  }
  return {
    name: rule.name,
    on: rule.on as GuardrailStage,
    action: rule.action as GuardrailAction,
    message: typeof rule.message === 'string' ? rule.message : null,
    matcher: compileMatcher(rule.match, (message, path = []) => problem(message, ['match', ...path]), rule.name),
    declaredIn: { file: source.file, line },
  };
}

function compileMatcher(match: unknown, problem: Problem, ruleName: string): GuardrailMatcher {
  if (!isPlainObject(match))
    throw problem(
      `match must be a mapping with one of ${MATCH_KEYS.join(', ')}, e.g. match: { regex: "wire .* to account" }`,
    );
  const keys = Object.keys(match);
  if (keys.length !== 1 || !(MATCH_KEYS as readonly string[]).includes(keys[0])) {
    throw problem(
      `match must hold exactly one of ${MATCH_KEYS.join(', ')} (got ${keys.length === 0 ? 'none' : keys.join(', ')})`,
      keys.slice(0, 1),
    );
  }
  const key = keys[0] as (typeof MATCH_KEYS)[number];
  const value = match[key];
  switch (key) {
    case 'regex':
      try {
        return { kind: 'regex', regex: compileUserRegex(value, `match.regex`), source: String(value) };
      } catch (error) {
        throw problem(error instanceof UserRegexError ? error.message : String(error), ['regex']);
      }
    case 'script': {
      if (typeof value !== 'string' || !/^[A-Za-z_]{2,40}$/.test(value))
        throw problem('script must be a Unicode script name such as Han, Cyrillic, Arabic, Latin', ['script']);
      try {
        return { kind: 'script', regex: new RegExp(`\\p{Script=${value}}+`, 'gu'), script: value };
      } catch {
        throw problem(`script "${value}" is not a Unicode script name (e.g. Han, Cyrillic, Arabic, Hangul, Latin)`, [
          'script',
        ]);
      }
    }
    case 'max_chars':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
        throw problem('max_chars must be a positive whole number', ['max_chars']);
      return { kind: 'max_chars', max: value };
    case 'pii_present': {
      if (value === true) return { kind: 'pii_present', kinds: null };
      const kinds = Array.isArray(value) ? value : null;
      const unknownKinds = kinds?.filter(
        (kind) => typeof kind !== 'string' || !(PII_KINDS as readonly string[]).includes(kind),
      );
      if (!kinds || kinds.length === 0 || (unknownKinds && unknownKinds.length > 0)) {
        throw problem(`pii_present must be true or a list of kinds (${PII_KINDS.join(', ')}) for rule "${ruleName}"`, [
          'pii_present',
        ]);
      }
      return { kind: 'pii_present', kinds: kinds as string[] };
    }
  }
}
