/**
 * The durable part of a delivery backlog (delivery-backlog.ts): one append-only file per target,
 * `backlog.jsonl`, holding what was queued (`add`, synced before the caller goes on), tried
 * (`try`), delivered (`done`) and given up (`gone`). Adds arriving together share one fdatasync
 * (group commit), so a burst of session ends costs one sync, not one file and three syncs each;
 * the other lines are not synced (losing one only means a retry or a second delivery of the
 * same id). Read back at start, the file is rewritten with what still waits, and rewritten
 * again whenever the queue runs empty after many lines.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic-file.js';

/** One item waiting for a target. */
export interface DeliveryRecord<T> {
  v: 1;
  id: string;
  payload: T;
  created_at: string;
  attempts: number;
  last_error: string | null;
}

type Line<T> =
  | { add: DeliveryRecord<T> }
  | { try: string; attempts: number; last_error: string | null }
  | { done: string; at: string; once?: true }
  | { gone: string };

/** Lines written since the last rewrite past which an empty queue rewrites the file. */
const COMPACT_AFTER_LINES = 2_000;

export const BACKLOG_FILE = 'backlog.jsonl';

export class BacklogLog<T> {
  private file: FileHandle | null = null;
  private batch: { lines: string[]; sync: boolean; done: Promise<void>; settle: (error?: unknown) => void } | null =
    null;
  private writing: Promise<void> = Promise.resolve();
  private linesSinceRewrite = 0;
  readonly path: string;

  constructor(
    folder: string,
    private readonly durable: boolean,
  ) {
    this.path = path.join(folder, BACKLOG_FILE);
  }

  /**
   * What the file says waits (in the order queued) and which `once` ids were delivered since
   * `rememberSince`; then the file is rewritten with just that. Lines a crash cut are skipped.
   */
  load(rememberSince: number): { waiting: DeliveryRecord<T>[]; delivered: Map<string, string>; skipped: number } {
    mkdirSync(path.dirname(this.path), { recursive: true });
    const waiting = new Map<string, DeliveryRecord<T>>();
    const delivered = new Map<string, string>();
    let skipped = 0;
    const text = existsSync(this.path) ? readFileSync(this.path, 'utf8') : '';
    for (const raw of text.split('\n')) {
      if (raw === '') continue;
      let line: Line<T>;
      try {
        line = JSON.parse(raw) as Line<T>;
      } catch {
        skipped += 1;
        continue;
      }
      if ('add' in line) waiting.set(line.add.id, line.add);
      else if ('try' in line) {
        const record = waiting.get(line.try);
        if (record) Object.assign(record, { attempts: line.attempts, last_error: line.last_error });
      } else if ('done' in line) {
        waiting.delete(line.done);
        if (line.once && Date.parse(line.at) >= rememberSince) delivered.set(line.done, line.at);
      } else if ('gone' in line) waiting.delete(line.gone);
    }
    this.rewrite([...waiting.values()], delivered);
    return { waiting: [...waiting.values()], delivered, skipped };
  }

  /** Queues `record`: resolves once it is on disk (synced with daemon.fsync). */
  add(record: DeliveryRecord<T>): Promise<void> {
    return this.append({ add: record }, true);
  }

  /** Notes a failed try, a delivery or a give-up; not synced, never rejects. */
  note(line: Exclude<Line<T>, { add: DeliveryRecord<T> }>): void {
    this.append(line, false).catch(() => undefined);
  }

  /** Rewrites the file once nothing waits, when it has grown (so it never grows without bound). */
  compactIfIdle(waiting: number, delivered: ReadonlyMap<string, string>): void {
    if (waiting > 0 || this.linesSinceRewrite < COMPACT_AFTER_LINES) return;
    this.linesSinceRewrite = 0;
    this.writing = this.writing.then(async () => {
      await this.closeFile();
      this.rewrite([], delivered);
    });
  }

  /** Resolves once every line asked for is written; closes the file. */
  async close(): Promise<void> {
    while (this.batch) await this.batch.done.catch(() => undefined);
    await this.writing.catch(() => undefined);
    await this.closeFile();
  }

  private rewrite(waiting: DeliveryRecord<T>[], delivered: ReadonlyMap<string, string>): void {
    const lines = [
      ...[...delivered].map(([id, at]) => JSON.stringify({ done: id, at, once: true })),
      ...waiting.map((record) => JSON.stringify({ add: record })),
    ];
    writeFileAtomic(this.path, lines.map((line) => `${line}\n`).join(''), this.durable);
  }

  /** Joins the batch being gathered (one write, one sync for all of it). */
  private append(line: Line<T>, sync: boolean): Promise<void> {
    if (!this.batch) {
      let settle!: (error?: unknown) => void;
      const done = new Promise<void>((resolve, reject) => {
        settle = (error) => (error === undefined ? resolve() : reject(error as Error));
      });
      const batch = { lines: [] as string[], sync: false, done, settle };
      this.batch = batch;
      this.writing = this.writing.then(() => this.write(batch));
    }
    this.batch.lines.push(`${JSON.stringify(line)}\n`);
    this.batch.sync ||= sync;
    return this.batch.done;
  }

  private async write(batch: NonNullable<BacklogLog<T>['batch']>): Promise<void> {
    // Lines asked for until now go in this write; later ones start the next batch.
    if (this.batch === batch) this.batch = null;
    try {
      this.file ??= await open(this.path, 'a');
      await this.file.appendFile(batch.lines.join(''));
      if (batch.sync && this.durable) await this.file.datasync();
      this.linesSinceRewrite += batch.lines.length;
      batch.settle();
    } catch (error) {
      await this.closeFile();
      batch.settle(error);
    }
  }

  private async closeFile(): Promise<void> {
    const file = this.file;
    this.file = null;
    await file?.close().catch(() => undefined);
  }
}
