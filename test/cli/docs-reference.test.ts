/**
 * docs/configuration.md is generated from the config schema and defaults (npm run docs): this
 * fails when a key, type, default or its comment changed and the reference was not written again.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { REPOSITORY_ROOT } from '../support/example-app.js';

beforeAll(buildDistOnce, 180_000);

describe('the configuration reference', () => {
  it('is what scripts/config-reference.mjs writes from the code (run npm run docs after changing a config key)', () => {
    const checked = spawnSync(
      process.execPath,
      [path.join(REPOSITORY_ROOT, 'scripts', 'config-reference.mjs'), '--check'],
      { encoding: 'utf8' },
    );
    expect(checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });
});
