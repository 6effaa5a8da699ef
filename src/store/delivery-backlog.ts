/**
 * govflow's one way to deliver something to the outside with retries (STYLE Part IV): signed
 * checkpoints to audit witnesses (src/audit/checkpoint-witnesses.ts) and webhooks (src/notify/).
 * Each target keeps a durable backlog in its folder (backlog-log.ts: an item is on disk before it
 * is sent, its delivery noted after); a target that fails waits out a backoff before its next try,
 * so a receiver that is down costs one request per backoff, and nothing here ever blocks the
 * caller. After a start the backlog left by the last run is tried at once (at least once: a crash
 * between a delivery and its note sends it again, with the same id). Items older than
 * `giveUpAfterMs` that fail once more go to `failed/<id>.json`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { backoffDelayMs, type BackoffOptions } from '../backoff.js';
import { errorMessage } from '../errors.js';
import { sha256Hex } from '../sha256-hex.js';
import { BacklogLog, type DeliveryRecord } from './backlog-log.js';

export type { DeliveryRecord };

export interface DeliveryTarget<T> {
  /** How status and logs name it: a URL or a folder. */
  name: string;
  /** Delivers one item; rejects (with a message for status) when the target did not take it. */
  send(record: DeliveryRecord<T>, signal: AbortSignal): Promise<void>;
}

/** A target's backlog, for `govflow status` and /metrics. */
export interface TargetLag {
  target: string;
  /** Items not delivered yet (retried). */
  waiting: number;
  /** Items given up on (in `failed/`). */
  failed: number;
  /** Items delivered since this process started. */
  delivered: number;
  lastError: string | null;
  lastErrorAt: string | null;
}

export interface DeliveryBacklogOptions<T> {
  /** The backlog's folder (one subfolder per target), under system/state/. */
  folder: string;
  targets: ReadonlyArray<DeliveryTarget<T>>;
  /** true: a failed item stays first (checkpoints in order); false: it goes to the back, and the rest go on. */
  ordered: boolean;
  /** An item this old that fails again is given up (moved to failed/); null: retried for ever. */
  giveUpAfterMs: number | null;
  backoff: Pick<BackoffOptions, 'baseMs' | 'maxMs' | 'random'>;
  /** fsync each item before it counts as enqueued (daemon.fsync). */
  durable: boolean;
  /** What one item is, in log lines ("checkpoint", "webhook event"). */
  noun: string;
  /** What a target is, in log lines ("audit witness", "webhook"). */
  targetNoun: string;
  log?: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
  /** Told after changes of the lags (status files), at most every 500 ms and once at close. */
  onChange?: (lags: TargetLag[]) => void;
}

/** How long ids of delivered items flagged `once` are remembered, so enqueuing one again sends nothing. */
const REMEMBER_DELIVERED_MS = 30 * 86_400_000;
/** Status files are rewritten at most this often. */
const STATUS_INTERVAL_MS = 500;
const FAILED_FOLDER = 'failed';

/** A file name for an id: the id itself when it is safe, else its hash. */
function fileNameOf(id: string): string {
  return /^[A-Za-z0-9_.-]{1,120}$/.test(id) && !id.startsWith('.')
    ? `${id}.json`
    : `${sha256Hex(id).slice(0, 40)}.json`;
}

class TargetBacklog<T> {
  /** Waiting items, in the order they are tried. */
  private readonly queue: DeliveryRecord<T>[] = [];
  private readonly held = new Set<string>();
  /** Ids flagged `once` delivered within REMEMBER_DELIVERED_MS, with when. */
  private delivered = new Map<string, string>();
  private readonly once = new Set<string>();
  private sending: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;
  private readonly log: BacklogLog<T>;
  /** Items being written by enqueue(), which a flush and close() wait for. */
  private readonly adding = new Set<Promise<boolean>>();
  /** Failed items being written to failed/, which close() waits for. */
  private readonly fileWork = new Set<Promise<unknown>>();
  failed = 0;
  deliveredCount = 0;
  lastError: string | null = null;
  lastErrorAt: string | null = null;
  readonly folder: string;

