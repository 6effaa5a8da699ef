import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestIdRegistry } from '../../src/intake/request-id-registry.js';
import { settleVerdict } from '../../src/intake/settle-check.js';
import { cleanUp, makeRoot } from './intake-fixtures.js';

afterEach(cleanUp);

describe('RequestIdRegistry', () => {
  it('claims an id once; a second file with the same id is a duplicate', async () => {
    const { paths } = makeRoot();
    const registry = new RequestIdRegistry(paths);
    expect(existsSync(registry.markerPathOf('order-7'))).toBe(false);
    expect(await registry.claim('order-7', '/p/1-aaaaaa-a.json')).toBe('claimed');
    expect(existsSync(registry.markerPathOf('order-7'))).toBe(true);
    expect(await registry.claim('order-7', '/p/2-bbbbbb-b.json')).toBe('duplicate');
    const marker = JSON.parse(readFileSync(path.join(paths.state, 'requests', 'order-7'), 'utf8'));
    expect(marker).toMatchObject({ request_id: 'order-7', claimed_path: '/p/1-aaaaaa-a.json' });
  });

  it('sees the same claimed file again as its own claim (crash before the session started)', async () => {
    const { paths } = makeRoot();
    expect(await new RequestIdRegistry(paths).claim('r1', '/p/1-aaaaaa-a.json')).toBe('claimed');
    // A new registry object stands for the restarted daemon.
    expect(await new RequestIdRegistry(paths).claim('r1', '/p/1-aaaaaa-a.json')).toBe('claimed');
  });

  it("treats an unreadable marker as somebody else's claim (never run twice)", async () => {
    const { paths } = makeRoot();
    mkdirSync(path.join(paths.state, 'requests'), { recursive: true });
    writeFileSync(path.join(paths.state, 'requests', 'r2'), '');
    expect(await new RequestIdRegistry(paths).claim('r2', '/p/x')).toBe('duplicate');
  });

  it('refuses the ids "." and ".." (SPEC §2): no marker can name a folder', async () => {
    const { paths } = makeRoot();
    const registry = new RequestIdRegistry(paths);
    await expect(registry.claim('..', '/p/a')).rejects.toThrow(/request id "\.\." does not match/);
    await expect(registry.claim('.', '/p/b')).rejects.toThrow(/request id "\." does not match/);
    expect(existsSync(path.join(paths.state, 'requests', '%2E%2E'))).toBe(false);
  });

  it('refuses ids that do not match the pattern', async () => {
    const { paths } = makeRoot();
    await expect(new RequestIdRegistry(paths).claim('../../etc', '/p/a')).rejects.toThrow(/does not match/);
  });

  it('makes the claimed file itself the marker (a hard link), recognised as its own after a restart', async () => {
    const { paths } = makeRoot();
    mkdirSync(paths.processing, { recursive: true });
    const first = path.join(paths.processing, '1-aaaaaa-a.json');
    const second = path.join(paths.processing, '2-bbbbbb-b.json');
    writeFileSync(first, '{"request": "one", "request_id": "linked"}');
    writeFileSync(second, '{"request": "two", "request_id": "linked"}');
    expect(await new RequestIdRegistry(paths).claim('linked', first)).toBe('claimed');
    const marker = path.join(paths.state, 'requests', 'linked');
    expect(statSync(marker).ino).toBe(statSync(first).ino);
    expect(await new RequestIdRegistry(paths).claim('linked', first)).toBe('claimed');
    expect(await new RequestIdRegistry(paths).claim('linked', second)).toBe('duplicate');
    // Archiving the first file (a rename) keeps the marker, so the id stays taken.
    renameSync(first, path.join(paths.processing, 'archived.json'));
    expect(await new RequestIdRegistry(paths).claim('linked', second)).toBe('duplicate');
  });

  it('still reads JSON markers: a request file that merely looks like one is not our claim', async () => {
    const { paths } = makeRoot();
    mkdirSync(paths.processing, { recursive: true });
    const mine = path.join(paths.processing, '1-aaaaaa-mine.json');
    writeFileSync(mine, '{"request": "x"}');
    mkdirSync(path.join(paths.state, 'requests'), { recursive: true });
    writeFileSync(
      path.join(paths.state, 'requests', 'old'),
      JSON.stringify({ format_version: 1, request_id: 'old', claimed_path: mine, claimed_at: 'x' }),
    );
    expect(await new RequestIdRegistry(paths).claim('old', mine)).toBe('claimed');
    writeFileSync(path.join(paths.state, 'requests', 'lookalike'), JSON.stringify({ claimed_path: mine }));
    expect(await new RequestIdRegistry(paths).claim('lookalike', mine)).toBe('duplicate');
  });

  it('gives exactly one winner among many racing claims', async () => {
    const { paths } = makeRoot();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, index) => new RequestIdRegistry(paths).claim('race', `/p/${index}`)),
    );
    expect(outcomes.filter((outcome) => outcome === 'claimed')).toHaveLength(1);
  });

  it('gives exactly one winner among racing claims of real files', async () => {
    const { paths } = makeRoot();
    mkdirSync(paths.processing, { recursive: true });
    const files = Array.from({ length: 20 }, (_, index) => {
      const file = path.join(paths.processing, `${index}-aaaaaa-r.json`);
      writeFileSync(file, `{"request": "${index}"}`);
      return file;
    });
    const outcomes = await Promise.all(files.map((file) => new RequestIdRegistry(paths).claim('race-files', file)));
    expect(outcomes.filter((outcome) => outcome === 'claimed')).toHaveLength(1);
  });
});

