/**
 * The retention passes on real files (docs/audit-log.md "Retention and archives"): which sessions
 * move to the archive (a finished one, on a day before the cut; never one that runs or pauses; a
 * delegated child only once its parent ended), the PII vault keeping its mode, a deletion that
 * refuses to destroy archived days whose chain was tampered with, a head record rebuilt at
 * open that counts the archived and deleted entries, and processed request files that follow their
 * day, leaving markers that keep the id refused (and its owner) but not the text; refused request
 * files in system/failed/ follow their day too.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AuditLogWriter } from '../../src/audit/audit-log-writer.js';
import { readHeadRecord } from '../../src/audit/audit-chain-tail.js';
import { verifyAuditChain } from '../../src/audit/audit-chain-verify.js';
import { archiveOldDays, deleteOldDays } from '../../src/audit/log-retention.js';
import { systemPaths } from '../../src/config/system-paths.js';
import { archiveFinishedSessions } from '../../src/store/session-retention.js';
import { loadConfig } from '../../src/config/config-loader.js';
import { filesRetentionPass } from '../../src/daemon/retention-pass.js';
import { HttpIntake } from '../../src/http/http-intake.js';
import { archiveFailedFiles, archiveRequestDays, archiveRequestFile } from '../../src/intake/request-archive.js';
import { RequestIdRegistry } from '../../src/intake/request-id-registry.js';
import { allTexts, entryInput, makeMessage, tempRoot } from './audit-test-helpers.js';

const FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'journal', 'v1');
/** The fixture session finished on 2026-11-23 (UTC). */
const FINISHED_ON = '20261123';

/** Copies the frozen v1 session as `sessionId` (its session record changed by `edit`), with its result files. */
function placeSession(
  root: string,
  sessionId: string,
  edit: (record: Record<string, unknown>) => void = () => {},
  keep = Infinity,
): void {
  const paths = systemPaths(root);
  const folder = path.join(paths.sessions, sessionId);
  mkdirSync(folder, { recursive: true });
  const lines = readFileSync(path.join(FIXTURE, 'journal.jsonl'), 'utf8').trim().split('\n').slice(0, keep);
  const first = JSON.parse(lines[0]) as Record<string, unknown>;
  first.session_id = sessionId;
  first.request_id = `req-${sessionId}`;
  edit(first);
  lines[0] = JSON.stringify(first);
  writeFileSync(path.join(folder, 'journal.jsonl'), `${lines.join('\n')}\n`);
  if (keep === Infinity) cpSync(path.join(FIXTURE, 'manifest.json'), path.join(folder, 'manifest.json'));
  mkdirSync(paths.outbox, { recursive: true });
  writeFileSync(
    path.join(paths.outbox, `req-${sessionId}.json`),
    JSON.stringify({ request_id: `req-${sessionId}`, session_id: sessionId, status: 'success' }),
  );
  writeFileSync(path.join(paths.outbox, `req-${sessionId}.md`), '# result\n');
}

