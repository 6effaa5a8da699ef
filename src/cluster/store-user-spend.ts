/**
 * Daily spend per user in cluster mode (docs/webhooks.md "Budgets"): one row per user and day in
 * `user_spend`, added to by every daemon with one atomic upsert per priced model call, and read
 * before each call, so the whole cluster's spend counts and a restart forgets nothing.
 */
import type pg from 'pg';
import type { GovflowConfig } from '../config/config-loader.js';
import { errorMessage } from '../errors.js';
import type { OperationalLog } from '../log-contract.js';
import { compactInTimeZone } from '../message/zoned-time.js';
import { dailyLimitOf, type BudgetReached, type UserSpend } from '../store/user-spend.js';
import { tablesOf, withoutCredentials } from './postgres-connection.js';
import { SessionInterruptedError } from '../pipeline/runner-contract.js';

export class PostgresUserSpend implements UserSpend {
  private readonly table: string;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly config: Pick<GovflowConfig, 'limits' | 'timezone'>,
    private readonly log?: OperationalLog,
  ) {
    this.table = tablesOf(schema)('user_spend');
  }

  /** When Postgres does not answer, the session is dropped here like on any lost link (a daemon resumes it). */
  async reached(user: string, now: Date): Promise<BudgetReached | null> {
    const limit = dailyLimitOf(this.config.limits.user_daily_usd, user);
    if (limit === null) return null;
    const day = compactInTimeZone(now, this.config.timezone);
    let spentUsd: number;
    try {
      const result = await this.pool.query<{ usd: number }>(
        `select usd from ${this.table} where day = $1 and user_name = $2`,
        [day, user],
      );
      spentUsd = result.rows[0]?.usd ?? 0;
    } catch (error) {
      throw new SessionInterruptedError(
        `cannot read user "${user}"'s daily spend from Postgres (${withoutCredentials(errorMessage(error))}): no model call is made without ` +
          `it; the session resumes once the store answers`,
      );
    }
    return spentUsd >= limit.limitUsd ? { user, day, spentUsd, ...limit } : null;
  }

  async add(user: string, usd: number, now: Date): Promise<void> {
    if (!(usd > 0)) return;
    const day = compactInTimeZone(now, this.config.timezone);
    try {
      await this.pool.query(
        `insert into ${this.table} (day, user_name, usd) values ($1, $2, $3)
         on conflict (day, user_name) do update set usd = ${this.table}.usd + excluded.usd, updated_at = now()`,
        [day, user, usd],
      );
    } catch (error) {
      this.log?.warn('could not add a model call to the daily spend in Postgres; that call is not counted', {
        user,
        usd,
        error: withoutCredentials(errorMessage(error)),
      });
    }
  }
}
