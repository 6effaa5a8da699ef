/**
 * Retention (SPEC §16, docs/audit-log.md "Retention and archives"), with real daemons whose clock
 * runs days ahead (test/support/shifted-clock.mjs): day files older than keep_days and the
 * journals and results of the sessions that finished on them move to system/logs/archive/, paused
 * sessions stay, and so do the processed request files of those days (their request-id markers
 * keep only the id); archived days older than delete_after_days are deleted, never while
 * system/state/legal-hold exists, leaving no copy of their request texts while their ids are
 * still refused as duplicates; `govflow verify` (with and without the key) still passes after
 * the deletion, and fails when the record of what was deleted is forged.
 */
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';
import { compactInTimeZone } from '../../src/message/zoned-time.js';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  EXAMPLE_ANSWERS,
  answer,
  cleanupAll,
  dropJson,
  exampleScript,
  makeRoot,
  readResult,
  runCli,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';
import { getJson, httpUrlOf } from '../http/http-test-helpers.js';
import { allTexts } from './audit-test-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);
afterAll(removeTempFolders);

const SHIFTED_CLOCK = fileURLToPath(new URL('../support/shifted-clock.mjs', import.meta.url));
const PENDING = answer({
  content: { question: 'Which quarter?' },
  contentType: 'objectives',
  status: 'pending',
  message: 'Which quarter?',
  next: null,
});

/** `govflow start` with its clock `days` ahead of the real one. */
function startDaysAhead(root: string, days: number): Promise<DaemonProcess> {
  return startDaemon(root, { env: { NODE_OPTIONS: `--import ${SHIFTED_CLOCK}`, SHIFT_CLOCK_DAYS: String(days) } });
}

function dayAhead(days: number): string {
  return compactInTimeZone(new Date(Date.now() + days * 86_400_000), 'UTC');
}

function writeConfig(root: string, provider: string, audit: string, extra = ''): void {
  writeFileSync(path.join(root, 'govflow.config.yaml'), `timezone: UTC\n${provider}audit: ${audit}\n${extra}`);
}

