/**
 * Agent files written for Claude Code (`.claude/agents/*.md`) load as govflow agents, told apart
 * by what a govflow file never has: no `type`, and a tools string, a hyphenated name, a Claude
 * model alias or a `color`. They become executional agents; tools with no govflow counterpart are
 * errors, model aliases mean the configured model, `color` is dropped.
 */
import { ConfigError } from '../errors.js';

const CLAUDE_MODEL_ALIASES = new Set(['inherit', 'sonnet', 'opus', 'haiku']);

const TOOL_MAP: Readonly<Record<string, string>> = Object.freeze({
  Read: 'read_file',
  Write: 'write_file',
  Glob: 'list_files',
  LS: 'list_files',
  WebFetch: 'http_get',
});

/** True for frontmatter written for Claude Code rather than govflow. */
export function isClaudeCodeAgent(declaration: Record<string, unknown>): boolean {
  if ('type' in declaration) return false;
  const name = declaration.name;
  const tools = declaration.tools;
  return (
    typeof tools === 'string' ||
    (Array.isArray(tools) && tools.some((tool) => typeof tool === 'string' && /^[A-Z]|^mcp__/.test(tool))) ||
    (typeof name === 'string' && name.includes('-')) ||
    (typeof declaration.model === 'string' && CLAUDE_MODEL_ALIASES.has(declaration.model)) ||
    'color' in declaration
  );
}

function govflowTool(tool: string): string | null {
  const mapped = TOOL_MAP[tool];
  if (mapped !== undefined) return mapped;
  const mcp = /^mcp__([^_]+(?:_[^_]+)*?)__(.+)$/.exec(tool);
  return mcp ? `mcp:${mcp[1]}/${mcp[2]}` : null;
}

/** The govflow declaration for a Claude Code agent's frontmatter; errors name `file` and the line of the key. */
export function fromClaudeCodeAgent(
  declaration: Record<string, unknown>,
  file: string,
  lineOf: (keyPath: string[]) => number,
): { declaration: Record<string, unknown>; errors: ConfigError[] } {
  const errors: ConfigError[] = [];
  const { color: _color, model, tools, name, ...rest } = declaration;
  const converted: Record<string, unknown> = { ...rest, type: 'executional' };
  if (typeof name === 'string') converted.name = name.toLowerCase().replace(/-/g, '_');
  else converted.name = name;
  if (typeof model === 'string' && !CLAUDE_MODEL_ALIASES.has(model)) converted.model = model;
  if (tools !== undefined) {
    const names =
      typeof tools === 'string'
        ? tools.split(/[,\s]+/).filter((tool) => tool !== '')
        : Array.isArray(tools)
          ? tools.map(String)
          : [];
    const mapped: string[] = [];
    for (const tool of names) {
      const govflow = govflowTool(tool);
      if (govflow !== null) {
        if (!mapped.includes(govflow)) mapped.push(govflow);
        continue;
      }
      const hint = 'remove it from tools (govflow maps Read, Write, Glob, LS, WebFetch and mcp__<server>__<tool>)';
      errors.push(
        new ConfigError(`Claude Code tool "${tool}" has no govflow counterpart: ${hint}`, file, lineOf(['tools'])),
      );
    }
    converted.tools = mapped;
  }
  return { declaration: converted, errors };
}
