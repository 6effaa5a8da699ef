/**
 * Issue 20: a durable write the disk refuses (ENOSPC, EDQUOT, EROFS, EIO) is retried with backoff
 * inside the store layer — never half an entry, never a duplicate, order kept — and a day file
 * removed or renamed under the writer is reopened at its path. Failures are injected through the
 * store's file-system seam (src/store/disk-io.ts), passed to each writer: the Nth write fails with a given errno.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../src/audit/audit-chain-verify.js';
import { readLogEntries } from '../../src/audit/audit-log-reader.js';
import { AuditLogWriter } from '../../src/audit/audit-log-writer.js';
import { AppendOnlyFile, backlogWritten } from '../../src/store/append-only-file.js';
import { writeFileAtomicAsync } from '../../src/store/atomic-file.js';
import { DISK_BACKOFF, DiskWaitAbandonedError, type DiskWait, diskWaits } from '../../src/store/disk-waits.js';
import { archiveRequestFile } from '../../src/intake/request-archive.js';
import { entryInput, makeMessage, tempRoot } from '../audit/audit-test-helpers.js';
import { InjectedDiskFaults } from '../support/disk-faults.js';

const seen: { waiting: DiskWait[]; resumed: DiskWait[]; recreated: string[] } = {
  waiting: [],
  resumed: [],
  recreated: [],
};
let stopListening: () => void = () => undefined;
let faults = new InjectedDiskFaults();

beforeEach(() => {
  faults = new InjectedDiskFaults();
  diskWaits.setBackoff({ baseMs: 5, maxMs: 20 });
  seen.waiting = [];
  seen.resumed = [];
  seen.recreated = [];
  stopListening = diskWaits.listen({
    waiting: (wait) => seen.waiting.push(wait),
    resumed: (wait) => seen.resumed.push(wait),
    recreated: (folder) => seen.recreated.push(folder),
  });
});
afterEach(() => {
  stopListening();
  diskWaits.setBackoff(DISK_BACKOFF);
});

const at = (index: number) => `2026-03-08T10:00:${String(index).padStart(2, '0')}Z`;
const message = (index: number) =>
  entryInput(makeMessage({ id: `m${index}`, executedAt: at(index), sequence: index + 1 }));

describe('audit appends when the disk refuses them', () => {
  it('waits out ENOSPC on a write, keeps later appends in order, and writes each entry once', async () => {
    const dirs = tempRoot();
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC', faults });
    await writer.append(message(0));
    faults.inject({ operation: 'write', nth: 1, errno: 'ENOSPC', times: 4 });
    const appends = [1, 2, 3].map((index) => writer.append(message(index)));
    await expect
      .poll(() => seen.waiting)
      .toEqual([expect.objectContaining({ errno: 'ENOSPC', path: path.join(dirs.logsDir, '20260308.log') })]);
    await Promise.all(appends);
    await writer.close();
    expect((await readLogEntries(dirs.logsDir)).map((entry) => entry.messageId)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 4 });
    expect(seen.waiting).toHaveLength(1);
    expect(seen.resumed).toEqual([expect.objectContaining({ errno: 'ENOSPC' })]);
    expect(seen.resumed[0].attempts).toBeGreaterThanOrEqual(3);
    expect(diskWaits.list()).toEqual([]);
  });

  it('never duplicates an entry whose write reached the file before the error (EIO after the write)', async () => {
    const dirs = tempRoot();
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC', faults });
    faults.inject({ operation: 'write', nth: 2, errno: 'EIO', afterCall: true, times: 2 });
    for (let index = 0; index < 4; index++) await writer.append(message(index));
    await writer.close();
    expect((await readLogEntries(dirs.logsDir)).map((entry) => entry.messageId)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 4 });
  });

  it('retries a refused fdatasync without writing the entry again', async () => {
    const dirs = tempRoot();
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC', faults });
    faults.inject({ operation: 'sync', nth: 1, errno: 'EDQUOT', times: 2 });
    await writer.append(message(0));
    await writer.append(message(1));
    await writer.close();
    expect((await readLogEntries(dirs.logsDir)).map((entry) => entry.messageId)).toEqual(['m0', 'm1']);
    expect(seen.resumed).toEqual([expect.objectContaining({ errno: 'EDQUOT' })]);
  });

  it('waits out EROFS on opening a new day file', async () => {
    const dirs = tempRoot();
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC', faults });
    faults.inject({ operation: 'open', nth: 1, errno: 'EROFS', times: 3 });
    await writer.append(message(0));
    await writer.close();
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 1 });
    expect(seen.waiting).toEqual([expect.objectContaining({ errno: 'EROFS' })]);
  });
});

describe('the day file checked against its path before each batch', () => {
  for (const [what, damage] of [
    ['removed (rm -rf system/logs)', (dirs: { logsDir: string }) => rmSync(dirs.logsDir, { recursive: true })],
    [
      'renamed away (archived by hand)',
      (dirs: { logsDir: string }) =>
        renameSync(path.join(dirs.logsDir, '20260308.log'), path.join(dirs.logsDir, 'old.log.bak')),
    ],
    [
      'replaced by another file',
      (dirs: { logsDir: string }) => {
        renameSync(path.join(dirs.logsDir, '20260308.log'), path.join(dirs.logsDir, 'moved.bak'));
        writeFileSync(path.join(dirs.logsDir, '20260308.log'), '');
      },
    ],
  ] as const) {
    it(`is reopened at its path when ${what}: later entries are on disk, the error is logged, verify shows the gap`, async () => {
      const dirs = tempRoot();
      const logged: string[] = [];
      const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC', log: (text) => logged.push(text) });
      await writer.append(message(0));
      await writer.append(message(1));
      await new Promise((resolve) => setImmediate(resolve));
      damage(dirs);
      await writer.append(message(2));
      await writer.append(message(3));
      await writer.close();
      const entries = readFileSync(path.join(dirs.logsDir, '20260308.log'), 'utf8');
      expect(entries).toContain('[MESSAGE_ID: m2]');
      expect(entries).toContain('[MESSAGE_ID: m3]');
      expect(entries).not.toContain('[MESSAGE_ID: m1]');
      expect(logged.join('\n')).toMatch(
        /audit log .*20260308\.log was (removed|renamed away).*reopened.*govflow verify/,
      );
      expect((await verifyAuditChain(dirs)).ok).toBe(false);
    });
  }
});

describe('journal appends when the disk refuses them', () => {
  it('keeps refused records in order in a backlog, holds audit appends until it is written, and syncs once the disk takes it', async () => {
    const dirs = tempRoot();
    mkdirSync(dirs.root, { recursive: true });
    const file = path.join(dirs.root, 'journal.jsonl');
    const journal = new AppendOnlyFile(file, true, { faults });
    journal.append('{"n":1}\n');
    faults.inject({ operation: 'write', nth: 1, errno: 'ENOSPC', times: 3, match: (target) => target === file });
    journal.append('{"n":2}\n');
    journal.append('{"n":3}\n');
    const gate = backlogWritten();
    expect(gate).not.toBeNull();
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n');
    await journal.sync();
    await gate;
    expect(backlogWritten()).toBeNull();
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
    journal.append('{"n":4}\n');
    await journal.close();
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(4);
  });
});

describe('result files and archive moves when the disk refuses them', () => {
  it('writes the whole result once the disk takes it, leaving no temporary file', async () => {
    const dirs = tempRoot();
    const outbox = path.join(dirs.root, 'outbox');
    mkdirSync(outbox, { recursive: true });
    faults.inject({ operation: 'rename', nth: 1, errno: 'EROFS', times: 2 });
    faults.inject({ operation: 'write', nth: 1, errno: 'ENOSPC' });
    await writeFileAtomicAsync(path.join(outbox, 'r1.json'), '{"status":"success"}\n', { faults });
    expect(readdirSync(outbox)).toEqual(['r1.json']);
    expect(readFileSync(path.join(outbox, 'r1.json'), 'utf8')).toBe('{"status":"success"}\n');
    expect(seen.resumed).toHaveLength(1);
  });

  it('ends a wait when the process stops: the write rejects as interrupted, with the disk error as its cause', async () => {
    const dirs = tempRoot();
    diskWaits.setBackoff({ baseMs: 60_000, maxMs: 60_000 });
    faults.inject({ operation: 'write', nth: 1, errno: 'ENOSPC', times: 1_000 });
    const write = writeFileAtomicAsync(path.join(dirs.root, 'outbox', 'r3.json'), '{}\n', { faults });
    await expect.poll(() => diskWaits.list().length).toBe(1);
    diskWaits.abandonAll();
    const error = await write.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(DiskWaitAbandonedError);
    expect((error as Error).cause).toMatchObject({ code: 'ENOSPC' });
    expect(diskWaits.list()).toEqual([]);
  });

  it('makes a removed outbox folder again, with a warning, instead of failing', async () => {
    const dirs = tempRoot();
    const outbox = path.join(dirs.root, 'outbox');
    await writeFileAtomicAsync(path.join(outbox, 'r2.json'), '{}\n');
    expect(existsSync(path.join(outbox, 'r2.json'))).toBe(true);
    expect(seen.recreated).toEqual([outbox]);
  });

  it('retries a refused archive move in the background until the file is archived', async () => {
    const dirs = tempRoot();
    const processing = path.join(dirs.root, 'processing');
    mkdirSync(processing, { recursive: true });
    const claimed = path.join(processing, 'claimed-req.txt');
    writeFileSync(claimed, 'hello');
    faults.inject({ operation: 'rename', nth: 1, errno: 'ENOSPC', times: 2 });
    archiveRequestFile(path.join(dirs.root, 'archive'), '20260308', claimed, 'req.txt', faults);
    expect(existsSync(claimed)).toBe(true);
    await expect.poll(() => existsSync(claimed), { timeout: 2000 }).toBe(false);
    expect(readFileSync(path.join(dirs.root, 'archive', '20260308', 'req.txt'), 'utf8')).toBe('hello');
  });
});
