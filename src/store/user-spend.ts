/**
 * Each user's spend on model calls per day in the configured zone, for `limits.user_daily_usd`
 * (docs/webhooks.md "Budgets"). The seam the runner sees is {@link UserSpend}; files mode keeps it
 * in a ledger here, `system/state/spend/YYYYMMDD.jsonl` (one line per priced call, read back at
 * start, so a restart forgets nothing a kill -9 did not cut), and cluster mode in a Postgres table
 * (src/cluster/store-user-spend.ts) that every daemon adds to atomically.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import { errorMessage } from '../errors.js';
import type { OperationalLog } from '../log-contract.js';
import { compactInTimeZone } from '../message/zoned-time.js';

/** A user's spend today and the limit it reached. */
export interface BudgetReached {
  user: string;
  day: string;
  spentUsd: number;
  limitUsd: number;
  /** The `limits.user_daily_usd` key the limit comes from (the user's name, or `default`). */
  key: string;
}

/** What the runner asks before each model call and tells after it. */
export interface UserSpend {
  /** Non-null when `user` has a limit for the day of `now` and has spent at least that much. */
  reached(user: string, now: Date): Promise<BudgetReached | null>;
  /** Adds a call's cost to the user's day; never rejects (a failure is logged). */
  add(user: string, usd: number, now: Date): Promise<void>;
}

/** The limit that applies to `user`, and the key it comes from; null when none does. */
export function dailyLimitOf(
  table: Readonly<Record<string, number>> | null,
  user: string,
): { limitUsd: number; key: string } | null {
  if (table === null) return null;
  if (Object.hasOwn(table, user)) return { limitUsd: table[user], key: user };
  if (Object.hasOwn(table, 'default')) return { limitUsd: table.default, key: 'default' };
  return null;
}

/** Ledger days kept in system/state/spend/ (older files are removed at start). */
const KEEP_DAYS = 7;

export function spendFolderOf(stateDir: string): string {
  return path.join(stateDir, 'spend');
}

/** Files mode: totals in memory, each call appended to the day's ledger (fsynced with daemon.fsync). */
export class FilesUserSpend implements UserSpend {
  private readonly totals = new Map<string, Map<string, number>>();
  private readonly folder: string;
  private pending: string[] = [];
  private writing: Promise<void> | null = null;
  private handle: { day: string; file: FileHandle } | null = null;

  constructor(
    private readonly config: Pick<GovflowConfig, 'limits' | 'timezone' | 'paths' | 'daemon'>,
    private readonly log?: OperationalLog,
  ) {
    this.folder = spendFolderOf(config.paths.state);
    mkdirSync(this.folder, { recursive: true });
    const cutoff = compactInTimeZone(new Date(Date.now() - KEEP_DAYS * 86_400_000), config.timezone);
    for (const name of readdirSync(this.folder))
      if (/^\d{8}\.jsonl$/.test(name) && name.slice(0, 8) < cutoff)
        rmSync(path.join(this.folder, name), { force: true });
  }

  async reached(user: string, now: Date): Promise<BudgetReached | null> {
    const limit = dailyLimitOf(this.config.limits.user_daily_usd, user);
    if (limit === null) return null;
    const day = compactInTimeZone(now, this.config.timezone);
    const spentUsd = this.day(day).get(user) ?? 0;
    return spentUsd >= limit.limitUsd ? { user, day, spentUsd, ...limit } : null;
  }

  async add(user: string, usd: number, now: Date): Promise<void> {
    if (!(usd > 0)) return;
    const day = compactInTimeZone(now, this.config.timezone);
    const totals = this.day(day);
    totals.set(user, (totals.get(user) ?? 0) + usd);
    this.pending.push(`${JSON.stringify({ day, user, usd, at: now.toISOString() })}\n`);
    this.writing ??= this.write();
    await this.writing;
  }

  /** Closes the ledger once what is pending is written. */
  async close(): Promise<void> {
    while (this.writing) await this.writing;
    await this.handle?.file.close().catch(() => undefined);
    this.handle = null;
  }

  /** The day's totals, read from its ledger the first time the day is asked for. */
  private day(day: string): Map<string, number> {
    let totals = this.totals.get(day);
    if (totals) return totals;
    totals = new Map();
    const file = path.join(this.folder, `${day}.jsonl`);
    if (existsSync(file)) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        try {
          const entry = JSON.parse(line) as { user: string; usd: number };
          if (typeof entry.user === 'string' && Number.isFinite(entry.usd))
            totals.set(entry.user, (totals.get(entry.user) ?? 0) + entry.usd);
        } catch {
          // a line a crash cut: that call's cost is lost, never more
        }
      }
    }
    // Only today and yesterday matter once the day has turned.
    for (const known of this.totals.keys()) if (known < day && this.totals.size > 1) this.totals.delete(known);
    this.totals.set(day, totals);
    return totals;
  }

  /** Appends what is pending, in batches, one writer at a time. */
  private async write(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const lines = this.pending;
        this.pending = [];
        const byDay = new Map<string, string[]>();
        for (const line of lines) {
          const day = (JSON.parse(line) as { day: string }).day;
          byDay.set(day, [...(byDay.get(day) ?? []), line]);
        }
        for (const [day, dayLines] of byDay) {
          try {
            const file = await this.fileFor(day);
            await file.appendFile(dayLines.join(''));
            if (this.config.daemon.fsync) await file.datasync();
          } catch (error) {
            this.log?.warn('could not write the spend ledger; the totals in memory still count', {
              file: path.join(this.folder, `${day}.jsonl`),
              error: errorMessage(error),
            });
          }
        }
      }
    } finally {
      this.writing = null;
    }
  }

  private async fileFor(day: string): Promise<FileHandle> {
    if (this.handle?.day === day) return this.handle.file;
    await this.handle?.file.close().catch(() => undefined);
    this.handle = { day, file: await open(path.join(this.folder, `${day}.jsonl`), 'a') };
    return this.handle.file;
  }
}
