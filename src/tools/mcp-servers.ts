/**
 * The MCP servers of `mcp.servers` through `@ai-sdk/mcp`, stdio ones started on first use. A server
 * that fails fails only the call that needed it (a ToolCallError); the next use connects again. A
 * server with `forward_authorization` gets one connection per session, carrying the header its HTTP
 * caller sent (forwarded-authorizations.ts), closed when the session lets it go.
 */
import path from 'node:path';
import type { MCPClient, MCPTransport } from '@ai-sdk/mcp';
import { raceAbort } from '../abort-race.js';
import type { McpServerConfig } from '../config/config-vocabulary.js';
import { errorMessage } from '../errors.js';
import type { OperationalLog } from '../log-contract.js';
import { ForwardedAuthorizations, withoutAuthorization } from './forwarded-authorizations.js';
import { McpProcessRecords } from './mcp-process-records.js';
import { StdioMcpTransport } from './mcp-stdio-transport.js';
import { ToolCallError, type ToolDescriptor, type ToolOutcome } from './tool-contract.js';
import { mcpToolName } from './tool-names.js';

export interface McpServersOptions {
  root: string;
  servers: Readonly<Record<string, McpServerConfig>>;
  /** Default per-call (and connect) timeout. */
  timeoutMs: number;
  /** Where stdio server pids are recorded (system/state/mcp). */
  recordsFolder: string;
  env?: NodeJS.ProcessEnv;
  log?: OperationalLog;
}

interface Connection {
  /** Its key in `connections`: the server's name, then the session's for a forwarding server. */
  key: string;
  /** The forwarded header it sends, if any (scrubbed from what the server sends back). */
  authorization?: string;
  client: MCPClient;
  transport: MCPTransport;
  tools: ToolDescriptor[];
  execute: Map<
    string,
    (input: unknown, options: { toolCallId: string; messages: []; abortSignal: AbortSignal }) => PromiseLike<unknown>
  >;
}

const SILENT: OperationalLog = { info() {}, warn() {}, error() {} };

/** An MCP call result (content parts, maybe structured content) as the text the model reads. */
export function mcpResultText(result: unknown): ToolOutcome {
  if (typeof result !== 'object' || result === null) return { output: JSON.stringify(result ?? null), isError: false };
  const value = result as {
    content?: Array<Record<string, unknown>>;
    structuredContent?: unknown;
    isError?: boolean;
    toolResult?: unknown;
  };
  const parts: string[] = [];
  for (const part of value.content ?? []) {
    if (part.type === 'text' && typeof part.text === 'string') parts.push(part.text);
    else if (part.type === 'image' || part.type === 'audio')
      parts.push(`[${part.type} ${String(part.mimeType ?? '')}, ${String(part.data ?? '').length} base64 characters]`);
    else parts.push(JSON.stringify(part));
  }
  if (parts.length === 0 && value.structuredContent !== undefined) parts.push(JSON.stringify(value.structuredContent));
  if (parts.length === 0 && value.toolResult !== undefined) parts.push(JSON.stringify(value.toolResult));
  return { output: parts.join('\n'), isError: value.isError === true };
}

export class McpServers {
  private readonly connections = new Map<string, Promise<Connection>>();
  private readonly records: McpProcessRecords;
  private readonly log: OperationalLog;
  private closed = false;
  /** The HTTP callers' headers for servers with `forward_authorization`, by session. */
  readonly forwarded = new ForwardedAuthorizations();

  constructor(private readonly options: McpServersOptions) {
    this.records = new McpProcessRecords(options.recordsFolder);
    this.log = options.log ?? SILENT;
    this.forwarded.onRelease((sessionId) => {
      for (const [key, pending] of this.connections)
        if (key.endsWith(`\n${sessionId}`)) {
          this.connections.delete(key);
          void pending.then((connection) => closeQuietly(connection.client, connection.transport)).catch(() => {});
        }
    });
  }

  /** Ends server process groups a killed daemon left behind (call once at start). */
  reapOrphans(): void {
    for (const { server, pid } of this.records.reapOrphans()) {
      this.log.warn('stopped an MCP server left running by a previous daemon', { server, pid });
    }
  }

