/**
 * Issue 20 against a real daemon (child process): `rm -rf system/logs` under it loses no later
 * entry, and below `intake.min_free_bytes` requests wait in the inbox while status says why.
 */
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from './build-once.js';
import {
  cleanupAll,
  dropJson,
  inboxOf,
  listDir,
  makeRoot,
  readResult,
  runCli,
  spawnCli,
  startDaemon,
  waitFor,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

describe('a daemon whose disk misbehaves', () => {
  it('keeps every entry written after system/logs was removed under it, and says what happened', async () => {
    const root = makeRoot('timezone: UTC\n');
    const daemon = await startDaemon(root);
    dropJson(root, 'before.json', { request: 'Summarise the first note.', request_id: 'before-rm' });
    await waitFor('the first result', () => readResult(root, 'before-rm')?.status === 'success', {
      detail: () => daemon.stderrTail(),
    });

    rmSync(path.join(root, 'system', 'logs'), { recursive: true });
    const ids = ['after-rm-1', 'after-rm-2', 'after-rm-3'];
    for (const id of ids) dropJson(root, `${id}.json`, { request: `Summarise note ${id}.`, request_id: id });
    await waitFor('three more results', () => ids.every((id) => readResult(root, id)?.status === 'success'), {
      timeoutMs: 30_000,
      detail: () => daemon.stderrTail(),
    });
    expect((await daemon.stop()).code).toBe(0);

    const logs = path.join(root, 'system', 'logs');
    expect(existsSync(logs)).toBe(true);
    const text = readdirSync(logs)
      .map((name) => readFileSync(path.join(logs, name), 'utf8'))
      .join('');
    for (const id of ids) {
      const session = readResult(root, id)!.session_id;
      expect(text.split(`[SESSION_ID: ${session}]`).length - 1, `entries of ${id} on disk`).toBe(6);
    }
    expect(daemon.stderr).toMatch(/audit log .*\.log was removed while govflow was appending to it/);
    // The deletion itself stays evident to the auditor.
    const verify = await runCli(['verify', '--root', root]);
    expect(verify.code).toBe(1);
  }, 90_000);

  it('below intake.min_free_bytes claims nothing, logs the alarm once, and status shows it', async () => {
    const root = makeRoot('timezone: UTC\nintake:\n  min_free_bytes: 1000000000000000000\n');
    const daemon = await startDaemon(root);
    dropJson(root, 'waits.json', { request: 'Summarise this later.', request_id: 'waits-1' });
    const status = await runCli(['status', '--root', root]);
    expect(status.stdout).toMatch(
      /^disk: ALARM since .*bytes free, below intake\.min_free_bytes 1000000000000000000; new requests wait in the inbox$/m,
    );
    // A one-shot run handed to this daemon says why it waits (then it is stopped here).
    const file = path.join(root, 'run.json');
    writeFileSync(file, JSON.stringify({ request: 'Summarise this too.', request_id: 'waits-2' }));
    const run = spawnCli(root, ['run', file, '--root', root]);
    const says =
      /the daemon's disk alarm is up \(\d+ bytes free, below intake\.min_free_bytes 1000000000000000000\): the request waits in the inbox/;
    await waitFor('govflow run to say why the request waits', () => says.test(run.stderr), {
      detail: () => run.stderrTail(),
    });
    await run.kill9();
    // Meanwhile (a status and a run later: many times the intake's settle time) it claimed nothing.
    expect(listDir(inboxOf(root))).toContain('waits.json');
    expect(listDir(inboxOf(root))).toHaveLength(2);
    expect(listDir(path.join(root, 'system', 'failed'))).toEqual([]);
    expect(readResult(root, 'waits-1')).toBeNull();
    expect(daemon.stderr.match(/disk alarm: \d+ bytes free/g)).toHaveLength(1);
    expect((await daemon.stop()).code).toBe(0);
  }, 60_000);
});
