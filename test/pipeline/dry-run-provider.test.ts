import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DryRunProvider } from '../../src/llm/dry-run-provider.js';
import { deepMerge, minimalInstance } from '../../src/llm/minimal-instance.js';
import {
  REPOSITORY_ROOT,
  auditEntries,
  exampleRoot,
  messageRecords,
  journalOf,
  removeTempDirs,
  runRequest,
  verifyRoot,
} from './pipeline-test-helpers.js';

afterAll(removeTempDirs);

describe('dry-run provider', () => {
  it('runs the example app to success with six messages, each marked as dry-run in the audit log', async () => {
    const root = exampleRoot();
    const outcome = await runRequest(root, new DryRunProvider());
    expect(outcome.status).toBe('success');
    expect(outcome.result.messages).toBe(6);
    const entries = await auditEntries(root);
    expect(entries).toHaveLength(6);
    for (const entry of entries) expect(entry.notes.join(' ')).toContain('dry-run');
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it.each(['message-schema-draft07.json', 'message-schema-2020-12.json'])(
    'fills the fields a custom message schema adds (%s) so that dry-run still passes validation',
    async (fixture) => {
      const root = exampleRoot('message:\n  schema: schemas/custom-message.json\n');
      copyFileSync(
        path.join(REPOSITORY_ROOT, 'test/fixtures/foundation', fixture),
        path.join(root, 'schemas/custom-message.json'),
      );
      const outcome = await runRequest(root, new DryRunProvider());
      expect(outcome.status).toBe('success');
      const records = messageRecords(journalOf(root, outcome.sessionId));
      expect(records).toHaveLength(6);
      expect(records.every((record) => record.message.status.code === 'success')).toBe(true);
    },
  );

  it('builds minimal instances through local $refs and merges objects deeply', () => {
    const schema = {
      type: 'object',
      required: ['a', 'b'],
      properties: {
        a: { $ref: '#/$defs/name' },
        b: { type: 'object', required: ['c'], properties: { c: { type: 'integer', minimum: 3 } } },
      },
      $defs: { name: { type: 'string', minLength: 2 } },
    };
    expect(minimalInstance(schema)).toEqual({ a: 'xx', b: { c: 3 } });
    expect(deepMerge({ a: 1, b: { c: 2, d: 3 } }, { b: { c: 5 }, e: [1] })).toEqual({
      a: 1,
      b: { c: 5, d: 3 },
      e: [1],
    });
  });
});