describe('archiveFinishedSessions', () => {
  it('moves finished sessions of days before the cut with their results, keeps the vault private, and leaves the rest', () => {
    const { root } = tempRoot();
    const paths = systemPaths(root);
    placeSession(root, 'done');
    writeFileSync(path.join(paths.sessions, 'done', 'pii-vault.json'), '{"v":1,"entries":[]}', { mode: 0o600 });
    placeSession(root, 'running', () => {}, 3); // no finished record: it runs (or waits)

    expect(archiveFinishedSessions({ paths, timezone: 'UTC', before: FINISHED_ON })).toEqual([]);
    expect(archiveFinishedSessions({ paths, timezone: 'UTC', before: '20261124' })).toEqual(['done']);

    const day = path.join(paths.logs, 'archive', FINISHED_ON);
    expect(readdirSync(path.join(day, 'sessions', 'done')).sort()).toEqual([
      'journal.jsonl.gz',
      'manifest.json.gz',
      'pii-vault.json.gz',
    ]);
    expect(statSync(path.join(day, 'sessions', 'done', 'pii-vault.json.gz')).mode & 0o777).toBe(0o600);
    const journal = gunzipSync(readFileSync(path.join(day, 'sessions', 'done', 'journal.jsonl.gz'))).toString('utf8');
    expect(journal.startsWith('{"v":1,"type":"session","session_id":"done"')).toBe(true);
    expect(journal.trim().split('\n').at(-1)).toContain('"type":"finished"');
    expect(readdirSync(path.join(day, 'outbox')).sort()).toEqual(['req-done.json.gz', 'req-done.md.gz']);
    expect(existsSync(path.join(paths.sessions, 'done'))).toBe(false);
    expect(existsSync(path.join(paths.outbox, 'req-done.json'))).toBe(false);
    expect(existsSync(path.join(paths.sessions, 'running', 'journal.jsonl'))).toBe(true);
    expect(existsSync(path.join(paths.outbox, 'req-running.json'))).toBe(true);
  });

  it("a daemon's pass tells which sessions it archived (the listing drops them: test/store/session-index.test.ts)", () => {
    const { root } = tempRoot();
    writeFileSync(path.join(root, 'govflow.config.yaml'), 'timezone: UTC\naudit: { retention: { keep_days: 1 } }\n');
    placeSession(root, 'done');
    placeSession(root, 'running', () => {}, 3);
    const told: string[][] = [];
    filesRetentionPass(loadConfig(root, {}), null, undefined, (sessionIds) => told.push(sessionIds))(true);
    expect(told).toEqual([['done']]);
    expect(existsSync(path.join(systemPaths(root).sessions, 'done'))).toBe(false);
  });

  it('keeps finished sessions recovery may still read: a delegated child while its parent has not ended, one whose request file is still claimed', () => {
    const { root } = tempRoot();
    const paths = systemPaths(root);
    placeSession(root, 'parent', () => {}, 3);
    placeSession(
      root,
      'child',
      (record) =>
        (record.delegation = {
          parent_session_id: 'parent',
          root_session_id: 'parent',
          depth: 1,
          call_id: 'c1',
          lineage: [],
          deadline_at: '2026-11-24T00:00:00.000Z',
          max_tokens: null,
        }),
    );
    const claimed = path.join(paths.processing, 'claimed.json');
    mkdirSync(paths.processing, { recursive: true });
    writeFileSync(claimed, '{"request": "Summarize."}');
    placeSession(root, 'claimed', (record) => (record.claimed_path = claimed));
    expect(archiveFinishedSessions({ paths, timezone: 'UTC', before: '20261124' })).toEqual([]);
    placeSession(root, 'parent');
    rmSync(claimed);
    expect(archiveFinishedSessions({ paths, timezone: 'UTC', before: '20261124' }).sort()).toEqual([
      'child',
      'claimed',
      'parent',
    ]);
  });
});

