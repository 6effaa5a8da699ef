/**
 * Files written from the code: docs/configuration.md from the config schema and defaults
 * (npm run docs) and src/message/builtin-validators.ts from the built-in schemas (npm run
 * validators). This fails when the code changed and the file was not written again.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { REPOSITORY_ROOT } from '../support/example-app.js';

beforeAll(buildDistOnce, 180_000);

describe('files written from the code', () => {
  it.each([
    ['the configuration reference', 'config-reference.mjs'],
    ['the built-in validators', 'builtin-validators.mjs'],
  ])('%s: what scripts/%s writes', (_what, script) => {
    const checked = spawnSync(process.execPath, [path.join(REPOSITORY_ROOT, 'scripts', script), '--check'], {
      encoding: 'utf8',
    });
    expect(checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });
});
