/**
 * Every durable write of the Postgres store, group-committed: writes that arrive while a
 * transaction runs share the next one, and while the daemon holds other sessions a write waits up
 * to COMMIT_WINDOW_MS for theirs (as Postgres's own `commit_delay` waits for `commit_siblings`: most
 * of a transaction's cost is per call, not per write). Each transaction is a
 * single call of the SQL function `commit_writes`
 * (store-migrations.ts, version 2). Under the session rows' locks it drops writes whose lease epoch
 * no longer holds (LeaseLostError), appends journal records, and chains audit entries under the
 * `audit_head` row lock, formatted here exactly as files mode formats them. A failed transaction
 * rejects every write in it (StoreUnavailableError), and the writes of the same sessions still
 * waiting behind it: a session's writes commit in order or not at all, so its journal and its
 * entries' sequence numbers have no gap. The session resumes from its journal on whichever daemon
 * claims it next.
 */
import type pg from 'pg';
import { formatEntryBody, localDayAndTime } from '../audit/audit-entry-format.js';
import type { AuditEntryInput } from '../store/session-store.js';
import { errorMessage } from '../errors.js';
import { SessionInterruptedError } from '../pipeline/runner-contract.js';
import { prepared, tablesOf, withoutCredentials } from './postgres-connection.js';

/** The lease this write was made under no longer holds: another daemon owns the session. */
export class LeaseLostError extends SessionInterruptedError {
  override readonly name = 'LeaseLostError' as 'SessionInterruptedError';
}

/** Postgres could not take the write (connection lost, server down): the work is dropped. */
export class StoreUnavailableError extends SessionInterruptedError {
  override readonly name = 'StoreUnavailableError' as 'SessionInterruptedError';
}

/** Changes to a session's row made with a write, named as `commit_writes` reads them. */
export interface SessionRowChange {
  state?: 'running' | 'paused' | 'finished';
  /** A new result (pending or final): its document, report and status, and a paused session's question. */
  result_json?: string;
  result_report?: string;
  result_status?: string;
  message?: string | null;
  manifest?: unknown;
  governance_hash?: string;
  release?: true;
  replies_applied?: true;
}

export interface StoreWrite {
  sessionId: string;
  /** The lease epoch the write was made under (the fence). */
  epoch: number;
  records: string[];
  firstSeq: number;
  audit: AuditEntryInput[];
  change?: SessionRowChange;
}

interface Pending {
  write: StoreWrite;
  resolve: (hashes: string[]) => void;
  reject: (error: Error) => void;
}

const MAX_BATCH = 256;
/** Sessions (at a lease epoch) remembered as broken, at most: a session resumed gets a new epoch. */
const MAX_BROKEN = 4_096;

/** A session's writes under one lease: what a failed write breaks. */
const leaseOf = (write: StoreWrite): string => `${write.epoch}:${write.sessionId}`;

/**
 * How long (ms) a write waits for the writes of the other sessions this daemon holds before its
 * transaction starts; it goes at once when it is the only one held or every held session has a
 * write waiting. A step of a session waits on a model call many times longer.
 */
export const COMMIT_WINDOW_MS = 2;

/** What `<schema>_results` carries: a session paused or finished (every daemon hears it). */
export interface ResultNotice {
  /** The daemon whose outbox gets the result. */
  intake: string;
  session: string;
  request: string;
  status: string;
  state: 'running' | 'paused' | 'finished';
  /** The question of a paused session. */
  message: string | null;
}

/** Notification channels of a schema: new audit entries, and results to write to an outbox. */
export function channelsOf(schema: string): { audit: string; results: string; work: string } {
  return { audit: `${schema}_audit`, results: `${schema}_results`, work: `${schema}_work` };
}

export class StoreCommitter {
  private readonly queue: Pending[] = [];
  /**
   * Leases (leaseOf) one of whose writes Postgres did not take: their later writes, queued before
   * or after the failure, are rejected as each batch is taken, never sent.
   * Two parallel tasks' messages are two writes; had the second committed after the first failed,
   * the journal and the chain would skip the first's sequence number.
   */
  private readonly broken = new Set<string>();
  private flushing = false;
  /** The commit window's timer while writes wait for their siblings'. */
  private window: NodeJS.Timeout | null = null;
  /** How many sessions this daemon holds (the store's leases); none known until the store says. */
  private sessionsHeld: () => number = () => 0;
  private readonly commitStatement: { name: string; text: string };
  private readonly prompts = new Map<string, string>();
  private readonly channels: ReturnType<typeof channelsOf>;
  /** Transactions committed (the group-commit test counts them). */
  readonly stats = { transactions: 0 };
  /** Hears the hash of the newest entry of each transaction that appended any (signed checkpoints). */
  private entriesListener: ((lastHash: string) => void) | null = null;

