/**
 * A fresh Postgres schema per test file (cluster mode, SPEC §15). The server is found through
 * GOVFLOW_TEST_PG_URL (default postgres://root@127.0.0.1:5432/test). When no server answers,
 * `pgTestSchema()` resolves null after printing one line saying so, and the caller skips:
 *
 *   const pg = await pgTestSchema('store');
 *   afterAll(() => pg?.drop());
 *   describe.skipIf(!pg)('postgres store', () => { ... pg!.url, pg!.schema ... });
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { skipsFor } from './machine-requirement.js';

export const TEST_PG_URL = process.env.GOVFLOW_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';

export interface PgTestSchema {
  /** The server's URL (the schema is separate: store.schema). */
  url: string;
  /** A new, empty schema name, unique to this test file. */
  schema: string;
  /** Runs SQL on the server with `search_path` set to the schema. */
  query<Row extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** `store:` config for a govflow root using this schema (YAML-ready object). */
  storeConfig(): { kind: 'postgres'; url: string; schema: string };
  /** Drops the schema and closes the connection (safe to call twice). */
  drop(): Promise<void>;
}

let reported = false;

/** True when a Postgres server answers at `url` within 3 s. */
export async function postgresAnswers(url = TEST_PG_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Creates a schema `gftest_<prefix>_<random>` and returns a handle, or null (printing one line)
 * when no server answers.
 */
export async function pgTestSchema(prefix = 't'): Promise<PgTestSchema | null> {
  if (!(await postgresAnswers())) {
    if (!reported)
      skipsFor(
        'the Postgres tests of this file',
        `no server answers at ${redacted(TEST_PG_URL)} (GOVFLOW_TEST_PG_URL)`,
      );
    reported = true;
    return null;
  }
  const schema = `gftest_${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: TEST_PG_URL, max: 2 });
  pool.on('error', () => {});
  await pool.query(`create schema "${schema}"`);
  let dropped = false;
  return {
    url: TEST_PG_URL,
    schema,
    async query<Row extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<Row[]> {
      const client = await pool.connect();
      try {
        await client.query(`set search_path to "${schema}"`);
        return (await client.query<Row>(sql, params)).rows;
      } finally {
        client.release();
      }
    },
    storeConfig: () => ({ kind: 'postgres', url: TEST_PG_URL, schema }),
    async drop() {
      if (dropped) return;
      dropped = true;
      try {
        await pool.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await pool.end();
      }
    },
  };
}

function redacted(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
