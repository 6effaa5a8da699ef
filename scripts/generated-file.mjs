/**
 * The end of a script that writes a file from the code (scripts/config-reference.mjs,
 * scripts/builtin-validators.mjs): writes `text` to `target`, or with `--check` exits 1 when the
 * committed file differs, naming the npm script that rewrites it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function writeOrCheck(root, target, text, { what, rewrite }) {
  const name = path.relative(root, target);
  if (!process.argv.includes('--check')) {
    writeFileSync(target, text);
    console.log(`wrote ${name}`);
    return;
  }
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing: out of date
  }
  if (current !== text) {
    console.error(`${name} is out of date with ${what}: run ${rewrite}`);
    process.exit(1);
  }
  console.log(`${name} is up to date`);
}
