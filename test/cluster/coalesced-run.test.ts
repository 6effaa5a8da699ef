/** One run for many callers, one more pass when asked meanwhile (src/cluster/coalesced-run.ts). */
import { describe, expect, it } from 'vitest';
import { coalesced } from '../../src/cluster/coalesced-run.js';

describe('coalesced', () => {
  it('shares the run under way, makes one more pass for the calls made meanwhile, and starts fresh after', async () => {
    let passes = 0;
    let release!: () => void;
    const run = coalesced(async () => {
      passes++;
      if (passes === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = run();
    const second = run();
    const third = run();
    expect(second).toBe(first);
    expect(third).toBe(first);
    release();
    await first;
    expect(passes).toBe(2);
    await run();
    expect(passes).toBe(3);
  });

  it('hands a failure to onError once per run and resolves, or rejects without onError', async () => {
    const errors: unknown[] = [];
    const guarded = coalesced(
      () => Promise.reject(new Error('store away')),
      (error) => errors.push(error),
    );
    await Promise.all([guarded(), guarded()]);
    expect(errors.map((error) => (error as Error).message)).toEqual(['store away']);
    await expect(coalesced(() => Promise.reject(new Error('no handler')))()).rejects.toThrow('no handler');
  });
});
