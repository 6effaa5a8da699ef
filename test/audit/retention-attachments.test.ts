/**
 * Retention (SPEC §16) takes a request's attachments (SPEC §22) with their day: real daemons whose
 * clock runs days ahead (test/support/shifted-clock.mjs). Past keep_days the archived request
 * folder moves, file by file and mode kept, under system/logs/archive/YYYYMMDD/requests/ and the
 * workspace copy goes; past delete_after_days nothing of them is left anywhere under the root.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compactInTimeZone } from '../../src/message/zoned-time.js';
import { binaryBytes, dropFolder } from '../daemon/attachments-support.js';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  cleanupAll,
  dropJson,
  exampleScript,
  makeRoot,
  readResult,
  readResults,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';
import { allTexts } from './audit-test-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const SHIFTED_CLOCK = fileURLToPath(new URL('../support/shifted-clock.mjs', import.meta.url));
const MARKER = 'Quillfeather renewal clause';

function startDaysAhead(root: string, days: number): Promise<DaemonProcess> {
  return startDaemon(root, { env: { NODE_OPTIONS: `--import ${SHIFTED_CLOCK}`, SHIFT_CLOCK_DAYS: String(days) } });
}

describe('retention with attachments', () => {
  it('archives the attachments with their day, mode kept, and deletes them with it', async () => {
    const root = makeRoot(
      'timezone: UTC\nprovider: { kind: scripted, script: script.json }\naudit: { retention: { keep_days: 30, delete_after_days: 60 } }\n',
    );
    writeScript(root, exampleScript({ loop: true }));
    const system = path.join(root, 'system');
    const today = compactInTimeZone(new Date(), 'UTC');
    const pdf = binaryBytes(50_000, 9);

    let daemon = await startDaemon(root);
    dropFolder(root, 'contract-review', {
      'request.txt': 'Summarise the attached contract.\n',
      'contract.pdf': pdf,
      'annex/clause.txt': `${MARKER}: 90 days notice.\n`,
    });
    const result = await waitFor(
      'the result',
      () => readResults(root).find((found) => found.source_file === 'contract-review'),
      {
        detail: () => daemon.stderrTail(),
      },
    );
    await waitFor('the archived request folder', () =>
      existsSync(path.join(system, 'archive', today, 'contract-review')),
    );
    expect((await daemon.stop()).code).toBe(0);
    const workspaceCopy = path.join(root, 'workspace', result.session_id, 'attachments');
    expect(existsSync(path.join(workspaceCopy, 'annex', 'clause.txt'))).toBe(true);

    // 45 days later a new day is written; the next start archives today (the newest day never moves).
    daemon = await startDaysAhead(root, 45);
    dropJson(root, 'later.json', { request: 'Summarise the later note.', request_id: 'later' });
    await waitFor('the later result', () => readResult(root, 'later')?.status === 'success', {
      detail: () => daemon.stderrTail(),
    });
    expect((await daemon.stop()).code).toBe(0);
    daemon = await startDaysAhead(root, 45);
    expect((await daemon.stop()).code).toBe(0);
    const archivedDay = path.join(system, 'logs', 'archive', today);
    const requests = path.join(archivedDay, 'requests', 'contract-review');
    expect(gunzipSync(readFileSync(path.join(requests, 'contract.pdf.gz'))).equals(pdf)).toBe(true);
    expect(statSync(path.join(requests, 'contract.pdf.gz')).mode & 0o777).toBe(0o600);
    expect(gunzipSync(readFileSync(path.join(requests, 'annex', 'clause.txt.gz'))).toString()).toContain(MARKER);
    expect(existsSync(path.join(requests, 'request.txt.gz'))).toBe(true);
    expect(existsSync(path.join(system, 'archive', today))).toBe(false);
    expect(existsSync(path.join(archivedDay, 'sessions', result.session_id, 'journal.jsonl.gz'))).toBe(true);
    expect(existsSync(workspaceCopy)).toBe(false);

    // 75 days later the archived day is deleted, and the attachments with it.
    daemon = await startDaysAhead(root, 75);
    expect((await daemon.stop()).code).toBe(0);
    expect(existsSync(archivedDay)).toBe(false);
    const deletions = readFileSync(path.join(system, 'logs', 'archive', 'deleted.jsonl'), 'utf8');
    expect(JSON.parse(deletions.trim().split('\n')[0])).toMatchObject({ day: today, sessions: [result.session_id] });
    expect(
      allTexts(root)
        .filter(({ text }) => text.includes(MARKER))
        .map(({ file }) => file),
    ).toEqual([]);
    // The request id stays refused as a duplicate (its marker keeps the id alone).
    expect(existsSync(path.join(system, 'state', 'requests', result.request_id))).toBe(true);
  }, 180_000);
});
