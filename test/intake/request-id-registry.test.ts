import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestIdRegistry } from '../../src/intake/request-id-registry.js';
import { settleVerdict } from '../../src/intake/settle-check.js';
import { cleanUp, makeRoot } from './intake-fixtures.js';

afterEach(cleanUp);

describe('RequestIdRegistry', () => {
  it('claims an id once; a second file with the same id is a duplicate', () => {
    const { paths } = makeRoot();
    const registry = new RequestIdRegistry(paths);
    expect(registry.has('order-7')).toBe(false);
    expect(registry.claim('order-7', '/p/1-aaaaaa-a.json')).toBe('claimed');
    expect(registry.has('order-7')).toBe(true);
    expect(registry.claim('order-7', '/p/2-bbbbbb-b.json')).toBe('duplicate');
    const marker = JSON.parse(readFileSync(path.join(paths.state, 'requests', 'order-7'), 'utf8'));
    expect(marker).toMatchObject({ request_id: 'order-7', claimed_path: '/p/1-aaaaaa-a.json' });
  });

  it('sees the same claimed file again as its own claim (crash before the session started)', () => {
    const { paths } = makeRoot();
    expect(new RequestIdRegistry(paths).claim('r1', '/p/1-aaaaaa-a.json')).toBe('claimed');
    // A new registry object stands for the restarted daemon.
    expect(new RequestIdRegistry(paths).claim('r1', '/p/1-aaaaaa-a.json')).toBe('claimed');
  });

  it('treats an unreadable marker as somebody else\'s claim (never run twice)', () => {
    const { paths } = makeRoot();
    mkdirSync(path.join(paths.state, 'requests'), { recursive: true });
    writeFileSync(path.join(paths.state, 'requests', 'r2'), '');
    expect(new RequestIdRegistry(paths).claim('r2', '/p/x')).toBe('duplicate');
  });

  it('stores the ids "." and ".." under names that cannot escape the folder', () => {
    const { paths } = makeRoot();
    const registry = new RequestIdRegistry(paths);
    expect(registry.claim('..', '/p/a')).toBe('claimed');
    expect(registry.claim('.', '/p/b')).toBe('claimed');
    expect(registry.claim('..', '/p/c')).toBe('duplicate');
    expect(existsSync(path.join(paths.state, 'requests', '%2E%2E'))).toBe(true);
  });

  it('refuses ids that do not match the pattern', () => {
    const { paths } = makeRoot();
    expect(() => new RequestIdRegistry(paths).claim('../../etc', '/p/a')).toThrow(/does not match/);
  });

  it('gives exactly one winner among many racing claims', () => {
    const { paths } = makeRoot();
    const outcomes = Array.from({ length: 20 }, (_, index) => new RequestIdRegistry(paths).claim('race', `/p/${index}`));
    expect(outcomes.filter((outcome) => outcome === 'claimed')).toHaveLength(1);
  });
});

describe('settleVerdict', () => {
  const now = 1_000_000;
  const at = (milliseconds: number) => BigInt(milliseconds) * 1_000_000n;

  it('waits for a fresh file that was written in place, for the rest of settle_ms', () => {
    const verdict = settleVerdict({ sighting: { size: 5n, mtimeNs: at(now - 30), ctimeNs: at(now - 30) }, nowMs: now, settleMs: 100, arrivedWhole: false });
    expect(verdict).toEqual({ ready: false, waitMs: 70 });
  });

  it('takes a file nobody wrote to for settle_ms', () => {
    expect(settleVerdict({ sighting: { size: 5n, mtimeNs: at(now - 100), ctimeNs: at(now - 100) }, nowMs: now, settleMs: 100, arrivedWhole: false }).ready).toBe(true);
  });

  it('takes at once a file renamed in after its last write, or one that appeared whole', () => {
    expect(settleVerdict({ sighting: { size: 5n, mtimeNs: at(now - 1), ctimeNs: at(now) }, nowMs: now, settleMs: 100, arrivedWhole: false }).ready).toBe(true);
    expect(settleVerdict({ sighting: { size: 5n, mtimeNs: at(now), ctimeNs: at(now) }, nowMs: now, settleMs: 100, arrivedWhole: true }).ready).toBe(true);
  });

  it('never takes a fresh empty file early: that is how in-place writers start', () => {
    expect(settleVerdict({ sighting: { size: 0n, mtimeNs: at(now - 1), ctimeNs: at(now) }, nowMs: now, settleMs: 100, arrivedWhole: true }).ready).toBe(false);
  });

  it('takes a file with a future mtime once it was unchanged for settle_ms', () => {
    const sighting = { size: 5n, mtimeNs: at(now + 60_000), ctimeNs: at(now + 60_000) };
    expect(settleVerdict({ sighting, nowMs: now, settleMs: 100, arrivedWhole: false })).toEqual({ ready: false, waitMs: 100 });
    const earlier = { size: 5n, mtimeNs: sighting.mtimeNs, seenAtMs: now - 100 };
    expect(settleVerdict({ sighting, earlier, nowMs: now, settleMs: 100, arrivedWhole: false }).ready).toBe(true);
    expect(settleVerdict({ sighting: { ...sighting, size: 6n }, earlier, nowMs: now, settleMs: 100, arrivedWhole: false }).ready).toBe(false);
  });
});