  private timeoutOf(server: string): number {
    return this.options.servers[server]?.timeout_ms ?? this.options.timeoutMs;
  }

  /** The server's tools, named `mcp:<server>/<tool>`. Throws ToolCallError when it cannot be reached. */
  async tools(server: string, signal?: AbortSignal, sessionId?: string): Promise<ToolDescriptor[]> {
    return (await this.connection(server, signal, sessionId)).tools;
  }

  /** Calls one tool for `sessionId`. Throws ToolCallError for a server that is down, crashes, hangs or answers garbage. */
  async call(
    server: string,
    tool: string,
    input: unknown,
    callId: string,
    signal: AbortSignal,
    sessionId?: string,
  ): Promise<ToolOutcome> {
    const connection = await this.connection(server, signal, sessionId);
    const execute = connection.execute.get(tool);
    if (!execute) {
      throw new ToolCallError(
        `MCP server "${server}" has no tool "${tool}"; it offers: ${connection.tools.map((entry) => entry.name).join(', ') || 'none'}`,
      );
    }
    const timeoutMs = this.timeoutOf(server);
    const timeout = AbortSignal.timeout(timeoutMs);
    const abortSignal = AbortSignal.any([signal, timeout]);
    try {
      const result = await raceAbort(
        Promise.resolve(execute(input, { toolCallId: callId, messages: [], abortSignal })),
        abortSignal,
      );
      // A forwarded header a server echoes back must not reach the journal with the result.
      const outcome = mcpResultText(result);
      return { ...outcome, output: withoutAuthorization(outcome.output, connection.authorization) };
    } catch (error) {
      if (signal.aborted) throw error;
      if (timeout.aborted) {
        // A hung server may never answer anything again: start afresh next time.
        this.drop(connection);
        throw new ToolCallError(`MCP server "${server}": ${tool} gave no answer within ${timeoutMs} ms`);
      }
      throw new ToolCallError(
        `MCP server "${server}": ${tool} failed: ${withoutAuthorization(errorMessage(error), connection.authorization)}`,
      );
    }
  }

  private connection(server: string, signal?: AbortSignal, sessionId?: string): Promise<Connection> {
    if (this.closed) return Promise.reject(new ToolCallError('the daemon is stopping; MCP servers are closed'));
    if (!Object.hasOwn(this.options.servers, server))
      return Promise.reject(new ToolCallError(`no MCP server "${server}" is configured under mcp.servers`));
    let key = server;
    let authorization: string | undefined;
    if (this.options.servers[server].forward_authorization === true) {
      const held = sessionId === undefined ? null : this.forwarded.of(sessionId);
      if (held === null)
        return Promise.reject(
          new ToolCallError(
            `MCP server "${server}" is called with the caller's Authorization header (forward_authorization), but session ` +
              `${sessionId ?? '(none)'} has none to forward: the header is held in memory only, for the sessions an HTTP request ` +
              `with one started, so a session resumed after a restart (or started from a file) cannot call this server; submit the request again`,
          ),
        );
      // One connection per session: a header is never sent on another caller's calls.
      key = `${server}\n${held.sessionId}`;
      authorization = held.authorization;
    }
    let pending = this.connections.get(key);
    if (!pending) {
      pending = this.connect(server, key, signal, authorization);
      this.connections.set(key, pending);
      pending.catch(() => {
        if (this.connections.get(key) === pending) this.connections.delete(key);
      });
    }
    return pending;
  }

