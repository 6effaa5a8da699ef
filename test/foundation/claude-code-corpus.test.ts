/**
 * A corpus of agent files in the shapes people publish for Claude Code (test/fixtures/claude-code-agents/:
 * unquoted ": " in descriptions, multi-line descriptions with examples, dotted names, comma, space
 * and YAML tool lists, every Claude Code tool name, MCP references, `color`, model aliases and full
 * ids, a BOM with CRLF, extra keys) validates as found through `govflow validate` run as a process
 * (SPEC §19): copied into governance/agents/ of a fresh root, and loaded in place from
 * agents.claude_code_dir. Each file's warning names exactly the tools left out, computed here
 * from the file's own `tools:` by a table independent of the code under test.
 */
import { cpSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, runCli } from '../daemon/daemon-helpers.js';
import { REPOSITORY_ROOT } from '../support/example-app.js';

beforeAll(buildDistOnce, 180_000);
afterAll(cleanupAll);

const CORPUS = path.join(REPOSITORY_ROOT, 'test', 'fixtures', 'claude-code-agents');

/** Every .md file of the corpus, root-relative to it (one sits in a subfolder). */
function corpusFiles(): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(path.join(folder, entry.name)).map((file) => `${entry.name}/${file}`)
        : entry.name.endsWith('.md')
          ? [entry.name]
          : [],
    );
  return walk(CORPUS).sort();
}

/** Claude Code tools govflow maps (SPEC §19), Bash aside. */
const MAPPED = new Set(['Read', 'Write', 'Edit', 'MultiEdit', 'Glob', 'LS', 'Grep', 'WebFetch']);

/** The tool entries of a file's `tools:` as the file writes them, read with the simplest rules. */
function toolEntries(file: string): string[] {
  const text = readFileSync(path.join(CORPUS, file), 'utf8')
    .replace(/^\uFEFF/, '')
    .replace(/\r/g, '');
  const frontmatter = text.split('\n---\n')[0];
  const lines = frontmatter.split('\n');
  const start = lines.findIndex((line) => line.startsWith('tools:'));
  if (start < 0) return [];
  const inline = lines[start].slice('tools:'.length).trim();
  if (inline === '') {
    const items: string[] = [];
    for (const line of lines.slice(start + 1)) {
      const item = /^\s+-\s+(.+)$/.exec(line);
      if (!item) break;
      items.push(item[1].trim());
    }
    return items;
  }
  const unquoted = inline.replace(/^["'[]|["'\]]$/g, '');
  // Commas outside parentheses, else spaces.
  const entries = unquoted.split(/,(?![^(]*\))/).map((entry) => entry.trim());
  return entries.length === 1 && !entries[0].includes('(') ? entries[0].split(/\s+/) : entries;
}

/** What a root offers: MCP servers configured, and whether any command is allowed. */
interface Offer {
  servers: string[];
  commands: boolean;
}

function leftOut(entry: string, offer: Offer): boolean {
  const base = /^(\w+)\(/.exec(entry)?.[1] ?? entry;
  if (MAPPED.has(base)) return false;
  if (base === 'Bash') return !offer.commands;
  const mcp = /^mcp__([a-z0-9-]+?)(__|$)/.exec(entry);
  if (mcp) return !offer.servers.includes(mcp[1]);
  return true;
}

/** The warning lines `validate` printed, by file. */
function warningsByFile(stderr: string, folder: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of stderr.split('\n')) {
    const match = /^warning: (\S+?\.md):\d+: (.*)$/.exec(line);
    if (match && match[1].startsWith(`${folder}/`)) found.set(match[1].slice(folder.length + 1), match[2]);
  }
  return found;
}

function checkWarnings(files: string[], stderr: string, folder: string, offer: Offer, flat: boolean): void {
  const warnings = warningsByFile(stderr, folder);
  for (const file of files) {
    const shown = flat ? path.basename(file) : file;
    const expected = toolEntries(file).filter((entry) => leftOut(entry, offer));
    const warning = warnings.get(shown) ?? '';
    for (const tool of expected) expect(warning, `${shown} should name ${tool}`).toContain(tool);
    if (expected.length === 0) expect(warning, `${shown} left out nothing`).not.toContain('tools left out');
    else {
      // Exactly these: every tool the warning names is one the file lists and the root cannot offer.
      const named = /tools left out, the agent runs without them: (.*?)(; frontmatter keys|$)/.exec(warning)![1];
      const tools = named.split(/; /).flatMap((part) => part.replace(/ \([^()]*\)$/, '').split(', '));
      expect(tools.sort(), shown).toEqual([...expected].sort());
    }
  }
}

describe('the corpus of published-shape Claude Code agent files', () => {
  const files = corpusFiles();

  it('holds at least 40 files, every shape the issue lists', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    const all = files.flatMap(toolEntries);
    for (const tool of [...MAPPED, 'Bash', 'WebSearch', 'TodoWrite', 'Task', 'NotebookEdit'])
      expect(all, `some file lists ${tool}`).toContain(tool);
    expect(all.some((tool) => /^mcp__[^_]+(?:[-_][^_]+)*__\w+/.test(tool))).toBe(true);
    expect(all.some((tool) => /^mcp__[a-z0-9-]+$/.test(tool))).toBe(true);
    expect(all).toContain('code-reviewer');
  });

  it('validates as found in governance/agents/ of a fresh root, each file warning about exactly its left-out tools', async () => {
    const root = makeRoot('timezone: UTC\n');
    for (const file of files)
      cpSync(path.join(CORPUS, file), path.join(root, 'governance', 'agents', path.basename(file)));
    const checked = await runCli(['validate', '--root', root]);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toContain('govflow validate: OK');
    checkWarnings(files, checked.stderr, 'governance/agents', { servers: [], commands: false }, true);
    // Every file became an agent: its govflow name is in the routing graph, executional and terminal.
    for (const file of files) {
      const raw = readFileSync(path.join(CORPUS, file), 'utf8').replace(/^\uFEFF/, '');
      const name = /^name:\s*(\S+)/m.exec(raw)![1].toLowerCase().replace(/[.-]/g, '_');
      expect(checked.stdout, file).toContain(`${name} (executional) → (end)`);
    }
    expect(checked.stderr).not.toMatch(/^error/m);
  }, 60_000);

  it('loads in place from agents.claude_code_dir (subfolders too), mapping Bash and the configured MCP servers', async () => {
    const root = makeRoot(
      [
        'timezone: UTC',
        'agents:',
        '  claude_code_dir: .claude/agents',
        'tools:',
        '  commands: { allow: ["Bash(npm test)"] }',
        'mcp:',
        '  servers:',
        '    github: { url: "http://127.0.0.1:9/mcp" }',
        '    context7: { url: "http://127.0.0.1:9/mcp" }',
        '    sequential-thinking: { command: node, args: [server.js] }',
        '',
      ].join('\n'),
    );
    mkdirSync(path.join(root, '.claude'), { recursive: true });
    cpSync(CORPUS, path.join(root, '.claude', 'agents'), { recursive: true });
    const checked = await runCli(['validate', '--root', root]);
    expect(checked.code, checked.stderr).toBe(0);
    const offer = { servers: ['github', 'context7', 'sequential-thinking'], commands: true };
    checkWarnings(files, checked.stderr, '.claude/agents', offer, false);
    expect(checked.stdout).toContain('qa_expert (executional) → (end)');
  }, 60_000);
});
