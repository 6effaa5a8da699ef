/**
 * docs/exit-codes.md is written by hand, so this holds it to the one table the CLI uses
 * (src/cli/exit-codes.ts): every error kind and every result status with its code, every code
 * explained, and no row for a kind or status the code no longer has.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_BY_KIND, EXIT_CODE_BY_STATUS } from '../../src/cli/exit-codes.js';
import { REPOSITORY_ROOT } from '../support/example-app.js';

const PAGE = readFileSync(path.join(REPOSITORY_ROOT, 'docs', 'exit-codes.md'), 'utf8');

/** The table rows under the `## heading` of the page, as arrays of trimmed cells. */
function rowsUnder(heading: string): string[][] {
  const start = PAGE.indexOf(`\n## ${heading}\n`);
  expect(start, `docs/exit-codes.md has a "## ${heading}" section`).toBeGreaterThan(-1);
  const end = PAGE.indexOf('\n## ', start + 1);
  const section = PAGE.slice(start, end === -1 ? undefined : end);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
}

/** `{ name: code }` from rows whose first cell is a `name` in backticks and whose second is the code. */
function codesByName(rows: string[][]): Record<string, number> {
  return Object.fromEntries(rows.map(([name, code]) => [name.replace(/^`|`$/g, ''), Number(code)]));
}

describe('docs/exit-codes.md', () => {
  it('gives every error kind the exit code src/cli/exit-codes.ts maps it to, and no other kind', () => {
    expect(codesByName(rowsUnder('By error kind'))).toEqual({ ...EXIT_CODE_BY_KIND });
  });

  it('gives every result status of govflow run its exit code, and no other status', () => {
    expect(codesByName(rowsUnder('`govflow run` by result status'))).toEqual({ ...EXIT_CODE_BY_STATUS });
  });

  it('explains every exit code the CLI can return, and no other', () => {
    const used = new Set([...Object.values(EXIT_CODE_BY_KIND), ...Object.values(EXIT_CODE_BY_STATUS)]);
    const explained = new Set(rowsUnder('Codes').map(([code]) => Number(code)));
    expect(explained).toEqual(used);
  });
});
