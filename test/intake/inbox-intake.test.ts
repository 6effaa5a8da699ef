import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IntakeItem } from '../../src/intake/claimed-file.js';
import { recoverClaimedFiles, readClaimedFile } from '../../src/intake/claimed-file.js';
import { originalNameOf, parseClaimName } from '../../src/intake/claim-name.js';
import { aClaimLater, cleanUp, dropFile, makeIntake, makeRoot, sleep, waitUntil } from './intake-fixtures.js';

afterEach(cleanUp);

function errorRecord(failedFolder: string, name: string): { file: string; reason: string; at: string } {
  return JSON.parse(readFileSync(path.join(failedFolder, `${name}.error.json`), 'utf8'));
}

describe('InboxIntake: accepting requests', () => {
  it('creates the system folders and hands over a dropped request with its original name', async () => {
    const { paths } = makeRoot();
    const { intake, recorded } = makeIntake(paths);
    await intake.start();
    for (const folder of [paths.inbox, paths.processing, paths.failed, paths.state])
      expect(existsSync(folder)).toBe(true);

    dropFile(paths, 'hello.json', JSON.stringify({ request: 'say hi', request_id: 'hello-1', user: 'ana' }));
    await waitUntil(() => recorded.items.length === 1, 'the request');
    const item = recorded.items[0];
    expect(item).toMatchObject({
      kind: 'request',
      requestId: 'hello-1',
      text: 'say hi',
      user: 'ana',
      sourceFile: 'hello.json',
    });
    expect(path.dirname(item.claimedPath)).toBe(path.resolve(paths.processing));
    expect(existsSync(item.claimedPath)).toBe(true);
    expect(readdirSync(paths.inbox)).toEqual([]);
    expect(item.receivedAt).toBeInstanceOf(Date);
  });

  it('generates a request id when absent, and the same id again when the claimed file is re-read', async () => {
    const { paths } = makeRoot();
    const { intake, recorded } = makeIntake(paths);
    await intake.start();
    dropFile(paths, 'plain.txt', 'summarise this');
    await waitUntil(() => recorded.items.length === 1, 'the request');
    const item = recorded.items[0] as Extract<IntakeItem, { kind: 'request' }>;
    expect(item.requestId).toMatch(/^req-\d{8}-\d{6}-[0-9a-z]{6}$/);
    const again = await readClaimedFile(item.claimedPath, 1024);
    expect(again).toMatchObject({
      kind: 'request',
      requestId: item.requestId,
      sourceFile: 'plain.txt',
      text: 'summarise this',
    });
    expect(await recoverClaimedFiles(paths)).toEqual([item.claimedPath]);
    expect(originalNameOf(item.claimedPath)).toBe('plain.txt');
  });

  it('hands over replies to paused sessions', async () => {
    const { paths } = makeRoot();
    const { intake, recorded } = makeIntake(paths);
    await intake.start();
    dropFile(paths, 'answer.json', '{"session_id":"sess-9","reply":"blue"}');
    await waitUntil(() => recorded.items.length === 1, 'the reply');
    expect(recorded.items[0]).toMatchObject({
      kind: 'reply',
      sessionId: 'sess-9',
      reply: 'blue',
      sourceFile: 'answer.json',
    });
  });

  it('claims each file renamed into the inbox, one after another (latency figures: bench/intake-latency.mjs)', async () => {
    const { paths } = makeRoot();
    const { intake, recorded } = makeIntake(paths);
    await intake.start();
    for (let index = 0; index < 15; index++) {
      dropFile(paths, `fast-${index}.txt`, `request ${index}`);
      await waitUntil(() => recorded.items.length === index + 1, `fast-${index}.txt`);
    }
    expect(recorded.items.map((item) => item.sourceFile)).toEqual(
      Array.from({ length: 15 }, (_, index) => `fast-${index}.txt`),
    );
  });
});