describe('audit.retention: archive, legal hold, delete', () => {
  it('archives finished sessions with their day, keeps paused ones, deletes only without a legal hold, and verify --key still passes', async () => {
    const keys = makeTempFolder('govflow-retention-keys-');
    const witness = makeTempFolder('govflow-retention-witness-');
    const privateKey = path.join(keys, 'audit.key');
    expect((await runCli(['keygen', '--out', privateKey])).code).toBe(0);
    const publicKey = `${privateKey}.pub`;
    const audit =
      `{ signing_key: ${JSON.stringify(privateKey)}, checkpoint_ms: 20, witnesses: [${JSON.stringify(witness)}], retention: { ` +
      `keep_days: 30, delete_after_days: 60 } }`;
    const root = makeRoot();
    const system = path.join(root, 'system');
    const archive = path.join(system, 'logs', 'archive');
    const today = dayAhead(0);

    // Today: one session finishes, one pauses on a question.
    writeConfig(root, 'provider: { kind: scripted, script: script.json }\n', audit);
    writeScript(
      root,
      exampleScript({ responses: { objective_agent: [{ json: EXAMPLE_ANSWERS.objective_agent }, { json: PENDING }] } }),
    );
    let daemon = await startDaemon(root);
    dropJson(root, 'done.json', { request: 'Summarize the Zephyr note.', request_id: 'old-done' });
    await waitFor('the finished result', () => readResult(root, 'old-done')?.status === 'success', {
      detail: () => daemon.stderrTail(),
    });
    dropJson(root, 'ask.json', { request: 'Summarize the quarter.', request_id: 'old-paused' });
    await waitFor('the paused result', () => readResult(root, 'old-paused')?.status === 'pending', {
      detail: () => daemon.stderrTail(),
    });
    expect((await daemon.stop()).code).toBe(0);
    const finishedSession = readResult(root, 'old-done')!.session_id;
    const pausedSession = readResult(root, 'old-paused')!.session_id;
    const oldEntries = readFileSync(path.join(system, 'logs', `${today}.log`), 'utf8').split('\n---\n').length - 1;

    // 45 days later a new day is written; a restart then archives today (the newest day never moves).
    writeConfig(root, '', audit, 'http: { listen: "127.0.0.1:0" }\n');
    daemon = await startDaysAhead(root, 45);
    dropJson(root, 'later.json', { request: 'Summarize the later note.', request_id: 'later' });
    await waitFor('the later result', () => readResult(root, 'later')?.status === 'success', {
      detail: () => daemon.stderrTail(),
    });
    expect((await daemon.stop()).code).toBe(0);
    expect(existsSync(path.join(system, 'logs', `${today}.log`))).toBe(true);
    daemon = await startDaysAhead(root, 45);
    const api = httpUrlOf(daemon.readyLine);
    expect(existsSync(path.join(system, 'logs', `${today}.log`))).toBe(false);
    expect(existsSync(path.join(archive, `${today}.log.gz`))).toBe(true);
    const archivedSession = path.join(archive, today, 'sessions', finishedSession);
    expect(readdirSync(archivedSession).sort()).toEqual(['journal.jsonl.gz', 'manifest.json.gz']);
    expect(gunzipSync(readFileSync(path.join(archivedSession, 'journal.jsonl.gz'))).toString('utf8')).toContain(
      '"type":"finished"',
    );
    expect(existsSync(path.join(system, 'sessions', finishedSession))).toBe(false);
    expect(readdirSync(path.join(archive, today, 'outbox')).sort()).toEqual(['old-done.json.gz', 'old-done.md.gz']);
    expect(readResult(root, 'old-done')).toBeNull();
    // Its request file follows the day; the request-id marker keeps only the id.
    expect(existsSync(path.join(system, 'archive', today))).toBe(false);
    expect(gunzipSync(readFileSync(path.join(archive, today, 'requests', 'done.json.gz'))).toString('utf8')).toContain(
      'Zephyr',
    );
    expect(JSON.parse(readFileSync(path.join(system, 'state', 'requests', 'old-done'), 'utf8'))).toEqual({
      format_version: 1,
      request_id: 'old-done',
    });
    // The paused session and its pending result stay where they are.
    expect(existsSync(path.join(system, 'sessions', pausedSession, 'journal.jsonl'))).toBe(true);
    expect(readResult(root, 'old-paused')?.status).toBe('pending');
    // The archived result is still served, and the archived session still has its page.
    const served = await getJson(`${api}/v1/requests/old-done`);
    expect(served.status).toBe(200);
    expect(served.body).toMatchObject({ request_id: 'old-done', status: 'success', session_id: finishedSession });
    const page = await fetch(`${api}/ui/sessions/${finishedSession}`);
    expect(page.status).toBe(200);
    expect((await daemon.stop()).code).toBe(0);
    let verified = await runCli(['verify', '--root', root, '--key', publicKey, '--witness', witness]);
    expect(verified.code, verified.stdout).toBe(0);

    // 75 days later today is past delete_after_days, but a legal hold keeps it.
    writeFileSync(path.join(system, 'state', 'legal-hold'), 'case 2026-17: keep everything\n');
    daemon = await startDaysAhead(root, 75);
    expect((await daemon.stop()).code).toBe(0);
    expect(daemon.stderr).toContain('legal-hold exists');
    expect(existsSync(path.join(archive, `${today}.log.gz`))).toBe(true);
    expect(existsSync(archivedSession)).toBe(true);
    expect(existsSync(path.join(archive, 'deleted.jsonl'))).toBe(false);

    // The hold lifted, the next start deletes the day, its journals and results, and records it signed.
    rmSync(path.join(system, 'state', 'legal-hold'));
    daemon = await startDaysAhead(root, 75);
    const apiLater = httpUrlOf(daemon.readyLine);
    expect(existsSync(path.join(archive, `${today}.log.gz`))).toBe(false);
    expect(existsSync(path.join(archive, today))).toBe(false);
    const deletions = readFileSync(path.join(archive, 'deleted.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(deletions).toHaveLength(1);
    expect(deletions[0]).toMatchObject({
      day: today,
      entries: oldEntries,
      days: [today],
      sessions: [finishedSession],
      requests: ['old-done'],
    });
    expect(deletions[0].sig).toEqual(expect.any(String));
    const gone = await getJson(`${apiLater}/v1/requests/old-done`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toContain('audit retention deleted');
    expect(existsSync(path.join(system, 'sessions', pausedSession, 'journal.jsonl'))).toBe(true);
    expect(readResult(root, 'old-paused')?.status).toBe('pending');
    // No copy of the deleted request's text is left, yet its id is still refused.
    expect(
      allTexts(root)
        .filter(({ text }) => text.includes('Zephyr'))
        .map(({ file }) => file),
    ).toEqual([]);
    dropJson(root, 'done-again.json', { request: 'Summarize the note again.', request_id: 'old-done' });
    const refused = path.join(system, 'failed', 'done-again.json.error.json');
    await waitFor('the duplicate refused', () => existsSync(refused), { detail: () => daemon.stderrTail() });
    expect(readFileSync(refused, 'utf8')).toContain('duplicate request_id \\"old-done\\"');
    expect((await daemon.stop()).code).toBe(0);

    // Verify starts the chain after the deleted entries, and every signed checkpoint still holds.
    verified = await runCli(['verify', '--root', root, '--key', publicKey, '--witness', witness]);
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toMatch(/audit chain intact: \d+ entries in 1 file/);
    expect(verified.stdout).toContain(
      `the chain starts after entry ${oldEntries}: retention deleted the days through ${today}`,
    );
    expect((await runCli(['verify', '--root', root])).code).toBe(0);

    // A record of deletion that is forged (another hash) breaks the chain; one stripped of its signature fails --key.
    const recordFile = path.join(archive, 'deleted.jsonl');
    const record = deletions[0] as Record<string, unknown>;
    writeFileSync(recordFile, `${JSON.stringify({ ...record, hash: 'f'.repeat(64) })}\n`);
    const forged = await runCli(['verify', '--root', root]);
    expect(forged.code).toBe(1);
    expect(forged.stdout).toContain('hash mismatch');
    const { key: _key, sig: _sig, ...unsigned } = record;
    writeFileSync(recordFile, `${JSON.stringify(unsigned)}\n`);
    expect((await runCli(['verify', '--root', root])).code).toBe(0);
    const unsignedVerify = await runCli(['verify', '--root', root, '--key', publicKey]);
    expect(unsignedVerify.code).toBe(1);
    expect(unsignedVerify.stdout).toContain('it is not signed');
  }, 180_000);

  it('refuses to start when delete_after_days is not above keep_days, naming the file, line and field', async () => {
    const root = makeRoot('timezone: UTC\naudit:\n  retention: { keep_days: 190, delete_after_days: 30 }\n');
    const started = await runCli(['start', '--root', root]);
    expect(started.code).toBe(2);
    expect(started.stderr).toContain(
      'govflow.config.yaml:3: audit.retention.delete_after_days (30) must be greater than audit.retention.keep_days (190)',
    );
  }, 30_000);
});
