/**
 * `govflow verify` beside a running daemon (issue #28): it read the logs, then the head record the
 * daemon had advanced meanwhile, and reported "the last N entries were deleted". It now verifies
 * up to the last complete entry it read, exits 0 while the daemon writes, and says how far it got.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, dropJson, makeRoot, readResults, runCli, startDaemon } from '../daemon/daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const REQUESTS = 300;

describe('govflow verify on a live root', () => {
  it('exits 0 every time while the daemon drains a backlog, naming the entry it verified up to', async () => {
    const root = makeRoot('timezone: UTC\nintake: { concurrency: 16 }\n');
    const daemon = await startDaemon(root);
    for (let index = 0; index < REQUESTS; index++)
      dropJson(root, `r${index}.json`, {
        request: `Summarize note ${index} about the budget.`,
        request_id: `live-${index}`,
      });
    const runs: Array<{ code: number; stdout: string }> = [];
    // Verify over and over while sessions commit, until every result is out.
    while (readResults(root).length < REQUESTS) runs.push(await runCli(['verify', '--root', root]));
    await daemon.stop();
    expect(runs.length).toBeGreaterThan(2);
    for (const run of runs) expect(run.code, run.stdout).toBe(0);
    expect(
      runs.some((run) => /a daemon is writing: verified up to entry \d+ \(\d{8}\.log:\d+, message /.test(run.stdout)),
    ).toBe(true);
    const after = await runCli(['verify', '--root', root]);
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(new RegExp(`audit chain intact: ${REQUESTS * 6} entries`));
    expect(after.stdout).not.toMatch(/daemon is writing/);
  }, 180_000);
});
