/**
 * Issue 20 end to end on a real small filesystem: a 4 MB tmpfs filled up under a running daemon.
 * The session that meets ENOSPC waits (status says `waiting: ENOSPC on <path>`), and once the
 * filesystem grows (`mount -o remount,size=...`) it finishes by itself — no restart — with every
 * entry whole. Needs root on Linux (mount); elsewhere it is skipped with one printed line.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from './build-once.js';
import { skipsFor } from '../support/machine-requirement.js';
import {
  assertNoTornAuditEntries,
  cleanupAll,
  dropJson,
  makeRoot,
  readResult,
  runCli,
  startDaemon,
  waitFor,
} from './daemon-helpers.js';

function canMountTmpfs(): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not running as root';
  const probe = mkdtempSync(path.join(tmpdir(), 'govflow-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return null;
  } catch {
    return 'mount -t tmpfs is not permitted here';
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const skipped = skipsFor('a daemon on a 4 MB tmpfs (needs root on Linux to mount one)', canMountTmpfs());

const mounts: string[] = [];
beforeAll(buildDistOnce, 180_000);
afterEach(async () => {
  await cleanupAll();
  for (const mount of mounts.splice(0)) {
    try {
      execFileSync('umount', [mount], { stdio: 'ignore' });
    } catch {
      /* not mounted */
    }
    rmSync(mount, { recursive: true, force: true });
  }
});
afterAll(cleanupAll);

describe.skipIf(skipped)('a daemon on a 4 MB tmpfs', () => {
  it('waits for space when the disk fills, shows it in status, and finishes the session once the filesystem grows', async () => {
    const mount = mkdtempSync(path.join(tmpdir(), 'govflow-tmpfs-'));
    mounts.push(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount]);
    cpSync(makeRoot(), mount, { recursive: true });
    writeFileSync(path.join(mount, 'govflow.config.yaml'), 'timezone: UTC\nintake:\n  min_free_bytes: 0\n');
    const daemon = await startDaemon(mount);
    dropJson(mount, 'first.json', { request: 'Summarise the first note.', request_id: 'small-1' });
    await waitFor('the first result', () => readResult(mount, 'small-1')?.status === 'success', {
      detail: () => daemon.stderrTail(),
    });

    // Fill the disk up to two pages, then drop a request: its session cannot write its journal.
    const stats = statfsSync(mount);
    writeFileSync(
      path.join(mount, 'filler.bin'),
      Buffer.alloc(Math.max(0, (Number(stats.bavail) - 2) * Number(stats.bsize))),
    );
    dropJson(mount, 'second.json', { request: 'Summarise the second note.', request_id: 'small-2' });
    await waitFor('a write waiting for the disk', () => /waiting: ENOSPC on /.test(daemon.stderr), {
      timeoutMs: 20_000,
      detail: () => daemon.stderrTail(),
    });
    const status = await runCli(['status', '--root', mount]);
    expect(status.stdout).toMatch(/^waiting: ENOSPC on .*system/m);
    expect(readResult(mount, 'small-2')).toBeNull();

    execFileSync('mount', ['-o', 'remount,size=256m', mount]);
    await waitFor('the second result', () => readResult(mount, 'small-2')?.status === 'success', {
      timeoutMs: 30_000,
      detail: () => daemon.stderrTail(),
    });
    expect(daemon.stderr).toMatch(/disk write taken after \d+ attempt/);
    expect((await daemon.stop()).code).toBe(0);
    expect(assertNoTornAuditEntries(mount)).toBe(12);
    const verify = await runCli(['verify', '--root', mount]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  }, 120_000);
});
