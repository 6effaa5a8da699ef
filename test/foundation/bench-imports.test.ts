/**
 * The benchmarks (bench/*.mjs) import the built code by path and name — `const { a, b } = await
 * importBuilt('store/journal-reader.js')` — which no compiler checks: a module moved or an export
 * renamed breaks `npm run bench` only when someone runs it (three had broken that way). Each such
 * import must name a module of src/ and exports it has.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const BENCH = path.resolve(import.meta.dirname, '..', '..', 'bench');
const SRC = path.resolve(import.meta.dirname, '..', '..', 'src');
const IMPORT = /(?:const \{([^}]*)\} = )?await importBuilt\('([^']+)'\)/g;

interface BuiltImport {
  script: string;
  module: string;
  names: string[];
}

function builtImports(): BuiltImport[] {
  const found: BuiltImport[] = [];
  for (const script of readdirSync(BENCH).filter((name) => name.endsWith('.mjs'))) {
    const text = readFileSync(path.join(BENCH, script), 'utf8');
    for (const [, names, module] of text.matchAll(IMPORT)) {
      if (module === undefined || module.includes('${')) continue; // importBuilt's own definition
      const bound = (names ?? '')
        .split(',')
        .map((name) => name.split(':')[0]!.trim())
        .filter(Boolean);
      found.push({ script, module, names: bound });
    }
  }
  return found;
}

describe('the benchmarks import what src/ exports', () => {
  const imports = builtImports();

  it('finds the imports to check', () => {
    expect(imports.length).toBeGreaterThan(30);
    expect(imports).toContainEqual({
      script: 'routes-templates.mjs',
      module: 'store/journal-reader.js',
      names: ['SessionJournal'],
    });
  });

  it.each(imports.map((entry) => [`${entry.script}: ${entry.module}`, entry] as const))('%s', async (_, entry) => {
    const source = path.join(SRC, entry.module.replace(/\.js$/, '.ts'));
    expect(existsSync(source), `${entry.script} imports ${entry.module}, which src/ does not have`).toBe(true);
    const exported = await import(source);
    const missing = entry.names.filter((name) => !(name in exported));
    expect(missing, `${entry.script} imports names ${entry.module} does not export`).toEqual([]);
  });
});
