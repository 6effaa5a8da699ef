/**
 * govflow's one way to deliver something to the outside with retries (STYLE Part IV): signed
 * checkpoints to audit witnesses (src/audit/checkpoint-witnesses.ts) and webhooks (src/notify/).
 * Each target keeps a durable backlog folder, one file per item written before it is sent and
 * removed once it is delivered; a target that fails waits out a backoff before its next try, so
 * a receiver that is down costs one request per backoff, and nothing here ever blocks the caller.
 * After a start the backlog left by the last run is tried at once (at least once: a crash between
 * a delivery and the removal of its file sends it again, with the same id). Items older than
 * `giveUpAfterMs` that fail once more move to `failed/`.
 */
import { appendFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { backoffDelayMs, type BackoffOptions } from '../backoff.js';
import { errorMessage } from '../errors.js';
import { sha256Hex } from '../sha256-hex.js';
import { writeFileAtomicAsync } from './atomic-file.js';

/** One item waiting for a target, as its file holds it. */
export interface DeliveryRecord<T> {
  v: 1;
  id: string;
  payload: T;
  created_at: string;
  attempts: number;
  last_error: string | null;
}

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
  /** Told after any change of the lags (status files; called at most once per turn of the event loop). */
  onChange?: (lags: TargetLag[]) => void;
}