describe('settleVerdict', () => {
  const now = 1_000_000;
  const at = (milliseconds: number) => BigInt(milliseconds) * 1_000_000n;

  it('waits for a fresh file that was written in place, for the rest of settle_ms', () => {
    const verdict = settleVerdict({
      sighting: { size: 5n, mtimeNs: at(now - 30), ctimeNs: at(now - 30) },
      nowMs: now,
      settleMs: 100,
      arrivedWhole: false,
    });
    expect(verdict).toEqual({ ready: false, waitMs: 70 });
  });

  it('takes a file nobody wrote to for settle_ms', () => {
    expect(
      settleVerdict({
        sighting: { size: 5n, mtimeNs: at(now - 100), ctimeNs: at(now - 100) },
        nowMs: now,
        settleMs: 100,
        arrivedWhole: false,
      }).ready,
    ).toBe(true);
  });

  it('takes at once a file renamed in after its last write, or one that appeared whole', () => {
    expect(
      settleVerdict({
        sighting: { size: 5n, mtimeNs: at(now - 1), ctimeNs: at(now) },
        nowMs: now,
        settleMs: 100,
        arrivedWhole: false,
      }).ready,
    ).toBe(true);
    expect(
      settleVerdict({
        sighting: { size: 5n, mtimeNs: at(now), ctimeNs: at(now) },
        nowMs: now,
        settleMs: 100,
        arrivedWhole: true,
      }).ready,
    ).toBe(true);
  });

  it('never takes a fresh empty file early: that is how in-place writers start', () => {
    expect(
      settleVerdict({
        sighting: { size: 0n, mtimeNs: at(now - 1), ctimeNs: at(now) },
        nowMs: now,
        settleMs: 100,
        arrivedWhole: true,
      }).ready,
    ).toBe(false);
  });

  it('takes a file with a future mtime once it was unchanged for settle_ms', () => {
    const sighting = { size: 5n, mtimeNs: at(now + 60_000), ctimeNs: at(now + 60_000) };
    expect(settleVerdict({ sighting, nowMs: now, settleMs: 100, arrivedWhole: false })).toEqual({
      ready: false,
      waitMs: 100,
    });
    const earlier = { size: 5n, mtimeNs: sighting.mtimeNs, seenAtMs: now - 100 };
    expect(settleVerdict({ sighting, earlier, nowMs: now, settleMs: 100, arrivedWhole: false }).ready).toBe(true);
    expect(
      settleVerdict({ sighting: { ...sighting, size: 6n }, earlier, nowMs: now, settleMs: 100, arrivedWhole: false })
        .ready,
    ).toBe(false);
  });
});