describe('deleteOldDays', () => {
  it('refuses to delete archived days whose chain does not hold, and deletes them once it does', async () => {
    const { logsDir, stateDir } = tempRoot();
    const writer = await AuditLogWriter.open({ logsDir, stateDir, timezone: 'UTC' });
    for (const [index, day] of ['2026-01-01', '2026-01-02', '2026-03-01'].entries()) {
      await writer.append(
        entryInput(makeMessage({ id: `m${index}`, executedAt: `${day}T10:00:00.000+00:00`, sequence: index + 1 })),
      );
    }
    await writer.close();
    const now = new Date('2026-03-02T12:00:00Z');
    expect(archiveOldDays({ logsDir, timezone: 'UTC', keepDays: 30, now })).toEqual(['20260101', '20260102']);
    const archived = path.join(logsDir, 'archive', '20260102.log.gz');
    const original = readFileSync(archived);
    writeFileSync(
      archived,
      gzipSync(gunzipSync(original).toString('utf8').replace('[AGENT: objective_agent]', '[AGENT: goal_agent]')),
    );

    expect(() => deleteOldDays({ logsDir, stateDir, timezone: 'UTC', deleteAfterDays: 40, now })).toThrow(
      /20260102\.log\.gz: entry m1 .* does not chain/,
    );
    expect(existsSync(path.join(logsDir, 'archive', '20260101.log.gz'))).toBe(true);
    expect(existsSync(path.join(logsDir, 'archive', 'deleted.jsonl'))).toBe(false);

    writeFileSync(archived, original);
    expect(deleteOldDays({ logsDir, stateDir, timezone: 'UTC', deleteAfterDays: 40, now })).toEqual({
      deleted: ['20260101', '20260102'],
      held: false,
    });
    const record = JSON.parse(readFileSync(path.join(logsDir, 'archive', 'deleted.jsonl'), 'utf8')) as {
      entries: number;
      day: string;
    };
    expect(record).toMatchObject({ day: '20260102', entries: 2 });
    expect(readdirSync(path.join(logsDir, 'archive'))).toEqual(['deleted.jsonl']);
  });

  it('leaves a head record the writer rebuilds counting archived and deleted entries, so verify stays clean', async () => {
    const { logsDir, stateDir } = tempRoot();
    let writer = await AuditLogWriter.open({ logsDir, stateDir, timezone: 'UTC' });
    for (const [index, day] of ['2026-01-01', '2026-01-02', '2026-03-01'].entries()) {
      await writer.append(
        entryInput(makeMessage({ id: `m${index}`, executedAt: `${day}T10:00:00.000+00:00`, sequence: index + 1 })),
      );
    }
    await writer.close();
    const now = new Date('2026-03-02T12:00:00Z');
    archiveOldDays({ logsDir, timezone: 'UTC', keepDays: 30, now });
    deleteOldDays({ logsDir, stateDir, timezone: 'UTC', deleteAfterDays: 59, now }); // deletes 2026-01-01 only
    rmSync(path.join(stateDir, 'audit-head.json'));
    writer = await AuditLogWriter.open({ logsDir, stateDir, timezone: 'UTC' });
    await writer.close();
    const head = readHeadRecord(stateDir);
    expect(head.state === 'ok' && head.record.entries).toBe(3);
    const verified = await verifyAuditChain({ logsDir, stateDir });
    expect(verified).toMatchObject({ ok: true, entries: 2, warnings: [], deleted: { day: '20260101', entries: 1 } });
  });
});