describe('InboxIntake: files that are not ready', () => {
  it('never touches ignored names until they are renamed', async () => {
    const { paths } = makeRoot();
    const { intake, recorded } = makeIntake(paths, { settleMs: 20 });
    await intake.start();
    const ignored = ['.hidden.txt', 'draft.txt.tmp', 'download.part', 'edit.txt.swp', 'backup.txt~'];
    for (const name of ignored) writeFileSync(path.join(paths.inbox, name), 'not yet');
    // A file dropped after them is handed over; by then the intake has seen (and skipped) the others.
    dropFile(paths, 'sentinel.txt', 'ready');
    await waitUntil(() => recorded.items.length === 1, 'the sentinel file');
    await intake.idle();
    expect(recorded.items.map((item) => item.sourceFile)).toEqual(['sentinel.txt']);
    recorded.items.length = 0;
    expect(readdirSync(paths.inbox).sort()).toEqual([...ignored].sort());

    const { renameSync } = await import('node:fs');
    renameSync(path.join(paths.inbox, 'draft.txt.tmp'), path.join(paths.inbox, 'draft.txt'));
    await waitUntil(() => recorded.items.length === 1, 'the renamed file');
    expect(recorded.items[0]).toMatchObject({ sourceFile: 'draft.txt', text: 'not yet' });
    expect(readdirSync(paths.inbox).sort()).toEqual(ignored.filter((name) => name !== 'draft.txt.tmp').sort());
  });

  it('waits for a writer that writes in place, then hands over the whole text once', async () => {
    const { paths } = makeRoot();
    // The writer pauses 60 ms between its writes; the settle time is 25 times that, so a machine
    // under heavy load cannot stretch a pause into a settled file.
    const { intake, recorded } = makeIntake(paths, { settleMs: 1_500 });
    await intake.start();
    const file = path.join(paths.inbox, 'growing.txt');
    writeFileSync(file, 'first half, ');
    await sleep(60); // the writer's pause
    appendFileSync(file, 'second half, ');
    await sleep(60); // the writer's pause
    appendFileSync(file, 'end');
    await waitUntil(() => recorded.items.length >= 1, 'the finished file');
    // Nothing of growing.txt is handed over twice: a later file arrives alone.
    dropFile(paths, 'sentinel.txt', 'ready');
    await waitUntil(() => recorded.items.some((item) => item.sourceFile === 'sentinel.txt'), 'the sentinel file');
    await intake.idle();
    expect(recorded.items.map((item) => item.sourceFile)).toEqual(['growing.txt', 'sentinel.txt']);
    expect(recorded.items[0]).toMatchObject({ text: 'first half, second half, end' });
  });
});