  constructor(
    readonly target: DeliveryTarget<T>,
    private readonly options: DeliveryBacklogOptions<T>,
    private readonly signal: AbortSignal,
    private readonly changed: () => void,
  ) {
    this.folder = targetFolderOf(options.folder, target.name);
    this.log = new BacklogLog<T>(this.folder, options.durable);
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** Reads what the last run left (and the `once` ids it delivered), then tries it. */
  load(): void {
    mkdirSync(this.folder, { recursive: true });
    writeFileSync(path.join(this.folder, 'target.json'), `${JSON.stringify({ target: this.target.name })}\n`);
    const failedFolder = path.join(this.folder, FAILED_FOLDER);
    this.failed = existsSync(failedFolder)
      ? readdirSync(failedFolder).filter((name) => name.endsWith('.json')).length
      : 0;
    const { waiting, delivered, skipped } = this.log.load(Date.now() - REMEMBER_DELIVERED_MS);
    if (skipped > 0)
      this.options.log?.('warn', `${this.options.noun} backlog: skipped ${skipped} line(s) a crash cut`, {
        file: this.log.path,
      });
    this.delivered = delivered;
    this.queue.push(...waiting);
    this.lastError = waiting.findLast((record) => record.last_error !== null)?.last_error ?? null;
    if (waiting.length > 0)
      this.options.log?.('info', `${this.options.noun} backlog: ${waiting.length} waiting for ${this.target.name}`);
    this.kick();
  }

  /** Durable on return (unless the disk refused it: then it is delivered from memory). False when the id is known. */
  enqueue(id: string, payload: T, options: { hold: boolean; once: boolean }): Promise<boolean> {
    const adding = this.add(id, payload, options).finally(() => this.adding.delete(adding));
    this.adding.add(adding);
    return adding;
  }

  private async add(id: string, payload: T, options: { hold: boolean; once: boolean }): Promise<boolean> {
    if (this.delivered.has(id) || this.queue.some((record) => record.id === id)) return false;
    const record: DeliveryRecord<T> = {
      v: 1,
      id,
      payload,
      created_at: new Date().toISOString(),
      attempts: 0,
      last_error: null,
    };
    // Held while its line is written: a delivery must not be noted before the item it delivers.
    this.held.add(id);
    if (options.once) this.once.add(id);
    this.queue.push(record);
    this.changed();
    try {
      await this.log.add(record);
    } catch (error) {
      this.options.log?.(
        'warn',
        `${this.options.noun} backlog: cannot write ${id} to ${this.log.path}; it is delivered from memory`,
        { target: this.target.name, error: errorMessage(error) },
      );
    }
    if (!options.hold) this.release(id);
    return true;
  }

  release(id: string): void {
    if (this.held.delete(id)) this.kick();
  }

  /** Tries at once what waits, unless a backoff runs or a try is under way. */
  kick(): void {
    if (this.closed || this.sending !== null || this.timer !== null) return;
    if (!this.queue.some((record) => !this.held.has(record.id))) return;
    this.sending = this.drain().finally(() => (this.sending = null));
  }

  /** One more try of what waits (at stop), items being added included; resolves once done or `signal` aborts. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.adding]);
    await this.sending;
    if (!this.signal.aborted && this.queue.some((record) => !this.held.has(record.id))) await this.drain();
    this.close();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Resolves once the try under way and every line are written; closes the file. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.adding]);
    await this.sending;
    while (this.fileWork.size > 0) await Promise.allSettled([...this.fileWork]);
    await this.log.close();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const record = this.queue.find((candidate) => !this.held.has(candidate.id));
      if (!record || this.signal.aborted) return;
      try {
        record.attempts += 1;
        await this.target.send(record, this.signal);
      } catch (error) {
        if (this.signal.aborted) return;
        this.onFailed(record, error);
        return;
      }
      this.onDelivered(record);
    }
  }

  private onDelivered(record: DeliveryRecord<T>): void {
    this.queue.splice(this.queue.indexOf(record), 1);
    this.failures = 0;
    this.deliveredCount += 1;
    this.lastError = null;
    const at = new Date().toISOString();
    const once = this.once.delete(record.id);
    if (once) this.delivered.set(record.id, at);
    this.log.note({ done: record.id, at, ...(once ? { once: true as const } : {}) });
    this.log.compactIfIdle(this.queue.length, this.delivered);
    this.changed();
  }

  private onFailed(record: DeliveryRecord<T>, error: unknown): void {
    this.failures += 1;
    record.last_error = errorMessage(error).slice(0, 500);
    this.lastError = record.last_error;
    this.lastErrorAt = new Date().toISOString();
    const { giveUpAfterMs } = this.options;
    const index = this.queue.indexOf(record);
    if (giveUpAfterMs !== null && Date.now() - Date.parse(record.created_at) >= giveUpAfterMs) {
      this.queue.splice(index, 1);
      this.failed += 1;
      const file = path.join(this.folder, FAILED_FOLDER, fileNameOf(record.id));
      this.options.log?.('warn', `${this.options.noun} ${record.id} given up after ${record.attempts} attempts`, {
        target: this.target.name,
        error: record.last_error,
        file,
      });
      const work = mkdir(path.dirname(file), { recursive: true })
        .then(() => writeFile(file, `${JSON.stringify(record)}\n`))
        .then(() => this.log.note({ gone: record.id }))
        .catch((problem: unknown) =>
          this.options.log?.('warn', `${this.options.noun} backlog: cannot write ${file}`, {
            error: errorMessage(problem),
          }),
        )
        .finally(() => this.fileWork.delete(work));
      this.fileWork.add(work);
    } else {
      if (!this.options.ordered) this.queue.push(...this.queue.splice(index, 1));
      if (this.failures === 1)
        this.options.log?.(
          'warn',
          `${this.options.targetNoun} ${this.target.name} did not take a ${this.options.noun}; retrying with backoff (sessions go on)`,
          { target: this.target.name, error: record.last_error },
        );
      // The attempt count and last error, for status after a restart.
      this.log.note({ try: record.id, attempts: record.attempts, last_error: record.last_error });
    }
    this.changed();
    if (this.closed) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.kick();
      },
      backoffDelayMs(this.failures, this.options.backoff),
    );
    this.timer.unref();
  }
}

/** The backlogs of several targets that receive the same items. */
export class DeliveryBacklog<T> {
  private readonly targets: Array<TargetBacklog<T>>;
  private readonly abort = new AbortController();
  private changeDue = false;
  private statusTimer: NodeJS.Timeout | null = null;
  private toldAt = 0;

  constructor(private readonly options: DeliveryBacklogOptions<T>) {
    this.targets = options.targets.map(
      (target) => new TargetBacklog(target, options, this.abort.signal, () => this.changed()),
    );
  }

  /** Creates the folders and tries at once what an earlier run left; throws when the folder cannot be made. */
  open(): this {
    for (const target of this.targets) target.load();
    this.changed();
    return this;
  }

  /**
   * Queues `payload` as `id` for the targets named (all when none): durable when it resolves.
   * `hold`: not sent until the returned release function is called (a crash before that sends it
   * at the next start). `once`: an id delivered before (within 30 days) is not queued again.
   */
  async enqueue(
    id: string,
    payload: T,
    options: { targets?: readonly string[]; hold?: boolean; once?: boolean } = {},
  ): Promise<() => void> {
    const chosen = this.targets.filter(
      (target) => options.targets === undefined || options.targets.includes(target.target.name),
    );
    await Promise.all(
      chosen.map((target) => target.enqueue(id, payload, { hold: options.hold ?? false, once: options.once ?? false })),
    );
    return () => {
      for (const target of chosen) target.release(id);
    };
  }

  lag(): TargetLag[] {
    return this.targets.map((target) => ({
      target: target.target.name,
      waiting: target.waiting,
      failed: target.failed,
      delivered: target.deliveredCount,
      lastError: target.lastError,
      lastErrorAt: target.lastErrorAt,
    }));
  }

  /**
   * Stops: with `flushMs`, one more try of every backlog first, cut off after that long; what is
   * left stays in the folder for the next start.
   */
  async close(flushMs: number | null): Promise<void> {
    if (flushMs !== null) {
      const cutoff = setTimeout(() => this.abort.abort(), flushMs);
      cutoff.unref();
      await Promise.all(this.targets.map((target) => target.flush()));
      clearTimeout(cutoff);
    }
    for (const target of this.targets) target.close();
    this.abort.abort();
    await Promise.all(this.targets.map((target) => target.settled()));
    if (this.statusTimer) clearTimeout(this.statusTimer);
    if (this.changeDue) this.tell();
  }

  /** Tells `onChange` at most every STATUS_INTERVAL_MS (and once more at close): a status for people, not a log. */
  private changed(): void {
    if (this.changeDue || !this.options.onChange) return;
    this.changeDue = true;
    this.statusTimer = setTimeout(() => this.tell(), Math.max(0, this.toldAt + STATUS_INTERVAL_MS - Date.now()));
    this.statusTimer.unref();
  }

  private tell(): void {
    this.changeDue = false;
    this.statusTimer = null;
    this.toldAt = Date.now();
    try {
      this.options.onChange?.(this.lag());
    } catch {
      // status for people: the next change tells it again
    }
  }
}

/** The folder holding a backlog's item files for `target` (tests and docs). */
export function targetFolderOf(folder: string, target: string): string {
  return path.join(folder, sha256Hex(target).slice(0, 16));
}
