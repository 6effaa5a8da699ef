/**
 * Agent files written for Claude Code (docs/claude-code.md) as govflow agents: an executional
 * agent with no `next` and content_type text; `name` with `.` and `-` made `_`; `model` aliases
 * meaning the configured model; Claude Code's tools mapped to govflow's. A tool with no
 * counterpart here is left out (deny by default) and named, for one warning per file — or, with
 * `agents.claude_code.unknown_tools: error`, one error per tool.
 */
import { isBuiltInTool, parseMcpToolName } from '../tools/tool-names.js';

const CLAUDE_MODEL_ALIASES = new Set(['inherit', 'sonnet', 'opus', 'haiku']);

/** Claude Code's tools and their govflow counterparts (Bash and MCP tools are mapped below). */
const TOOL_MAP: Readonly<Record<string, string>> = Object.freeze({
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Glob: 'list_files',
  LS: 'list_files',
  Grep: 'search_files',
  WebFetch: 'http_get',
});

/** Claude Code tools govflow has nothing for; named as such in the warning. */
const CLAUDE_TOOLS_WITHOUT_COUNTERPART = new Set([
  'WebSearch',
  'TodoWrite',
  'TodoRead',
  'Task',
  'Agent',
  'NotebookEdit',
  'NotebookRead',
  'BashOutput',
  'KillShell',
  'KillBash',
  'ExitPlanMode',
  'SlashCommand',
  'Skill',
  'AskUserQuestion',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
]);

/** What the root offers that the mapping depends on. */
export interface ClaudeToolContext {
  /** Names under `mcp.servers`. */
  mcpServers: readonly string[];
  /** `tools.commands.allow` lists at least one command. */
  commandsAllowed: boolean;
}

/** A tool of the file that the agent does not get, with why. */
export interface LeftOutTool {
  tool: string;
  why: string;
  /** The file line naming it (its list item, or the `tools:` line). */
  line: number;
}

export interface ClaudeAgentConversion {
  /** The govflow declaration (still checked against the agent schema by the loader). */
  declaration: Record<string, unknown>;
  leftOut: LeftOutTool[];
  /** Frontmatter keys govflow does not read (`color` is dropped silently). */
  ignoredKeys: string[];
}

/** The govflow agent name of a Claude Code `name` (`dotnet-framework-4.8-expert` → `dotnet_framework_4_8_expert`). */
export function govflowAgentName(name: string): string {
  return name.trim().toLowerCase().replace(/[.-]/g, '_');
}

/** Converts a Claude Code file's frontmatter; `lineOf` gives file lines of keys. */
export function fromClaudeCodeAgent(
  frontmatter: Record<string, unknown>,
  context: ClaudeToolContext,
  lineOf: (keyPath: string[]) => number,
): ClaudeAgentConversion {
  const { name, description, tools, model, color: _color, ...others } = frontmatter;
  const declaration: Record<string, unknown> = { type: 'executional' };
  // Left for the schema to refuse with its own words when missing or not text.
  declaration.name = typeof name === 'string' ? govflowAgentName(name) : name;
  declaration.description =
    typeof description === 'string' ? description.trim() : typeof description === 'number' ? String(description) : description;
  if (typeof model === 'string' && model.trim() !== '' && !CLAUDE_MODEL_ALIASES.has(model.trim().toLowerCase()))
    declaration.model = model.trim();
  const leftOut: LeftOutTool[] = [];
  const mapped: string[] = [];
  for (const { tool, line } of toolEntries(tools, lineOf)) {
    const result = govflowTool(tool, context);
    if ('why' in result) leftOut.push({ tool, why: result.why, line });
    else if (!mapped.includes(result.name)) mapped.push(result.name);
  }
  if (tools !== undefined && tools !== null) declaration.tools = mapped;
  return { declaration, leftOut, ignoredKeys: Object.keys(others) };
}

