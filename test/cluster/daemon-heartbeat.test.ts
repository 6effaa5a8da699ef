/**
 * The heartbeat rows of `daemons` (migration 3) on a real Postgres: what a beat records, stale
 * judged by each row's own renewal interval on Postgres's clock, removal on a clean stop, and rows
 * dead for a day forgotten when a daemon starts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { waitFor } from '../daemon/daemon-helpers.js';
import { pgTestSchema } from '../support/postgres.js';
import { DaemonHeartbeat, readDaemons, renewalIntervalMs, type DaemonRow } from '../../src/cluster/daemon-heartbeat.js';
import { openPool } from '../../src/cluster/postgres-connection.js';
import { migrate } from '../../src/cluster/schema-migrate.js';

const pgSchema = await pgTestSchema('daemon_heartbeat');

/** The rows of a migrated schema. */
async function rowsOf(pool: pg.Pool): Promise<DaemonRow[]> {
  const rows = await readDaemons(pool, pgSchema!.schema);
  if (rows === null) throw new Error('no daemons table after the migrations');
  return rows;
}

describe.skipIf(!pgSchema)('daemon heartbeats in Postgres', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = await openPool({ url: pgSchema!.url, schema: pgSchema!.schema, poolSize: 2, connectTimeoutMs: 5000 });
    await migrate(pool, pgSchema!.schema);
  });
  afterAll(async () => {
    await pool?.end();
    await pgSchema?.drop();
  });

  it('reads null from a store the migrations have not reached, so status does not say "no daemons"', async () => {
    expect(await readDaemons(pool, `${pgSchema!.schema}_bare`)).toBeNull();
  });

  it('renews at the lease renewal pace: a third of the lease, 100 ms at least', () => {
    expect(renewalIntervalMs(30_000)).toBe(10_000);
    expect(renewalIntervalMs(120)).toBe(100);
  });

  it('records host, pid, HTTP address and sessions; goes stale after three missed beats; a clean stop removes it', async () => {
    const heartbeat = new DaemonHeartbeat(pool, pgSchema!.schema, 'daemon-a', 100);
    const slow = new DaemonHeartbeat(pool, pgSchema!.schema, 'daemon-b', 60_000);
    await heartbeat.register('http://127.0.0.1:7070');
    await slow.register(null);
    await heartbeat.beat('http://127.0.0.1:7070', ['sess-2', 'sess-1']);
    const [a] = await rowsOf(pool);
    expect(a).toMatchObject({
      daemon_id: 'daemon-a',
      pid: process.pid,
      http_url: 'http://127.0.0.1:7070',
      renew_ms: 100,
      sessions: ['sess-1', 'sess-2'],
      stale: false,
    });
    expect(a.host.length).toBeGreaterThan(0);
    // daemon-a misses its beats: stale after 3 × 100 ms; daemon-b, on a 60 s interval, stays alive.
    const daemons = await waitFor(
      'daemon-a stale',
      async () => {
        const rows = await rowsOf(pool);
        return rows.find((row) => row.daemon_id === 'daemon-a')?.stale ? rows : null;
      },
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    expect(daemons.find((row) => row.daemon_id === 'daemon-a')!.silent_ms).toBeGreaterThanOrEqual(300);
    expect(daemons.find((row) => row.daemon_id === 'daemon-b')).toMatchObject({
      stale: false,
      http_url: null,
      sessions: [],
    });
    // A beat brings it back; a clean stop removes only its own row.
    await heartbeat.beat(null, []);
    expect((await rowsOf(pool)).find((row) => row.daemon_id === 'daemon-a')?.stale).toBe(false);
    await heartbeat.remove();
    expect((await rowsOf(pool)).map((row) => row.daemon_id)).toEqual(['daemon-b']);
    await slow.remove();
  });

  it('forgets, when a daemon registers, rows that went silent a day ago or more', async () => {
    await new DaemonHeartbeat(pool, pgSchema!.schema, 'retired', 100).register(null);
    await new DaemonHeartbeat(pool, pgSchema!.schema, 'recently-dead', 100).register(null);
    await pgSchema!.query("update daemons set last_seen = now() - interval '25 hours' where daemon_id = 'retired'");
    await pgSchema!.query(
      "update daemons set last_seen = now() - interval '23 hours' where daemon_id = 'recently-dead'",
    );
    await new DaemonHeartbeat(pool, pgSchema!.schema, 'newcomer', 100).register(null);
    const rows = await rowsOf(pool);
    const judged = rows.map((row) => `${row.daemon_id} ${row.stale ? 'stale' : 'alive'}`).sort();
    expect(judged).toEqual(['newcomer alive', 'recently-dead stale']);
  });
});
