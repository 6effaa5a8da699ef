/**
 * Several writers on one trail (as two daemons on one root are): each append takes the audit
 * lock and chains to whatever entry is last on disk, not to the one its own writer wrote last.
 * Writers in one process stand in for processes here (each keeps its own cached tail); the real
 * multi-process runs are in audit-multi-process.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_LOCK_FILE, AUDIT_LOCK_OWNERS_DIR } from '../../src/audit/audit-append-lock.js';
import { verifyAuditChain } from '../../src/audit/audit-chain-verify.js';
import { computeEntryHash } from '../../src/audit/audit-entry-format.js';
import { readHeadRecord } from '../../src/audit/audit-head-record.js';
import { readLogEntries } from '../../src/audit/audit-log-reader.js';
import { AuditLogWriter } from '../../src/audit/audit-log-writer.js';
import { entryInput, makeMessage, tempRoot } from './audit-test-helpers.js';

type Dirs = ReturnType<typeof tempRoot>;

function open(dirs: Dirs, lockStaleMs?: number): Promise<AuditLogWriter> {
  return AuditLogWriter.open({ logsDir: dirs.logsDir, stateDir: dirs.stateDir, timezone: 'UTC', ...(lockStaleMs === undefined ? {} : { lockStaleMs }) });
}

function append(writer: AuditLogWriter, id: string, executedAt = '2026-03-08T10:00:00Z') {
  return writer.append(entryInput(makeMessage({ id, executedAt })));
}

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const pid = Number(child.stdout);
  expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  return pid;
}

function plantLock(dirs: Dirs, pid: number): string {
  const lock = path.join(dirs.stateDir, AUDIT_LOCK_FILE);
  fs.writeFileSync(lock, `${pid} ${os.hostname()} ${pid}-planted-1\n`);
  return lock;
}

describe('AuditLogWriter: several writers on one trail', () => {
  it('chains every entry to the last one on disk, whichever writer wrote it', async () => {
    const dirs = tempRoot();
    const writers = [await open(dirs), await open(dirs), await open(dirs)];
    const ids: string[] = [];
    // An irregular interleaving, so that each writer sees 0, 1 or 2 foreign entries between its own.
    const order = [0, 1, 2, 2, 0, 1, 1, 1, 0, 2, 0, 0, 2, 1, 0, 2, 2, 2, 1, 0];
    for (const [index, which] of order.entries()) {
      const id = `w${which}-${index}`;
      ids.push(id);
      await append(writers[which], id);
    }
    for (const writer of writers) await writer.close();

    expect((await readLogEntries(dirs.logsDir)).map((entry) => entry.messageId)).toEqual(ids);
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: order.length, warnings: [] });
    const head = readHeadRecord(dirs.stateDir);
    expect(head).toMatchObject({ state: 'ok', record: { entries: order.length, message_id: ids.at(-1) } });
    for (const writer of writers) expect(writer.warnings).toEqual([]);
    expect(fs.existsSync(path.join(dirs.stateDir, AUDIT_LOCK_FILE))).toBe(false);
    expect(fs.readdirSync(path.join(dirs.stateDir, AUDIT_LOCK_OWNERS_DIR))).toEqual([]);
  });

  it('keeps the entry count exact when writers interleave', async () => {
    const dirs = tempRoot();
    const first = await open(dirs);
    const second = await open(dirs);
    await append(first, 'a1');
    await append(second, 'b1');
    await append(second, 'b2');
    const last = await append(first, 'a2');
    expect(first.entryCount).toBe(4);
    expect(first.lastEntryHash).toBe(last.hash);
    await append(second, 'b3');
    expect(second.entryCount).toBe(5);
    await first.close();
    await second.close();
    const reopened = await open(dirs);
    expect(reopened.entryCount).toBe(5);
    expect(reopened.warnings).toEqual([]);
    await reopened.close();
  });

  it('moves a writer still on yesterday to the newer day file another writer started', async () => {
    const dirs = tempRoot();
    const behind = await open(dirs);
    const ahead = await open(dirs);
    await append(behind, 'm1', '2026-03-08T23:59:58Z');
    await append(ahead, 'm2', '2026-03-09T00:00:01Z');
    // Its clock (or a replay) still says the 8th: the chain runs in file order, so it must go after m2.
    const late = await append(behind, 'm3', '2026-03-08T23:59:59Z');
    expect(path.basename(late.file)).toBe('20260309.log');
    await behind.close();
    await ahead.close();
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, files: 2, entries: 3 });
  });

  it('re-reads the logs when another writer appended but could not update the head record', async () => {
    const dirs = tempRoot();
    const first = await open(dirs);
    const second = await open(dirs);
    await append(first, 'm1');
    const headFile = path.join(dirs.stateDir, 'audit-head.json');
    const headAfterM1 = fs.readFileSync(headFile);
    await append(second, 'm2');
    fs.writeFileSync(headFile, headAfterM1); // as if m2's head update was lost
    await append(first, 'm3');
    await first.close();
    await second.close();
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 3 });
  });
});

describe('AuditLogWriter: the cross-process lock', () => {
  it('breaks a lock left by a dead process at once and cuts the torn entry it left', async () => {
    const dirs = tempRoot();
    const writer = await open(dirs);
    const [first] = [await append(writer, 'm1'), await append(writer, 'm2')];
    const complete = fs.readFileSync(first.file);
    // The dead holder was killed half-way through writing m3.
    fs.appendFileSync(first.file, complete.subarray(0, 150));
    const pid = deadPid();
    const lock = plantLock(dirs, pid);

    const startedAt = Date.now();
    const third = await append(writer, 'm3');
    expect(Date.now() - startedAt).toBeLessThan(1000);
    await writer.close();

    expect(fs.existsSync(lock)).toBe(false);
    expect(writer.warnings.join('\n')).toMatch(new RegExp(`removed a stale audit lock \\(${pid} `));
    expect(writer.repairs).toMatchObject([{ file: first.file, offset: complete.length, bytes: 150 }]);
    const entries = await readLogEntries(dirs.logsDir);
    expect(entries.map((entry) => entry.messageId)).toEqual(['m1', 'm2', 'm3']);
    expect(third.hash).toBe(computeEntryHash(entries[1].hash, entries[2].body));
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 3, warnings: [] });
  });

  it('chains to the entry a dead holder wrote before it could update the head record', async () => {
    const dirs = tempRoot();
    const survivor = await open(dirs);
    const victim = await open(dirs);
    await append(survivor, 'm1');
    const headFile = path.join(dirs.stateDir, 'audit-head.json');
    const headAfterM1 = fs.readFileSync(headFile);
    await append(victim, 'm2');
    fs.writeFileSync(headFile, headAfterM1); // killed after m2's fdatasync, before its head update...
    plantLock(dirs, deadPid()); // ...still holding the lock
    await append(survivor, 'm3');
    await survivor.close();
    await victim.close();
    expect((await readLogEntries(dirs.logsDir)).map((entry) => entry.messageId)).toEqual(['m1', 'm2', 'm3']);
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 3, warnings: [] });
    expect(readHeadRecord(dirs.stateDir)).toMatchObject({ state: 'ok', record: { entries: 3, message_id: 'm3' } });
  });

  it('opens past a stale lock too', async () => {
    const dirs = tempRoot();
    fs.mkdirSync(dirs.stateDir, { recursive: true });
    plantLock(dirs, deadPid());
    const writer = await open(dirs);
    await append(writer, 'm1');
    await writer.close();
    expect(writer.warnings.join('\n')).toMatch(/stale audit lock/);
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 1 });
  });

  it('breaks a lock whose pid is alive only once it is older than lockStaleMs', async () => {
    const dirs = tempRoot();
    const writer = await open(dirs, 400);
    plantLock(dirs, process.ppid); // alive: maybe a reused pid, maybe a slow holder
    const startedAt = Date.now();
    await append(writer, 'm1');
    const waited = Date.now() - startedAt;
    await writer.close();
    expect(waited).toBeGreaterThanOrEqual(350);
    expect(waited).toBeLessThan(3000);
    expect(writer.warnings.join('\n')).toMatch(/stale audit lock/);
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 1 });
  });

  it('waits for a live holder in another process instead of breaking its lock', async () => {
    const dirs = tempRoot();
    const writer = await open(dirs);
    await append(writer, 'm1');
    const lock = path.join(dirs.stateDir, AUDIT_LOCK_FILE);
    // A holder that keeps the lock for 300 ms, then releases it.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         fs.writeFileSync(process.argv[1], process.pid + ' ' + require('node:os').hostname() + ' holder\\n', { flag: 'wx' });
         process.stdout.write('locked\\n');
         setTimeout(() => { fs.unlinkSync(process.argv[1]); process.stdout.write('released ' + Date.now() + '\\n'); }, 300);`,
        lock,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    holder.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => holder.on('exit', resolve));
    while (!output.includes('locked')) await new Promise((resolve) => setTimeout(resolve, 5));
    await append(writer, 'm2');
    const appendedAt = Date.now();
    expect(await exited).toBe(0);
    const releasedAt = Number(/released (\d+)/.exec(output)?.[1]);
    expect(appendedAt).toBeGreaterThanOrEqual(releasedAt);
    expect(writer.warnings).toEqual([]);
    await writer.close();
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 2 });
  });

  it('removes owner files left by dead processes', async () => {
    const dirs = tempRoot();
    const ownersDir = path.join(dirs.stateDir, AUDIT_LOCK_OWNERS_DIR);
    fs.mkdirSync(ownersDir, { recursive: true });
    const pid = deadPid();
    fs.writeFileSync(path.join(ownersDir, `${pid}-dead-1`), `${pid} ${os.hostname()} ${pid}-dead-1\n`);
    const writer = await open(dirs);
    expect(fs.readdirSync(ownersDir)).toHaveLength(1); // its own
    expect(fs.readdirSync(ownersDir)[0]).toMatch(new RegExp(`^${process.pid}-`));
    await writer.close();
    expect(fs.readdirSync(ownersDir)).toEqual([]);
  });
});
