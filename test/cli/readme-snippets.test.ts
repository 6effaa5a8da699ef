/**
 * The examples of README.md and of the reference pages in docs/ run as written (issue 32): every
 * fenced block marked `runnable` is run against a fresh root, so an example that stops working
 * fails here instead of for a reader.
 *
 * The convention — words after the language in the fence's info string (renderers show only the
 * language):
 *
 *   ```sh runnable [group=NAME]                                   (or bash)
 *   ```yaml runnable [group=NAME] [file=PATH] [validate=end]
 *   ```markdown runnable file=PATH [group=NAME] [validate=end]
 *
 * - Snippets with the same group=NAME in one file share one root and run in file order; a snippet without
 *   group= is a group of its own. Each group gets a fresh root: `govflow init` (dry-run), plus a
 *   copy of this repository's examples/ (the package ships it), which snippets name by its path
 *   here (examples/scripted-tools.yaml).
 * - yaml without file= is configuration: merged into govflow.config.yaml (the group's first one
 *   replaces init's all-comment file as written, so validate's line numbers are the snippet's).
 * - yaml or markdown with file=PATH is written to PATH in the root (replacing init's file there).
 * - sh runs with `bash -e -o pipefail` in the root. `govflow` and `npx govflow` are shims for
 *   `node <repo>/bin/govflow.js` (the npx shim refuses anything else, so nothing reaches a
 *   registry); the environment holds no GOVFLOW_* variable and no API key, HOME is a temp folder.
 *   It must exit 0.
 * - `govflow validate` must pass after every yaml or markdown snippet. validate=end defers it, from
 *   that snippet on, to the end of the group (for an agent naming the MCP servers that config
 *   snippets further down declare).
 *
 * Mark an example runnable when it can run offline (dry-run, the scripted or replay provider, or
 * configuration that `govflow validate` checks without calling anyone); leave examples that need
 * a real model, a key, a network peer, Postgres or a long-running daemon unmarked.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { REPOSITORY_ROOT } from '../support/example-app.js';

interface Snippet {
  /** The file (README.md, docs/x.md) and line of the opening fence. */
  where: string;
  line: number;
  section: string;
  language: 'sh' | 'yaml' | 'markdown';
  text: string;
  group: string;
  file?: string;
  validateAtEnd: boolean;
}

const LANGUAGES: Record<string, Snippet['language']> = { sh: 'sh', bash: 'sh', yaml: 'yaml', markdown: 'markdown' };

/** The runnable snippets of `document` (named `name`), and what is wrong with any fence that claims to be one. */
function readRunnableSnippets(name: string, document: string): { snippets: Snippet[]; problems: string[] } {
  const lines = document.split('\n');
  const snippets: Snippet[] = [];
  const problems: string[] = [];
  let section = '';
  for (let index = 0; index < lines.length; index++) {
    const heading = /^#{1,6} (.*)$/.exec(lines[index]);
    if (heading) section = heading[1];
    const fence = /^```(\S*)\s*(.*)$/.exec(lines[index]);
    if (!fence) continue;
    const opening = index + 1;
    const body: string[] = [];
    for (index++; index < lines.length && !/^```\s*$/.test(lines[index]); index++) body.push(lines[index]);
    if (index === lines.length) problems.push(`${name}:${opening}: the fence is never closed`);
    const words = fence[2].split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    const where = `${name}:${opening}`;
    if (words[0] !== 'runnable') {
      problems.push(`${where}: after the language only "runnable" and its attributes may follow, found "${fence[2]}"`);
      continue;
    }
    const language = LANGUAGES[fence[1]];
    if (!language) {
      problems.push(`${where}: a runnable snippet is sh, bash, yaml or markdown, not "${fence[1]}"`);
      continue;
    }
    const snippet: Snippet = {
      where,
      line: opening,
      section,
      language,
      text: `${body.join('\n')}\n`,
      group: where,
      validateAtEnd: false,
    };
    for (const word of words.slice(1)) {
      const [key, value] = word.split('=', 2);
      if (key === 'group' && value) snippet.group = `${name} group ${value}`;
      else if (key === 'file' && value && !path.isAbsolute(value) && !value.split('/').includes('..'))
        snippet.file = value;
      else if (word === 'validate=end') snippet.validateAtEnd = true;
      else problems.push(`${where}: unknown word "${word}" (group=NAME, file=PATH inside the root, validate=end)`);
    }
    if (language === 'markdown' && !snippet.file)
      problems.push(`${where}: a runnable markdown snippet names its file=PATH`);
    if (language === 'sh' && (snippet.file || snippet.validateAtEnd))
      problems.push(`${where}: an sh snippet takes only group=`);
    snippets.push(snippet);
  }
  return { snippets, problems };
}

