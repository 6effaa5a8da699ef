/**
 * Which daemons of the cluster are alive (docs/cluster.md "Daemons and heartbeats"): each keeps
 * one row of `daemons` fresh at its lease-renewal pace and deletes it on a clean stop. Leases alone
 * cannot tell this: an idle daemon holds none. By the time a row is STALE_RENEWALS intervals old,
 * the daemon's leases (three intervals) have run out and others took its sessions over.
 */
import { hostname } from 'node:os';
import type pg from 'pg';
import { quoteIdentifier } from './postgres-connection.js';

/** Renewals a daemon may miss before `govflow status` calls it stale. */
export const STALE_RENEWALS = 3;

/** Rows stale for this long are deleted when a daemon starts: a root retired for good leaves no trace. */
const FORGOTTEN_AFTER = "interval '1 day'";

/** The lease renewal (and heartbeat) interval for a `cluster.lease_ms`. */
export function renewalIntervalMs(leaseMs: number): number {
  return Math.max(100, Math.floor(leaseMs / 3));
}

export interface DaemonRow {
  daemon_id: string;
  host: string;
  pid: number;
  http_url: string | null;
  renew_ms: number;
  sessions: string[];
  started_at: Date;
  last_seen: Date;
  /** Milliseconds since last_seen and since started_at, by Postgres's clock. */
  silent_ms: number;
  up_ms: number;
  stale: boolean;
}

export class DaemonHeartbeat {
  private readonly table: string;
  private readonly host = hostname();

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly daemonId: string,
    private readonly renewMs: number,
  ) {
    this.table = `${quoteIdentifier(schema)}.daemons`;
  }

  /** At start: this run's row (a row left by a killed run of this root is replaced); long-dead rows go. */
  async register(httpUrl: string | null): Promise<void> {
    await this.pool.query(`delete from ${this.table} where last_seen < now() - ${FORGOTTEN_AFTER}`);
    await this.upsert(httpUrl, [], 'started_at = now(), ');
  }

  /** The heartbeat: alive now, running these sessions. Re-creates the row if someone deleted it. */
  beat(httpUrl: string | null, sessions: string[]): Promise<void> {
    return this.upsert(httpUrl, sessions, '');
  }

  private async upsert(httpUrl: string | null, sessions: string[], restarted: string): Promise<void> {
    await this.pool.query(
      `insert into ${this.table} (daemon_id, host, pid, http_url, renew_ms, sessions) values ($1, $2, $3, $4, $5, $6)
       on conflict (daemon_id) do update set host = excluded.host, pid = excluded.pid, http_url = excluded.http_url,
         renew_ms = excluded.renew_ms, sessions = excluded.sessions, ${restarted}last_seen = now()`,
      [this.daemonId, this.host, process.pid, httpUrl, this.renewMs, [...sessions].sort()],
    );
  }

  /** Clean stop: this run's row goes (not a newer run's of the same root, which cannot exist while we hold its lock). */
  async remove(): Promise<void> {
    await this.pool.query(`delete from ${this.table} where daemon_id = $1 and host = $2 and pid = $3`, [
      this.daemonId,
      this.host,
      process.pid,
    ]);
  }
}

/** Every daemon's row, judged by Postgres's clock; null when the store predates migration 3. */
export async function readDaemons(pool: pg.Pool, schema: string): Promise<DaemonRow[] | null> {
  const exists = await pool.query<{ found: boolean }>('select to_regclass($1) is not null as found', [
    `${quoteIdentifier(schema)}.daemons`,
  ]);
  if (!exists.rows[0]?.found) return null;
  const result = await pool.query<DaemonRow>(
    `select daemon_id, host, pid, http_url, renew_ms, sessions, started_at, last_seen,
        (extract(epoch from (now() - last_seen)) * 1000)::float8 as silent_ms, (extract(epoch from (now() - started_at)) * 1000)::float8 as up_ms,
        last_seen < now() - renew_ms * ${STALE_RENEWALS} * interval '1 millisecond' as stale
       from ${quoteIdentifier(schema)}.daemons order by started_at, daemon_id`,
  );
  return result.rows;
}
