/**
 * Signs checkpoints of the chain as the audit writer commits entries (docs/audit-log.md): at most one per
 * `audit.checkpoint_ms` (a trailing one, so the newest entry is always covered within that time),
 * one for a day's last entry as soon as the next day's first is written, and one at stop. Each
 * line goes to `system/state/checkpoints/YYYYMMDD.jsonl` and to every witness: a folder gets the
 * same file name, a URL a POST of the line. Nothing here can fail or slow a session: errors are
 * logged, and a witness that is down is retried with backoff, its backlog in `witnessLag()`.
 */
import { readFileSync } from 'node:fs';
import { appendFile, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { backoffDelayMs, DEFAULT_BACKOFF } from '../llm/backoff.js';
import { signCheckpoint, type Checkpoint } from './checkpoint-format.js';
import { GovflowError } from '../errors.js';

export interface ChainState {
  day: string;
  entries: number;
  hash: string;
}

export interface CheckpointWriterOptions {
  stateDir: string;
  privateKey: KeyObject;
  keyId: string;
  intervalMs: number;
  witnesses: string[];
  log?: (message: string, fields?: Record<string, unknown>) => void;
  now?: () => Date;
}

/** A witness's backlog, for status and metrics. */
export interface WitnessLag {
  witness: string;
  /** Checkpoints signed but not yet delivered. */
  pending: number;
  lastError: string | null;
}

/** The folder of checkpoint files under a root's state folder. */
export function checkpointsDir(stateDir: string): string {
  return path.join(stateDir, 'checkpoints');
}

/** Where the daemon keeps its witnesses' backlog for `govflow status` and /metrics. */
const WITNESS_STATUS_FILE = 'witnesses.json';

export interface WitnessStatus {
  pid: number;
  updated_at: string;
  witnesses: WitnessLag[];
}

/** The witnesses' backlog as the daemon last wrote it, or null. */
export function readWitnessStatus(stateDir: string): WitnessStatus | null {
  try {
    return JSON.parse(readFileSync(path.join(stateDir, WITNESS_STATUS_FILE), 'utf8')) as WitnessStatus;
  } catch {
    return null;
  }
}

class Witness {
  private readonly queue: Checkpoint[] = [];
  private sending: Promise<void> | null = null;
  private failures = 0;
  lastError: string | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly target: string,
    private readonly log: CheckpointWriterOptions['log'],
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
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
      if (this.failures === 1) this.log?.(`audit witness ${this.target} did not take a checkpoint; retrying with backoff (sessions go on)`, { witness: this.target, error: this.lastError });
      this.timer = setTimeout(() => {
        this.timer = null;
        this.sending = this.drain();
      }, backoffDelayMs(this.failures, DEFAULT_BACKOFF));
      this.timer.unref();
    } finally {
      this.sending = null;
    }
  }

  private async send(checkpoint: Checkpoint): Promise<void> {
    const line = JSON.stringify(checkpoint);
    if (/^https?:\/\//.test(this.target)) {
      const response = await fetch(this.target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: line, signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new GovflowError('provider', `HTTP ${response.status} from ${this.target}`, { retryable: true });
      return;
    }
    await mkdir(this.target, { recursive: true });
    await appendFile(path.join(this.target, `${checkpoint.day}.jsonl`), `${line}\n`);
  }
}

export class CheckpointWriter {
  private signed: ChainState | null = null;
  private latest: ChainState | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastSignedAt = 0;
  private writing: Promise<void> = Promise.resolve();
  private readonly witnesses: Witness[];
  private statusDue = false;

  constructor(private readonly options: CheckpointWriterOptions) {
    this.witnesses = options.witnesses.map((target) => new Witness(target, options.log, () => this.statusChanged()));
  }

  /** Writes the witnesses' backlog once per turn of the event loop at most (status, metrics). */
  private statusChanged(): void {
    if (this.statusDue || this.witnesses.length === 0) return;
    this.statusDue = true;
    setImmediate(() => {
      this.statusDue = false;
      const status: WitnessStatus = { pid: process.pid, updated_at: new Date().toISOString(), witnesses: this.witnessLag() };
      const file = path.join(this.options.stateDir, WITNESS_STATUS_FILE);
      const temp = `${file}.${process.pid}.tmp`;
      this.writing = this.writing
        .then(() => writeFile(temp, `${JSON.stringify(status)}\n`))
        .then(() => rename(temp, file))
        .catch(() => undefined);
    });
  }

  /** The chain's head after a committed entry (syncs of concurrent appends may report out of order). */
  committed(state: ChainState): void {
    if (this.latest !== null && state.entries <= this.latest.entries) return;
    if (this.latest !== null && this.latest.day !== state.day && this.latest !== this.signed) this.sign(this.latest);
    this.latest = state;
    if (this.timer !== null) return;
    const wait = Math.max(0, this.lastSignedAt + this.options.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.latest !== null && this.latest !== this.signed) this.sign(this.latest);
    }, wait);
    this.timer.unref();
  }

  witnessLag(): WitnessLag[] {
    return this.witnesses.map((witness) => ({ witness: witness.target, pending: witness.pending, lastError: witness.lastError }));
  }

  /** Signs the newest state if it was not, then waits for the file and one more try of each witness. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.latest !== null && this.latest !== this.signed) this.sign(this.latest);
    await this.writing;
    await Promise.all(this.witnesses.map((witness) => witness.flush()));
    for (const witness of this.witnesses) witness.close();
  }

  private sign(state: ChainState): void {
    this.signed = state;
    this.lastSignedAt = Date.now();
    const checkpoint = signCheckpoint(this.options.privateKey, this.options.keyId, state, this.options.now?.() ?? new Date());
    const folder = checkpointsDir(this.options.stateDir);
    this.writing = this.writing
      .then(async () => {
        await mkdir(folder, { recursive: true });
        await appendFile(path.join(folder, `${state.day}.jsonl`), `${JSON.stringify(checkpoint)}\n`);
      })
      .catch((error: unknown) => this.options.log?.(`could not write a signed checkpoint to ${folder}`, { error: (error as Error).message }));
    for (const witness of this.witnesses) witness.deliver(checkpoint);
  }
}
