import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, computeEntryHash } from '../../src/audit/audit-entry-format.js';
import { parseEntries } from '../../src/audit/audit-entry-parse.js';
import { verifyAuditChain } from '../../src/audit/audit-chain-verify.js';
import { AuditWriteError } from '../../src/audit/audit-errors.js';
import { readHeadRecord } from '../../src/audit/audit-chain-tail.js';
import { readLogEntries } from '../../src/audit/audit-log-reader.js';
import { AuditLogWriter } from '../../src/audit/audit-log-writer.js';
import { ConfigError } from '../../src/errors.js';
import { entryInput, makeMessage, tempRoot } from './audit-test-helpers.js';

async function writeAll(dirs: { logsDir: string; stateDir: string }, timezone: string, instants: string[]) {
  const writer = await AuditLogWriter.open({ ...dirs, timezone });
  const results = [];
  for (const [index, executedAt] of instants.entries()) {
    results.push(
      await writer.append(entryInput(makeMessage({ id: `m${index + 1}`, executedAt, sequence: index + 1 }))),
    );
  }
  await writer.close();
  return results;
}

/** file → TIMESTAMP values, read back from disk. */
async function timestampsByFile(logsDir: string): Promise<Record<string, string[]>> {
  const byFile: Record<string, string[]> = {};
  for (const entry of await readLogEntries(logsDir)) (byFile[entry.file] ??= []).push(entry.time);
  return byFile;
}

