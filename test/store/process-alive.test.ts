import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/store/process-alive.js';
import { waitFor } from '../daemon/daemon-helpers.js';

function procState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

describe('isProcessAlive', () => {
  it('is true for this process and false for a pid that does not exist', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(2 ** 22 + 12345)).toBe(false);
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'is false for a process that exited but was never reaped (a zombie)',
    async () => {
      // The child exits after a second, by when its parent has become `sleep 30` (exec), which never
      // reaps it. (A child that exits at once may be reaped by the shell before its exec: no zombie.)
      const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
      try {
        const zombie = Number(
          await new Promise<string>((resolve) =>
            parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())),
          ),
        );
        await waitFor('the child to become a zombie', () => procState(zombie) === 'Z', {
          timeoutMs: 15_000,
          intervalMs: 5,
        });
        expect(procState(zombie)).toBe('Z');
        expect(isProcessAlive(zombie)).toBe(false);
        expect(isProcessAlive(parent.pid!)).toBe(true);
      } finally {
        parent.kill('SIGKILL');
      }
    },
    20_000,
  );
});
