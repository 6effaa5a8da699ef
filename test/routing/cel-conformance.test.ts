/**
 * cel-spec's conformance data (shipped by @bufbuild/cel-spec) for the CEL features docs/agents.md
 * documents, run through govflow's own expression path (src/governance/cel-expression.ts: the
 * environment routes, templates and `answer:` use, values read back as JSON). Tests that need
 * protobuf messages, enums, a container or a type checker are outside what govflow exposes and
 * are left out (about 830 tests remain, all passing with @bufbuild/cel 0.6.1, in about a second).
 */
import { celUint } from '@bufbuild/cel';
import { getConformanceSuite, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { describe, expect, it } from 'vitest';
import { compileExpression } from '../../src/governance/cel-expression.js';

/** Suites (and their sections; all when empty) of the features docs/agents.md documents. */
const DOCUMENTED: Record<string, string[]> = {
  basic: ['self_eval_zeroish', 'self_eval_nonzeroish', 'variables', 'reserved_const'],
  comparisons: [],
  logic: [],
  fields: ['map_fields', 'map_has', 'in'],
  lists: [],
  macros: [],
  string: ['size', 'starts_with', 'ends_with', 'matches', 'concatenation', 'contains'],
  string_ext: ['char_at', 'index_of', 'last_index_of', 'ascii_casing', 'replace', 'split', 'substring', 'trim', 'join'],
  fp_math: [],
  integer_math: [],
  conversions: ['double', 'int', 'string', 'bool', 'uint'],
};

type Test = IncrementalTestSuite['tests'][number]['original'];
type Value = NonNullable<Extract<Test['resultMatcher'], { case: 'value' }>['value']>;

/** A conformance Value as a binding (CEL's own types) or, with `asJson`, as govflow reads it back. */
function fromValue(value: Value, asJson: boolean): unknown {
  const kind = value.kind;
  switch (kind.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'stringValue':
    case 'doubleValue':
      return kind.value;
    case 'int64Value':
      return asJson ? Number(kind.value) : kind.value;
    case 'uint64Value':
      return asJson ? Number(kind.value) : celUint(kind.value);
    case 'bytesValue':
      return asJson ? Buffer.from(kind.value).toString('base64') : kind.value;
    case 'typeValue':
      return kind.value;
    case 'listValue':
      return kind.value.values.map((item) => fromValue(item, asJson));
    case 'mapValue': {
      const entries = kind.value.entries.map((entry) => [
        fromValue(entry.key!, asJson),
        fromValue(entry.value!, asJson),
      ]);
      return asJson ? Object.fromEntries(entries.map(([key, item]) => [String(key), item])) : new Map(entries as never);
    }
    default:
      throw new Unsupported(kind.case ?? 'unset');
  }
}

class Unsupported extends Error {}

/** Every test of the documented sections, as [path, test]; those needing protobuf types, enums or a checker left out. */
function documentedTests(): Array<[string, Test]> {
  const picked: Array<[string, Test]> = [];
  for (const suite of getConformanceSuite().suites) {
    const sections = DOCUMENTED[suite.name];
    if (!sections) continue;
    for (const section of suite.suites) {
      if (sections.length > 0 && !sections.includes(section.name)) continue;
      for (const test of section.tests) {
        const original = test.original;
        const matcher = original.resultMatcher.case;
        if (original.container || original.disableMacros || original.checkOnly) continue;
        if (matcher !== undefined && matcher !== 'value' && matcher !== 'evalError') continue;
        picked.push([`${suite.name}/${section.name}/${test.name}`, original]);
      }
    }
  }
  return picked;
}

/** The test's outcome through govflow's path: 'skip' when its data needs what govflow does not expose. */
function outcome(test: Test): { ok: boolean; detail: string } | 'skip' {
  let bindings: Record<string, unknown>;
  let expected: unknown;
  try {
    bindings = Object.fromEntries(
      Object.entries(test.bindings).map(([name, binding]) => {
        if (binding.kind.case !== 'value') throw new Unsupported('non-value binding');
        return [name, fromValue(binding.kind.value, false)];
      }),
    );
    expected =
      test.resultMatcher.case === 'value'
        ? fromValue(test.resultMatcher.value, true)
        : test.resultMatcher.case === undefined
          ? true
          : 'error';
  } catch (error) {
    if (error instanceof Unsupported) return 'skip';
    throw error;
  }
  let result;
  try {
    result = compileExpression(test.expr).evaluate(bindings);
  } catch (error) {
    // Some conformance tests expect an error for what this parser rejects outright.
    return { ok: expected === 'error', detail: `does not parse: ${String(error)}` };
  }
  if (expected === 'error') return { ok: !result.ok, detail: JSON.stringify(result) };
  if (!result.ok) return { ok: false, detail: `error: ${result.error}` };
  const ok = sameJson(result.value, expected);
  return { ok, detail: `got ${String(JSON.stringify(result.value))}, expected ${String(JSON.stringify(expected))}` };
}

/** JSON equality with NaN equal to itself (CEL's doubles). */
function sameJson(left: unknown, right: unknown): boolean {
  if (typeof left === 'number' && typeof right === 'number')
    return left === right || (Number.isNaN(left) && Number.isNaN(right));
  if (Array.isArray(left) && Array.isArray(right))
    return left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  if (left && right && typeof left === 'object' && typeof right === 'object') {
    const keys = Object.keys(left);
    return (
      keys.length === Object.keys(right).length &&
      keys.every((key) => sameJson((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]))
    );
  }
  return left === right;
}

describe('CEL conformance (cel-spec data) for the features govflow documents', () => {
  const tests = documentedTests();

  it('covers every documented suite with hundreds of tests', () => {
    const suites = new Set(tests.map(([name]) => name.split('/')[0]));
    expect([...suites].sort()).toEqual(Object.keys(DOCUMENTED).sort());
    expect(tests.length).toBeGreaterThan(800);
  });

  it("passes them through govflow's expression path", () => {
    const failures: string[] = [];
    let ran = 0;
    for (const [name, test] of tests) {
      const result = outcome(test);
      if (result === 'skip') continue;
      ran += 1;
      if (!result.ok) failures.push(`${name}: ${test.expr} → ${result.detail}`);
    }
    expect(failures).toEqual([]);
    expect(ran).toBeGreaterThan(700);
  });
});
