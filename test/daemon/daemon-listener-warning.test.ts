/**
 * Many model calls in flight at once all listen on the daemon's shutdown signal: Node must not
 * print its "possible memory leak" warning for that (it did past 10 concurrent calls).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GovflowDaemon } from '../../src/daemon/daemon.js';
import { GatedProvider } from '../http/http-test-helpers.js';
import { exampleRoot, removeTempDirs } from '../pipeline/pipeline-test-helpers.js';

afterEach(removeTempDirs);

const SILENT = { info() {}, warn() {}, error() {} };

describe('the daemon under concurrency', () => {
  it('runs 12 model calls at once without a MaxListenersExceededWarning', async () => {
    const root = exampleRoot('intake: { concurrency: 12 }\n');
    const provider = new GatedProvider({ gated: true });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const daemon = await GovflowDaemon.start(root, { env: {}, log: SILENT, provider, announce: () => {} });
    try {
      for (let index = 0; index < 12; index++)
        writeFileSync(path.join(root, 'system', 'inbox', `r${index}.txt`), `Summarize request ${index}.`);
      await provider.waitForCalls(12);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      provider.release(1000);
      await daemon.stop();
      process.off('warning', onWarning);
    }
  }, 60_000);
});
