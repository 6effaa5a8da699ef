/**
 * A fork starts from its original's vault (SPEC §12, §18): a value keeps its placeholder across
 * the messages the fork reuses and the ones it makes, a new value gets the next number, and with
 * restore_in_result the fork's result restores each placeholder to the value it stood for in the
 * original. A real daemon, a control file, the files read back.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  answer,
  cleanupAll,
  dropJson,
  exampleScript,
  makeRoot,
  readResult,
  readResults,
  startDaemon,
  waitFor,
  writeScript,
} from '../daemon/daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const JANE = 'jane.doe@example.com';
const BOB = 'bob.stone@example.net';

const CONFIG = `timezone: UTC
provider:
  kind: scripted
  script: script.json
pii:
  redact: [email]
  restore_in_result: true
`;

describe('a fork and its original vault', () => {
  it('keeps the original placeholders, numbers new values after them, and restores them in its result', async () => {
    const root = makeRoot(CONFIG);
    writeScript(
      root,
      exampleScript({
        loop: true,
        responses: {
          final_output_agent: [
            {
              json: answer({ content: { answer: 'Wrote to [EMAIL_1].' }, contentType: 'final_report', next: null }),
            },
          ],
        },
      }),
    );
    const daemon = await startDaemon(root);
    dropJson(root, 'original.json', { request: `Write to ${JANE} about the budget.`, request_id: 'original' });
    const original = await waitFor('the original result', () => readResult(root, 'original'), { timeoutMs: 30_000 });
    expect(original).toMatchObject({ status: 'success', output: { answer: `Wrote to ${JANE}.` } });

    // From its last message, with a request that names another address.
    dropJson(root, 'fork.json', {
      control: 'fork',
      session_id: original.session_id,
      from: original.messages,
      request: `Write to ${BOB} about the budget.`,
      request_id: 'forked',
    });
    const forked = await waitFor(
      'the fork result',
      () => readResults(root).find((found) => found.request_id === 'forked'),
      {
        timeoutMs: 30_000,
        detail: () => daemon.stderrTail(),
      },
    );
    await daemon.stop();

    expect(forked.status).toBe('success');
    // [EMAIL_1] is still Jane in the fork (its reused messages say so): the result names her, not Bob.
    expect(forked.output).toEqual({ answer: `Wrote to ${JANE}.` });
    const folder = path.join(root, 'system', 'sessions', forked.session_id);
    const vault = JSON.parse(readFileSync(path.join(folder, 'pii-vault.json'), 'utf8'));
    expect(vault.entries).toEqual([
      { placeholder: 'EMAIL_1', kind: 'email', value: JANE },
      { placeholder: 'EMAIL_2', kind: 'email', value: BOB },
    ]);
    expect(statSync(path.join(folder, 'pii-vault.json')).mode & 0o777).toBe(0o600);
    const journal = readFileSync(path.join(folder, 'journal.jsonl'), 'utf8');
    expect(JSON.parse(journal.split('\n')[0]!).request.text).toBe('Write to [EMAIL_2] about the budget.');
    expect(journal).not.toContain(JANE);
    expect(journal).not.toContain(BOB);
  }, 60_000);
});
