/**
 * Every error govflow throws on purpose is a GovflowError (src/errors.ts), so its kind picks the
 * exit code in one table (src/cli/exit-codes.ts) — issue 29. A plain `Error` exits 1 as "a defect"
 * whatever it means, so this scan of src/ fails when a new `extends Error` or `throw new Error(`
 * appears: throw a GovflowError of the right kind (or a class derived from it) instead.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../support/example-app.js';

const SOURCE = path.join(REPOSITORY_ROOT, 'src');

/** Lines allowed to match (`src/<file>: <trimmed line>`), each with why. Keep it short: ideally only the base itself. */
const ALLOWED: Readonly<Record<string, string>> = {
  'src/errors.ts: export class GovflowError extends Error {': 'the base every other error class derives from',
};

const PATTERNS: readonly RegExp[] = [/\bextends Error\b/, /\bthrow new Error\(/];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts|cts|js|mjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Each matching line as `src/<file>: <trimmed line>` (no line number, so edits above it do not break the list). */
function plainErrorLines(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SOURCE)) {
    const relative = path.relative(REPOSITORY_ROOT, file).split(path.sep).join('/');
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (PATTERNS.some((pattern) => pattern.test(line))) found.push(`${relative}: ${line.trim()}`);
    }
  }
  return found;
}

describe('the error base is adopted everywhere in src/', () => {
  it('has no error class extending plain Error and no `throw new Error(` but the listed exceptions', () => {
    const unexpected = plainErrorLines().filter((line) => !(line in ALLOWED));
    expect(
      unexpected,
      'throw a GovflowError (src/errors.ts) with its kind, or derive the class from GovflowError',
    ).toEqual([]);
  });

  it('lists no exception that is gone (the list stays as short as the code needs)', () => {
    const lines = new Set(plainErrorLines());
    expect(Object.keys(ALLOWED).filter((line) => !lines.has(line))).toEqual([]);
  });

  it('would catch both forms (the scan itself works)', () => {
    expect(PATTERNS.some((pattern) => pattern.test('export class NewError extends Error {'))).toBe(true);
    expect(PATTERNS.some((pattern) => pattern.test("  throw new Error('oops');"))).toBe(true);
    expect(PATTERNS.some((pattern) => pattern.test("throw new GovflowError('internal', 'oops');"))).toBe(false);
    expect(PATTERNS.some((pattern) => pattern.test('class AuditError extends GovflowError {'))).toBe(false);
  });
});
