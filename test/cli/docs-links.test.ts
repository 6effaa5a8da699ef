/**
 * README.md is a quick start that stays short, and the reference lives in docs/: every page there
 * is listed in docs/README.md's index, and every relative link of README.md and docs/ leads to a
 * file that exists (a page moved or renamed fails here, not for a reader).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../support/example-app.js';

const DOCS = path.join(REPOSITORY_ROOT, 'docs');
const pages = readdirSync(DOCS).filter((name) => name.endsWith('.md') && name !== 'README.md');
const documents = ['README.md', 'docs/README.md', ...pages.map((name) => `docs/${name}`)];

/** Relative link targets of a markdown text, without their #anchor. */
function relativeLinks(text: string): string[] {
  const outsideCode = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...outsideCode.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0]);
}

describe('README.md and the reference in docs/', () => {
  it('keeps README.md a quick start of at most 300 lines', () => {
    const lines = readFileSync(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(300);
  });

  it('lists every page of docs/ in the index docs/README.md', () => {
    const index = readFileSync(path.join(DOCS, 'README.md'), 'utf8');
    const listed = new Set(relativeLinks(index));
    expect(pages.filter((page) => !listed.has(page))).toEqual([]);
  });

  it('links only to files that exist', () => {
    const broken: string[] = [];
    for (const document of documents) {
      const text = readFileSync(path.join(REPOSITORY_ROOT, document), 'utf8');
      for (const target of relativeLinks(text)) {
        const file = path.resolve(path.dirname(path.join(REPOSITORY_ROOT, document)), target);
        if (!existsSync(file)) broken.push(`${document}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
