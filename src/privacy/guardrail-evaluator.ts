/**
 * Runs guardrail rules over a text or JSON value at one stage, in declaration order (a `redact`
 * changes what later rules see). Pure: it finds triggers and redacts; the caller acts on the rest.
 */
import { mapJsonStrings } from '../message/json-text.js';
import { replaceFindings, type PiiFinding } from './pii-detectors.js';
import type { GuardrailAction, GuardrailRule, GuardrailStage } from './guardrail-rules.js';

/** One rule that fired, as recorded on the audit entry (`[GUARDRAILS]: [{"rule","action"}]`). */
export interface GuardrailTrigger {
  rule: string;
  action: GuardrailAction;
  /** The rule's message, or a sentence describing what matched. */
  message: string;
}

/** PII scanning for `pii_present`: detection, and a placeholder per finding for `redact`. */
export interface GuardrailPiiScanner {
  detect(text: string): PiiFinding[];
  placeholderFor(kind: string, value: string): string;
}

export interface GuardrailOutcome<T> {
  /** The value after every `redact` rule that fired. */
  value: T;
  triggers: GuardrailTrigger[];
  /** The first `retry` trigger, if any. */
  retry: GuardrailTrigger | null;
  /** The first `intervene` trigger, if any. */
  intervene: GuardrailTrigger | null;
}

const REDACTED = (rule: string) => `[REDACTED:${rule}]`;

/** Every string leaf of a JSON value, in document order (object keys are not content). */
function stringLeaves(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, into);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) stringLeaves(item, into);
  return into;
}

function piiFindings(rule: GuardrailRule, text: string, pii: Pick<GuardrailPiiScanner, 'detect'>): PiiFinding[] {
  if (rule.matcher.kind !== 'pii_present') return [];
  const kinds = rule.matcher.kinds;
  return pii.detect(text).filter((finding) => kinds === null || kinds.includes(finding.kind));
}

/** What fired, described for the compliance note when the rule has no message. */
function describeMatch(rule: GuardrailRule, text: string, pii: Pick<GuardrailPiiScanner, 'detect'>): string | null {
  const matcher = rule.matcher;
  switch (matcher.kind) {
    case 'regex':
    case 'script': {
      matcher.regex.lastIndex = 0;
      const found = matcher.regex.test(text);
      matcher.regex.lastIndex = 0;
      if (!found) return null;
      return matcher.kind === 'regex' ? `text matched /${matcher.source}/` : `text contains ${matcher.script} script`;
    }
    case 'max_chars':
      return text.length > matcher.max ? `text is ${text.length} characters, over max_chars ${matcher.max}` : null;
    case 'pii_present': {
      const kinds = [...new Set(piiFindings(rule, text, pii).map((finding) => finding.kind))];
      return kinds.length > 0 ? `text contains PII (${kinds.join(', ')})` : null;
    }
  }
}

function redactText(rule: GuardrailRule, text: string, pii: GuardrailPiiScanner): string {
  const matcher = rule.matcher;
  switch (matcher.kind) {
    case 'regex':
    case 'script':
      matcher.regex.lastIndex = 0;
      return text.replace(matcher.regex, REDACTED(rule.name));
    case 'max_chars':
      return text; // handled over the whole value (the budget spans every string)
    case 'pii_present':
      return replaceFindings(text, piiFindings(rule, text, pii), (finding) =>
        pii.placeholderFor(finding.kind, finding.value),
      );
  }
}

function truncateLeaves(value: unknown, max: number, rule: string): unknown {
  let budget = max;
  return mapJsonStrings(value, (text) => {
    if (text.length <= budget) {
      budget -= text.length;
      return text;
    }
    const kept = text.slice(0, budget);
    budget = 0;
    return `${kept}${REDACTED(rule)}`;
  });
}

/**
 * Runs the rules of `stage` over `value`. `piiView` decides whether `pii_present` fires (the session
 * looks behind its placeholders: the value is already redacted); `pii` redacts what is still there.
 */
export function evaluateGuardrails<T>(
  rules: readonly GuardrailRule[],
  stage: GuardrailStage,
  value: T,
  pii: GuardrailPiiScanner,
  piiView: Pick<GuardrailPiiScanner, 'detect'> = pii,
): GuardrailOutcome<T> {
  const outcome: GuardrailOutcome<T> = { value, triggers: [], retry: null, intervene: null };
  for (const rule of rules) {
    if (rule.on !== stage) continue;
    const text = stringLeaves(outcome.value).join('\n');
    const matched = describeMatch(rule, text, piiView);
    if (matched === null) continue;
    const trigger: GuardrailTrigger = { rule: rule.name, action: rule.action, message: rule.message ?? matched };
    outcome.triggers.push(trigger);
    if (rule.action === 'redact') {
      outcome.value = (
        rule.matcher.kind === 'max_chars'
          ? truncateLeaves(outcome.value, rule.matcher.max, rule.name)
          : mapJsonStrings(outcome.value, (leaf) => redactText(rule, leaf, pii))
      ) as T;
    } else if (rule.action === 'retry') {
      outcome.retry ??= trigger;
    } else if (rule.action === 'intervene') {
      outcome.intervene ??= trigger;
    }
  }
  return outcome;
}

/** The `[GUARDRAILS]` audit value for a list of triggers. */
export function guardrailAuditValue(
  triggers: readonly GuardrailTrigger[],
): Array<{ rule: string; action: GuardrailAction }> {
  return triggers.map((trigger) => ({ rule: trigger.rule, action: trigger.action }));
}