/** The tool names of `tools:` (a comma list or a YAML list) with the line of each. */
function toolEntries(tools: unknown, lineOf: (keyPath: string[]) => number): Array<{ tool: string; line: number }> {
  if (typeof tools === 'string')
    return splitToolList(tools).map((tool) => ({ tool, line: lineOf(['tools']) }));
  if (Array.isArray(tools))
    return tools.flatMap((item, index) =>
      typeof item === 'string' || typeof item === 'number'
        ? splitToolList(String(item)).map((tool) => ({ tool, line: lineOf(['tools', String(index)]) }))
        : [],
    );
  return [];
}

/** Splits on commas outside parentheses (`Bash(git add:*, git commit:*)` is one entry), then on spaces. */
function splitToolList(text: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of text) {
    if (character === '(') depth++;
    if (character === ')') depth = Math.max(0, depth - 1);
    if (character === ',' && depth === 0) {
      entries.push(current);
      current = '';
    } else current += character;
  }
  entries.push(current);
  return entries
    .map((entry) => entry.trim())
    .flatMap((entry) => (entry.includes('(') ? [entry] : entry.split(/\s+/)))
    .filter((entry) => entry !== '');
}

/** The govflow tool for one Claude Code tool name, or why there is none. */
function govflowTool(tool: string, context: ClaudeToolContext): { name: string } | { why: string } {
  // `Read(src/**)`, `Bash(npm test)`: the specifier is Claude Code's own permission rule; the tool counts.
  const base = /^([A-Za-z]+)\(.*\)$/s.exec(tool)?.[1] ?? tool;
  const mapped = TOOL_MAP[base];
  if (mapped !== undefined) return { name: mapped };
  if (base === 'Bash' || tool === 'run_command')
    return context.commandsAllowed
      ? { name: 'run_command' }
      : { why: 'tools.commands.allow in govflow.config.yaml lists no command' };
  if (isBuiltInTool(tool)) return { name: tool };
  const mcp = /^mcp__(.+?)(?:__(.+))?$/.exec(tool);
  const parsed = mcp ? { server: mcp[1], tool: mcp[2] ?? '*' } : parseMcpToolName(tool);
  if (parsed) {
    const server = configuredServer(parsed.server, context.mcpServers);
    if (server === null) return { why: `MCP server "${parsed.server}" is not under mcp.servers` };
    return { name: `mcp:${server}/${parsed.tool === '' ? '*' : parsed.tool}` };
  }
  if (CLAUDE_TOOLS_WITHOUT_COUNTERPART.has(base)) return { why: 'no govflow counterpart' };
  if (/^[a-z][a-z0-9._-]*$/.test(tool))
    return { why: "another agent's name? govflow reaches agents through next or a plan" };
  return { why: 'not a tool govflow knows' };
}

/** The configured server an MCP reference names: exactly, or once non-alphanumerics are `_` (as Claude Code writes them). */
function configuredServer(name: string, servers: readonly string[]): string | null {
  if (servers.includes(name)) return name;
  const normalized = (text: string) => text.replace(/[^A-Za-z0-9]/g, '_');
  return servers.find((server) => normalized(server) === normalized(name)) ?? null;
}

/** The warning of one file: which tools were left out and why, and which keys were not read; null when nothing was. */
export function claudeAgentWarning(file: string, conversion: ClaudeAgentConversion, line: number): string | null {
  const parts: string[] = [];
  if (conversion.leftOut.length > 0) {
    const byReason = new Map<string, string[]>();
    for (const item of conversion.leftOut) byReason.set(item.why, [...(byReason.get(item.why) ?? []), item.tool]);
    const reasons = [...byReason].map(([why, tools]) => `${tools.join(', ')} (${why})`);
    parts.push(`Claude Code tools left out, the agent runs without them: ${reasons.join('; ')}`);
  }
  if (conversion.ignoredKeys.length > 0)
    parts.push(`frontmatter keys not read by govflow: ${conversion.ignoredKeys.join(', ')}`);
  return parts.length > 0 ? `${file}:${line}: ${parts.join('; ')}` : null;
}
