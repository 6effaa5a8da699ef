/**
 * The processes still running in a folder, read from /proc: how a test knows that every process a
 * command started (detached ones included) is gone, so that a marker it would have written later
 * can never appear. A sandboxed command's workspace is bound at its own path, so its processes'
 * /proc/<pid>/cwd reads the same from outside the sandbox.
 */
import { readFileSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '../daemon/daemon-helpers.js';

export interface FolderProcess {
  pid: number;
  /** Its argv joined by spaces. */
  command: string;
}

/** Live processes whose working directory is `folder` or inside it (a zombie has none). */
export function processesIn(folder: string): FolderProcess[] {
  const found: FolderProcess[] = [];
  const real = realpathSync(folder);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd !== real && !cwd.startsWith(`${real}${path.sep}`)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid: Number(entry), command });
    } catch {
      // it ended meanwhile, or is not ours to read
    }
  }
  return found;
}

/** Resolves once a process whose command line starts with `text` runs in `folder`. */
export async function processStarted(folder: string, text: string, timeoutMs = 15_000): Promise<void> {
  await waitFor(
    `a process running ${text} in ${folder}`,
    () => processesIn(folder).some((p) => p.command.startsWith(text)),
    {
      timeoutMs,
      intervalMs: 10,
    },
  );
}

/** Resolves once no process runs in `folder` any more. */
export async function processesGone(folder: string, timeoutMs = 15_000): Promise<void> {
  await waitFor(`no process left in ${folder}`, () => processesIn(folder).length === 0, {
    timeoutMs,
    intervalMs: 10,
    detail: () => JSON.stringify(processesIn(folder)),
  });
}
