import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLogWriter } from '../../src/audit/audit-log-writer.js';
import { isLogDate, listLogFiles } from '../../src/audit/audit-log-reader.js';
import { LoggedMessagesIndex } from '../../src/audit/logged-messages-index.js';
import { logsCommand } from '../../src/cli/audit-commands.js';
import { entryInput, makeMessage, tempRoot } from './audit-test-helpers.js';

async function trail() {
  const dirs = tempRoot();
  const writer = await AuditLogWriter.open({ ...dirs, timezone: 'Asia/Singapore' });
  const rows = [
    { id: 'a1', session: 's1', agent: 'objective_agent', code: 'success', at: '2026-03-07T10:00:00+08:00' },
    { id: 'a2', session: 's1', agent: 'planner', code: 'failed', at: '2026-03-07T11:00:00+08:00' },
    { id: 'a3', session: 's2', agent: 'planner', code: 'success', at: '2026-03-08T09:00:00+08:00' },
    { id: 'a4', session: 's2', agent: 'objective_agent', code: 'partial', at: '2026-03-08T10:00:00+08:00' },
  ] as const;
  for (const row of rows) {
    await writer.append(
      entryInput(
        makeMessage({
          id: row.id,
          session: row.session,
          agent: row.agent,
          executedAt: row.at,
          status: { code: row.code, message: `${row.id} done` },
        }),
      ),
    );
  }
  await writer.close();
  // Something that is not a day file must be ignored.
  fs.writeFileSync(path.join(dirs.logsDir, 'notes.txt'), 'x');
  return dirs;
}

async function run(options: Omit<Parameters<typeof logsCommand>[0], 'write' | 'json'> & { json?: boolean }) {
  let output = '';
  const code = await logsCommand({ json: false, ...options, write: (text) => (output += text) });
  return { code, output };
}

function idsOf(json: string): string[] {
  return (JSON.parse(json) as Array<{ messageId: string }>).map((entry) => entry.messageId);
}

