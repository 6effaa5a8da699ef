/** Temp roots and small helpers shared by the intake tests: real folders, real files. */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemPaths, type SystemPaths } from '../../src/config/system-paths.js';
import type { IntakeItem } from '../../src/intake/claimed-file.js';
import { InboxIntake, type InboxIntakeOptions } from '../../src/intake/inbox-intake.js';
import { waitFor } from '../daemon/daemon-helpers.js';

const roots: string[] = [];
const intakes: InboxIntake[] = [];

export function makeRoot(): { root: string; paths: SystemPaths } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'govflow-intake-'));
  roots.push(root);
  return { root, paths: systemPaths(root) };
}

/** Stops every intake a test started and removes its root, even when the test failed. */
export async function cleanUp(): Promise<void> {
  await Promise.all(intakes.splice(0).map((intake) => intake.stop()));
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

export interface Recorder {
  items: IntakeItem[];
  rejections: Array<{ file: string; reason: string }>;
  errors: string[];
}

/** An intake with fast test defaults whose items and rejections are recorded. */
export function makeIntake(
  paths: SystemPaths,
  overrides: Partial<InboxIntakeOptions> = {},
): { intake: InboxIntake; recorded: Recorder } {
  const recorded: Recorder = { items: [], rejections: [], errors: [] };
  const intake = new InboxIntake({
    paths,
    maxBytes: 1024,
    settleMs: 100,
    rescanIntervalMs: 60_000,
    concurrency: 2,
    timezone: 'UTC',
    durable: false,
    handle: async (item) => {
      recorded.items.push(item);
    },
    onRejected: (rejection) => recorded.rejections.push(rejection),
    log: (level, message) => {
      if (level === 'error') recorded.errors.push(message);
    },
    ...overrides,
  });
  intakes.push(intake);
  return { intake, recorded };
}

/** Writes a file next to the inbox under a hidden name, then renames it in: how careful writers drop files. */
export function dropFile(paths: SystemPaths, name: string, content: string | Buffer): void {
  const temporary = path.join(paths.inbox, `.${name}.${process.pid}.tmp`);
  writeFileSync(temporary, content);
  renameSync(temporary, path.join(paths.inbox, name));
}

/**
 * For checks that nothing happened: resolves once a free intake of its own (the fixtures' settle
 * time, this process's timers) has claimed a file dropped now. An intake that would claim a file
 * dropped before this call has done so by then.
 */
export async function aClaimLater(): Promise<void> {
  const { paths } = makeRoot();
  const { intake, recorded } = makeIntake(paths);
  await intake.start();
  dropFile(paths, 'probe.txt', 'a claim later');
  await waitUntil(() => recorded.items.length === 1, 'a free intake to claim a file dropped after the others');
}

export function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** Polls `condition` until true; fails with `what` after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  await waitFor(what, condition, { timeoutMs, intervalMs: 5 });
}
