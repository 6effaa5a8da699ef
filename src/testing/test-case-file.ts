/**
 * Governance test cases (`tests/*.yaml`, README "Record, replay and governance tests"): a file holds
 * one case or a list of them. Unknown keys and wrong types are errors naming the file and line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument, isMap, isSeq, type Node } from 'yaml';
import { ConfigError } from '../errors.js';
import { pointerSegments } from '../message/json-text.js';
import { builtinValidator, describeSchemaErrors, errorKeyPath } from '../message/schema-compiler.js';

/** One audit entry as expected, in order (every key optional). */
export interface AuditEntryExpectation {
  agent?: string;
  status?: string;
  output_type?: string;
  /** Texts found in this entry. */
  contains?: string[];
}

export interface AuditExpectation {
  /** Audit entries of the session: how many, or each one in order. */
  entries?: number | AuditEntryExpectation[];
  /** Entries flagged with `[VIOLATIONS]`. */
  violations?: number;
  /** The whole audit trail verifies (`govflow verify`). */
  verify?: boolean;
  /** Texts each found in at least one of the session's entries. */
  contains?: string[];
  /** Texts found in none of them. */
  not_contains?: string[];
}

export interface TestCaseExpectation {
  status?: 'success' | 'partial' | 'failed' | 'pending';
  /** The agents of the session's messages, in order. */
  agents?: string[];
  /** JSON pointer into the result's output → expected value. */
  output?: Record<string, unknown>;
  audit?: AuditExpectation;
}

export interface TestCase {
  name: string;
  request: { request: string; request_id?: string; user?: string; metadata?: Record<string, unknown> };
  /** Absolute path of the cassette. */
  cassette: string;
  /** The cassette as written in the file (relative to tests/). */
  cassetteName: string;
  expect: TestCaseExpectation;
  /** Root-relative file and 1-based line where the case starts. */
  file: string;
  line: number;
}

const stringList = { type: 'array', items: { type: 'string' } };

export const CASE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'request', 'expect'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
    request: {
      anyOf: [
        { type: 'string', minLength: 1 },
        {
          type: 'object',
          additionalProperties: false,
          required: ['request'],
          properties: {
            request: { type: 'string', minLength: 1 },
            request_id: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
            user: { type: 'string' },
            metadata: { type: 'object' },
          },
        },
      ],
    },
    cassette: { type: 'string', minLength: 1 },
    expect: {
      type: 'object',
      additionalProperties: false,
      properties: {
        status: { enum: ['success', 'partial', 'failed', 'pending'] },
        agents: stringList,
        output: { type: 'object', propertyNames: { pattern: '^(/.*)?$' } },
        audit: {
          type: 'object',
          additionalProperties: false,
          properties: {
            entries: {
              anyOf: [
                { type: 'integer', minimum: 0 },
                {
                  type: 'array',
                  items: {
                    type: 'object',
                    additionalProperties: false,
                    properties: {
                      agent: { type: 'string' },
                      status: { type: 'string' },
                      output_type: { type: 'string' },
                      contains: stringList,
                    },
                  },
                },
              ],
            },
            violations: { type: 'integer', minimum: 0 },
            verify: { type: 'boolean' },
            contains: stringList,
            not_contains: stringList,
          },
        },
      },
    },
  },
} as const;

const validateCase = builtinValidator('testCase');

/** Parses one tests/*.yaml file. Throws ConfigError with the file and line of the first problem. */
export function parseTestCaseFile(text: string, file: string, testsDir: string): TestCase[] {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    const first = document.errors[0];
    throw new ConfigError(
      `invalid YAML: ${first.message.split('\n')[0]}`,
      file,
      lineCounter.linePos(first.pos[0]).line,
    );
  }
  const lineAt = (segments: Array<string | number>): number => {
    // The deepest node that exists on the path: a misspelt key points at its own line.
    for (let length = segments.length; length >= 0; length--) {
      const node =
        length === 0 ? document.contents : (document.getIn(segments.slice(0, length), true) as Node | undefined);
      const keyNode = length > 0 ? keyNodeOf(segments.slice(0, length)) : undefined;
      const range = keyNode?.range ?? node?.range;
      if (range) return lineCounter.linePos(range[0]).line;
    }
    return 1;
  };
  const keyNodeOf = (segments: Array<string | number>): Node | undefined => {
    const parent = segments.length === 1 ? document.contents : document.getIn(segments.slice(0, -1), true);
    if (!isMap(parent)) return undefined;
    const pair = parent.items.find(
      (item) => String((item.key as { value?: unknown } | null)?.value) === String(segments.at(-1)),
    );
    return pair?.key as Node | undefined;
  };
  const value = document.toJS() as unknown;
  const isList = isSeq(document.contents);
  const items: unknown[] = isList ? (value as unknown[]) : [value];
  if (items.length === 0 || value === null || value === undefined) {
    throw new ConfigError('empty test file: write a case with name, request, cassette and expect', file, 1);
  }
  return items.map((item, index) => {
    const base: Array<string | number> = isList ? [index] : [];
    if (!validateCase(item)) {
      // A misspelt key also leaves its right spelling missing: name the misspelling first.
      const error =
        validateCase.errors!.find((candidate) => candidate.keyword === 'additionalProperties') ??
        validateCase.errors![0];
      const inCase = pointerSegments(error.instancePath);
      const segments = [...base, ...errorKeyPath(error)];
      const [sentence] = describeSchemaErrors([error]);
      const where = inCase.length > 0 ? inCase.join('.') : 'the case';
      throw new ConfigError(
        `${where}: ${sentence.slice(sentence.indexOf(': ') + 2)} (allowed keys: name, request, cassette?, expect {status, agents, output, ` +
          `audit {entries, violations, verify, contains, not_contains}})`,
        file,
        lineAt(segments),
      );
    }
    const raw = item as {
      name: string;
      request: string | TestCase['request'];
      cassette?: string;
      expect: TestCaseExpectation;
    };
    const cassette = raw.cassette ?? `cassettes/${raw.name}.cassette.json`;
    return {
      name: raw.name,
      request: typeof raw.request === 'string' ? { request: raw.request } : raw.request,
      cassette: path.resolve(testsDir, cassette),
      cassetteName: cassette,
      expect: raw.expect,
      file,
      line: lineAt(base),
    };
  });
}

/** Reads a case file; `file` is shown as given (root-relative in the report). */
export function readTestCaseFile(absolutePath: string, file: string, testsDir: string): TestCase[] {
  return parseTestCaseFile(readFileSync(absolutePath, 'utf8'), file, testsDir);
}