  private transportFor(
    server: string,
    config: McpServerConfig,
    authorization: string | undefined,
  ): MCPTransport | { type: 'http'; url: string; headers: Record<string, string>; redirect: 'error' } {
    if (config.url) {
      const headers: Record<string, string> = {};
      for (const [header, variable] of Object.entries(config.headers_env ?? {})) {
        const value = (this.options.env ?? process.env)[variable];
        if (value === undefined || value === '') {
          throw new ToolCallError(
            `MCP server "${server}": header ${header} comes from the environment variable ${variable}, which is not set`,
          );
        }
        if (authorization === undefined || header.toLowerCase() !== 'authorization') headers[header] = value;
      }
      if (authorization !== undefined) headers.Authorization = authorization;
      return { type: 'http', url: config.url, headers, redirect: 'error' };
    }
    const command = config.command!;
    const transport: StdioMcpTransport = new StdioMcpTransport({
      command,
      args: config.args ?? [],
      env: config.env ?? {},
      cwd: path.resolve(this.options.root, config.cwd ?? '.'),
      onSpawn: (pid) => this.records.record(server, pid, [command, ...(config.args ?? [])].join(' ')),
      onExit: (description) => {
        if (transport.pid !== undefined) this.records.forget(server, transport.pid);
        if (!this.closed) this.log.warn('MCP server process ended', { server, how: description });
      },
      onStderr: (line) => this.log.info('MCP server stderr', { server, line }),
    });
    return transport;
  }

  private async connect(
    server: string,
    key: string,
    signal?: AbortSignal,
    authorization?: string,
  ): Promise<Connection> {
    const config = this.options.servers[server];
    // Starting a server (a process, an SDK import) can take longer than one call may.
    const timeoutMs = Math.max(this.timeoutOf(server), this.options.timeoutMs);
    const transportConfig = this.transportFor(server, config, authorization);
    const where = config.url ? config.url : config.command!;
    let client: MCPClient | undefined;
    const timeout = AbortSignal.timeout(timeoutMs);
    const abortSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      // The MCP client is loaded on the first connection, not at every daemon's start.
      const { createMCPClient } = await import('@ai-sdk/mcp');
      client = await raceAbort(
        createMCPClient({
          transport: transportConfig,
          clientName: 'govflow',
          initializationOptions: { signal: abortSignal },
          onUncaughtError: (error) =>
            this.log.warn('MCP server sent something unusable', { server, error: errorMessage(error) }),
        }),
        abortSignal,
      );
      const listed = await raceAbort(client.listTools({ options: { signal: abortSignal } }), abortSignal);
      const toolSet = client.toolsFromDefinitions(listed) as unknown as Record<
        string,
        { execute: Connection['execute'] extends Map<string, infer F> ? F : never }
      >;
      const connection: Connection = {
        key,
        ...(authorization !== undefined ? { authorization } : {}),
        client,
        transport: transportConfig as MCPTransport,
        tools: listed.tools.map((tool) => ({
          name: mcpToolName(server, tool.name),
          description: withoutAuthorization(tool.description ?? `${tool.name} (MCP server ${server})`, authorization),
          inputSchema: (tool.inputSchema as Record<string, unknown> | undefined) ?? { type: 'object' },
        })),
        execute: new Map(Object.entries(toolSet).map(([name, entry]) => [name, entry.execute])),
      };
      if (transportConfig instanceof StdioMcpTransport) {
        const previous = transportConfig.onclose;
        transportConfig.onclose = () => {
          if (this.connections.get(server) && !this.closed) this.connections.delete(server);
          previous?.();
        };
      }
      this.log.info('MCP server connected', { server, tools: connection.tools.length });
      return connection;
    } catch (error) {
      await closeQuietly(client, transportConfig);
      if (error instanceof ToolCallError) throw error;
      const reason = timeout.aborted
        ? `no answer within ${timeoutMs} ms`
        : withoutAuthorization(errorMessage(error), authorization);
      throw new ToolCallError(`MCP server "${server}" (${where}) is not available: ${reason}`);
    }
  }

  private drop(connection: Connection): void {
    this.connections.delete(connection.key);
    void closeQuietly(connection.client, connection.transport);
  }

  /** Closes every connection and ends every stdio server's process group. Safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(
      pending.map(async (promise) => {
        const connection = await promise;
        await closeQuietly(connection.client, connection.transport);
      }),
    );
  }
}

/** Closes the client and, for a stdio server, ends its process group; best effort, never rejects. */
function closeQuietly(client: MCPClient | undefined, transport: unknown): Promise<unknown> {
  return Promise.allSettled([client?.close(), transport instanceof StdioMcpTransport ? transport.close() : undefined]);
}