describe('AuditLogWriter: one file per local day', () => {
  it('rolls over at local midnight in Asia/Singapore and chains across the files', async () => {
    const dirs = tempRoot();
    const results = await writeAll(dirs, 'Asia/Singapore', [
      '2026-03-08T15:59:58Z',
      '2026-03-08T15:59:59.999Z',
      '2026-03-08T16:00:00Z',
      '2026-03-09T00:00:00+08:00',
    ]);
    expect(results.map((result) => path.basename(result.file))).toEqual([
      '20260308.log',
      '20260308.log',
      '20260309.log',
      '20260309.log',
    ]);
    expect(await timestampsByFile(dirs.logsDir)).toEqual({
      '20260308.log': ['23:59:58', '23:59:59'],
      '20260309.log': ['00:00:00', '00:00:00'],
    });
    const second = parseEntries(fs.readFileSync(path.join(dirs.logsDir, '20260309.log'), 'utf8')).entries[0];
    expect(second.hash).toBe(computeEntryHash(results[1].hash, second.body));
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, files: 2, entries: 4 });
  });

  it('handles the New York spring-forward day (2026-03-08 has 23 hours)', async () => {
    const dirs = tempRoot();
    await writeAll(dirs, 'America/New_York', [
      '2026-03-08T04:59:59Z', // 23:59:59 EST on the 7th
      '2026-03-08T05:00:00Z', // 00:00:00 EST
      '2026-03-08T06:59:59Z', // 01:59:59 EST, the last second before the gap
      '2026-03-08T07:00:00Z', // 03:00:00 EDT
      '2026-03-09T03:59:59Z', // 23:59:59 EDT
      '2026-03-09T04:00:00Z', // 00:00:00 EDT on the 9th
    ]);
    expect(await timestampsByFile(dirs.logsDir)).toEqual({
      '20260307.log': ['23:59:59'],
      '20260308.log': ['00:00:00', '01:59:59', '03:00:00', '23:59:59'],
      '20260309.log': ['00:00:00'],
    });
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, files: 3, entries: 6 });
  });

  it('handles the New York fall-back day (2026-11-01 has 25 hours, 01:30 twice)', async () => {
    const dirs = tempRoot();
    await writeAll(dirs, 'America/New_York', [
      '2026-11-01T03:59:59Z', // 23:59:59 EDT on Oct 31
      '2026-11-01T04:00:00Z', // 00:00:00 EDT
      '2026-11-01T05:30:00Z', // 01:30:00 EDT
      '2026-11-01T06:30:00Z', // 01:30:00 EST
      '2026-11-02T04:59:59Z', // 23:59:59 EST
      '2026-11-02T05:00:00Z', // 00:00:00 EST on Nov 2
    ]);
    expect(await timestampsByFile(dirs.logsDir)).toEqual({
      '20261031.log': ['23:59:59'],
      '20261101.log': ['00:00:00', '01:30:00', '01:30:00', '23:59:59'],
      '20261102.log': ['00:00:00'],
    });
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, files: 3, entries: 6 });
  });

  it('never goes back to an older day file (clock stepped back across midnight)', async () => {
    const dirs = tempRoot();
    const results = await writeAll(dirs, 'UTC', ['2026-03-09T00:00:01Z', '2026-03-08T23:59:59Z']);
    expect(results.map((result) => path.basename(result.file))).toEqual(['20260309.log', '20260309.log']);
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 2 });
  });

  it('continues the chain across reopen and a later day, and keeps the head record current', async () => {
    const dirs = tempRoot();
    const first = await writeAll(dirs, 'UTC', ['2026-03-08T10:00:00Z', '2026-03-08T11:00:00Z']);
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    expect(writer.lastEntryHash).toBe(first[1].hash);
    expect(writer.entryCount).toBe(2);
    expect(writer.repairs).toEqual([]);
    const third = await writer.append(entryInput(makeMessage({ id: 'm3', executedAt: '2026-03-10T00:00:00Z' })));
    await writer.close();
    await writer.close(); // safe twice
    expect(readHeadRecord(dirs.stateDir)).toEqual({
      state: 'ok',
      record: { format: 1, file: '20260310.log', entries: 3, hash: third.hash, message_id: 'm3' },
    });
    const text = fs.readFileSync(path.join(dirs.logsDir, '20260310.log'), 'utf8');
    expect(parseEntries(text).entries[0].hash).toBe(
      computeEntryHash(first[1].hash, parseEntries(text).entries[0].body),
    );
    await expect(writer.append(entryInput(makeMessage()))).rejects.toBeInstanceOf(AuditWriteError);
  });

  it('starts the chain at 64 zeros', async () => {
    const dirs = tempRoot();
    const [result] = await writeAll(dirs, 'UTC', ['2026-03-08T10:00:00Z']);
    const entry = parseEntries(fs.readFileSync(result.file, 'utf8')).entries[0];
    expect(result.hash).toBe(computeEntryHash(GENESIS_HASH, entry.body));
  });

  it('serializes concurrent appends in call order', async () => {
    const dirs = tempRoot();
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    const ids = Array.from({ length: 40 }, (_, index) => `c${index}`);
    await Promise.all(
      ids.map((id) => writer.append(entryInput(makeMessage({ id, executedAt: '2026-03-08T10:00:00Z' })))),
    );
    await writer.close();
    expect((await readLogEntries(dirs.logsDir)).map((entry) => entry.messageId)).toEqual(ids);
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 40 });
  });

  it('keeps the head record exact when a long message id is followed by a short one', async () => {
    const dirs = tempRoot();
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    await writer.append(entryInput(makeMessage({ id: 'L'.repeat(1000), executedAt: '2026-03-08T10:00:00Z' })));
    const last = await writer.append(entryInput(makeMessage({ id: 's', executedAt: '2026-03-08T10:00:01Z' })));
    await writer.close();
    expect(readHeadRecord(dirs.stateDir)).toEqual({
      state: 'ok',
      record: { format: 1, file: '20260308.log', entries: 2, hash: last.hash, message_id: 's' },
    });
  });

  it('rejects a message whose executed_at is not a date, writing nothing', async () => {
    const dirs = tempRoot();
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    await expect(writer.append(entryInput(makeMessage({ executedAt: 'yesterday' })))).rejects.toThrow(/ISO 8601/);
    await writer.close();
    expect(fs.readdirSync(dirs.logsDir)).toEqual([]);
  });

  it('refuses a timezone that is not an IANA zone, saying where to fix it', async () => {
    const dirs = tempRoot();
    await expect(AuditLogWriter.open({ ...dirs, timezone: 'Mars/Olympus' })).rejects.toThrow(ConfigError);
    await expect(AuditLogWriter.open({ ...dirs, timezone: 'Mars/Olympus' })).rejects.toThrow(/govflow.config.yaml/);
  });
});

