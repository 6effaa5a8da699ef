/**
 * A restart costs what is pending, not the size of the day's log (issue #28), counted rather than
 * timed: a root whose day log already holds thousands of entries is killed (`kill -9`) with
 * sessions mid-run and claims never started, then started again in this process with every
 * asynchronous read of the day log counted (fs.promises is the disk seam recovery reads through;
 * the chain's tail at start is read from the end, synchronously, and is not what this counts).
 * Recovery reads each byte of the day log at most once for all the sessions and claims it
 * recovers, and none of what was logged before the killed run began; a per-session parse (the old
 * way) read the whole log again for each of them.
 */
import { randomUUID } from 'node:crypto';
import fs, { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuditLogWriter } from '../../src/audit/audit-log-writer.js';
import { GovflowDaemon } from '../../src/daemon/daemon.js';
import { entryInput, makeMessage } from '../audit/audit-test-helpers.js';
import { buildDistOnce } from './build-once.js';
import {
  cleanupAll,
  dropJson,
  exampleScript,
  makeRoot,
  readResults,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(async () => {
  vi.restoreAllMocks();
  await cleanupAll();
});
afterAll(cleanupAll);

const EARLIER_ENTRIES = 3_000;
const REQUESTS = 40;
const SILENT = { info() {}, warn() {}, error() {} };

async function prebuildDayLog(root: string): Promise<void> {
  const writer = await AuditLogWriter.open({
    logsDir: path.join(root, 'system', 'logs'),
    stateDir: path.join(root, 'system', 'state'),
    timezone: 'UTC',
    durable: false,
  });
  const executedAt = new Date().toISOString();
  for (let index = 0; index < EARLIER_ENTRIES; index++) {
    await writer.append(
      entryInput(
        makeMessage({
          id: randomUUID(),
          session: `sess-earlier-${Math.floor(index / 6)}`,
          sequence: (index % 6) + 1,
          executedAt,
        }),
      ),
    );
  }
  await writer.close();
}

/** Counts the bytes of files under `logsDir` read through fs.promises (open + read, readFile). */
function countLogReads(logsDir: string): { bytes: () => number; reads: () => number } {
  let bytes = 0;
  let reads = 0;
  const isLog = (file: unknown) => typeof file === 'string' && file.startsWith(logsDir) && file.endsWith('.log');
  const realOpen = fs.promises.open.bind(fs.promises);
  vi.spyOn(fs.promises, 'open').mockImplementation(async (file, flags, mode) => {
    const handle = await realOpen(file, flags, mode);
    if (!isLog(file) || (flags !== undefined && flags !== 'r')) return handle;
    const realRead = handle.read.bind(handle) as (...args: unknown[]) => Promise<{ bytesRead: number; buffer: Buffer }>;
    (handle as unknown as { read: (...args: unknown[]) => Promise<unknown> }).read = async (...args: unknown[]) => {
      const result = await realRead(...args);
      bytes += result.bytesRead;
      reads += 1;
      return result;
    };
    return handle;
  });
  const realReadFile = fs.promises.readFile.bind(fs.promises) as (...args: unknown[]) => Promise<string | Buffer>;
  vi.spyOn(fs.promises, 'readFile').mockImplementation((async (...args: unknown[]) => {
    const content = await realReadFile(...args);
    if (isLog(args[0])) {
      bytes += Buffer.byteLength(content);
      reads += 1;
    }
    return content;
  }) as typeof fs.promises.readFile);
  return { bytes: () => bytes, reads: () => reads };
}

describe('a restart over a large day log', () => {
  it('reads the day log at most once for every session and claim it recovers', async () => {
    const root = makeRoot(scriptedConfig('intake: { concurrency: 4 }\n'));
    writeScript(root, exampleScript({ latencyMs: 40, loop: true }));
    await prebuildDayLog(root);
    const logsDir = path.join(root, 'system', 'logs');
    const logSize = () =>
      readdirSync(logsDir)
        .filter((name) => name.endsWith('.log'))
        .reduce((sum, name) => sum + fs.statSync(path.join(logsDir, name)).size, 0);
    const earlierBytes = logSize();
    const first = await startDaemon(root);
    for (let index = 0; index < REQUESTS; index++)
      dropJson(root, `r${index}.json`, { request: `Summarize note ${index}.`, request_id: `waiting-${index}` });
    await waitFor(
      'the requests claimed',
      () => readdirSync(path.join(root, 'system', 'inbox')).filter((name) => name.endsWith('.json')).length === 0,
    );
    await waitFor('a few results', () => readResults(root).length >= 4);
    await first.kill9();
    const waiting = readdirSync(path.join(root, 'system', 'processing')).filter((name) =>
      name.endsWith('.json'),
    ).length;
    expect(waiting).toBeGreaterThan(10);

    const counted = countLogReads(logsDir);
    const second = await GovflowDaemon.start(root, { env: {}, log: SILENT, announce: () => {} });
    try {
      await waitFor('every request finished', () => readResults(root).length >= REQUESTS || null, {
        timeoutMs: 120_000,
      });
    } finally {
      await second.stop();
    }
    vi.restoreAllMocks();
    const logBytes = logSize();
    // Each byte at most once: the log's size now bounds all that recovery read (the old per-session
    // parse read it once per recovered session: ≥ 4 × its size here). And only what the killed run
    // wrote: the earlier entries lie before where its sessions and claims could log (their
    // `audit_from`, system/state/recovery-from.json), a few 12-byte checks aside.
    expect(counted.reads()).toBeGreaterThan(0);
    expect(counted.bytes()).toBeLessThanOrEqual(logBytes);
    expect(counted.bytes()).toBeLessThanOrEqual(logBytes - earlierBytes + 4096);
    const results = readResults(root);
    expect(new Set(results.map((result) => result.request_id)).size).toBe(REQUESTS);
    expect(results).toHaveLength(REQUESTS);
    expect((await runCli(['verify', '--root', root])).code).toBe(0);
  }, 180_000);
});
