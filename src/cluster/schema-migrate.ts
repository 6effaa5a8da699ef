/**
 * Applies the store's migrations (store-migrations.ts) at every start and in `govflow migrate`: in
 * one transaction under an advisory lock, so daemons starting together do not race.
 */
import type pg from 'pg';
import { GovflowError } from '../errors.js';
import { inTransaction, quoteIdentifier } from './postgres-connection.js';
import { MIGRATIONS } from './store-migrations.js';

const LOCK_SQL = 'select pg_advisory_xact_lock(hashtext($1))';

/** Applies every migration the schema lacks; resolves with the versions applied now. */
export async function migrate(pool: pg.Pool, schema: string): Promise<number[]> {
  const quoted = quoteIdentifier(schema);
  return inTransaction(pool, async (client) => {
    const applied: number[] = [];
    await client.query(LOCK_SQL, [`govflow-migrations:${schema}`]);
    await client.query(`create schema if not exists ${quoted}`);
    await client.query(
      `create table if not exists ${quoted}.schema_migrations (version int primary key, name text not null, applied_at timestamptz not null default now())`,
    );
    const done = new Set(
      (await client.query<{ version: number }>(`select version from ${quoted}.schema_migrations`)).rows.map(
        (row) => row.version,
      ),
    );
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql.replaceAll('$schema', quoted));
      await client.query(`insert into ${quoted}.schema_migrations (version, name) values ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    const newest = Math.max(0, ...done);
    const known = MIGRATIONS.at(-1)?.version ?? 0;
    if (newest > known)
      throw new GovflowError(
        'config',
        `the store's schema "${schema}" is at version ${newest}, newer than this govflow knows (${known}): run the newer govflow`,
      );
    return applied;
  });
}
