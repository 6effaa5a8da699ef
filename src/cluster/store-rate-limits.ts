/**
 * `http.rate_limit` across every daemon of a cluster (SPEC §15, §20; docs/cluster.md): a store for
 * @fastify/rate-limit over Postgres. Each call counted is a row of `rate_limit_events` (migration
 * 9) and the window slides: at most `max` calls in any `timeWindow` ms, whichever daemon took them;
 * a refused call is not counted, and its Retry-After is when the oldest counted call leaves the
 * window. One round trip per counted call (`rate_limit_hit`, under an advisory lock per key).
 */
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type pg from 'pg';
import { tablesOf } from './postgres-connection.js';

type Answer = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** The plugin's store contract (as its LocalStore): `new Store(options)`, then incr, read (a peek) and child. */
export function postgresRateLimitStore(pool: pg.Pool, schema: string): FastifyRateLimitStoreCtor {
  const hit = tablesOf(schema)('rate_limit_hit');
  const count = (key: string, answer: Answer, timeWindow: number, max: number, counting: boolean): void => {
    pool
      .query<{ hits: string; ttl_ms: string }>(`select hits, ttl_ms from ${hit}($1, $2, $3, $4)`, [
        key,
        Math.round(timeWindow),
        Math.min(max, Number.MAX_SAFE_INTEGER),
        counting,
      ])
      .then(
        (result) => answer(null, { current: Number(result.rows[0]!.hits), ttl: Number(result.rows[0]!.ttl_ms) }),
        (error: Error) => answer(error),
      );
  };
  return class PostgresRateLimitStore {
    incr(key: string, answer: Answer, timeWindow: number, max: number): void {
      count(key, answer, timeWindow, max, true);
    }

    read(key: string, answer: Answer, timeWindow: number, max: number): void {
      count(key, answer, timeWindow, max, false);
    }

    child(): PostgresRateLimitStore {
      return new PostgresRateLimitStore();
    }
  };
}