describe('AuditLogWriter: crash recovery', () => {
  it('cuts a torn tail at open, reports it, and the next entry chains to the last complete one', async () => {
    const dirs = tempRoot();
    const written = await writeAll(dirs, 'UTC', ['2026-03-08T10:00:00Z', '2026-03-08T11:00:00Z']);
    const file = written[0].file;
    const complete = fs.readFileSync(file);
    const entryText = complete.subarray(complete.indexOf('---\n') + 4).toString('utf8');
    const half = entryText.slice(0, Math.floor(entryText.length / 2));
    fs.appendFileSync(file, half);
    expect((await verifyAuditChain(dirs)).firstProblem?.reason).toBe('torn');

    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    expect(writer.repairs).toEqual([
      {
        file,
        line: complete.toString('utf8').split('\n').length,
        offset: complete.length,
        bytes: Buffer.byteLength(half),
        excerpt: half.slice(0, 200),
      },
    ]);
    expect(fs.readFileSync(file).equals(complete)).toBe(true);
    const next = await writer.append(entryInput(makeMessage({ id: 'm3', executedAt: '2026-03-08T12:00:00Z' })));
    await writer.close();
    const entries = parseEntries(fs.readFileSync(file, 'utf8')).entries;
    expect(entries.map((entry) => entry.messageId)).toEqual(['m1', 'm2', 'm3']);
    expect(next.hash).toBe(computeEntryHash(written[1].hash, entries[2].body));
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 3 });
  });

  it('cuts a tail that lacks only the final newline', async () => {
    const dirs = tempRoot();
    const [first] = await writeAll(dirs, 'UTC', ['2026-03-08T10:00:00Z']);
    const size = fs.statSync(first.file).size;
    fs.appendFileSync(first.file, fs.readFileSync(first.file, 'utf8').slice(0, -1));
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    await writer.close();
    expect(writer.repairs).toHaveLength(1);
    expect(fs.statSync(first.file).size).toBe(size);
  });

  it('rebuilds a missing, torn or lagging head record from the logs', async () => {
    const dirs = tempRoot();
    const written = await writeAll(dirs, 'UTC', ['2026-03-07T10:00:00Z', '2026-03-08T10:00:00Z']);
    const headFile = path.join(dirs.stateDir, 'audit-head.json');
    const expected = { format: 1, file: '20260308.log', entries: 2, hash: written[1].hash, message_id: 'm2' };

    fs.rmSync(headFile);
    let writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    await writer.close();
    expect(JSON.parse(fs.readFileSync(headFile, 'utf8'))).toEqual(expected);
    expect(writer.warnings.join()).toMatch(/rebuilt.*missing/);

    fs.writeFileSync(headFile, JSON.stringify(expected).slice(0, 30));
    writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    await writer.close();
    expect(JSON.parse(fs.readFileSync(headFile, 'utf8'))).toEqual(expected);

    fs.writeFileSync(
      headFile,
      JSON.stringify({ ...expected, file: '20260307.log', entries: 1, hash: written[0].hash, message_id: 'm1' }),
    );
    writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    expect(writer.entryCount).toBe(2);
    await writer.close();
    expect(JSON.parse(fs.readFileSync(headFile, 'utf8'))).toEqual(expected);
  });

  it('keeps a head record that is ahead of the logs (evidence of deleted entries)', async () => {
    const dirs = tempRoot();
    await writeAll(dirs, 'UTC', ['2026-03-07T10:00:00Z', '2026-03-08T10:00:00Z']);
    fs.rmSync(path.join(dirs.logsDir, '20260308.log'));
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    expect(writer.entryCount).toBe(2);
    expect(writer.warnings.join()).toMatch(/govflow verify/);
    await writer.append(entryInput(makeMessage({ id: 'm9', executedAt: '2026-03-09T10:00:00Z' })));
    await writer.close();
    const result = await verifyAuditChain(dirs);
    expect(result.ok).toBe(false);
    expect(result.firstProblem?.reason).toBe('missing-entries');
  });
});
