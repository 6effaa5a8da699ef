/**
 * Delivery of signed checkpoints to the witnesses (docs/audit-log.md), for both modes: a folder gets
 * the line appended to `<day>.jsonl`, a URL a POST. A witness that is down is retried with backoff,
 * never blocking a session; the backlog goes to `system/state/witnesses.json` for status and /metrics.
 */
import { readStatusFile, writeStatusFile } from '../store/status-file.js';
import { GovflowError } from '../errors.js';
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { backoffDelayMs, DEFAULT_BACKOFF } from '../backoff.js';
import type { Checkpoint } from './checkpoint-format.js';

/** A witness's backlog, for status and metrics. */
export interface WitnessLag {
  witness: string;
  /** Checkpoints signed, not yet delivered. */
  pending: number;
  lastError: string | null;
}

const WITNESS_STATUS_FILE = 'witnesses.json';

export interface WitnessStatus {
  pid: number;
  updated_at: string;
  witnesses: WitnessLag[];
}

/** The witnesses' backlog as the daemon `pid` (the root's owner) last wrote it; [] when it wrote none. */
export function witnessLag(stateDir: string, pid: number | undefined): WitnessLag[] {
  return pid === undefined ? [] : (readStatusFile<WitnessStatus>(stateDir, WITNESS_STATUS_FILE, pid)?.witnesses ?? []);
}

/** `govflow status` lines (files and cluster mode): one per witness. */
export function witnessLines(lags: WitnessLag[]): string[] {
  return lags.map(
    (lag) =>
      `witness ${lag.witness}: ${lag.pending === 0 ? 'up to date' : `${lag.pending} checkpoints waiting`}${lag.lastError ? ` (last error: ${lag.lastError})` : ''}`,
  );
}

type Log = (message: string, fields?: Record<string, unknown>) => void;

class Witness {
  private readonly queue: Checkpoint[] = [];
  private sending: Promise<void> | null = null;
  private failures = 0;
  lastError: string | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly target: string,
    private readonly log: Log | undefined,
    private readonly changed: () => void,
  ) {}

  get pending(): number {
    return this.queue.length;
  }

  deliver(checkpoint: Checkpoint): void {
    this.queue.push(checkpoint);
    this.changed();
    if (this.sending === null && this.timer === null) this.sending = this.drain();
  }

  /** Tries once more what is queued (at stop), without waiting for the backoff. */
  async flush(): Promise<void> {
    this.close();
    await this.sending;
    if (this.queue.length > 0) await this.drain();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await this.send(this.queue[0]);
        this.queue.shift();
        this.failures = 0;
        this.lastError = null;
        this.changed();
      }
    } catch (error) {
      this.failures += 1;
      this.lastError = (error as Error).message;
      this.changed();
      if (this.failures === 1)
        this.log?.(`audit witness ${this.target} did not take a checkpoint; retrying with backoff (sessions go on)`, {
          witness: this.target,
          error: this.lastError,
        });
      this.timer = setTimeout(
        () => {
          this.timer = null;
          this.sending = this.drain();
        },
        backoffDelayMs(this.failures, DEFAULT_BACKOFF),
      );
      this.timer.unref();
    } finally {
      this.sending = null;
    }
  }

  private async send(checkpoint: Checkpoint): Promise<void> {
    const line = JSON.stringify(checkpoint);
    if (/^https?:\/\//.test(this.target)) {
      const response = await fetch(this.target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: line,
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new GovflowError('provider', `HTTP ${response.status} from ${this.target}`);
      return;
    }
    await mkdir(this.target, { recursive: true });
    await appendFile(path.join(this.target, `${checkpoint.day}.jsonl`), `${line}\n`);
  }
}

export class CheckpointWitnesses {
  private readonly witnesses: Witness[];
  private statusDue = false;

  constructor(private readonly options: { stateDir: string; witnesses: string[]; log?: Log }) {
    this.witnesses = options.witnesses.map((target) => new Witness(target, options.log, () => this.statusChanged()));
  }

  deliver(checkpoint: Checkpoint): void {
    for (const witness of this.witnesses) witness.deliver(checkpoint);
  }

  lag(): WitnessLag[] {
    return this.witnesses.map((witness) => ({
      witness: witness.target,
      pending: witness.pending,
      lastError: witness.lastError,
    }));
  }

  /** One more try of each witness's backlog, then no more retries (at stop). */
  async close(): Promise<void> {
    await Promise.all(this.witnesses.map((witness) => witness.flush()));
    for (const witness of this.witnesses) witness.close();
    // The last status change is written on the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** Writes the backlog once per turn of the event loop at most (status, metrics). */
  private statusChanged(): void {
    if (this.statusDue || this.witnesses.length === 0) return;
    this.statusDue = true;
    setImmediate(() => {
      this.statusDue = false;
      const status: WitnessStatus = { pid: process.pid, updated_at: new Date().toISOString(), witnesses: this.lag() };
      try {
        writeStatusFile(this.options.stateDir, WITNESS_STATUS_FILE, status);
      } catch {
        // a status for people: the next change writes it again
      }
    });
  }
}
