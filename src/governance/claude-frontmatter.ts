/**
 * Frontmatter of agent files written for Claude Code (docs/claude-code.md), read as Claude Code
 * reads it. Such a file is told apart from a govflow agent file by its keys: it has no `type` and
 * none of the keys only govflow uses (entry, next, content_type, …). Its YAML is parsed as written
 * first; when that fails — typically an unquoted `: ` in a description (`Triggers on: 'GDPR'`) — the
 * value of each key that does not parse on its own is read as a plain string, and the YAML parsed
 * again. Line numbers stay those of the file.
 */
import { isMap, parseDocument } from 'yaml';
import { AGENT_DECLARATION_SCHEMA } from '../config/agent-declaration-schema.js';
import { parseYamlSource, type YamlSource } from '../config/yaml-source.js';

/** Keys of Claude Code's agent frontmatter: a line starting with one of them starts a value when the YAML is lenient. */
export const CLAUDE_CODE_KEYS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'tools',
  'model',
  'color',
  'disallowedTools',
  'permissionMode',
  'skills',
  'hooks',
  'memory',
  'mcpServers',
  'maxTurns',
]);

/** Keys a govflow agent file may have and a Claude Code file never has. */
const GOVFLOW_ONLY_KEYS: ReadonlySet<string> = new Set(
  Object.keys(AGENT_DECLARATION_SCHEMA.properties).filter((key) => !['name', 'description', 'tools', 'model'].includes(key)),
);

/** A top-level `key:` line (column 0), with its key. */
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]|$)/;

/** True when frontmatter with these top-level keys is a Claude Code file: no `type`, no key only govflow uses. */
export function hasClaudeCodeKeys(keys: readonly string[]): boolean {
  return !keys.some((key) => GOVFLOW_ONLY_KEYS.has(key));
}

/** The top-level keys of frontmatter text, by its lines (for text that is not valid YAML). */
export function topLevelKeys(text: string): string[] {
  return text
    .split('\n')
    .map((line) => KEY_LINE.exec(line)?.[1])
    .filter((key): key is string => key !== undefined);
}

/**
 * Parses Claude Code frontmatter leniently (see the file comment). Throws ConfigError with file
 * and line when even the lenient reading is not YAML.
 */
export function parseClaudeFrontmatter(text: string, file: string, firstLine: number): YamlSource {
  try {
    return parseYamlSource(text, file, firstLine);
  } catch (strictError) {
    const lenient = quoteUnparsableValues(text);
    if (lenient === text) throw strictError;
    return parseYamlSource(lenient, file, firstLine);
  }
}

/**
 * The text with every key's value that is not YAML on its own rewritten as one double-quoted
 * string over the same lines. A line at column 0 starting with one of Claude Code's keys starts a
 * value; every other line (an example's `user: "…"`, a `<example>` tag) continues the value above.
 */
export function quoteUnparsableValues(text: string): string {
  const lines = text.split('\n');
  const groups: Array<{ key: string | null; lines: string[] }> = [];
  for (const line of lines) {
    const key = KEY_LINE.exec(line)?.[1];
    const current = groups.at(-1);
    if (key !== undefined && (CLAUDE_CODE_KEYS.has(key) || current === undefined || current.key === null))
      groups.push({ key, lines: [line] });
    else if (current) current.lines.push(line);
    else groups.push({ key: null, lines: [line] });
  }
  return groups.map((group) => (group.key === null ? group.lines : quotedGroup(group.key, group.lines))).flat().join('\n');
}

/** The lines of one key: as written when they parse alone as that one key, else its value quoted. */
function quotedGroup(key: string, lines: string[]): string[] {
  const alone = parseDocument(lines.join('\n'), { uniqueKeys: false });
  if (alone.errors.length === 0 && isMap(alone.contents) && alone.contents.items.length === 1) return lines;
  // Trailing blank lines belong to no value: keep them outside the quotes.
  let end = lines.length;
  while (end > 1 && lines[end - 1].trim() === '') end--;
  const first = lines[0].slice(lines[0].indexOf(':') + 1).trim();
  const pieces = [first, ...lines.slice(1, end).map((line) => line.trim())];
  const escape = (piece: string) => piece.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  const quoted = pieces.map((piece, index) => {
    const body = escape(piece);
    const closing = index === pieces.length - 1 ? '"' : '';
    if (index === 0) return `${key}: "${body}${closing}`;
    // A blank line inside a double-quoted scalar is a line break, as in a plain one.
    return piece === '' && closing === '' ? '' : ` ${body}${closing}`;
  });
  return [...quoted, ...lines.slice(end)];
}