describe('InboxIntake: rejected files', () => {
  it('moves an invalid file to failed/ with an error record {file, reason, at}, and keeps running', async () => {
    const { paths } = makeRoot();
    const { intake, recorded } = makeIntake(paths);
    await intake.start();
    dropFile(paths, 'broken.json', '{"request": ');
    await waitUntil(() => recorded.rejections.length === 1, 'the rejection');
    expect(recorded.rejections[0]).toMatchObject({
      file: 'broken.json',
      reason: expect.stringMatching(/not valid JSON/),
    });
    expect(readFileSync(path.join(paths.failed, 'broken.json'), 'utf8')).toBe('{"request": ');
    const record = errorRecord(paths.failed, 'broken.json');
    expect(record.file).toBe('broken.json');
    expect(record.reason).toMatch(/not valid JSON/);
    expect(new Date(record.at).toISOString()).toBe(record.at);
    expect(readdirSync(paths.processing)).toEqual([]);

    dropFile(paths, 'good.txt', 'still alive');
    await waitUntil(() => recorded.items.length === 1, 'the next request');
  });

  it('moves a JSON request with a field it does not know to failed/, naming the file and the field (as HTTP answers 400)', async () => {
    const { paths } = makeRoot();
    const { intake, recorded } = makeIntake(paths);
    await intake.start();
    dropFile(paths, 'extra.json', JSON.stringify({ request: 'Summarize.', request_id: 'extra-1', priority: 'high' }));
    dropFile(paths, 'extra-reply.json', JSON.stringify({ session_id: 'sess-9', reply: 'blue', colour: 'red' }));
    dropFile(paths, 'extra-approval.json', JSON.stringify({ session_id: 'sess-9', approve: true, approver: 'ana' }));
    await waitUntil(() => recorded.rejections.length === 3, 'the rejections');
    expect(recorded.items).toEqual([]);
    for (const [file, field] of [
      ['extra.json', 'priority'],
      ['extra-reply.json', 'colour'],
      ['extra-approval.json', 'approver'],
    ]) {
      const record = errorRecord(paths.failed, file);
      expect(record.file).toBe(file);
      expect(record.reason).toMatch(new RegExp(`^unknown field "${field}"`));
      expect(existsSync(path.join(paths.failed, file))).toBe(true);
    }
    expect(errorRecord(paths.failed, 'extra.json').reason).toMatch(
      /"request", "request_id", "session_id", "user", "metadata"/,
    );
  });

  it('never overwrites an earlier failed file with the same name', async () => {
    const { paths } = makeRoot();
    const { intake, recorded } = makeIntake(paths);
    await intake.start();
    dropFile(paths, 'empty.txt', '');
    await waitUntil(() => recorded.rejections.length === 1, 'the first rejection');
    dropFile(paths, 'empty.txt', '   ');
    await waitUntil(() => recorded.rejections.length === 2, 'the second rejection');
    expect(
      readdirSync(paths.failed)
        .filter((name) => !name.startsWith('.'))
        .sort(),
    ).toEqual(['empty-1.txt', 'empty-1.txt.error.json', 'empty.txt', 'empty.txt.error.json']);
    expect(readFileSync(path.join(paths.failed, 'empty-1.txt'), 'utf8')).toBe('   ');
    expect(errorRecord(paths.failed, 'empty-1.txt').file).toBe('empty.txt');
  });

  it('rejects a symlink without touching its target, and a folder', async () => {
    const { root, paths } = makeRoot();
    const { intake, recorded } = makeIntake(paths);
    await intake.start();
    const target = path.join(root, 'secret.txt');
    writeFileSync(target, 'do not read me');
    symlinkSync(target, path.join(paths.inbox, 'link.txt'));
    mkdirSync(path.join(paths.inbox, 'folder'));
    writeFileSync(path.join(paths.inbox, 'folder', 'inside.txt'), 'nested');
    await waitUntil(() => recorded.rejections.length === 2, 'both rejections');

    expect(recorded.items).toHaveLength(0);
    expect(readFileSync(target, 'utf8')).toBe('do not read me');
    const movedLink = path.join(paths.failed, 'link.txt');
    expect(lstatSync(movedLink).isSymbolicLink()).toBe(true);
    expect(readlinkSync(movedLink)).toBe(target);
    expect(errorRecord(paths.failed, 'link.txt').reason).toMatch(/symbolic link/);
    expect(lstatSync(path.join(paths.failed, 'folder')).isDirectory()).toBe(true);
    expect(readFileSync(path.join(paths.failed, 'folder', 'inside.txt'), 'utf8')).toBe('nested');
    expect(errorRecord(paths.failed, 'folder').reason).toMatch(/folder/);
  });

  it('rejects a duplicate request_id and never hands it over twice', async () => {
    const { paths } = makeRoot();
    const { intake, recorded } = makeIntake(paths);
    await intake.start();
    dropFile(paths, 'one.json', '{"request":"first","request_id":"dup-1"}');
    await waitUntil(() => recorded.items.length === 1, 'the first');
    dropFile(paths, 'two.json', '{"request":"second","request_id":"dup-1"}');
    await waitUntil(() => recorded.rejections.length === 1, 'the duplicate');
    expect(recorded.items).toHaveLength(1);
    expect(recorded.rejections[0]).toEqual({
      file: 'two.json',
      reason: 'duplicate request_id "dup-1": it was already processed; use a new request_id',
    });
    expect(errorRecord(paths.failed, 'two.json').reason).toMatch(/duplicate request_id "dup-1"/);
  });

  it('logs a failing handler and keeps taking files', async () => {
    const { paths } = makeRoot();
    const seen: string[] = [];
    const { intake, recorded } = makeIntake(paths, {
      handle: async (item) => {
        seen.push(item.sourceFile);
        if (item.sourceFile === 'boom.txt') throw new Error('handler exploded');
      },
    });
    await intake.start();
    dropFile(paths, 'boom.txt', 'x');
    await waitUntil(() => recorded.errors.length === 1, 'the logged error');
    expect(recorded.errors[0]).toMatch(/handler exploded/);
    dropFile(paths, 'after.txt', 'y');
    await waitUntil(() => seen.includes('after.txt'), 'the next file');
  });
});

