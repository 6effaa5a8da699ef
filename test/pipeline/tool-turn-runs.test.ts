/**
 * The calls of one turn in flight (src/pipeline/tool-turn-runs.ts): a slot limit that makes the
 * extra works wait rather than fail, results recorded in call order whatever order the runs end
 * in, and a run that throws waited for with the others before its error comes back.
 */
import { describe, expect, it } from 'vitest';
import { Slots, TurnRuns, type ToolRun } from '../../src/pipeline/tool-turn-runs.js';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Slots', () => {
  it('runs at most `size` works at once; the others wait and all finish', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const work = (n: number) =>
      slots.run(async () => {
        started.push(n);
        running += 1;
        most = Math.max(most, running);
        await later(20);
        running -= 1;
        return n;
      });
    const all = [1, 2, 3, 4, 5].map(work);
    // The first two start at once, before run() returns.
    expect(started).toEqual([1, 2]);
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(started).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('TurnRuns', () => {
  const run = (log: string[], name: string, ms: number, intervene = false): Promise<ToolRun> =>
    later(ms).then(() => ({
      intervene: intervene ? { code: 'PROCESSING_ERROR', message: name, recoverable: false, notes: '' } : null,
      record: () => log.push(name),
    })) as Promise<ToolRun>;

  it('records results in call order, whatever order the runs end in', async () => {
    const log: string[] = [];
    const runs = new TurnRuns();
    void runs.add(run(log, 'slow', 60));
    void runs.add(run(log, 'quick', 5));
    await runs.add(run(log, 'middle', 20));
    expect(log).toEqual([]);
    expect(await runs.settle()).toBeNull();
    expect(log).toEqual(['slow', 'quick', 'middle']);
  });

  it('returns the first intervene in call order and stops starting calls once one is known', async () => {
    const log: string[] = [];
    const runs = new TurnRuns();
    void runs.add(run(log, 'first', 40));
    await runs.add(run(log, 'guarded', 5, true));
    expect(runs.stopped).toBe(true);
    expect((await runs.settle())?.message).toBe('guarded');
    expect(log).toEqual(['first', 'guarded']);
  });

  it('waits for every run before a failed one rethrows; the results before it are recorded', async () => {
    const log: string[] = [];
    const runs = new TurnRuns();
    let lateDone = false;
    void runs.add(run(log, 'before', 10));
    void runs.add(Promise.reject(new Error('stopped')));
    void runs.add(
      later(50).then(() => {
        lateDone = true;
        return { intervene: null, record: () => log.push('after') };
      }),
    );
    expect(runs.stopped).toBe(false);
    await expect(runs.settle()).rejects.toThrow('stopped');
    expect(lateDone).toBe(true);
    expect(log).toEqual(['before']);
  });
});
