/**
 * The stdio transport for MCP servers: newline-delimited JSON-RPC over the child's stdio. Ours, not
 * the SDK's, because the child needs its own process group (stopping or reaping it ends its
 * grandchildren too) and its pid recorded before it runs. A non-JSON line goes to `onerror`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { MCPTransport, JSONRPCMessage } from '@ai-sdk/mcp';
import { GovflowError } from '../errors.js';

export interface StdioServerOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Told the child's pid as soon as it exists. */
  onSpawn?: (pid: number) => void;
  /** Told when the child exits, with its code or signal. */
  onExit?: (description: string) => void;
  /** Lines the server writes to stderr (its own log). */
  onStderr?: (line: string) => void;
}

/** What a server inherits: enough to find programs and a home, never the daemon's secrets (the rest via `env:`). */
const INHERITED_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TZ',
  'NODE_EXTRA_CA_CERTS',
  'SYSTEMROOT',
];

export function serverEnvironment(
  configured: Record<string, string>,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_VARIABLES) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...configured };
}

/** Sends a signal to a whole process group; false when there was none. */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): boolean {
  if (!Number.isInteger(pid) || pid <= 1) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

export class StdioMcpTransport implements MCPTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | null = null;
  private buffered = '';
  private closed = false;

  constructor(private readonly options: StdioServerOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        cwd: this.options.cwd,
        env: serverEnvironment(this.options.env),
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group: the group id is its pid, and killing -pid ends everything it started.
        detached: true,
      });
      this.child = child;
      child.once('error', (error) => {
        const failure = new Error(`cannot start "${this.options.command}": ${error.message}`, { cause: error });
        if (!this.closed) this.onerror?.(failure);
        reject(failure);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) this.options.onSpawn?.(child.pid);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.options.onExit?.(signal ? `killed by ${signal}` : `exited with code ${code}`);
        this.finish();
      });
      child.stdin!.on('error', (error) => {
        if (!this.closed) this.onerror?.(error);
      });
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (chunk: string) => this.receive(chunk));
      child.stderr!.setEncoding('utf8');
      let stderrLine = '';
      child.stderr!.on('data', (chunk: string) => {
        stderrLine += chunk;
        const lines = stderrLine.split('\n');
        stderrLine = lines.pop() ?? '';
        for (const line of lines) if (line.trim() !== '') this.options.onStderr?.(line.slice(0, 2000));
      });
    });
  }

  private receive(chunk: string): void {
    this.buffered += chunk;
    // A server that never ends a line cannot grow our memory without bound.
    if (this.buffered.length > 16 * 1024 * 1024) {
      this.buffered = '';
      this.onerror?.(new Error('the MCP server sent over 16 MiB without a line break'));
      return;
    }
    let newline: number;
    while ((newline = this.buffered.indexOf('\n')) >= 0) {
      const line = this.buffered.slice(0, newline).replace(/\r$/, '');
      this.buffered = this.buffered.slice(newline + 1);
      if (line.trim() === '') continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        this.onerror?.(new Error(`the MCP server wrote a line that is not JSON-RPC: ${line.slice(0, 200)}`));
        continue;
      }
      if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
        this.onerror?.(new Error(`the MCP server wrote a message that is not JSON-RPC 2.0: ${line.slice(0, 200)}`));
        continue;
      }
      this.onmessage?.(message as JSONRPCMessage);
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child || this.closed || !child.stdin || child.stdin.destroyed)
      throw new GovflowError('provider', 'the MCP server is not running');
    await new Promise<void>((resolve, reject) => {
      child.stdin!.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Ends the server's whole process group: SIGTERM, then SIGKILL if it lingers. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return;
    this.closed = true;
    child.stdin?.end();
    const pid = child.pid;
    // No pid: it never started. Never signal group 0 (that is our own process group).
    if (pid === undefined || pid <= 1) {
      this.finish();
      return;
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      signalProcessGroup(pid, 'SIGKILL');
      this.finish();
      return;
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signalProcessGroup(pid, 'SIGTERM');
    const timer = setTimeout(() => signalProcessGroup(pid, 'SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
    // Grandchildren that ignored SIGTERM go too.
    signalProcessGroup(pid, 'SIGKILL');
    this.finish();
  }

  private finish(): void {
    const wasOpen = !this.closedNotified;
    this.closedNotified = true;
    this.closed = true;
    if (wasOpen) this.onclose?.();
  }

  private closedNotified = false;
}
