/**
 * Errors of the audit trail, by what the caller should do next (STYLE: "errors say what to do
 * next"). They live apart from src/errors.ts because only the audit layer raises them.
 */
import { GovflowError } from '../errors.js';

/**
 * An audit log file holds text that is not a well-formed entry: tampering, a disk fault, or a
 * file written by a newer govflow. Names the file (when known) and the 1-based line.
 */
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
 * The audit writer could not put an entry on disk (disk full, I/O error, closed writer). The
 * message it belongs to must NOT be passed on: the caller should stop the session and let the
 * operator fix the disk; the journal replays the missing entry after restart.
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
