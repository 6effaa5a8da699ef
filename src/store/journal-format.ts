/**
 * The journal's format (session-journal.ts): the version every record and manifest carries, the
 * versions this govflow reads (each frozen under test/fixtures/journal/), and the error for a line
 * it cannot read.
 */
import { GovflowError } from '../errors.js';

/** Version of journal records and manifests; bump with a reader for the old one. */
export const JOURNAL_FORMAT = 1 as const;

/** Journal versions this govflow reads, each with a frozen journal under test/fixtures/journal/v<N>/. */
export const SUPPORTED_JOURNAL_VERSIONS: readonly number[] = [1];

/** A journal line this govflow cannot read (damage, a hand edit, a newer govflow): never cut, named by file and line. */
export class JournalFormatError extends GovflowError {
  override readonly name = 'JournalFormatError';
  constructor(
    message: string,
    readonly file: string,
    readonly line: number,
  ) {
    super('audit', `${file}:${line}: ${message}`);
  }
}
