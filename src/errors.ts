/**
 * One error base by what the caller should do next (after openai-agents-js's `AgentsError`): a
 * kind, whether retrying may help, the session, and `cause`. The CLI maps kinds to exit codes in
 * one table (src/cli/exit-codes.ts).
 */

/**
 * What went wrong, by who must act:
 * - `usage`: the command line is wrong (fix the flags);
 * - `config`: configuration or governance is wrong (fix the named file and line);
 * - `request`: a dropped file or reply cannot be used (fix or resend it);
 * - `provider`: the LLM provider failed (retry later, or fix the key / model / URL), or what the model
 *   or a service govflow calls got wrong (an oversized answer, a refused tool call, a failing MCP server);
 * - `interrupted`: shutdown stopped a session; it resumes from its journal at the next start;
 * - `audit`: the audit log, or a session's journal or vault, cannot be read or written (check the disk,
 *   or the file was altered);
 * - `internal`: a defect in govflow (report it).
 */
export type GovflowErrorKind = 'usage' | 'config' | 'request' | 'provider' | 'interrupted' | 'audit' | 'internal';

export interface GovflowErrorOptions {
  cause?: unknown;
  /** True when the same operation may succeed later (defaults to false). */
  retryable?: boolean;
  /** The session the error happened in, when there is one. */
  sessionId?: string;
}

export class GovflowError extends Error {
  override readonly name: string = 'GovflowError';
  readonly kind: GovflowErrorKind;
  readonly retryable: boolean;
  readonly sessionId: string | undefined;

  constructor(kind: GovflowErrorKind, message: string, options: GovflowErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.retryable = options.retryable ?? false;
    this.sessionId = options.sessionId;
  }

  /** The one-line text for a person; subclasses add where (file:line). */
  describe(): string {
    return this.message;
  }
}

/** A user or configuration mistake: names the file (and line when known) and what to change. */
export class ConfigError extends GovflowError {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
    options?: { cause?: unknown },
  ) {
    super('config', message, options);
  }

  /** `file:line: message`, the form editors and terminals link. */
  override describe(): string {
    const where = this.file ? `${this.file}${this.line ? `:${this.line}` : ''}: ` : '';
    return `${where}${this.message}`;
  }
}

/** Bad command-line usage (exit 2). */
export class UsageError extends GovflowError {
  override readonly name = 'UsageError';
  constructor(message: string, options?: GovflowErrorOptions) {
    super('usage', message, options);
  }
}

/** A call to an LLM provider failed; `retryAfterMs` carries the server's Retry-After. */
export class ProviderError extends GovflowError {
  override readonly name = 'ProviderError';
  readonly provider: string;
  readonly model: string;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly timedOut: boolean;
  readonly bodyExcerpt: string | undefined;
  /** The message tells the whole story itself (a replay miss): shown as it is, not after "<agent>: the model call failed:". */
  readonly selfContained: boolean;

  constructor(
    message: string,
    details: {
      provider: string;
      model: string;
      status?: number;
      retryable: boolean;
      retryAfterMs?: number;
      timedOut?: boolean;
      bodyExcerpt?: string;
      selfContained?: boolean;
      cause?: unknown;
    },
  ) {
    super('provider', message, { cause: details.cause, retryable: details.retryable });
    this.provider = details.provider;
    this.model = details.model;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.timedOut = details.timedOut ?? false;
    this.bodyExcerpt = details.bodyExcerpt;
    this.selfContained = details.selfContained ?? false;
  }
}

/** A file the operator dropped cannot become a request; it goes to system/failed/. */
export class RequestFileError extends GovflowError {
  override readonly name = 'RequestFileError';
  constructor(
    message: string,
    readonly file: string,
  ) {
    super('request', message);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `code` of a Node.js system error (ENOENT, EEXIST, …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
