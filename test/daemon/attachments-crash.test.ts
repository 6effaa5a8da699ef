/**
 * A request folder through a crash (SPEC §2, §22): `kill -9` while its session runs, and the
 * workspace copy of its attachments lost as well; the restart resumes the session from its
 * journal, copies the attachments again from the claimed folder (checked against their hashes),
 * and ends with one result, one first entry with `[ATTACHMENTS]`, the folder archived once.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from './build-once.js';
import {
  cleanupAll,
  exampleScript,
  listDir,
  makeRoot,
  readAuditEntries,
  readResults,
  readSessions,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
} from './daemon-helpers.js';
import { binaryBytes, dropFolder, expectedList } from './attachments-support.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

describe('a request folder through kill -9', () => {
  it('resumes with its attachments copied again and ends with one result', async () => {
    const root = makeRoot(scriptedConfig());
    writeScript(root, exampleScript({ latencyMs: 300 }));
    const files = {
      'request.txt': 'Summarise the attached contract.\n',
      'contract.pdf': binaryBytes(400_000, 13),
      'annex/terms.md': '# Terms\nNinety days notice.\n',
    };
    let daemon = await startDaemon(root);
    dropFolder(root, 'contract-review', files);
    const session = await waitFor(
      'the session to have run a step',
      () => readSessions(root).find((found) => found.messages.length >= 1),
      { timeoutMs: 20_000, detail: () => daemon.stderrTail() },
    );
    await daemon.kill9();
    const copy = path.join(root, 'workspace', session.sessionId, 'attachments');
    expect(existsSync(path.join(copy, 'contract.pdf'))).toBe(true);
    rmSync(copy, { recursive: true });
    expect(readdirSync(path.join(root, 'system', 'processing'))).toEqual([expect.stringMatching(/-contract-review$/)]);

    daemon = await startDaemon(root);
    const result = await waitFor(
      'the result',
      () => readResults(root).find((found) => found.source_file === 'contract-review'),
      { timeoutMs: 30_000, detail: () => daemon.stderrTail() },
    );
    expect(result.status).toBe('success');
    expect((result as unknown as { attachments: unknown }).attachments).toEqual(expectedList(files));
    expect(readFileSync(path.join(copy, 'contract.pdf')).equals(files['contract.pdf'])).toBe(true);
    expect(readFileSync(path.join(copy, 'annex', 'terms.md'), 'utf8')).toBe(files['annex/terms.md']);
    await waitFor('the archive move', () => listDir(path.join(root, 'system', 'processing')).length === 0);
    await daemon.stop();
    const archive = path.join(root, 'system', 'archive');
    expect(listDir(archive).flatMap((day) => listDir(path.join(archive, day)))).toEqual(['contract-review']);
    const entries = (await readAuditEntries(root, ['--session', session.sessionId])) as unknown as Array<{
      sequence: number;
      attachments?: unknown;
    }>;
    expect(entries.filter((entry) => entry.attachments !== undefined).map((entry) => entry.sequence)).toEqual([1]);
    expect(new Set(entries.map((entry) => entry.sequence)).size).toBe(entries.length);
  }, 90_000);
});
