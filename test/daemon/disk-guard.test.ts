/**
 * Issue 20: the free-space floor (intake.min_free_bytes) raises an alarm once, holds claiming,
 * and clears once; folders removed under the daemon are made again with a warning; and
 * `govflow status` shows the alarm with the free bytes and `waiting: <errno> on <path>`.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { systemPaths } from '../../src/config/system-paths.js';
import { DiskGuard } from '../../src/daemon/disk-guard.js';
import { readDiskStatus } from '../../src/store/status-file.js';
import { DISK_BACKOFF, diskWaits } from '../../src/store/disk-waits.js';
import { RootLock } from '../../src/daemon/root-lock.js';
import { writeFileAtomicAsync } from '../../src/store/atomic-file.js';
import { InjectedDiskFaults } from '../support/disk-faults.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  diskWaits.setBackoff(DISK_BACKOFF);
  removeTempFolders();
});

function recordingLog() {
  const lines: Array<{ level: string; message: string }> = [];
  const add = (level: string) => (message: string) => lines.push({ level, message });
  return { lines, log: { info: add('info'), warn: add('warn'), error: add('error') } };
}

function guardedRoot(minFreeBytes: number) {
  const root = makeTempFolder('govflow-disk-');
  const paths = systemPaths(root);
  for (const folder of [
    paths.inbox,
    paths.outbox,
    paths.logs,
    paths.sessions,
    paths.archive,
    paths.failed,
    paths.processing,
    paths.state,
  ])
    mkdirSync(folder, { recursive: true });
  const recorded = recordingLog();
  let free = 10 * minFreeBytes;
  const claiming: boolean[] = [];
  const guard = new DiskGuard({
    paths,
    minFreeBytes,
    log: recorded.log,
    onClaimingChange: (mayClaim) => claiming.push(mayClaim),
    freeBytes: () => free,
  });
  cleanups.push(() => guard.stop());
  return { root, paths, guard, lines: recorded.lines, claiming, setFree: (bytes: number) => (free = bytes) };
}

async function status(root: string, json = false): Promise<string> {
  let out = '';
  const code = await main(['status', '--root', root, ...(json ? ['--json'] : [])], {
    stdout: (text) => (out += text),
    stderr: () => undefined,
    env: {},
    readStdin: async () => '',
  });
  expect(code).toBe(0);
  return out;
}

describe('the free-space floor', () => {
  it('rises once below intake.min_free_bytes, holds claiming, and clears once above it', () => {
    const { guard, lines, claiming, setFree, paths } = guardedRoot(64 * 1024 * 1024);
    guard.check();
    expect(guard.alarm).toBe(false);
    setFree(1_000_000);
    guard.check();
    guard.check();
    expect(guard.alarm).toBe(true);
    expect(claiming).toEqual([false]);
    const rises = lines.filter((line) =>
      /disk alarm: 1000000 bytes free .*below intake\.min_free_bytes \(67108864\)/.test(line.message),
    );
    expect(rises).toHaveLength(1);
    expect(rises[0].level).toBe('error');
    expect(readDiskStatus(paths)).toMatchObject({ alarm: true, free_bytes: 1_000_000, min_free_bytes: 67_108_864 });
    setFree(100 * 1024 * 1024);
    guard.check();
    guard.check();
    expect(claiming).toEqual([false, true]);
    expect(lines.filter((line) => line.message.startsWith('disk alarm cleared'))).toHaveLength(1);
    expect(readDiskStatus(paths)).toMatchObject({ alarm: false });
  });

  it('is off with min_free_bytes: 0', () => {
    const { guard, claiming, setFree } = guardedRoot(0);
    setFree(0);
    guard.check();
    expect(guard.alarm).toBe(false);
    expect(claiming).toEqual([]);
  });

  it('makes removed system folders again, with a warning, never a crash', () => {
    const { guard, lines, paths } = guardedRoot(1);
    rmSync(paths.inbox, { recursive: true });
    rmSync(paths.sessions, { recursive: true });
    guard.check();
    expect(existsSync(paths.inbox) && existsSync(paths.sessions)).toBe(true);
    expect(
      lines.filter(
        (line) => line.level === 'warn' && /was removed while the daemon ran; made it again/.test(line.message),
      ),
    ).toHaveLength(2);
  });
});

describe('govflow status', () => {
  it('shows the alarm with the free bytes, and every write waiting for the disk', async () => {
    const { root, guard, setFree, paths, lines } = guardedRoot(64 * 1024 * 1024);
    const lock = await RootLock.acquire(paths.state, 'daemon');
    cleanups.push(() => lock.release());
    setFree(4096);
    guard.check();
    diskWaits.setBackoff({ baseMs: 20, maxMs: 40 });
    const faults = new InjectedDiskFaults();
    faults.inject({ operation: 'write', nth: 1, errno: 'ENOSPC', times: 1_000 });
    const target = path.join(paths.outbox, 'stuck.json');
    const write = writeFileAtomicAsync(target, '{}\n', { faults });
    await expect.poll(() => readDiskStatus(paths)?.waiting.length).toBe(1);

    const text = await status(root);
    expect(text).toContain(`daemon: running (pid ${process.pid})`);
    expect(text).toMatch(
      /^disk: ALARM since .*: 4096 bytes free, below intake\.min_free_bytes 67108864; new requests wait in the inbox$/m,
    );
    expect(text).toMatch(
      new RegExp(`^waiting: ENOSPC on ${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(since `, 'm'),
    );
    expect(JSON.parse(await status(root, true)).disk).toMatchObject({
      alarm: true,
      free_bytes: 4096,
      waiting: [{ errno: 'ENOSPC', path: target }],
    });
    expect(
      lines.some((line) => line.level === 'error' && line.message.startsWith(`waiting: ENOSPC on ${target}`)),
    ).toBe(true);

    faults.clear();
    await write;
    setFree(1024 * 1024 * 1024);
    guard.check();
    const after = await status(root);
    expect(after).not.toMatch(/^disk: ALARM/m);
    expect(after).not.toMatch(/^waiting:/m);
  });
});
