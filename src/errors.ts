/**
 * Error classes by what the caller should do next (STYLE: "errors say what to do next").
 * Each carries `cause` and the context needed to retry, repair or tell a person what to fix.
 */

/** A user or configuration mistake: names the file (and line when known) and what to change. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** `file:line: message`, the form editors and terminals link. */
  describe(): string {
    const where = this.file ? `${this.file}${this.line ? `:${this.line}` : ''}: ` : '';
    return `${where}${this.message}`;
  }
}

/** Bad command-line usage (exit 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * A call to an LLM provider failed. `retryable` says whether the same call may succeed later
 * (network, 408/409/429/5xx, timeout); `retryAfterMs` carries the server's Retry-After.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly provider: string;
  readonly model: string;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly timedOut: boolean;
  readonly bodyExcerpt: string | undefined;

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
      cause?: unknown;
    },
  ) {
    super(message, { cause: details.cause });
    this.provider = details.provider;
    this.model = details.model;
    this.status = details.status;
    this.retryable = details.retryable;
    this.retryAfterMs = details.retryAfterMs;
    this.timedOut = details.timedOut ?? false;
    this.bodyExcerpt = details.bodyExcerpt;
  }
}

/** A file the operator dropped cannot become a request; it goes to system/failed/. */
export class RequestFileError extends Error {
  override readonly name = 'RequestFileError';
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
