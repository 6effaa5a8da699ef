/**
 * A session retention archived can still be forked (SPEC §15 "archived journals follow retention
 * and can be forked", §16, §18): real daemons whose clock runs days ahead
 * (test/support/shifted-clock.mjs). The fork reads the original's journal, audit entries and PII
 * vault from system/logs/archive/, reuses its first messages and keeps its placeholders.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactInTimeZone } from '../../src/message/zoned-time.js';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  answer,
  cleanupAll,
  dropJson,
  exampleScript,
  makeRoot,
  readAuditEntries,
  readResult,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterAll(cleanupAll);

const SHIFTED_CLOCK = fileURLToPath(new URL('../support/shifted-clock.mjs', import.meta.url));
const JANE = 'jane.doe@example.com';

function startDaysAhead(root: string, days: number): Promise<DaemonProcess> {
  return startDaemon(root, { env: { NODE_OPTIONS: `--import ${SHIFTED_CLOCK}`, SHIFT_CLOCK_DAYS: String(days) } });
}

describe('retention and forks', () => {
  it('forks a session whose journal retention archived, with its placeholders', async () => {
    const root = makeRoot(
      'timezone: UTC\nprovider: { kind: scripted, script: script.json }\n' +
        'pii: { redact: [email], restore_in_result: true }\naudit: { retention: { keep_days: 30 } }\n',
    );
    const final = answer({ content: { answer: 'Sent to [EMAIL_1].' }, contentType: 'final_report', next: null });
    writeScript(root, exampleScript({ loop: true, responses: { final_output_agent: [{ json: final }] } }));
    const system = path.join(root, 'system');
    const today = compactInTimeZone(new Date(), 'UTC');

    let daemon = await startDaemon(root);
    dropJson(root, 'orig.json', { request: `Please write to ${JANE} about the report.`, request_id: 'orig' });
    const original = await waitFor('the result', () => readResult(root, 'orig'), { detail: () => daemon.stderrTail() });
    expect(original.status).toBe('success');
    expect(JSON.stringify(original.output)).toContain(`Sent to ${JANE}.`);
    expect((await daemon.stop()).code).toBe(0);

    // 45 days later a new day is written; the next start archives today's with the session.
    daemon = await startDaysAhead(root, 45);
    dropJson(root, 'later.json', { request: 'Summarise the later note.', request_id: 'later' });
    await waitFor('the later result', () => readResult(root, 'later')?.status === 'success', {
      detail: () => daemon.stderrTail(),
    });
    expect((await daemon.stop()).code).toBe(0);
    daemon = await startDaysAhead(root, 45);
    const archived = path.join(system, 'logs', 'archive', today, 'sessions', original.session_id);
    expect(existsSync(path.join(archived, 'journal.jsonl.gz'))).toBe(true);
    expect(existsSync(path.join(archived, 'pii-vault.json.gz'))).toBe(true);
    expect(existsSync(path.join(system, 'sessions', original.session_id))).toBe(false);

    dropJson(root, 'fork-orig.json', { control: 'fork', session_id: original.session_id, from: 3, reason: 'again' });
    const fork = await waitFor('the fork result', () => readResult(root, 'orig-fork-1'), {
      timeoutMs: 60_000,
      detail: () => daemon.stderrTail(),
    });
    expect((await daemon.stop()).code).toBe(0);
    expect(fork.status).toBe('success');
    expect((fork as unknown as { lineage: Record<string, unknown> }).lineage).toMatchObject({
      action: 'fork',
      of_session: original.session_id,
      from: 3,
    });
    // The original's placeholder kept its value: the fork's result is restored from the archived vault.
    expect(JSON.stringify(fork.output)).toContain(`Sent to ${JANE}.`);
    const forkEntries = (await readAuditEntries(root)).filter((entry) => entry.sessionId === fork.session_id);
    expect(forkEntries.filter((entry) => entry.sequence !== null && entry.sequence < 3)).toHaveLength(2);
    const log = readFileSync(path.join(system, 'logs', `${forkEntries.at(-1)!.file}`), 'utf8');
    expect(log).toContain('[FORKED_FROM: ');
  }, 180_000);
});
