/** One warning per store outage: while Postgres is away the poll retries every second, and would log each failure again. */
import { errorMessage } from '../errors.js';
import type { OperationalLog } from '../log-contract.js';
import { withoutCredentials } from './postgres-connection.js';
import { coalesced } from './coalesced-run.js';

export class OutageLog {
  private readonly failing = new Map<string, number>();

  constructor(private readonly log: OperationalLog) {}

  failed(what: string, error: unknown): void {
    const count = this.failing.get(what) ?? 0;
    this.failing.set(what, count + 1);
    if (count === 0)
      this.log.warn(`cannot ${what}; retrying (one warning per outage)`, {
        error: withoutCredentials(errorMessage(error)),
      });
  }

  succeeded(what: string): void {
    const count = this.failing.get(what);
    if (count === undefined) return;
    this.failing.delete(what);
    this.log.info(`can ${what} again`, { failed_attempts: count });
  }

  /** `pass` as one coalesced run (coalesced-run.ts) that never rejects: its failures are warned about here. */
  coalesced(what: string, pass: () => Promise<unknown>): () => Promise<void> {
    return coalesced(
      async () => {
        await pass();
        this.succeeded(what);
      },
      (error) => this.failed(what, error),
    );
  }
}