const DOCUMENTS = [
  'README.md',
  ...readdirSync(path.join(REPOSITORY_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const snippets: Snippet[] = [];
const problems: string[] = [];
for (const name of DOCUMENTS) {
  const found = readRunnableSnippets(name, readFileSync(path.join(REPOSITORY_ROOT, name), 'utf8'));
  snippets.push(...found.snippets);
  problems.push(...found.problems);
}
const groups = new Map<string, Snippet[]>();
for (const snippet of snippets) groups.set(snippet.group, [...(groups.get(snippet.group) ?? []), snippet]);

const CLI = path.join(REPOSITORY_ROOT, 'bin', 'govflow.js');
let scratch = '';
let environment: NodeJS.ProcessEnv = {};

const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

beforeAll(async () => {
  await buildDistOnce();
  scratch = mkdtempSync(path.join(tmpdir(), 'govflow-readme-'));
  const shims = path.join(scratch, 'bin');
  mkdirSync(shims);
  mkdirSync(path.join(scratch, 'home'));
  writeFileSync(path.join(shims, 'govflow'), `#!/bin/sh\nexec ${quoted(process.execPath)} ${quoted(CLI)} "$@"\n`);
  writeFileSync(
    path.join(shims, 'npx'),
    '#!/bin/sh\n# Stands in for an installed govflow; never reaches a registry.\n' +
      'if [ "$1" = govflow ]; then shift; exec govflow "$@"; fi\n' +
      'echo "README snippets may run npx govflow only, not npx $1" >&2\nexit 127\n',
  );
  chmodSync(path.join(shims, 'govflow'), 0o755);
  chmodSync(path.join(shims, 'npx'), 0o755);
  environment = {
    PATH: `${shims}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: path.join(scratch, 'home'),
    LANG: 'C.UTF-8',
  };
  if (process.env.TMPDIR) environment.TMPDIR = process.env.TMPDIR;
}, 180_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface Outcome {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], cwd: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: environment, stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function merged(base: Record<string, unknown>, addition: Record<string, unknown>): Record<string, unknown> {
  const result = { ...base };
  for (const [key, value] of Object.entries(addition)) {
    const current = result[key];
    result[key] = isMapping(current) && isMapping(value) ? merged(current, value) : value;
  }
  return result;
}

function addConfiguration(root: string, text: string): void {
  const file = path.join(root, 'govflow.config.yaml');
  const current: unknown = parse(readFileSync(file, 'utf8'));
  const addition: unknown = parse(text);
  if (current === null || current === undefined) writeFileSync(file, text);
  else if (isMapping(current) && isMapping(addition)) writeFileSync(file, stringify(merged(current, addition)));
  else throw new Error('a configuration snippet must be a YAML mapping');
}

/** Writes or runs one snippet in `root`. */
async function apply(snippet: Snippet, root: string): Promise<void> {
  const where = `${snippet.where} ("${snippet.section}")`;
  if (snippet.language === 'sh') {
    const ran = await run('bash', ['-e', '-o', 'pipefail', '-c', snippet.text], root);
    expect(ran.code, `${where} fails as written (exit ${ran.code}):\n${snippet.text}\n${ran.output}`).toBe(0);
  } else if (snippet.file) {
    mkdirSync(path.dirname(path.join(root, snippet.file)), { recursive: true });
    writeFileSync(path.join(root, snippet.file), snippet.text);
  } else {
    addConfiguration(root, snippet.text);
  }
}

async function expectValid(root: string, after: Snippet[]): Promise<void> {
  const checked = await run(process.execPath, [CLI, 'validate', '--root', root], root);
  const names = after.map((snippet) => snippet.where).join(', ');
  expect(
    checked.code,
    `govflow validate rejects the root after ${names} ("${after[0].section}"):\n${checked.output}`,
  ).toBe(0);
}

describe('README.md and docs/ mark their runnable examples well', () => {
  it('every runnable fence is closed and uses only known words', () => {
    expect(problems).toEqual([]);
    expect(snippets.length).toBeGreaterThan(0);
  });
});

describe.concurrent('examples marked runnable in README.md and docs/', () => {
  for (const [group, members] of groups) {
    const lines = members.map((snippet) => snippet.line).join(', ');
    const title =
      members.length === 1 && group === members[0].where
        ? `${group} ("${members[0].section}")`
        : `${group}: lines ${lines} ("${members[0].section}")`;
    it(
      title,
      async () => {
        const root = path.join(mkdtempSync(path.join(scratch, 'group-')), 'root');
        const created = await run(process.execPath, [CLI, 'init', root], scratch);
        expect(created.code, created.output).toBe(0);
        cpSync(path.join(REPOSITORY_ROOT, 'examples'), path.join(root, 'examples'), {
          recursive: true,
          filter: (source) => !/\/examples\/[^/]+\/system$/.test(source),
        });
        const deferred: Snippet[] = [];
        for (const snippet of members) {
          await apply(snippet, root);
          if (snippet.language === 'sh') continue;
          if (snippet.validateAtEnd || deferred.length > 0) deferred.push(snippet);
          else await expectValid(root, [snippet]);
        }
        if (deferred.length > 0) await expectValid(root, deferred);
      },
      60_000,
    );
  }
});
