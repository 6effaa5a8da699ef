/**
 * Issue 20, the intake's part: while the disk alarm holds claiming, dropped files stay in the
 * inbox and nothing is rejected; once it clears they are claimed in order. A processing/ folder
 * removed under the intake is made again and the claim goes through.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { aClaimLater, cleanUp, dropFile, makeIntake, makeRoot, waitUntil } from './intake-fixtures.js';

afterEach(cleanUp);

describe('InboxIntake and the disk', () => {
  it('claims nothing while claiming is held, and everything once it is released', async () => {
    const { paths } = makeRoot();
    const { intake, recorded } = makeIntake(paths);
    intake.setClaiming(false);
    await intake.start();
    dropFile(paths, 'a.txt', 'first');
    dropFile(paths, 'b.txt', 'second');
    await aClaimLater(); // this intake would have claimed both by now, were it not held
    expect(intake.queued, 'files found and waiting').toBe(2);
    expect(recorded.items).toEqual([]);
    expect(readdirSync(paths.inbox).sort()).toEqual(['a.txt', 'b.txt']);
    expect(readdirSync(paths.failed)).toEqual([]);
    intake.setClaiming(true);
    await waitUntil(() => recorded.items.length === 2, 'both requests');
    expect(readdirSync(paths.inbox)).toEqual([]);
  });

  it('makes a removed processing/ folder again and claims the file', async () => {
    const { paths } = makeRoot();
    const { intake, recorded } = makeIntake(paths);
    await intake.start();
    rmSync(paths.processing, { recursive: true });
    dropFile(paths, 'c.txt', 'third');
    await waitUntil(() => recorded.items.length === 1, 'the request');
    expect(existsSync(recorded.items[0].claimedPath)).toBe(true);
  });
});