  constructor(
    private readonly options: {
      pool: pg.Pool;
      schema: string;
      daemonId: string;
      timezone: string;
      /** COMMIT_WINDOW_MS unless given (a test's longer window). */
      windowMs?: number;
    },
  ) {
    this.commitStatement = prepared(
      `select ${tablesOf(options.schema)('commit_writes')}($1, $2::jsonb, $3::jsonb, $4, $5) as outcome`,
    );
    this.channels = channelsOf(options.schema);
  }

  /** Resolves with the hashes of its audit entries once committed. */
  commit(write: StoreWrite): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      // A transaction under way takes the queue when it ends: those writes have waited already.
      if (this.flushing) return;
      if (this.everyHeldSessionWaits()) {
        if (this.window) clearTimeout(this.window);
        this.window = null;
        void this.flush();
      } else {
        this.window ??= setTimeout(() => {
          this.window = null;
          void this.flush();
        }, this.options.windowMs ?? COMMIT_WINDOW_MS);
      }
    });
  }

  /** The store's count of the sessions it holds: the siblings a write may wait for. */
  countSessionsWith(sessionsHeld: () => number): void {
    this.sessionsHeld = sessionsHeld;
  }

  /** No other held session could add a write to the next transaction. */
  private everyHeldSessionWaits(): boolean {
    const held = this.sessionsHeld();
    return held <= 1 || new Set(this.queue.map(({ write }) => write.sessionId)).size >= held;
  }

  onEntriesCommitted(listener: (lastHash: string) => void): void {
    this.entriesListener = listener;
  }

  /** Committed with the next transaction. */
  keepPrompt(sha256: string, text: string): void {
    this.prompts.set(sha256, text);
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH).filter((pending) => {
          if (!this.broken.has(leaseOf(pending.write))) return true;
          pending.reject(droppedAfter(pending.write));
          return false;
        });
        if (batch.length > 0) await this.commitBatch(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async commitBatch(batch: Pending[]): Promise<void> {
    const writes = batch.map(({ write }) => ({
      session: write.sessionId,
      epoch: write.epoch,
      first_seq: write.firstSeq,
      records: write.records,
      audit: write.audit.map((input) => ({
        message_id: input.message.message_id,
        body: formatEntryBody(input, this.options.timezone),
        day: localDayAndTime(input.message.timestamp.executed_at, this.options.timezone).day,
      })),
      ...(write.change ? { change: write.change } : {}),
    }));
    const prompts = Object.fromEntries(this.prompts);
    this.prompts.clear();
    let outcome: { fenced: number[]; hashes: string[][] };
    try {
      // One statement, so one implicit transaction and one round trip (migration 2).
      const result = await this.options.pool.query<{ outcome: { fenced: number[]; hashes: string[][] } }>({
        ...this.commitStatement,
        values: [
          this.options.daemonId,
          JSON.stringify(writes),
          JSON.stringify(prompts),
          this.channels.audit,
          this.channels.results,
        ],
      });
      outcome = result.rows[0].outcome;
    } catch (error) {
      for (const [sha, text] of Object.entries(prompts)) if (!this.prompts.has(sha)) this.prompts.set(sha, text);
      this.rejectAll(batch, error);
      return;
    }
    const fenced = new Set(outcome.fenced);
    this.stats.transactions++;
    batch.forEach((pending, index) => {
      if (fenced.has(index)) {
        pending.reject(
          new LeaseLostError(
            `session ${pending.write.sessionId}: the lease (epoch ${pending.write.epoch}) was taken over by another daemon; this daemon's ` +
              `work on it is dropped`,
            { sessionId: pending.write.sessionId },
          ),
        );
        return;
      }
      pending.resolve(outcome.hashes[index]);
    });
    // Entries were appended in write order, so the last hash of the last write with any is the newest.
    const newest = outcome.hashes.findLast((hashes) => hashes.length > 0)?.at(-1);
    if (newest !== undefined) this.entriesListener?.(newest);
  }

  private rejectAll(batch: Pending[], error: unknown): void {
    for (const pending of batch) {
      if (this.broken.size >= MAX_BROKEN) this.broken.delete(this.broken.values().next().value!);
      this.broken.add(leaseOf(pending.write));
      pending.reject(
        new StoreUnavailableError(
          `session ${pending.write.sessionId}: the Postgres store did not take the write (${withoutCredentials(errorMessage(error))}); the ` +
            `work is dropped and the session resumes from its journal`,
          { sessionId: pending.write.sessionId, cause: error },
        ),
      );
    }
  }
}

/** A write held back because an earlier write of its session, under the same lease, was not taken. */
function droppedAfter(write: StoreWrite): StoreUnavailableError {
  return new StoreUnavailableError(
    `session ${write.sessionId}: an earlier write of this session was not taken by the Postgres store, so this one is ` +
      'dropped with it (a session commits in order); the session resumes from its journal',
    { sessionId: write.sessionId },
  );
}
