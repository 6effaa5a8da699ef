import { afterAll, describe, expect, it } from 'vitest';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('support');
afterAll(() => pg?.drop());

describe.skipIf(!pg)('test support: a fresh Postgres schema per file', () => {
  it('creates an empty schema that queries run in', async () => {
    await pg!.query('create table probe (n int)');
    await pg!.query('insert into probe values (1), (2)');
    const rows = await pg!.query<{ total: number }>('select sum(n)::int as total from probe');
    expect(rows[0].total).toBe(3);
    const schemas = await pg!.query<{ n: number }>(
      'select count(*)::int as n from information_schema.schemata where schema_name = $1',
      [pg!.schema],
    );
    expect(schemas[0].n).toBe(1);
  });
});
