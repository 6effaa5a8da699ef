/** The root lock (one writer per root): live owners keep it, dead ones' locks are broken. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT_LOCK_FILE, RootLock, RootLockedError } from '../../src/daemon/root-lock.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

const children: ChildProcess[] = [];
afterEach(() => {
  removeTempFolders();
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function lockText(pid: number, kind: string, host = os.hostname()): string {
  return `${JSON.stringify({ pid, host, kind, started_at: new Date().toISOString() })}\n`;
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('RootLock', () => {
  it('is taken once per process, names its owner, and is removed on release', async () => {
    const stateDir = makeTempFolder('govflow-lock-');
    const lock = await RootLock.acquire(stateDir, 'daemon');
    expect(JSON.parse(readFileSync(path.join(stateDir, ROOT_LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
      kind: 'daemon',
    });
    expect(RootLock.owner(stateDir)).toMatchObject({ pid: process.pid, kind: 'daemon' });
    await expect(RootLock.acquire(stateDir, 'run')).rejects.toThrow(RootLockedError);
    lock.release();
    lock.release();
    expect(existsSync(path.join(stateDir, ROOT_LOCK_FILE))).toBe(false);
    expect(RootLock.owner(stateDir)).toBeNull();
    (await RootLock.acquire(stateDir, 'run')).release();
  });

  it('refuses a lock that is a dangling symbolic link with a usage error naming it, instead of trying for ever', async () => {
    const stateDir = makeTempFolder('govflow-lock-');
    symlinkSync(path.join(stateDir, 'nowhere'), path.join(stateDir, ROOT_LOCK_FILE));
    const failure = await RootLock.acquire(stateDir, 'daemon').catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'usage', message: expect.stringContaining('dangling symbolic link') });
  });

  it('refuses a root whose owner is alive, naming its pid and kind', async () => {
    const stateDir = makeTempFolder('govflow-lock-');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    children.push(holder);
    writeFileSync(path.join(stateDir, ROOT_LOCK_FILE), lockText(holder.pid!, 'daemon'));
    const refused = await RootLock.acquire(stateDir, 'daemon').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RootLockedError);
    expect((refused as RootLockedError).owner).toMatchObject({ pid: holder.pid, kind: 'daemon' });
    expect((refused as Error).message).toContain(`pid ${holder.pid}`);
    writeFileSync(path.join(stateDir, ROOT_LOCK_FILE), lockText(holder.pid!, 'run'));
    await expect(RootLock.acquire(stateDir, 'run')).rejects.toThrow(/one-shot "govflow run" \(pid \d+\).*wait/);
  });

  it("breaks a lock left by a dead process, an unreadable lock, and keeps another host's", async () => {
    const stateDir = makeTempFolder('govflow-lock-');
    const lockPath = path.join(stateDir, ROOT_LOCK_FILE);
    writeFileSync(lockPath, lockText(await deadPid(), 'daemon'));
    expect(RootLock.owner(stateDir)).toBeNull();
    (await RootLock.acquire(stateDir, 'daemon')).release();

    writeFileSync(lockPath, '{"pid": 12');
    (await RootLock.acquire(stateDir, 'daemon')).release();

    writeFileSync(lockPath, lockText(1, 'daemon', 'another-host.example'));
    await expect(RootLock.acquire(stateDir, 'daemon')).rejects.toThrow(RootLockedError);
  });
});
