/**
 * A restart after `kill -9` with a backlog (issue #28): the daemon is ready at once, takes new
 * requests while it recovers the old ones, `govflow status` says how many are still waiting and
 * how fast they go, the backlog and the new ones share intake.concurrency in arrival order, and every request ends with exactly one result on an intact chain.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from './build-once.js';
import {
  cleanupAll,
  dropJson,
  exampleScript,
  makeRoot,
  readResults,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const REQUESTS = 60;

describe('a restart with a backlog', () => {
  it('is ready at once, takes new requests while recovering, and status shows the backlog and its pace', async () => {
    const root = makeRoot(scriptedConfig('intake: { concurrency: 4 }\n'));
    writeScript(root, exampleScript({ latencyMs: 40, loop: true }));
    const first = await startDaemon(root);
    for (let index = 0; index < REQUESTS; index++)
      dropJson(root, `r${index}.json`, { request: `Summarize note ${index}.`, request_id: `backlog-${index}` });
    const processing = path.join(root, 'system', 'processing');
    await waitFor(
      'the backlog claimed',
      () => readdirSync(path.join(root, 'system', 'inbox')).filter((name) => name.endsWith('.json')).length === 0,
    );
    await waitFor('a few results', () => readResults(root).length >= 4);
    await first.kill9();
    const left = readdirSync(processing).filter((name) => name.endsWith('.json')).length;
    expect(left).toBeGreaterThan(20);

    const second = await startDaemon(root);
    dropJson(root, 'new.json', { request: 'A new request during recovery.', request_id: 'during-recovery' });
    const seen: string[] = [];
    while (readResults(root).length < REQUESTS + 1) {
      const status = await runCli(['status', '--root', root]);
      const line = status.stdout.split('\n').find((text) => text.startsWith('recovering:'));
      if (line) seen.push(line);
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toMatch(
      new RegExp(`^recovering: \\d+ of ${left} requests left by an earlier run still waiting, [\\d.]+/s`),
    );
    const fresh = readResults(root).filter((result) => result.request_id === 'during-recovery');
    expect(fresh).toHaveLength(1);
    // One intake.concurrency (4) for the backlog and the new request, in arrival order: it took a
    // slot only once every recovered request had one, so all but the last four had finished.
    const freshStart = Date.parse(fresh[0].started_at);
    const finishedFirst = readResults(root).filter(
      (result) => result.request_id !== 'during-recovery' && Date.parse(result.finished_at) <= freshStart,
    ).length;
    expect(finishedFirst, 'recovered requests finished before the new one started').toBeGreaterThanOrEqual(
      REQUESTS - 4,
    );
    const json = JSON.parse((await runCli(['status', '--root', root, '--json'])).stdout) as { recovery: unknown };
    expect(json.recovery).toBeNull();
    await second.stop();
    const results = readResults(root);
    expect(new Set(results.map((result) => result.request_id)).size).toBe(REQUESTS + 1);
    expect(results).toHaveLength(REQUESTS + 1);
    expect(results.every((result) => result.status === 'success')).toBe(true);
    expect((await runCli(['verify', '--root', root])).code).toBe(0);
  }, 180_000);
});
