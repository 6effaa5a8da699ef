/**
 * Issue 20, the session's view: durable writes the disk refuses mid-session (audit appends, journal
 * records, the result file, the archive move) are waited out inside the store layer, and the same
 * session goes on to its one result — no restart, no lost or doubled entry, the journal and the
 * audit log in step. Failures are injected through the store's file-system seam, passed to the
 * root's audit writer and files store.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DISK_BACKOFF, type DiskWait, diskWaits } from '../../src/store/disk-waits.js';
import {
  TWO_TASKS,
  auditEntries,
  exampleRoot,
  happyResponses,
  journalOf,
  messageRecords,
  readResult,
  removeTempDirs,
  runRequest,
  scripted,
  verifyRoot,
} from './pipeline-test-helpers.js';
import { InjectedDiskFaults } from '../support/disk-faults.js';

let waits: DiskWait[] = [];
let stopListening: () => void = () => undefined;
beforeEach(() => {
  diskWaits.setBackoff({ baseMs: 5, maxMs: 20 });
  waits = [];
  stopListening = diskWaits.listen({ waiting: (wait) => waits.push(wait) });
});
afterEach(() => {
  stopListening();
  diskWaits.setBackoff(DISK_BACKOFF);
  removeTempDirs();
});

describe('a session whose disk fills up under it', () => {
  it('waits for the disk at every kind of durable write and ends with its one result, without a restart', async () => {
    const root = exampleRoot('timezone: UTC\n');
    const faults = new InjectedDiskFaults();
    const inLogs = (file: string) => file.includes(path.join('system', 'logs'));
    faults.inject({ operation: 'write', nth: 3, errno: 'ENOSPC', times: 3, match: inLogs });
    faults.inject({ operation: 'sync', nth: 2, errno: 'EIO', times: 2, match: inLogs });
    faults.inject({
      operation: 'write',
      nth: 4,
      errno: 'EDQUOT',
      times: 2,
      match: (file) => file.endsWith('journal.jsonl'),
    });
    faults.inject({
      operation: 'rename',
      nth: 1,
      errno: 'EROFS',
      times: 2,
      match: (file) => file.includes(`${path.sep}outbox${path.sep}`),
    });
    faults.inject({
      operation: 'open',
      nth: 1,
      errno: 'ENOSPC',
      times: 2,
      match: (file) => file.endsWith('journal.jsonl'),
    });
    faults.inject({
      operation: 'write',
      nth: 1,
      errno: 'ENOSPC',
      times: 2,
      match: (file) => file.includes(path.join('snapshots', 'prompts')),
    });

    const outcome = await runRequest(root, scripted(happyResponses(TWO_TASKS)), undefined, {
      requestId: 'disk-full-1',
      faults,
    });
    expect(outcome.status).toBe('success');
    expect(readResult(root, 'disk-full-1')).toMatchObject({ status: 'success', messages: 6 });

    const entries = await auditEntries(root);
    const messages = messageRecords(journalOf(root, outcome.sessionId));
    expect(entries).toHaveLength(6);
    expect(entries.map((entry) => entry.messageId)).toEqual(messages.map((record) => record.message.message_id));
    expect(new Set(entries.map((entry) => entry.sequence)).size).toBe(6);
    expect((await verifyRoot(root)).ok).toBe(true);
    expect(new Set(waits.map((wait) => wait.errno))).toEqual(new Set(['ENOSPC', 'EIO', 'EDQUOT', 'EROFS']));
    expect(waits.map((wait) => wait.path)).toEqual(
      expect.arrayContaining([expect.stringContaining(path.join('snapshots', 'prompts'))]),
    );
    expect(diskWaits.list()).toEqual([]);
  });
});
