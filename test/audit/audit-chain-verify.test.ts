import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeEntryHash, formatEntryTrailer } from '../../src/audit/audit-entry-format.js';
import { parseEntries } from '../../src/audit/audit-entry-parse.js';
import { verifyAuditChain } from '../../src/audit/audit-chain-verify.js';
import { AuditLogWriter } from '../../src/audit/audit-log-writer.js';
import { describeVerifyResult, verifyCommand } from '../../src/audit/verify-command.js';
import { entryInput, makeMessage, tempRoot } from './audit-test-helpers.js';

/** Two day files, three entries each: m1..m3 in 20260307.log, m4..m6 in 20260308.log. */
async function sampleTrail() {
  const dirs = tempRoot();
  const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
  const instants = ['07T10', '07T11', '07T12', '08T10', '08T11', '08T12'];
  for (const [index, instant] of instants.entries()) {
    await writer.append(
      entryInput(
        makeMessage({ id: `m${index + 1}`, executedAt: `2026-03-${instant}:00:00Z`, input: `request ${index + 1}` }),
      ),
    );
  }
  await writer.close();
  const fileA = path.join(dirs.logsDir, '20260307.log');
  const fileB = path.join(dirs.logsDir, '20260308.log');
  const read = (file: string) => {
    const text = fs.readFileSync(file, 'utf8');
    const { entries } = parseEntries(text);
    return { text, entries, pieces: entries.map((entry) => text.slice(entry.offset, entry.offset + entry.length)) };
  };
  return { dirs, fileA, fileB, a: read(fileA), b: read(fileB) };
}

async function expectProblem(dirs: { logsDir: string; stateDir: string }, expected: object) {
  const result = await verifyAuditChain(dirs);
  expect(result.ok).toBe(false);
  expect(result.firstProblem).toMatchObject(expected);
  return result;
}