/** How long ids of delivered items flagged `once` are remembered, so enqueuing one again sends nothing. */
const REMEMBER_DELIVERED_MS = 30 * 86_400_000;
const DELIVERED_FILE = 'delivered.jsonl';
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
  private readonly delivered = new Set<string>();
  private readonly once = new Set<string>();
  private sending: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;
  /** File changes under way (removals, rewrites), which close() waits for. */
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
    this.folder = path.join(options.folder, sha256Hex(target.name).slice(0, 16));
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** Reads what the last run left (and the ids it delivered), then tries it. */
  load(): void {
    mkdirSync(this.folder, { recursive: true });
    writeFileSync(path.join(this.folder, 'target.json'), `${JSON.stringify({ target: this.target.name })}\n`);
    this.loadDelivered();
    const failedFolder = path.join(this.folder, FAILED_FOLDER);
    this.failed = existsSync(failedFolder)
      ? readdirSync(failedFolder).filter((name) => name.endsWith('.json')).length
      : 0;
    const records: DeliveryRecord<T>[] = [];
    for (const name of readdirSync(this.folder)) {
      if (!name.endsWith('.json') || name.startsWith('.') || name === 'target.json') continue;
      try {
        const record = JSON.parse(readFileSync(path.join(this.folder, name), 'utf8')) as DeliveryRecord<T>;
        if (record.v !== 1 || typeof record.id !== 'string' || fileNameOf(record.id) !== name)
          throw new Error('not a delivery record of this version');
        records.push(record);
      } catch (error) {
        this.options.log?.('warn', `${this.options.noun} backlog: ${name} cannot be read; moved to failed/`, {
          file: path.join(this.folder, name),
          error: errorMessage(error),
        });
        this.track(this.moveToFailed(name));
      }
    }
    records.sort((left, right) => left.created_at.localeCompare(right.created_at) || left.id.localeCompare(right.id));
    this.queue.push(...records);
    this.lastError = records.findLast((record) => record.last_error !== null)?.last_error ?? null;
    if (records.length > 0)
      this.options.log?.('info', `${this.options.noun} backlog: ${records.length} waiting for ${this.target.name}`);
    this.kick();
  }

  /** Durable on return (unless the disk refused it: then it is delivered from memory). False when the id is known. */
  async enqueue(id: string, payload: T, options: { hold: boolean; once: boolean }): Promise<boolean> {
    if (this.delivered.has(id) || this.queue.some((record) => record.id === id)) return false;
    const record: DeliveryRecord<T> = {
      v: 1,
      id,
      payload,
      created_at: new Date().toISOString(),
      attempts: 0,
      last_error: null,
    };
    // Held while its file is written: a drain under way must not deliver (and remove) it first.
    this.held.add(id);
    if (options.once) this.once.add(id);
    this.queue.push(record);
    this.changed();
    try {
      await writeFileAtomicAsync(path.join(this.folder, fileNameOf(id)), `${JSON.stringify(record)}\n`, {
        durable: this.options.durable,
      });
    } catch (error) {
      this.options.log?.(
        'warn',
        `${this.options.noun} backlog: cannot write ${id} to disk; it is delivered from memory`,
        {
          target: this.target.name,
          error: errorMessage(error),
        },
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

  /** One more try of what waits (at stop), then no more; resolves once done or `signal` aborts. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.sending;
    if (!this.signal.aborted && this.queue.some((record) => !this.held.has(record.id))) await this.drain();
    this.close();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Resolves once the try and the file changes under way are done. */
  async settled(): Promise<void> {
    await this.sending;
    while (this.fileWork.size > 0) await Promise.allSettled([...this.fileWork]);
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch(() => undefined).finally(() => this.fileWork.delete(tracked));
    this.fileWork.add(tracked);
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
    const file = path.join(this.folder, fileNameOf(record.id));
    if (this.once.delete(record.id)) {
      this.delivered.add(record.id);
      // Remembered before the file goes: a crash in between sends it again rather than never.
      this.track(
        appendFile(
          path.join(this.folder, DELIVERED_FILE),
          `${JSON.stringify({ id: record.id, at: new Date().toISOString() })}\n`,
        ).then(() => rm(file, { force: true })),
      );
    } else this.track(rm(file, { force: true }));
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
      this.options.log?.('warn', `${this.options.noun} ${record.id} given up after ${record.attempts} attempts`, {
        target: this.target.name,
        error: record.last_error,
        folder: path.join(this.folder, FAILED_FOLDER),
      });
      this.track(this.moveToFailed(fileNameOf(record.id), record));
    } else {
      if (!this.options.ordered) this.queue.push(...this.queue.splice(index, 1));
      if (this.failures === 1)
        this.options.log?.(
          'warn',
          `${this.options.targetNoun} ${this.target.name} did not take a ${this.options.noun}; retrying with backoff (sessions go on)`,
          { target: this.target.name, error: record.last_error },
        );
      // The attempt count and last error, for status after a restart; not synced (a lost update only loses that).
      this.track(
        writeFileAtomicAsync(path.join(this.folder, fileNameOf(record.id)), `${JSON.stringify(record)}\n`, {
          durable: false,
        }),
      );
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

  private async moveToFailed(name: string, record?: DeliveryRecord<T>): Promise<void> {
    const failedFolder = path.join(this.folder, FAILED_FOLDER);
    try {
      await mkdir(failedFolder, { recursive: true });
      if (record) await writeFile(path.join(failedFolder, name), `${JSON.stringify(record)}\n`);
      if (record) await rm(path.join(this.folder, name), { force: true });
      else await rename(path.join(this.folder, name), path.join(failedFolder, name));
    } catch (error) {
      this.options.log?.('warn', `${this.options.noun} backlog: cannot move ${name} to failed/`, {
        error: errorMessage(error),
      });
    }
  }

  /** Ids delivered within REMEMBER_DELIVERED_MS; older lines are dropped from the file. */
  private loadDelivered(): void {
    const file = path.join(this.folder, DELIVERED_FILE);
    if (!existsSync(file)) return;
    const cutoff = Date.now() - REMEMBER_DELIVERED_MS;
    const kept: string[] = [];
    let dropped = false;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line === '') continue;
      try {
        const entry = JSON.parse(line) as { id: string; at: string };
        if (Date.parse(entry.at) < cutoff) {
          dropped = true;
          continue;
        }
        this.delivered.add(entry.id);
        kept.push(line);
      } catch {
        dropped = true;
      }
    }
    if (dropped) writeFileSync(file, kept.map((line) => `${line}\n`).join(''));
  }
}

/** The backlogs of several targets that receive the same items. */
export class DeliveryBacklog<T> {
  private readonly targets: Array<TargetBacklog<T>>;
  private readonly abort = new AbortController();
  private changeDue = false;

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
    // The last change is told on the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  }

  private changed(): void {
    if (this.changeDue || !this.options.onChange) return;
    this.changeDue = true;
    setImmediate(() => {
      this.changeDue = false;
      try {
        this.options.onChange?.(this.lag());
      } catch {
        // status for people: the next change tells it again
      }
    });
  }
}

/** The folder holding a backlog's item files for `target` (tests and docs). */
export function targetFolderOf(folder: string, target: string): string {
  return path.join(folder, sha256Hex(target).slice(0, 16));
}
