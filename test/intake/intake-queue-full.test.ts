/**
 * http.max_queued, the intake's part (SPEC §20): while the queue is full a new inbox file waits in
 * the inbox, and the operator is told so once per file (an info line naming it), however often the
 * queue fills and drains before the file is claimed; once the queue drains the file is claimed.
 */
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { aClaimLater, cleanUp, dropFile, makeIntake, makeRoot, waitUntil } from './intake-fixtures.js';

afterEach(cleanUp);

const WAITS = 'waits in the inbox: the queue is full';

describe('InboxIntake with a full queue', () => {
  it('tells once that a new file waits in the inbox, and claims it once the queue drains', async () => {
    const { paths } = makeRoot();
    let elsewhere = 1; // one request queued elsewhere (the store): at max_queued 1 the queue is full
    const lines: Array<{ message: string; file?: string }> = [];
    const { intake, recorded } = makeIntake(paths, {
      maxQueued: 1,
      queuedElsewhere: () => elsewhere,
      log: (level, message, fields) => {
        if (level === 'info') lines.push({ message, ...(fields as { file?: string }) });
      },
    });
    await intake.start();
    intake.checkQueue();
    const waiting = () => lines.filter((line) => line.message.includes(WAITS));

    dropFile(paths, 'a.txt', 'first');
    await waitUntil(() => waiting().length === 1, 'the line telling that a.txt waits');
    expect(waiting()[0]).toMatchObject({ file: 'a.txt' });
    expect(waiting()[0].message).toContain('"a.txt"');
    expect(readdirSync(paths.inbox)).toEqual(['a.txt']);
    expect(recorded.items).toEqual([]);

    // The queue drains and fills again before the file is looked at: it waits again, untold.
    elsewhere = 0;
    intake.checkQueue();
    elsewhere = 1;
    intake.checkQueue();
    await aClaimLater();
    expect(waiting()).toHaveLength(1);
    expect(readdirSync(paths.inbox)).toEqual(['a.txt']);
    expect(recorded.items).toEqual([]);

    elsewhere = 0;
    intake.checkQueue();
    await waitUntil(() => recorded.items.length === 1, 'a.txt claimed once the queue drained');
    expect(readdirSync(paths.inbox)).toEqual([]);

    // A new file under the same name, once claimed, is a new file: told again.
    elsewhere = 1;
    intake.checkQueue();
    dropFile(paths, 'a.txt', 'again');
    await waitUntil(() => waiting().length === 2, 'the line telling that the new a.txt waits');
    expect(readdirSync(paths.inbox)).toEqual(['a.txt']);
  });
});
