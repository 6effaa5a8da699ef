/**
 * Warnings of a store outage, once per outage: while Postgres is away the poll retries every
 * second, and each retry would otherwise log the same failure again. The first failure of each
 * kind is a warning; the next success of that kind says the work goes on again (info).
 */
import { errorMessage } from '../errors.js';
import type { OperationalLog } from '../log-contract.js';
import { withoutCredentials } from './postgres-connection.js';
import { coalesced } from './coalesced-run.js';

export class OutageLog {
  private readonly failing = new Map<string, number>();

  constructor(private readonly log: OperationalLog) {}

  /** A failed attempt of `what` (e.g. "claim work from the store"); warns on the first of an outage. */
  failed(what: string, error: unknown): void {
    const count = this.failing.get(what) ?? 0;
    this.failing.set(what, count + 1);
    if (count === 0) this.log.warn(`cannot ${what}; retrying (one warning per outage)`, { error: withoutCredentials(errorMessage(error)) });
  }

  /** A successful attempt of `what`: ends its outage, saying how many attempts failed. */
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
