/** Errors of the audit trail, apart from src/errors.ts because only the audit layer raises them. */
import { GovflowError } from '../errors.js';

/** Text that is not a well-formed entry (tampering, a disk fault, a newer govflow), by file and 1-based line. */
export class AuditLogFormatError extends GovflowError {
  override readonly name = 'AuditLogFormatError';
  constructor(
    message: string,
    readonly line: number,
    readonly file?: string,
    options?: { cause?: unknown },
  ) {
    super('audit', message, options);
  }

  /** `file:line: message`, the form editors and terminals link. */
  override describe(): string {
    return `${this.file ?? '(log text)'}:${this.line}: ${this.message}`;
  }

  /** The same error, now naming the file it came from. */
  inFile(file: string): AuditLogFormatError {
    return new AuditLogFormatError(this.message, this.line, file, { cause: this.cause });
  }
}

/**
 * The writer could not put an entry on disk. Its message must NOT be passed on: the caller stops
 * the session, and the journal replays the missing entry after a restart.
 */
export class AuditWriteError extends GovflowError {
  override readonly name = 'AuditWriteError';
  constructor(
    message: string,
    readonly file: string | undefined,
    readonly messageId: string | undefined,
    options?: { cause?: unknown },
  ) {
    super('audit', message, options);
  }
}
