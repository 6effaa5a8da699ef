/**
 * Real processes appending to one trail through the built writer (dist/, built once per run as
 * the daemon tests do): the chain must verify with every entry of every process, across a day
 * rollover, and after one of them is killed with SIGKILL in the middle of its appends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_LOCK_FILE, AUDIT_LOCK_OWNERS_DIR } from '../../src/audit/audit-append-lock.js';
import { verifyAuditChain } from '../../src/audit/audit-chain-verify.js';
import { readHeadRecord } from '../../src/audit/audit-head-record.js';
import { readLogEntries } from '../../src/audit/audit-log-reader.js';
import { AuditLogWriter } from '../../src/audit/audit-log-writer.js';
import { REPOSITORY_ROOT, buildDistOnce } from '../daemon/build-once.js';
import { tempRoot } from './audit-test-helpers.js';

const CHILD = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'append-entries-child.mjs');
const WRITER_URL = pathToFileURL(path.join(REPOSITORY_ROOT, 'dist', 'audit', 'audit-log-writer.js')).href;

beforeAll(buildDistOnce, 180_000);

interface Appender {
  name: string;
  child: ChildProcess;
  output: () => string;
  appended: () => number;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function until(what: string, condition: () => boolean, detail: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${detail()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function startAppender(dirs: { logsDir: string; stateDir: string }, name: string, count: number, days: string[]): Promise<Appender> {
  const child = spawn(process.execPath, [CHILD, WRITER_URL, JSON.stringify({ ...dirs, name, count, days })], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const output = () => `${name} stdout:\n${stdout.slice(-2000)}\n${name} stderr:\n${stderr}`;
  await until(`${name} to open the writer`, () => stdout.includes('ready\n') || child.exitCode !== null, output);
  return {
    name,
    child,
    output,
    appended: () => Number(/appended (\d+)\n(?![\s\S]*appended)/.exec(stdout)?.[1] ?? 0),
    exit,
  };
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function go(appenders: Appender[]): void {
  for (const appender of appenders) appender.child.stdin!.write('go\n');
}

async function finished(appender: Appender): Promise<{ warnings: string[]; repairs: number }> {
  const { code } = await appender.exit;
  const summary = appender.output().split('\n').find((line) => line.startsWith('{"done"'));
  expect(code, appender.output()).toBe(0);
  return JSON.parse(summary!);
}

describe('AuditLogWriter across processes', () => {
  it('three processes appending at once leave one valid chain holding every entry', async () => {
    const dirs = tempRoot();
    const count = 150;
    const appenders = await Promise.all(['p1', 'p2', 'p3'].map((name) => startAppender(dirs, name, count, ['2026-03-08'])));
    go(appenders);
    const summaries = await Promise.all(appenders.map(finished));
    for (const summary of summaries) expect(summary.warnings).toEqual([]);

    const entries = await readLogEntries(dirs.logsDir);
    expect(entries).toHaveLength(3 * count);
    for (const name of ['p1', 'p2', 'p3']) {
      // Each process's own entries stay in its order.
      const own = entries.filter((entry) => entry.messageId.startsWith(`${name}-`)).map((entry) => entry.messageId);
      expect(own).toEqual(Array.from({ length: count }, (_, index) => `${name}-${index}`));
    }
    // They really interleaved: otherwise this test would not exercise the lock.
    const switches = entries.filter((entry, index) => index > 0 && entry.sessionId !== entries[index - 1].sessionId).length;
    expect(switches).toBeGreaterThan(10);
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, files: 1, entries: 3 * count, warnings: [] });
    expect(readHeadRecord(dirs.stateDir)).toMatchObject({ state: 'ok', record: { entries: 3 * count } });
    expect(fs.readdirSync(dirs.stateDir).sort()).toEqual(['audit-head.json', AUDIT_LOCK_OWNERS_DIR]);
    expect(fs.readdirSync(path.join(dirs.stateDir, AUDIT_LOCK_OWNERS_DIR))).toEqual([]);
  }, 60_000);

  it('processes crossing midnight at different speeds never write behind the newest day file', async () => {
    const dirs = tempRoot();
    const count = 120;
    const days = ['2026-03-08', '2026-03-09', '2026-03-10'];
    const appenders = await Promise.all(['p1', 'p2'].map((name) => startAppender(dirs, name, count, days)));
    go(appenders);
    await Promise.all(appenders.map(finished));
    const result = await verifyAuditChain(dirs);
    expect(result).toMatchObject({ ok: true, entries: 2 * count, warnings: [] });
    expect(fs.readdirSync(dirs.logsDir).sort()).toEqual(['20260308.log', '20260309.log', '20260310.log']);
  }, 60_000);

  it('survives a process killed with SIGKILL while it holds the lock', async () => {
    const dirs = tempRoot();
    const victim = await startAppender(dirs, 'victim', 1_000_000, ['2026-03-08']);
    const survivors = await Promise.all(['s1', 's2'].map((name) => startAppender(dirs, name, 200, ['2026-03-08'])));
    go([victim, ...survivors]);
    await until('all three to be under way', () => [victim, ...survivors].every((appender) => appender.appended() >= 10), () =>
      [victim, ...survivors].map((appender) => appender.output()).join('\n'),
    );
    // Freeze the victim until it is caught inside the lock (somewhere in an append), then kill it there.
    const lockPath = path.join(dirs.stateDir, AUDIT_LOCK_FILE);
    let caught = false;
    for (let attempt = 0; attempt < 500 && !caught; attempt += 1) {
      victim.child.kill('SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, 2)); // let the stop land
      caught = (readIfExists(lockPath) ?? '').startsWith(`${victim.child.pid} `);
      victim.child.kill(caught ? 'SIGKILL' : 'SIGCONT');
      if (!caught) await new Promise((resolve) => setTimeout(resolve, 1 + (attempt % 3)));
    }
    expect(caught, 'the victim was never caught holding the lock').toBe(true);
    expect((await victim.exit).signal).toBe('SIGKILL');
    const summaries = await Promise.all(survivors.map(finished));
    expect(summaries.flatMap((summary) => summary.warnings).join('\n')).toMatch(
      new RegExp(`removed a stale audit lock \\(${victim.child.pid} `),
    );

    const entries = await readLogEntries(dirs.logsDir);
    for (const name of ['s1', 's2']) {
      expect(entries.filter((entry) => entry.messageId.startsWith(`${name}-`))).toHaveLength(200);
    }
    const victimIds = entries.filter((entry) => entry.messageId.startsWith('victim-')).map((entry) => entry.messageId);
    expect(new Set(victimIds).size).toBe(victimIds.length);
    expect(victimIds.length).toBeGreaterThanOrEqual(victim.appended());
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 400 + victimIds.length, warnings: [] });
    // A writer opened afterwards continues the same chain.
    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    expect(writer.entryCount).toBe(400 + victimIds.length);
    expect(writer.repairs).toEqual([]);
    await writer.close();
  }, 60_000);
});
