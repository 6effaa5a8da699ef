/**
 * Built-in and MCP tools behind the tool loop's two questions: what an agent is offered (deny by
 * default), and what a call returns — never a throw: problems are error results the model reads.
 */
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import { errorMessage } from '../errors.js';
import type { OperationalLog } from '../log-contract.js';
import { CommandRefusedError } from '../config/command-patterns.js';
import { editFileTool } from './edit-file-tool.js';
import { listFilesTool, readFileTool, writeFileTool } from './file-tools.js';
import { httpGetTool } from './http-get-tool.js';
import { McpProcessRecords } from './mcp-process-records.js';
import { commandSandboxFor } from './command-sandbox.js';
import { allowedCommand, commandAutoApproved, runCommandTool, type CommandSettings } from './run-command-tool.js';
import { searchFilesTool } from './search-files-tool.js';
import { McpServers } from './mcp-servers.js';
import { ToolCallError, type Tool, type ToolDescriptor, type ToolOutcome } from './tool-contract.js';
import { anyPatternMatches, isBuiltInTool, parseMcpToolName } from './tool-names.js';
import { ensureWorkspace } from './workspace-paths.js';
import { isPlainObject } from '../message/json-text.js';

export class ToolBox {
  private readonly builtIns: Map<string, Tool>;
  readonly mcp: McpServers;
  private readonly log: OperationalLog | undefined;
  private readonly commands: CommandSettings;

  constructor(
    private readonly config: GovflowConfig,
    options: { env?: NodeJS.ProcessEnv; log?: OperationalLog } = {},
  ) {
    const tools = config.tools;
    this.commands = {
      allow: config.commandPatterns.allow,
      autoApprove: config.commandPatterns.autoApprove,
      timeoutMs: tools.commands.timeout_ms,
      maxOutputBytes: tools.commands.max_output_bytes,
      records: new McpProcessRecords(path.join(config.paths.state, 'commands')),
      env: options.env ?? process.env,
      sandbox: commandSandboxFor(config, options.env ?? process.env),
    };
    this.builtIns = new Map(
      [
        readFileTool(tools.max_file_bytes),
        writeFileTool(tools.max_file_bytes),
        editFileTool(tools.max_file_bytes),
        listFilesTool(),
        searchFilesTool({ maxFileBytes: tools.max_file_bytes, maxResultBytes: tools.max_result_bytes }),
        httpGetTool(tools.http_get),
        runCommandTool(this.commands),
      ].map((tool) => [tool.name, tool]),
    );
    this.mcp = new McpServers({
      root: config.root,
      servers: config.mcp.servers,
      timeoutMs: config.mcp.timeout_ms,
      recordsFolder: path.join(config.paths.state, 'mcp'),
      env: options.env,
      log: options.log,
    });
    this.log = options.log;
    const sandbox = this.commands.sandbox;
    if (config.commandPatterns.allow.length > 0 && sandbox.kind === 'unavailable')
      options.log?.error('run_command refuses every command: no sandbox can be made (govflow validate says why)', {
        reason: sandbox.reason,
      });
  }

  /** The session's workspace folder (created when missing). */
  workspaceOf(sessionId: string): Promise<string> {
    return ensureWorkspace(this.config.tools.workspace, sessionId);
  }

  /** The tools matching an agent's patterns for a session; a server that cannot be reached offers none this turn (logged). */
  async offered(patterns: readonly string[], signal: AbortSignal, sessionId?: string): Promise<ToolDescriptor[]> {
    const offers: ToolDescriptor[] = [];
    const servers = new Set<string>();
    for (const pattern of patterns) {
      if (isBuiltInTool(pattern)) {
        const tool = this.builtIns.get(pattern)!;
        offers.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
      } else {
        const parsed = parseMcpToolName(pattern);
        if (parsed) servers.add(parsed.server);
      }
    }
    for (const server of servers) {
      try {
        for (const tool of await this.mcp.tools(server, signal, sessionId))
          if (anyPatternMatches(patterns, tool.name)) offers.push(tool);
      } catch (error) {
        if (signal.aborted) throw error;
        this.log?.warn('MCP server tools not offered this turn', { server, error: errorMessage(error) });
      }
    }
    return offers;
  }

  /**
   * Why a call must be refused before it may even wait for approval, or null: a run_command whose
   * command `tools.commands.allow` does not allow, or that needs a shell (docs/claude-code.md).
   */
  refusal(name: string, input: unknown): string | null {
    if (name !== 'run_command') return null;
    try {
      allowedCommand(this.commands, input);
      return null;
    } catch (error) {
      if (error instanceof CommandRefusedError) return error.message;
      throw error;
    }
  }

  /** True when the call waits for a person whatever the agent's `approval:` says: a run_command not auto-approved. */
  needsApproval(name: string, input: unknown): boolean {
    return name === 'run_command' && !commandAutoApproved(this.commands, input);
  }

  /** Runs one allowed call. Tool problems become error results; only an abort rejects. */
  async call(
    name: string,
    input: unknown,
    context: { sessionId: string; callId: string; signal: AbortSignal },
  ): Promise<ToolOutcome> {
    try {
      if (!isPlainObject(input)) {
        throw new ToolCallError(
          `${name}: the arguments must be a JSON object, got ${Array.isArray(input) ? 'an array' : input === null ? 'null' : typeof input}`,
        );
      }
      const builtIn = this.builtIns.get(name);
      if (builtIn) {
        const workspace = await this.workspaceOf(context.sessionId);
        return await builtIn.call(input, { sessionId: context.sessionId, workspace, signal: context.signal });
      }
      const parsed = parseMcpToolName(name);
      if (parsed)
        return await this.mcp.call(
          parsed.server,
          parsed.tool,
          input,
          context.callId,
          context.signal,
          context.sessionId,
        );
      throw new ToolCallError(`unknown tool "${name}"`);
    } catch (error) {
      if (context.signal.aborted) throw error;
      if (error instanceof ToolCallError) return { output: error.message, isError: true };
      return { output: `${name} failed: ${errorMessage(error)}`, isError: true };
    }
  }

  reapOrphans(): void {
    this.mcp.reapOrphans();
    // Commands a killed daemon left running (their process groups).
    this.commands.records.reapOrphans();
  }

  close(): Promise<void> {
    return this.mcp.close();
  }
}