describe('verifyAuditChain', () => {
  it('passes an untouched trail', async () => {
    const { dirs } = await sampleTrail();
    expect(await verifyAuditChain(dirs)).toEqual({ ok: true, files: 2, entries: 6, warnings: [] });
  });

  it('detects an edited character and names that entry', async () => {
    const { dirs, fileA, a } = await sampleTrail();
    fs.writeFileSync(fileA, a.text.replace('[INPUT]: request 2', '[INPUT]: request 9'));
    const result = await expectProblem(dirs, {
      file: fileA,
      line: a.entries[1].line,
      messageId: 'm2',
      reason: 'hash-mismatch',
    });
    expect(result.entries).toBe(1);
  });

  it('detects an edited ENTRY_HASH line', async () => {
    const { dirs, fileB, b } = await sampleTrail();
    const last = b.entries[2];
    fs.writeFileSync(
      fileB,
      b.text.replace(
        last.hash,
        last.hash.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
      ),
    );
    await expectProblem(dirs, { file: fileB, line: last.line, messageId: 'm6', reason: 'hash-mismatch' });
  });

  it('detects a deleted entry at the place it was', async () => {
    const { dirs, fileA, a } = await sampleTrail();
    fs.writeFileSync(fileA, a.pieces[0] + a.pieces[2]);
    await expectProblem(dirs, { file: fileA, line: a.entries[1].line, messageId: 'm3' });
  });

  it('detects a deleted first entry of a later day file', async () => {
    const { dirs, fileB, b } = await sampleTrail();
    fs.writeFileSync(fileB, b.pieces[1] + b.pieces[2]);
    await expectProblem(dirs, { file: fileB, line: 1, messageId: 'm5' });
  });

  it('detects two swapped entries as a chain break', async () => {
    const { dirs, fileA, a } = await sampleTrail();
    fs.writeFileSync(fileA, a.pieces[0] + a.pieces[2] + a.pieces[1]);
    const result = await expectProblem(dirs, {
      file: fileA,
      line: a.entries[1].line,
      messageId: 'm3',
      reason: 'chain-break',
    });
    expect(result.firstProblem?.detail).toContain(`chains to ${fileA}:${a.entries[2].line}`); // where m2 now sits
  });

  it('detects a file truncated mid-entry', async () => {
    const { dirs, fileB, b } = await sampleTrail();
    fs.truncateSync(fileB, b.entries[2].offset + 40);
    await expectProblem(dirs, { file: fileB, line: b.entries[2].line, reason: 'torn' });
  });

  it('beside a live daemon: an entry being written at the end is not a problem; verify says how far it read', async () => {
    const { dirs, fileB, b } = await sampleTrail();
    fs.appendFileSync(fileB, b.pieces[2].slice(0, 60));
    const live = await verifyAuditChain({ ...dirs, live: true });
    expect(live).toMatchObject({ ok: true, entries: 6 });
    expect(live.warnings.join('\n')).toMatch(
      /a daemon is writing: verified up to entry 6 \(20260308\.log:\d+, message m6\)/,
    );
    // Without a daemon the same bytes are a torn tail.
    await expectProblem(dirs, { file: fileB, reason: 'torn' });
  });

  it('beside a live daemon: committed entries cut from the end are still reported (the head record names them)', async () => {
    const { dirs, fileB, b } = await sampleTrail();
    fs.truncateSync(fileB, b.entries[2].offset + 40);
    const result = await verifyAuditChain({ ...dirs, live: true });
    expect(result.ok).toBe(false);
    expect(result.firstProblem?.reason).toBe('missing-entries');
  });

  it('detects a malformed entry', async () => {
    const { dirs, fileA, a } = await sampleTrail();
    fs.writeFileSync(fileA, a.text.replace('[OUTPUT TYPE: ', '[OUTPUT KIND: '));
    await expectProblem(dirs, { file: fileA, line: 1, messageId: 'm1', reason: 'malformed' });
  });

  it('detects the last entries deleted cleanly (head record)', async () => {
    const { dirs, fileB, b } = await sampleTrail();
    fs.writeFileSync(fileB, b.pieces[0]);
    const result = await expectProblem(dirs, {
      file: fileB,
      line: b.entries[1].line,
      messageId: 'm6',
      reason: 'missing-entries',
    });
    expect(result.firstProblem?.detail).toMatch(/hold 4 entries.*says 6.*last 2 entries were deleted/);
  });

  it('detects the newest day file deleted', async () => {
    const { dirs, fileB } = await sampleTrail();
    fs.rmSync(fileB);
    const result = await expectProblem(dirs, { file: fileB, line: 1, messageId: 'm6', reason: 'missing-entries' });
    expect(result.firstProblem?.detail).toContain('that file is missing');
  });

  it('detects a re-chained forged last entry (head record hash)', async () => {
    const { dirs, fileB, b } = await sampleTrail();
    const forgedBody = b.entries[2].body.replace('request 6', 'forged');
    const forgedHash = computeEntryHash(b.entries[1].hash, forgedBody);
    fs.writeFileSync(fileB, b.pieces[0] + b.pieces[1] + forgedBody + formatEntryTrailer(forgedHash));
    await expectProblem(dirs, { file: fileB, line: b.entries[2].line, messageId: 'm6', reason: 'head-mismatch' });
  });

  it('warns, but passes, when there is no head record to compare with', async () => {
    const { dirs } = await sampleTrail();
    fs.rmSync(path.join(dirs.stateDir, 'audit-head.json'));
    const result = await verifyAuditChain(dirs);
    expect(result.ok).toBe(true);
    expect(result.warnings.join()).toMatch(/no audit head record/);
  });

  it('passes an empty trail', async () => {
    const dirs = tempRoot();
    expect(await verifyAuditChain(dirs)).toEqual({ ok: true, files: 0, entries: 0, warnings: [] });
  });

  it('passes hostile content that tries to forge an entry', async () => {
    const dirs = tempRoot();
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    const hostile = 'x\n---\n[AGENT: admin]\n[STATUS: success] ok\r\n\\ é 中 \u2028';
    await writer.append(entryInput(makeMessage({ id: 'h1', input: hostile })));
    await writer.append(entryInput(makeMessage({ id: 'h2', input: { nested: hostile } })));
    await writer.close();
    const files = fs.readdirSync(dirs.logsDir);
    const { entries, torn } = parseEntries(fs.readFileSync(path.join(dirs.logsDir, files[0]), 'utf8'));
    expect(torn).toBeNull();
    expect(entries.map((entry) => [entry.agent, entry.input])).toEqual([
      ['objective_agent', hostile],
      ['objective_agent', { nested: hostile }],
    ]);
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 2 });
  });
});

describe('verifyCommand', () => {
  it('exits 0 with the count of entries and files', async () => {
    const { dirs } = await sampleTrail();
    let output = '';
    const code = await verifyCommand({ ...dirs, write: (text) => (output += text) });
    expect(code).toBe(0);
    expect(output).toBe('audit chain intact: 6 entries in 2 files\n');
  });

  it('says "1 entry" and "1 file" in the singular (issue 39: "6 entries in 1 files")', () => {
    const intact = (entries: number, files: number) => describeVerifyResult({ ok: true, entries, files, warnings: [] });
    expect(intact(6, 1)).toBe('audit chain intact: 6 entries in 1 file\n');
    expect(intact(1, 1)).toBe('audit chain intact: 1 entry in 1 file\n');
    expect(intact(0, 0)).toBe('audit chain intact: 0 entries in 0 files\n');
    const broken = describeVerifyResult({
      ok: false,
      entries: 1,
      files: 1,
      warnings: [],
      firstProblem: { file: '20260101.log', line: 9, messageId: 'm-2', reason: 'hash-mismatch', detail: 'x' },
    });
    expect(broken).toContain('\n1 entry before it is intact\n');
  });

  it('exits 1 naming the first bad entry as file:line with its message id and the reason', async () => {
    const { dirs, fileA, a } = await sampleTrail();
    fs.writeFileSync(fileA, a.text.replace('[INPUT]: request 3', '[INPUT]: request 0'));
    let output = '';
    const code = await verifyCommand({ ...dirs, write: (text) => (output += text) });
    expect(code).toBe(1);
    expect(output).toContain(`${fileA}:${a.entries[2].line}`);
    expect(output).toContain('m3');
    expect(output).toContain('hash mismatch');
    expect(output).not.toContain('intact:');
  });
});
