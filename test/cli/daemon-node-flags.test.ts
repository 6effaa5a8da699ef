/**
 * `govflow start` sets the Node flags the daemon needs itself (SPEC §21): where Node can replace a
 * process (process.execve, Node ≥ 22.15) the daemon runs under DAEMON_NODE_FLAGS as the same
 * process; a user's own choice of any of those flags is left alone; where Node cannot (Node 20),
 * it runs as started. bench/memory-as-typed.mjs measures what the flags buy.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DAEMON_NODE_FLAGS,
  daemonExecArguments,
  daemonNodeFlags,
  memoryFlagsGiven,
} from '../../src/cli/daemon-node-flags.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, startDaemon } from '../daemon/daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterAll(cleanupAll);

const execve = (() => {
  throw new Error('not called by daemonExecArguments');
}) as never;
const running = (execArgv: string[], nodeOptions?: string, withExecve = true) => ({
  execPath: '/usr/bin/node',
  argv: ['/usr/bin/node', '/app/bin/govflow.js', 'start', '--root', 'r'],
  execArgv,
  env: nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions },
  ...(withExecve ? { execve } : {}),
});

describe('the arguments govflow start runs again with', () => {
  it('puts the daemon flags first, keeps the flags given and the command', () => {
    expect(daemonExecArguments(running(['--enable-source-maps']))).toEqual([
      '/usr/bin/node',
      ...DAEMON_NODE_FLAGS,
      '--enable-source-maps',
      '/app/bin/govflow.js',
      'start',
      '--root',
      'r',
    ]);
  });

  it('adds AsyncContextFrame on Node 22 and 23 only (Node 24 has it, and refuses the flag)', () => {
    const memory = ['--max-semi-space-size=8', '--heap-growing-percent=25'];
    expect(daemonNodeFlags('22.23.5')).toEqual([...memory, '--experimental-async-context-frame']);
    expect(daemonNodeFlags('23.11.0')).toEqual([...memory, '--experimental-async-context-frame']);
    expect(daemonNodeFlags('24.22.3')).toEqual(memory);
    expect(daemonNodeFlags('20.19.0')).toEqual(memory);
  });

  it('does not repeat a flag the user already gave', () => {
    const given = DAEMON_NODE_FLAGS.includes('--experimental-async-context-frame')
      ? ['--experimental-async-context-frame']
      : [];
    const commandLine = daemonExecArguments(running(given))!;
    expect(commandLine.filter((word) => DAEMON_NODE_FLAGS.includes(word))).toEqual([...DAEMON_NODE_FLAGS]);
  });

  it('leaves the run-time flag to a user who chose either memory flag (start sets it only when none is given)', () => {
    expect(memoryFlagsGiven(running([]))).toBe(false);
    expect(memoryFlagsGiven(running(['--enable-source-maps', '--experimental-async-context-frame']))).toBe(false);
    expect(memoryFlagsGiven(running(['--heap-growing-percent=50']))).toBe(true);
    expect(memoryFlagsGiven(running([], '--max-semi-space-size=16'))).toBe(true);
    expect(memoryFlagsGiven(running([...DAEMON_NODE_FLAGS]))).toBe(true);
  });

  it('is nothing to do once they are set, when the user chose one of them, or without execve', () => {
    expect(daemonExecArguments(running([...DAEMON_NODE_FLAGS]))).toBeNull();
    expect(daemonExecArguments(running(['--max-semi-space-size=16']))).toBeNull();
    expect(daemonExecArguments(running([], '--heap-growing-percent=50'))).toBeNull();
    expect(daemonExecArguments(running([], undefined, false))).toBeNull();
  });
});

describe('govflow start as typed', () => {
  it('runs under the daemon flags as the process that was started (or as started, where Node has no execve)', async () => {
    const daemon = await startDaemon(makeRoot());
    const commandLine = readFileSync(`/proc/${daemon.pid}/cmdline`, 'utf8').split('\0');
    if (typeof (process as { execve?: unknown }).execve === 'function') {
      // The same pid: nothing was forked, so signals and the exit code are the daemon's own.
      expect(commandLine.slice(1, 1 + DAEMON_NODE_FLAGS.length)).toEqual([...DAEMON_NODE_FLAGS]);
    } else {
      expect(commandLine.some((word) => DAEMON_NODE_FLAGS.includes(word))).toBe(false);
    }
    expect(commandLine).toContain('start');
  });
});