describe('InboxIntake: scale, races and shutdown', () => {
  it('handles every file exactly once with two intakes on one root', async () => {
    const { paths } = makeRoot();
    const handled: string[] = [];
    const perIntake = [0, 0];
    const handlerFor = (which: number) => async (item: IntakeItem) => {
      handled.push(item.sourceFile);
      perIntake[which]++;
      await new Promise((resolve) => setImmediate(resolve));
    };
    // Both find files by scanning on their own timers while files keep arriving, so their scans
    // overlap and each tries to claim names the other may already have taken.
    const first = makeIntake(paths, { handle: handlerFor(0), concurrency: 3, watch: false, rescanIntervalMs: 7 });
    const second = makeIntake(paths, { handle: handlerFor(1), concurrency: 3, watch: false, rescanIntervalMs: 11 });
    await Promise.all([first.intake.start(), second.intake.start()]);
    for (let index = 0; index < 200; index++) {
      dropFile(paths, `race-${index}.txt`, `request ${index}`);
      if (index % 5 === 4) await sleep(3); // the pace of arrivals, not a wait for anything
    }
    await waitUntil(() => handled.length >= 200, '200 files', 20_000);
    await Promise.all([first.intake.idle(), second.intake.idle()]);
    expect(handled).toHaveLength(200);
    expect(new Set(handled).size).toBe(200);
    // Both took part, so the test really exercised the race between them.
    expect(perIntake[0]).toBeGreaterThan(0);
    expect(perIntake[1]).toBeGreaterThan(0);
    expect(readdirSync(paths.inbox)).toEqual([]);
  });

  it('claims a flood of 1,000 files at once while running at most `concurrency` handlers, first claimed first run', async () => {
    const { paths } = makeRoot();
    mkdirSync(paths.inbox, { recursive: true });
    const base = Date.now() / 1000 - 60;
    for (let index = 0; index < 1000; index++) {
      writeFileSync(path.join(paths.inbox, `flood-${index}.txt`), `n${index}`);
      utimesSync(path.join(paths.inbox, `flood-${index}.txt`), base + index / 1000, base + index / 1000);
    }
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let active = 0;
    let highest = 0;
    const order: string[] = [];
    const claimTimes: string[] = [];
    const { intake } = makeIntake(paths, {
      concurrency: 4,
      settleMs: 0,
      handle: async (item) => {
        order.push(item.sourceFile);
        claimTimes.push(item.claimedPath);
        active++;
        highest = Math.max(highest, active);
        await gate;
        active--;
      },
    });
    await intake.start();
    // Every file leaves the inbox although only 4 handlers run and none has finished.
    await waitUntil(
      () => readdirSync(paths.inbox).length === 0 && intake.queued === 996 && active === 4,
      'every file claimed, 4 handlers waiting',
      30_000,
    );
    expect(intake.running).toBe(4);
    expect(readdirSync(paths.processing)).toHaveLength(1000);
    release();
    await waitUntil(() => order.length === 1000, '1,000 handled', 30_000);
    await intake.idle();
    expect(highest).toBe(4);
    // Every file once; claims are run first in, first out (a file the claimer had to look at twice
    // may be claimed after younger ones, so the inbox's mtime order is not promised under load).
    expect([...order].sort()).toEqual(Array.from({ length: 1000 }, (_, index) => `flood-${index}.txt`).sort());
    // The handler is called once the claim's file is read, on the thread pool: claims taken from the
    // queue together (up to `concurrency`) may reach it in either order, so a claim is overtaken by
    // a few later ones at most (LIFO or no order at all: by hundreds).
    const claimedAt = claimTimes.map((claimed) => parseClaimName(claimed)?.claimedAt.getTime() ?? Number.NaN);
    const overtakenBy = claimedAt.map(
      (time, index) => claimedAt.slice(0, index).filter((earlier) => earlier > time).length,
    );
    expect(Math.max(...overtakenBy)).toBeLessThan(8);
  }, 60_000);

  it('finds files by scanning when there is no watcher, oldest first', async () => {
    const { paths } = makeRoot();
    mkdirSync(paths.inbox, { recursive: true });
    const base = Date.now() / 1000 - 60;
    for (const [name, age] of [
      ['c.txt', 3],
      ['a.txt', 1],
      ['b.txt', 2],
    ] as const) {
      writeFileSync(path.join(paths.inbox, name), name);
      utimesSync(path.join(paths.inbox, name), base + age, base + age);
    }
    const { intake, recorded } = makeIntake(paths, { watch: false, concurrency: 1, rescanIntervalMs: 50 });
    await intake.start();
    await waitUntil(() => recorded.items.length === 3, 'the scanned files');
    expect(recorded.items.map((item) => item.sourceFile)).toEqual(['a.txt', 'b.txt', 'c.txt']);

    dropFile(paths, 'later.txt', 'found by the periodic rescan');
    await waitUntil(() => recorded.items.length === 4, 'the rescan');
    expect(recorded.items[3].sourceFile).toBe('later.txt');
  });

  it('stop() waits for running handlers and claims nothing afterwards; calling it twice is safe', async () => {
    const { paths } = makeRoot();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let finished = 0;
    const { intake, recorded } = makeIntake(paths, {
      concurrency: 1,
      handle: async (item) => {
        recorded.items.push(item);
        await gate;
        finished++;
      },
    });
    await intake.start();
    dropFile(paths, 'slow.txt', 'slow');
    await waitUntil(() => recorded.items.length === 1, 'the slow request');
    dropFile(paths, 'queued.txt', 'claimed, then left waiting in processing/');
    await waitUntil(() => intake.queued === 1, 'queued.txt to be claimed and queued behind the slow request');

    let stopped = false;
    const stopping = intake.stop().then(() => (stopped = true));
    // stop() cannot resolve while the handler waits on the gate, however many turns pass.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    await intake.stop();
    expect(finished).toBe(1);

    dropFile(paths, 'late.txt', 'after stop');
    await aClaimLater(); // a watcher or timer left running would have claimed late.txt by now
    expect(recorded.items.map((item) => item.sourceFile)).toEqual(['slow.txt']);
    expect(readdirSync(paths.inbox)).toEqual(['late.txt']);
    // Claimed but never started: it stays a claim, for the next start's crash recovery.
    expect(readdirSync(paths.processing).map(originalNameOf).sort()).toEqual(['queued.txt', 'slow.txt']);
  });
});
