/**
 * A real process appending through the built writer (dist/, built once per run as the daemon
 * tests do), killed with SIGKILL in the middle of its appends: the next writer (the root's one
 * writer, as after a daemon restart) cuts any torn tail, and the chain verifies with every entry
 * the killed process reported durable.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../src/audit/audit-chain-verify.js';
import { readLogEntries } from '../../src/audit/audit-log-reader.js';
import { AuditLogWriter } from '../../src/audit/audit-log-writer.js';
import { REPOSITORY_ROOT, buildDistOnce } from '../daemon/build-once.js';
import { waitFor } from '../daemon/daemon-helpers.js';
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
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function until(what: string, condition: () => boolean, detail: () => string, timeoutMs = 20_000): Promise<void> {
  await waitFor(what, condition, { timeoutMs, intervalMs: 5, detail });
}

async function startAppender(
  dirs: { logsDir: string; stateDir: string },
  name: string,
  count: number,
  days: string[],
): Promise<Appender> {
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

function go(appenders: Appender[]): void {
  for (const appender of appenders) appender.child.stdin!.write('go\n');
}

async function finished(appender: Appender): Promise<{ warnings: string[]; repairs: number }> {
  const { code } = await appender.exit;
  const summary = appender
    .output()
    .split('\n')
    .find((line) => line.startsWith('{"done"'));
  expect(code, appender.output()).toBe(0);
  return JSON.parse(summary!);
}

describe('AuditLogWriter killed mid-append', () => {
  it('leaves a chain the next writer continues, holding every entry reported durable', async () => {
    const dirs = tempRoot();
    const victim = await startAppender(dirs, 'victim', 1_000_000, ['2026-03-08']);
    go([victim]);
    await until('the victim to be under way', () => victim.appended() >= 50, victim.output);
    victim.child.kill('SIGKILL');
    expect((await victim.exit).signal).toBe('SIGKILL');
    const reported = victim.appended();

    const writer = await AuditLogWriter.open({ ...dirs, timezone: 'UTC' });
    const entries = await readLogEntries(dirs.logsDir);
    const ids = entries.map((entry) => entry.messageId);
    expect(ids.length).toBeGreaterThanOrEqual(reported);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => `victim-${index}`));
    expect(writer.entryCount).toBe(ids.length);
    await writer.close();
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: ids.length, warnings: [] });
  }, 60_000);

  it('crossing midnight, never writes behind the newest day file', async () => {
    const dirs = tempRoot();
    const appender = await startAppender(dirs, 'p1', 120, ['2026-03-08', '2026-03-09', '2026-03-10']);
    go([appender]);
    await finished(appender);
    expect(await verifyAuditChain(dirs)).toMatchObject({ ok: true, entries: 120, warnings: [] });
    expect(fs.readdirSync(dirs.logsDir).sort()).toEqual(['20260308.log', '20260309.log', '20260310.log']);
  }, 60_000);
});
