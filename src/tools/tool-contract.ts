/** A tool as the loop sees it, built-in or MCP alike: what the model is offered, and a call. */
import { GovflowError } from '../errors.js';
import type { CommandRun } from '../store/tool-journal-records.js';

/** What the model is offered for one tool. */
export interface ToolDescriptor {
  /** The govflow name: `read_file`, `mcp:docs/search`. */
  name: string;
  description: string;
  /** JSON Schema of the input object. */
  inputSchema: Record<string, unknown>;
}

/** Where and for whom a call runs. */
export interface ToolCallContext {
  sessionId: string;
  /** The session's workspace folder (absolute); created before the first call. */
  workspace: string;
  /** Aborts the call (its own timeout, the session deadline, shutdown). */
  signal: AbortSignal;
}

/** The text the model gets back, and whether it reports a failure. */
export interface ToolOutcome {
  output: string;
  isError: boolean;
  /** A file tool that changed the workspace: the file as it left it (journaled, so a fork can rebuild it; docs/run-control.md). */
  wrote?: { path: string; sha256: string; bytes: number };
  /** What a run_command call ran (journaled and on the audit entry). */
  command?: CommandRun;
}

/**
 * A call that cannot be carried out as asked; its message, the model's error result, says what
 * would be accepted. Kind `provider`: the call or a service it reaches is at fault, not govflow.
 */
export class ToolCallError extends GovflowError {
  override readonly name = 'ToolCallError';
  constructor(message: string) {
    super('provider', message);
  }
}

/** A runnable tool. */
export interface Tool extends ToolDescriptor {
  call(input: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutcome>;
}

/** Reads a required string field of a tool input, or throws a ToolCallError naming it. */
export function stringField(
  input: Record<string, unknown>,
  field: string,
  tool: string,
  optional = false,
): string | undefined {
  const value = input[field];
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'string') {
    throw new ToolCallError(
      `${tool}: "${field}" must be a string${optional ? ' when given' : ''} (got ${value === undefined ? 'nothing' : typeof value})`,
    );
  }
  return value;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean; bytes: number } {
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return { text, truncated: false, bytes };
  const buffer = Buffer.from(text).subarray(0, maxBytes);
  // Drop a partial multi-byte character at the cut.
  let end = buffer.length;
  while (end > 0 && (buffer[end - 1] & 0xc0) === 0x80) end--;
  if (end > 0 && buffer[end - 1] >= 0xc0) end--;
  return { text: buffer.subarray(0, end).toString('utf8'), truncated: true, bytes };
}
