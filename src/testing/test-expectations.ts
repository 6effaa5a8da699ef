/** Judges what a test case's session did against what the case expects, each mismatch with a diff. Pure. */
import { isDeepStrictEqual } from 'node:util';
import { lineDiff } from '../llm/line-diff.js';
import { resolvePointer } from '../message/json-text.js';
import type { AuditEntryExpectation, TestCaseExpectation } from './test-case-file.js';

/** What one case's session did. */
export interface Observation {
  status: string;
  /** Agents of the session's messages, in sequence order. */
  agents: string[];
  /** The result's `output` (the final message's output.content). */
  output: unknown;
  /** The text of each of the session's audit entries. */
  auditEntries: string[];
  /** The same entries' agent, status and output type, in order. */
  auditFields: Array<{ agent: string; status: string; output_type: string }>;
  /** Whether the whole audit trail verified, and the first problem when not. */
  verify: { ok: boolean; problem: string | null };
}

/** One mismatch: a title line, then a diff or explanation. */
export interface ExpectationFailure {
  what: string;
  detail: string;
}

function show(value: unknown): string {
  return value === undefined ? '(nothing there)' : JSON.stringify(value, null, 2);
}

function mismatch(what: string, expected: unknown, actual: unknown): ExpectationFailure {
  const before = show(expected);
  const after = show(actual);
  const detail =
    before.includes('\n') || after.includes('\n') ? lineDiff(before, after) : `expected ${before}\n  actual ${after}`;
  return { what, detail };
}

/** Every way the observation differs from the expectation (empty: the case passes). */
export function checkExpectations(expected: TestCaseExpectation, observed: Observation): ExpectationFailure[] {
  const failures: ExpectationFailure[] = [];
  if (expected.status !== undefined && expected.status !== observed.status)
    failures.push(mismatch('status', expected.status, observed.status));
  if (expected.agents !== undefined && !isDeepStrictEqual(expected.agents, observed.agents)) {
    failures.push({
      what: "agents (the session's messages, in order)",
      detail: lineDiff(expected.agents.join('\n'), observed.agents.join('\n')),
    });
  }
  for (const [pointer, value] of Object.entries(expected.output ?? {})) {
    const actual = resolvePointer(observed.output, pointer);
    if (!isDeepStrictEqual(value, actual))
      failures.push(mismatch(`output ${pointer === '' ? '(whole)' : pointer}`, value, actual));
  }
  const audit = expected.audit;
  if (audit) {
    if (typeof audit.entries === 'number' && audit.entries !== observed.auditEntries.length) {
      failures.push(mismatch('audit entries of the session', audit.entries, observed.auditEntries.length));
    }
    if (Array.isArray(audit.entries)) failures.push(...checkEntries(audit.entries, observed));
    if (audit.violations !== undefined) {
      const flagged = observed.auditEntries.filter((entry) => entry.includes('[VIOLATIONS]')).length;
      if (flagged !== audit.violations)
        failures.push(mismatch('audit entries with [VIOLATIONS]', audit.violations, flagged));
    }
    if (audit.verify !== undefined && audit.verify !== observed.verify.ok) {
      failures.push({
        what: 'audit verify',
        detail: `expected the audit trail to ${audit.verify ? 'verify' : 'fail verification'}; ${
          observed.verify.ok ? 'it verified' : `it did ` + `not: ${observed.verify.problem ?? 'unknown problem'}`
        }`,
      });
    }
    for (const text of audit.contains ?? []) {
      if (!observed.auditEntries.some((entry) => entry.includes(text))) {
        failures.push({
          what: 'audit contains',
          detail: `no audit entry of the session contains ${JSON.stringify(text)}`,
        });
      }
    }
    for (const text of audit.not_contains ?? []) {
      const index = observed.auditEntries.findIndex((entry) => entry.includes(text));
      if (index >= 0)
        failures.push({
          what: 'audit not_contains',
          detail: `audit entry ${index + 1} of the session contains ${JSON.stringify(text)}`,
        });
    }
  }
  return failures;
}

/** Each expected entry against the session's entry at the same place. */
function checkEntries(expected: AuditEntryExpectation[], observed: Observation): ExpectationFailure[] {
  const failures: ExpectationFailure[] = [];
  if (expected.length !== observed.auditFields.length) {
    failures.push(mismatch('audit entries of the session', expected.length, observed.auditFields.length));
  }
  expected.forEach((entry, index) => {
    const actual = observed.auditFields[index];
    if (!actual) return;
    const shown: Record<string, unknown> = {};
    const wanted: Record<string, unknown> = {};
    for (const key of ['agent', 'status', 'output_type'] as const) {
      if (entry[key] === undefined) continue;
      wanted[key] = entry[key];
      shown[key] = actual[key];
    }
    if (!isDeepStrictEqual(wanted, shown)) failures.push(mismatch(`audit entry ${index + 1}`, wanted, shown));
    for (const text of entry.contains ?? []) {
      if (!observed.auditEntries[index].includes(text))
        failures.push({ what: `audit entry ${index + 1}`, detail: `does not contain ${JSON.stringify(text)}` });
    }
  });
  return failures;
}