describe('logsCommand', () => {
  it('prints every entry as its file text, grouped by file', async () => {
    const dirs = await trail();
    const { code, output } = await run({ logsDir: dirs.logsDir });
    expect(code).toBe(0);
    const fileText =
      fs.readFileSync(path.join(dirs.logsDir, '20260307.log'), 'utf8') +
      fs.readFileSync(path.join(dirs.logsDir, '20260308.log'), 'utf8');
    expect(output.replace(/^# \d{8}\.log\n/gm, '')).toBe(fileText);
    expect(output.match(/^# .*$/gm)).toEqual(['# 20260307.log', '# 20260308.log']);
  });

  it('filters by date, session, agent and status, together', async () => {
    const dirs = await trail();
    expect(idsOf((await run({ logsDir: dirs.logsDir, json: true, date: '20260308' })).output)).toEqual(['a3', 'a4']);
    expect(idsOf((await run({ logsDir: dirs.logsDir, json: true, session: 's1' })).output)).toEqual(['a1', 'a2']);
    expect(idsOf((await run({ logsDir: dirs.logsDir, json: true, agent: 'planner' })).output)).toEqual(['a2', 'a3']);
    expect(idsOf((await run({ logsDir: dirs.logsDir, json: true, status: 'success' })).output)).toEqual(['a1', 'a3']);
    expect(idsOf((await run({ logsDir: dirs.logsDir, json: true, session: 's2', agent: 'planner' })).output)).toEqual([
      'a3',
    ]);
    expect(idsOf((await run({ logsDir: dirs.logsDir, json: true, date: '20260309' })).output)).toEqual([]);
  });

  it('--json prints one array of parsed entries with file and line', async () => {
    const dirs = await trail();
    const { code, output } = await run({ logsDir: dirs.logsDir, json: true, status: 'failed' });
    expect(code).toBe(0);
    const [entry] = JSON.parse(output);
    expect(entry).toMatchObject({
      file: '20260307.log',
      line: 19, // 16 body lines + ENTRY_HASH + --- before it
      messageId: 'a2',
      sessionId: 's1',
      agent: 'planner',
      time: '11:00:00',
      status: { code: 'failed', message: 'a2 done' },
      input: 'hello',
      error: null,
    });
    expect(entry.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(entry).not.toHaveProperty('body');
  });

  it('says so when nothing matches (text mode)', async () => {
    const dirs = await trail();
    expect(await run({ logsDir: dirs.logsDir, agent: 'nobody' })).toEqual({
      code: 0,
      output: 'no audit entries match\n',
    });
  });

  it('rejects a --date that is not YYYYMMDD with exit 2 and what to write', async () => {
    const dirs = await trail();
    for (const date of ['2026-03-08', '20261301', '202603', '20260230']) {
      const { code, output } = await run({ logsDir: dirs.logsDir, date });
      expect(code, date).toBe(2);
      expect(output).toContain('YYYYMMDD');
    }
  });

  it('exits 1 naming file and line when a log is malformed', async () => {
    const dirs = await trail();
    const file = path.join(dirs.logsDir, '20260308.log');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('[AGENT: planner]', '[AGENT planner]'));
    const { code, output } = await run({ logsDir: dirs.logsDir });
    expect(code).toBe(1);
    expect(output).toContain(`${file}:2:`);
    expect(output).toContain('govflow verify');
  });
});

describe('audit log reader', () => {
  it('lists only day files, oldest first, and none when the folder is missing', async () => {
    const dirs = await trail();
    fs.writeFileSync(path.join(dirs.logsDir, '20261399.log'), '');
    expect(listLogFiles(dirs.logsDir)).toEqual(['20260307.log', '20260308.log']);
    expect(listLogFiles(path.join(dirs.root, 'nowhere'))).toEqual([]);
  });

  it('the logged-messages index returns the ids (from a day on) and skips a torn tail until it is whole', async () => {
    const dirs = await trail();
    const file = path.join(dirs.logsDir, '20260308.log');
    const whole = fs.readFileSync(file, 'utf8');
    fs.appendFileSync(file, '[TIMESTAMP: 11:00:00]\n[AGENT: x]\n[INPUT SOURCE: user]\n[MESSAGE_ID: torn]\n');
    const index = new LoggedMessagesIndex(dirs.logsDir);
    const ids = async (session: string, fromDate?: string) => [...(await index.messagesOf(session, fromDate)).keys()];
    expect(await ids('s1')).toEqual(['a1', 'a2']);
    expect(await ids('s2')).toEqual(['a3', 'a4']);
    expect(await ids('s1', '20260308')).toEqual([]);
    expect(await index.messagesOf('s2', '20260308')).toEqual(
      new Map([
        ['a3', { sequence: 1, agent: 'planner', hash: expect.stringMatching(/^[0-9a-f]{64}$/) }],
        ['a4', { sequence: 1, agent: 'objective_agent', hash: expect.stringMatching(/^[0-9a-f]{64}$/) }],
      ]),
    );
    // The torn tail cut (as a restarted writer does) and a new entry appended: it is found.
    fs.writeFileSync(file, whole);
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'Asia/Singapore' });
    await writer.append(
      entryInput(
        makeMessage({
          id: 'a5',
          session: 's2',
          agent: 'planner',
          executedAt: '2026-03-08T12:00:00+08:00',
          status: { code: 'success', message: 'a5 done' },
        }),
      ),
    );
    await writer.close();
    expect(await ids('s2', '20260308')).toEqual(['a3', 'a4', 'a5']);
  });

  it('the logged-messages index reads each day file once for any number of sessions, then only what was appended', async () => {
    const dirs = await trail();
    const reads: Array<{ file: string; offset: number }> = [];
    const index = new LoggedMessagesIndex(dirs.logsDir, async (file, offset, length) => {
      reads.push({ file: path.basename(file), offset });
      const buffer = Buffer.alloc(length);
      const handle = await fs.promises.open(file, 'r');
      try {
        await handle.read(buffer, 0, length, offset);
      } finally {
        await handle.close();
      }
      return buffer;
    });
    await Promise.all(Array.from({ length: 200 }, (_unused, n) => index.messagesOf(`s${n % 3}`)));
    expect(reads.map((read) => read.file).sort()).toEqual(['20260307.log', '20260308.log']);
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'Asia/Singapore' });
    await writer.append(
      entryInput(
        makeMessage({
          id: 'a6',
          session: 's1',
          agent: 'planner',
          executedAt: '2026-03-08T12:00:00+08:00',
          status: { code: 'success', message: 'a6 done' },
        }),
      ),
    );
    await writer.close();
    expect([...(await index.messagesOf('s1')).keys()]).toEqual(['a1', 'a2', 'a6']);
    // Only the new bytes of the newest day were read.
    expect(reads).toHaveLength(3);
    expect(reads[2].file).toBe('20260308.log');
    expect(reads[2].offset).toBeGreaterThan(0);
  });

  it('the logged-messages index reads from where a session could begin, and back to an earlier point when one asks for it', async () => {
    const dirs = await trail();
    const file = path.join(dirs.logsDir, '20260308.log');
    const text = fs.readFileSync(file, 'utf8');
    // Where the entry of a4 begins: the end of a3's entry.
    const a4At = Buffer.byteLength(text.slice(0, text.lastIndexOf('[TIMESTAMP: ')));
    const reads: Array<{ file: string; offset: number; length: number }> = [];
    const index = new LoggedMessagesIndex(dirs.logsDir, async (name, offset, length) => {
      reads.push({ file: path.basename(name), offset, length });
      const buffer = Buffer.alloc(length);
      const handle = await fs.promises.open(name, 'r');
      try {
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    });
    // From a4's place: the earlier day and a3 are not read, a4 is found.
    expect([...(await index.messagesOf('s2', undefined, { file: '20260308.log', bytes: a4At })).keys()]).toEqual([
      'a4',
    ]);
    expect(reads.some((read) => read.file === '20260307.log')).toBe(false);
    expect(Math.min(...reads.map((read) => read.offset))).toBe(a4At);
    // From the file's start (a session noted earlier): only the part before a4 is read now.
    const before = reads.length;
    expect([...(await index.messagesOf('s2', undefined, { file: '20260308.log', bytes: 0 })).keys()].sort()).toEqual([
      'a3',
      'a4',
    ]);
    expect(reads.slice(before).filter((read) => read.length > 12)).toEqual([
      { file: '20260308.log', offset: 0, length: a4At },
    ]);
    // A point where no entry begins (the file was replaced since it was noted) reads the file whole.
    const fresh = new LoggedMessagesIndex(dirs.logsDir);
    expect(
      [...(await fresh.messagesOf('s2', undefined, { file: '20260308.log', bytes: a4At + 3 })).keys()].sort(),
    ).toEqual(['a3', 'a4']);
    // A later day's file is read from its start; an older one is skipped.
    expect([...(await fresh.messagesOf('s1', undefined, { file: '20260307.log', bytes: 0 })).keys()]).toEqual([
      'a1',
      'a2',
    ]);
    expect([...(await fresh.messagesOf('s1', undefined, { file: '20260308.log', bytes: 0 })).keys()]).toEqual([]);
  });

  it('isLogDate accepts real days only', () => {
    expect(isLogDate('20240229')).toBe(true);
    expect(isLogDate('20230229')).toBe(false);
    expect(isLogDate('2024022')).toBe(false);
  });
});
