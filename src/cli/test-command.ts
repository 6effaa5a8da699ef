/**
 * `govflow test [NAME…] [--update]` (README "Record, replay and governance tests"): the root's
 * tests/*.yaml against their cassettes, PASS/FAIL with a diff each. Exit 0 all pass, 1 not, 2 usage.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, errorMessage } from '../errors.js';
import { readTestCaseFile, type TestCase } from '../testing/test-case-file.js';
import { describePromptChange } from '../testing/prompt-changes.js';
import { runTestCase, type CaseReport } from '../testing/test-case-runner.js';
import type { CommandDefinition } from './command-context.js';

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => `${pad}${line}`)
    .join('\n');
}

/** The report of one case, as printed. */
export function describeCaseReport(report: CaseReport, root: string): string {
  const where = `${report.testCase.file}:${report.testCase.line}`;
  const recorded = report.recorded ? `, recorded ${path.relative(root, report.recorded)}` : '';
  if (report.passed) return `PASS ${report.testCase.name} (${report.ms} ms${recorded})`;
  const lines = [`FAIL ${report.testCase.name} (${where}, ${report.ms} ms${recorded})`];
  for (const change of report.promptChanges) {
    lines.push(`  prompt of agent ${change.agent} changed since the recording — ${describePromptChange(change)}`);
    if (change.diff) lines.push(indent(change.diff, 4));
  }
  if (report.promptChanges.length > 0)
    lines.push(`  to accept the change, record again: govflow test --update ${report.testCase.name}`);
  for (const failure of report.failures) {
    lines.push(`  ${failure.what}:`);
    lines.push(indent(failure.detail, 4));
  }
  return lines.join('\n');
}

/** The cases of tests/, and `file:line: problem` for each file that could not be read as cases. */
function loadCases(root: string, testsDir: string): { cases: TestCase[]; broken: string[] } {
  const files = readdirSync(testsDir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort();
  const cases: TestCase[] = [];
  const broken: string[] = [];
  const seen = new Map<string, string>();
  for (const name of files) {
    const file = path.relative(root, path.join(testsDir, name));
    try {
      for (const testCase of readTestCaseFile(path.join(testsDir, name), file, testsDir)) {
        const earlier = seen.get(testCase.name);
        if (earlier) {
          broken.push(
            `${file}:${testCase.line}: the name "${testCase.name}" is already used by ${earlier}; give each case its own name`,
          );
          continue;
        }
        seen.set(testCase.name, `${file}:${testCase.line}`);
        cases.push(testCase);
      }
    } catch (error) {
      broken.push(error instanceof ConfigError ? error.describe() : `${file}: ${errorMessage(error)}`);
    }
  }
  return { cases, broken };
}

export const testCommand: CommandDefinition = {
  options: { update: { type: 'boolean' } },
  allowPositionals: true,
  async run({ root, values, positionals, io }) {
    const testsDir = path.join(root, 'tests');
    if (!existsSync(testsDir)) {
      io.stderr(
        `govflow test: ${root} has no tests/ folder; write cases as tests/<name>.yaml (name, request, cassette, expect) and record them with --update\n`,
      );
      return 2;
    }
    const { cases, broken } = loadCases(root, testsDir);
    const unknown = positionals.filter((name) => !cases.some((testCase) => testCase.name === name));
    if (unknown.length > 0 && broken.length === 0) {
      io.stderr(
        `govflow test: no test case named ${unknown.map((name) => `"${name}"`).join(', ')}; the cases ` +
          `are: ${cases.map((testCase) => testCase.name).join(', ') || '(none)'}\n`,
      );
      return 2;
    }
    const selected = positionals.length > 0 ? cases.filter((testCase) => positionals.includes(testCase.name)) : cases;
    if (selected.length === 0 && broken.length === 0) {
      io.stderr(
        `govflow test: tests/ holds no *.yaml case; write one (name, request, cassette, expect) and record it with --update\n`,
      );
      return 2;
    }
    let passed = 0;
    let failed = 0;
    for (const problem of broken) {
      io.stdout(`FAIL ${problem}\n`);
      failed++;
    }
    for (const testCase of selected) {
      const report = await runTestCase(root, testCase, { update: values.update === true, env: io.env });
      io.stdout(`${describeCaseReport(report, root)}\n`);
      if (report.passed) passed++;
      else failed++;
    }
    io.stdout(`${passed} passed, ${failed} failed\n`);
    return failed === 0 ? 0 : 1;
  },
};
