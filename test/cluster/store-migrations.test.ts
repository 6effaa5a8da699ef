/** Cluster mode: versioned migrations, `govflow migrate`, and exit 2 when the store cannot be reached. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce, REPOSITORY_ROOT } from '../daemon/build-once.js';
import { pgTestSchema } from '../support/postgres.js';
import { migrate } from '../../src/cluster/schema-migrate.js';
import { LZ4_COLUMNS, MIGRATIONS } from '../../src/cluster/store-migrations.js';
import { openPool } from '../../src/cluster/postgres-connection.js';

const pg = await pgTestSchema('migrations');
const roots: string[] = [];
afterAll(async () => {
  await pg?.drop();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function rootWith(config: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'govflow-migrate-'));
  roots.push(root);
  writeFileSync(path.join(root, 'govflow.config.yaml'), config);
  return root;
}

function cli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPOSITORY_ROOT, 'bin/govflow.js'), ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          stdout,
          stderr,
          ms: Date.now() - started,
        });
      },
    );
  });
}

beforeAll(() => buildDistOnce(), 180_000);

describe('govflow migrate without Postgres', () => {
  it('on a files root says migrations are for cluster mode and exits 2', async () => {
    const result = await cli(['migrate', '--root', rootWith('timezone: UTC\n')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/files store/);
  });

  it('with an unreachable store exits 2 naming host and port, never the password', async () => {
    const root = rootWith('store:\n  kind: postgres\n  url: postgres://alice:s3cret-pw@127.0.0.1:1/db\n');
    for (const command of ['migrate', 'start']) {
      const result = await cli([command, '--root', root]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('127.0.0.1:1');
      expect(result.stderr + result.stdout).not.toContain('s3cret-pw');
      expect(result.ms).toBeLessThan(30_000);
    }
  });

  it('expands ${ENV} in store.url and reports an unset variable as a configuration error', async () => {
    const root = rootWith('store:\n  kind: postgres\n  url: postgres://alice:${GF_TEST_PW}@127.0.0.1:1/db\n');
    const unset = await cli(['migrate', '--root', root]);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('GF_TEST_PW');
    const set = await cli(['migrate', '--root', root], { GF_TEST_PW: 'another-secret' });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain('127.0.0.1:1');
    expect(set.stderr).not.toContain('another-secret');
  });
});

describe.skipIf(!pg)('migrations on a real Postgres', () => {
  it('apply every version once, record them, and a second run applies nothing', async () => {
    const pool = await openPool({ url: pg!.url, schema: pg!.schema, poolSize: 4, connectTimeoutMs: 5000 });
    try {
      const [first, second] = await Promise.all([migrate(pool, pg!.schema), migrate(pool, pg!.schema)]);
      expect([...first, ...second].sort((a, b) => a - b)).toEqual(MIGRATIONS.map((migration) => migration.version));
      expect(await migrate(pool, pg!.schema)).toEqual([]);
      const rows = await pg!.query<{ version: number }>('select version from schema_migrations order by version');
      expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
      const head = await pg!.query<{ position: string; hash: string }>('select position, hash from audit_head');
      expect(head).toEqual([{ position: '0', hash: '0'.repeat(64) }]);
      // Migration 13: what each message writes is compressed with lz4 where the server has it.
      const [{ lz4 }] = await pg!.query<{ lz4: boolean }>(
        `select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`,
      );
      const compression = await pg!.query<{ table: string; column: string; method: string }>(
        `select c.relname as table, a.attname as column, a.attcompression::text as method
           from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = $1 and a.attnum > 0 and a.attcompression <> ''`,
        [pg!.schema],
      );
      const expected = lz4 ? LZ4_COLUMNS.map(([table, column]) => ({ table, column, method: 'l' })) : [];
      const byColumn = (a: { table: string; column: string }, b: { table: string; column: string }) =>
        `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`);
      expect(compression.sort(byColumn)).toEqual([...expected].sort(byColumn));
      // A value written now is compressed with lz4 and reads back whole.
      if (lz4) {
        const record = JSON.stringify({ type: 'exchange', prompt: 'a meeting note '.repeat(400) });
        await pg!.query(
          `insert into sessions (session_id, request_id, state, request, intake_daemon) values ('s-lz4', 'r-lz4', 'queued', '{}', 'd')`,
        );
        await pg!.query(`insert into journal (session_id, seq, record) values ('s-lz4', 1, $1)`, [record]);
        const [stored] = await pg!.query<{ method: string; record: string }>(
          `select pg_column_compression(record) as method, record from journal where session_id = 's-lz4'`,
        );
        expect(stored).toEqual({ method: 'lz4', record });
      }
    } finally {
      await pool.end();
    }
  });

  it('govflow migrate applies them through the CLI and says when the schema is up to date', async () => {
    const schema = `${pg!.schema}_cli`;
    const root = rootWith(`store:\n  kind: postgres\n  url: ${pg!.url}\n  schema: ${schema}\n`);
    try {
      const first = await cli(['migrate', '--root', root]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain(`to version ${MIGRATIONS.at(-1)!.version}`);
      const again = await cli(['migrate', '--root', root]);
      expect(again.stdout).toMatch(/up to date/);
    } finally {
      await pg!.query(`drop schema if exists "${schema}" cascade`);
    }
  });
});
