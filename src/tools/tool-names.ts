/**
 * Tool names and patterns (README "Give an agent tools"): built-ins by name, MCP tools as
 * `mcp:<server>/<tool>`, a trailing `*` for a prefix (`mcp:files/delete_*`).
 */

/** The tools govflow itself provides. */
export const BUILT_IN_TOOL_NAMES = [
  'read_file',
  'write_file',
  'edit_file',
  'list_files',
  'search_files',
  'http_get',
  'run_command',
] as const;
export type BuiltInToolName = (typeof BUILT_IN_TOOL_NAMES)[number];

export function isBuiltInTool(name: string): name is BuiltInToolName {
  return (BUILT_IN_TOOL_NAMES as readonly string[]).includes(name);
}

/** `mcp:<server>/<tool>` split, or null when `name` is not an MCP tool name. */
export function parseMcpToolName(name: string): { server: string; tool: string } | null {
  const match = /^mcp:([^/]+)\/(.*)$/.exec(name);
  if (!match) return null;
  return { server: match[1], tool: match[2] };
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp:${server}/${tool}`;
}

/** True for tools whose calls reach outside the workspace (run at most once, SPEC §15): run_command, http_get, MCP tools. */
export function hasOutsideEffects(name: string): boolean {
  return name === 'run_command' || name === 'http_get' || parseMcpToolName(name) !== null;
}

/** True when any of `patterns` allows `name`: names it exactly, or is a prefix of it ending in `*`. */
export function anyPatternMatches(patterns: readonly string[], name: string): boolean {
  return patterns.some((pattern) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : pattern === name));
}

/** What is wrong with an entry of `tools:` or `approval:`, or null when it names a known tool or prefix. */
export function toolPatternProblem(
  pattern: string,
  mcpServers: readonly string[],
  commandsAllowed: boolean,
): string | null {
  if (pattern === 'run_command' && !commandsAllowed)
    return '"run_command" is off: tools.commands.allow in govflow.config.yaml lists no command (docs/claude-code.md)';
  if (isBuiltInTool(pattern)) return null;
  if (pattern.startsWith('mcp:')) {
    const parsed = parseMcpToolName(pattern);
    if (!parsed || parsed.tool === '') {
      return `"${pattern}" is not an MCP tool name: write mcp:<server>/<tool>, or mcp:<server>/* for all of a server's tools`;
    }
    if (parsed.server.includes('*'))
      return `"${pattern}": the server name cannot be a pattern; only the tool name may end in *`;
    if (!mcpServers.includes(parsed.server)) {
      const known = mcpServers.length > 0 ? `configured servers: ${mcpServers.join(', ')}` : 'no server is configured';
      return `"${pattern}" names MCP server "${parsed.server}", which is not under mcp.servers in govflow.config.yaml (${known})`;
    }
    if (parsed.tool.slice(0, -1).includes('*')) return `"${pattern}": * is only allowed at the end of the tool name`;
    return null;
  }
  return `unknown tool "${pattern}": built-in tools are ${BUILT_IN_TOOL_NAMES.join(', ')}; MCP tools are written mcp:<server>/<tool>`;
}
