/**
 * A message is passed on only once its audit entry is on disk (SPEC §6), though a commit returns as
 * soon as its journal record and entry are written (src/pipeline/message-commit.ts): the result is
 * written while the last entry syncs and enters the outbox after it; a last entry that never reaches
 * the disk does not end the session, which runs again from its journal to its one result.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DiskFaults, DiskOperation } from '../../src/store/disk-io.js';
import { DISK_BACKOFF, diskWaits } from '../../src/store/disk-waits.js';
import { InjectedDiskFaults } from '../support/disk-faults.js';
import {
  ConcurrencyProbe,
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

const inLogs = (file: string) => file.includes(path.join('system', 'logs'));

/** Counts the syncs of the audit log in a run with no failure: the last one is the final message's. */
class SyncCounter implements DiskFaults {
  logSyncs = 0;
  failureFor(operation: DiskOperation, file: string): null {
    if (operation === 'sync' && inLogs(file)) this.logSyncs += 1;
    return null;
  }
}

async function lastLogSync(): Promise<number> {
  const counter = new SyncCounter();
  const outcome = await runRequest(exampleRoot(), scripted(happyResponses(TWO_TASKS)), undefined, {
    requestId: 'count-1',
    faults: counter,
  });
  expect(outcome.status).toBe('success');
  return counter.logSyncs;
}

beforeEach(() => diskWaits.setBackoff({ baseMs: 5, maxMs: 20 }));
afterEach(() => {
  diskWaits.setBackoff(DISK_BACKOFF);
  removeTempDirs();
});

describe('a committed message is passed on once its audit entry is on disk', () => {
  it('writes the result while the last entry syncs and publishes it only after', async () => {
    const last = await lastLogSync();
    const root = exampleRoot();
    const outbox = path.join(root, 'system', 'outbox', 'durable-1.json');
    const faults = new InjectedDiskFaults();
    // The final message's sync fails twice with EIO: it is waited out, then taken.
    faults.inject({ operation: 'sync', nth: last, errno: 'EIO', times: 2, match: inLogs });
    const publishedWhenTaken: boolean[] = [];
    const stop = diskWaits.listen({
      resumed: (wait) => inLogs(wait.path) && publishedWhenTaken.push(existsSync(outbox)),
    });
    try {
      const outcome = await runRequest(root, scripted(happyResponses(TWO_TASKS)), undefined, {
        requestId: 'durable-1',
        faults,
      });
      expect(outcome.status).toBe('success');
    } finally {
      stop();
    }
    expect(publishedWhenTaken).toEqual([false]);
    expect(readResult(root, 'durable-1')).toMatchObject({ status: 'success', messages: 6 });
    expect(await auditEntries(root)).toHaveLength(6);
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it("starts the next agent's step only once the message it is passed is on disk", async () => {
    const root = exampleRoot();
    const faults = new InjectedDiskFaults();
    // The second message's (goal_agent's) sync is waited out: planning_agent is not asked meanwhile.
    faults.inject({ operation: 'sync', nth: 2, errno: 'EIO', times: 2, match: inLogs });
    const provider = new ConcurrencyProbe(scripted(happyResponses(TWO_TASKS)));
    const callsWhenTaken: number[] = [];
    const stop = diskWaits.listen({ resumed: (wait) => inLogs(wait.path) && callsWhenTaken.push(provider.calls) });
    try {
      const outcome = await runRequest(root, provider, undefined, { requestId: 'durable-3', faults });
      expect(outcome.status).toBe('success');
    } finally {
      stop();
    }
    expect(callsWhenTaken).toEqual([2]);
    expect(provider.calls).toBe(6);
  });

  it('runs a session again from its journal when its last entry cannot be synced, to its one result', async () => {
    const last = await lastLogSync();
    const root = exampleRoot();
    const faults = new InjectedDiskFaults();
    faults.inject({ operation: 'sync', nth: last, errno: 'EBADF', match: inLogs });
    const outcome = await runRequest(root, scripted(happyResponses(TWO_TASKS)), undefined, {
      requestId: 'durable-2',
      faults,
    });
    expect(outcome.status).toBe('success');
    const records = journalOf(root, outcome.sessionId);
    expect(records.filter((record) => record.type === 'crash')).toHaveLength(1);
    const messages = messageRecords(records);
    expect(messages).toHaveLength(6);
    const entries = await auditEntries(root);
    expect(entries.map((entry) => entry.messageId)).toEqual(messages.map((record) => record.message.message_id));
    expect(readResult(root, 'durable-2')).toMatchObject({ status: 'success', messages: 6 });
    expect((await verifyRoot(root)).ok).toBe(true);
  });
});
