/**
 * Agent files written for Claude Code (`.claude/agents/*.md`: frontmatter `name`, `description`,
 * `tools` as "Read, Grep, WebFetch", `model`, maybe `color`) load as govflow agents when dropped
 * into governance/agents/ (README "Start a project of your own"). Such a file is told apart by what a govflow file never has:
 * no `type`, and a tools string, a hyphenated name, a Claude model alias or a `color`.
 *
 * The mapping, one rule each:
 * - `name`: lower-cased, `-` becomes `_` (`code-reviewer` → `code_reviewer`);
 * - `type`: executional (a plan task or a `next` of another agent reaches it);
 * - `tools`: Read → read_file, Write → write_file, Glob and LS → list_files, WebFetch → http_get,
 *   `mcp__server__tool` → `mcp:server/tool`; any other (Bash, Edit, Grep, …) has no govflow
 *   counterpart and is an error naming the file and the line of `tools:`;
 * - `model`: `inherit`, `sonnet`, `opus` and `haiku` mean the configured model; a full model id is kept;
 * - `color` is Claude Code's display colour: dropped.
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
    const names = typeof tools === 'string' ? tools.split(/[,\s]+/).filter((tool) => tool !== '') : Array.isArray(tools) ? tools.map(String) : [];
    const mapped: string[] = [];
    for (const tool of names) {
      const govflow = govflowTool(tool);
      if (govflow === null) {
        errors.push(
          new ConfigError(
            `Claude Code tool "${tool}" has no govflow counterpart: remove it from tools (govflow maps Read, Write, Glob, LS, WebFetch and mcp__<server>__<tool>)`,
            file,
            lineOf(['tools']),
          ),
        );
      } else if (!mapped.includes(govflow)) mapped.push(govflow);
    }
    converted.tools = mapped;
  }
  return { declaration: converted, errors };
}