describe('archiveRequestDays', () => {
  it('moves old request files to their archived day and leaves id-only markers: the id stays refused and owned, the text goes with the day', async () => {
    const { root, logsDir, stateDir } = tempRoot();
    const paths = systemPaths(root);
    const registry = new RequestIdRegistry(paths, { durable: false });
    mkdirSync(paths.processing, { recursive: true });
    const accept = async (name: string, text: string, requestId: string, day: string) => {
      const claimed = path.join(paths.processing, `claimed-${name}`);
      writeFileSync(claimed, text);
      expect(await registry.claim(requestId, claimed)).toBe('claimed');
      archiveRequestFile(paths.archive, day, claimed, name);
    };
    await accept(
      'old.json',
      JSON.stringify({ request: 'Secret old text.', request_id: 'old-json', user: 'alice', session_id: 's-old' }),
      'old-json',
      '20260101',
    );
    await accept('note.txt', 'Secret old note.', 'old-txt', '20260101');
    await accept(
      'new.json',
      JSON.stringify({ request: 'Kept new text.', request_id: 'new-json' }),
      'new-json',
      '20260301',
    );
    const marker = (id: string) => path.join(stateDir, 'requests', id);

    expect(archiveRequestDays({ paths, before: '20260201', durable: false })).toEqual(['20260101']);
    expect(readdirSync(paths.archive)).toEqual(['20260301']);
    const requests = path.join(logsDir, 'archive', '20260101', 'requests');
    expect(readdirSync(requests).sort()).toEqual(['note.txt.gz', 'old.json.gz']);
    expect(gunzipSync(readFileSync(path.join(requests, 'note.txt.gz'))).toString('utf8')).toBe('Secret old note.');
    expect(JSON.parse(readFileSync(marker('old-json'), 'utf8'))).toEqual({
      format_version: 1,
      request_id: 'old-json',
      user: 'alice',
      session_id: 's-old',
    });
    expect(JSON.parse(readFileSync(marker('old-txt'), 'utf8'))).toEqual({ format_version: 1, request_id: 'old-txt' });
    expect(readFileSync(marker('new-json'), 'utf8')).toContain('Kept new text.'); // still the request file itself
    expect(archiveRequestDays({ paths, before: '20260201', durable: false })).toEqual([]);

    // Delete the day: no copy of the old texts is left anywhere under the root, yet the ids are still refused and owned.
    expect(
      deleteOldDays({ logsDir, stateDir, timezone: 'UTC', deleteAfterDays: 40, now: new Date('2026-03-02T12:00:00Z') })
        .deleted,
    ).toEqual(['20260101']);
    expect(allTexts(root).filter(({ text }) => text.includes('Secret old'))).toEqual([]);
    expect(allTexts(root).filter(({ text }) => text.includes('Kept new text.')).length).toBeGreaterThan(0);
    const again = path.join(paths.processing, 'again.json');
    writeFileSync(again, JSON.stringify({ request: 'Secret old text.', request_id: 'old-json' }));
    expect(await registry.claim('old-json', again)).toBe('duplicate');
    expect(await registry.claim('old-txt', again)).toBe('duplicate');
    const intake = new HttpIntake({
      submit: () => Promise.reject(new Error('not used')),
      registry,
      maxBytes: 1 << 20,
      timezone: 'UTC',
    });
    expect(await intake.ownerOf('old-json')).toEqual({ user: 'alice', sessionId: 's-old' });
  });
});

describe('archiveFailedFiles', () => {
  it('moves refused request files and their reasons to the archived day they were last written on, where deleting the day takes them', () => {
    const { root, logsDir, stateDir } = tempRoot();
    const paths = systemPaths(root);
    mkdirSync(paths.failed, { recursive: true });
    const place = (name: string, text: string, at: string) => {
      writeFileSync(path.join(paths.failed, name), text, { mode: 0o640 });
      utimesSync(path.join(paths.failed, name), new Date(at), new Date(at));
    };
    place('bad.json', '{"request": "Secret refused text"', '2026-01-01T10:00:00Z');
    place('bad.json.error.json', '{"file": "bad.json", "reason": "not JSON"}', '2026-01-01T10:00:01Z');
    place('late.json', '{"request": "Kept refused text"', '2026-03-01T10:00:00Z');

    expect(archiveFailedFiles({ paths, before: '20260201', timezone: 'UTC' })).toBe(2);
    expect(readdirSync(paths.failed)).toEqual(['late.json']);
    const failed = path.join(logsDir, 'archive', '20260101', 'failed');
    expect(readdirSync(failed).sort()).toEqual(['bad.json.error.json.gz', 'bad.json.gz']);
    expect(gunzipSync(readFileSync(path.join(failed, 'bad.json.gz'))).toString('utf8')).toBe(
      '{"request": "Secret refused text"',
    );
    expect(statSync(path.join(failed, 'bad.json.gz')).mode & 0o777).toBe(0o640);
    expect(archiveFailedFiles({ paths, before: '20260201', timezone: 'UTC' })).toBe(0);

    expect(
      deleteOldDays({ logsDir, stateDir, timezone: 'UTC', deleteAfterDays: 40, now: new Date('2026-03-02T12:00:00Z') })
        .deleted,
    ).toEqual(['20260101']);
    expect(allTexts(root).filter(({ text }) => text.includes('Secret refused'))).toEqual([]);
    expect(allTexts(root).filter(({ text }) => text.includes('Kept refused text')).length).toBe(1);
  });
});
