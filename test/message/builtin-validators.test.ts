/**
 * govflow's own schemas are validated by code ajv generated ahead of time (npm run validators;
 * test/cli/generated-files.test.ts checks it is current): it answers as ajv compiling the schema
 * at run time does.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA } from '../../src/config/config-schema.js';
import { SENTIENT_MESSAGE_SCHEMA } from '../../src/message/sentient-message.js';
import { builtinValidator, compileSchema } from '../../src/message/schema-compiler.js';

describe('the built-in validators', () => {
  it('report the errors ajv reports when it compiles the schema at run time', () => {
    const cases: Array<[Parameters<typeof builtinValidator>[0], object, unknown]> = [
      ['config', CONFIG_SCHEMA, { provider: { kind: 'nope', model: '' }, intake: { concurrency: 'two' }, colour: 1 }],
      ['config', CONFIG_SCHEMA, { timezone: 'UTC', http: { listen: '127.0.0.1:0' } }],
      [
        'sentientMessage',
        SENTIENT_MESSAGE_SCHEMA,
        { message_id: 7, agent: { name: 'goal_agent' }, timestamp: { executed_at: 'yesterday', timezone: 'UTC' } },
      ],
    ];
    for (const [name, schema, value] of cases) {
      const ahead = builtinValidator(name);
      const now = compileSchema(structuredClone(schema) as Record<string, unknown>);
      expect(ahead(value)).toBe(now(value));
      expect(ahead.errors ?? null).toEqual(now.errors ?? null);
    }
    // The last config case is valid; the message case breaks a format, which ajv-formats checks.
    expect(builtinValidator('config').errors).toBeNull();
    expect(builtinValidator('sentientMessage').errors?.map((error) => error.keyword)).toContain('format');
  });
});
