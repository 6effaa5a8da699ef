/**
 * How a control ended (docs/run-control.md), for whoever sent it: the HTTP API hears it live, the
 * CLI reads it from `system/state/controls/<control file name>` (a refused control also goes to
 * system/failed/ with its `.error.json`). A fork's outcome names the new session as the daemon
 * assigned it. The CLI removes the outcome it read; the daemon sweeps those a day old (nobody
 * reads an HTTP control's, a bulk cancel's, or one a CLI stopped waiting for).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { errorCode, errorMessage } from '../errors.js';
import type { OperationalLog } from '../log-contract.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import type { ControlAction } from './control-file.js';

export interface ControlOutcome {
  control: ControlAction;
  /** The session acted on: cancelled, or the original of a fork. */
  session_id: string;
  /** applied: done (a cancel ended the session); accepted: queued with the store, applied by whichever daemon holds the session; refused: see `reason`. */
  status: 'applied' | 'accepted' | 'refused';
  reason?: string;
  /** Set when a fork, retry or re-run was refused because http.max_queued requests wait to start (HTTP: 503). */
  code?: 'queue_full';
  /** Fork, retry, re-run: the new session and its request, queued. */
  new_session_id?: string;
  new_request_id?: string;
  /** The control file's name in the inbox (HTTP: the name the API gave it). */
  source_file: string;
  at: string;
}

/** What the backend made of a control: the outcome without what names the control. */
export type ControlVerdict = Omit<ControlOutcome, 'control' | 'session_id' | 'source_file' | 'at'>;

/** An outcome older than this is swept. */
export const OUTCOME_MAX_AGE_MS = 86_400_000;
/** How often a running daemon sweeps (it sweeps at its start too). */
export const OUTCOME_SWEEP_INTERVAL_MS = 3_600_000;

function outcomesFolder(paths: Pick<SystemPaths, 'state'>): string {
  return path.join(paths.state, 'controls');
}

function outcomeFile(paths: Pick<SystemPaths, 'state'>, sourceFile: string): string {
  return path.join(outcomesFolder(paths), path.basename(sourceFile));
}

export function writeControlOutcome(
  paths: Pick<SystemPaths, 'state'>,
  outcome: ControlOutcome,
  durable: boolean,
): void {
  mkdirSync(outcomesFolder(paths), { recursive: true });
  writeFileAtomic(outcomeFile(paths, outcome.source_file), `${JSON.stringify(outcome, null, 2)}\n`, durable);
}

/** The outcome of the control sent as `sourceFile`, or null while it has none. */
export function readControlOutcome(paths: Pick<SystemPaths, 'state'>, sourceFile: string): ControlOutcome | null {
  try {
    return JSON.parse(readFileSync(outcomeFile(paths, sourceFile), 'utf8')) as ControlOutcome;
  } catch {
    return null;
  }
}

/** Removes the outcome of the control sent as `sourceFile` once its sender has read it; none there is no error. */
export function removeControlOutcome(paths: Pick<SystemPaths, 'state'>, sourceFile: string): void {
  try {
    rmSync(outcomeFile(paths, sourceFile), { force: true });
  } catch {
    // Left for the daemon's sweep.
  }
}

/** Removes the outcomes last written `maxAgeMs` or more before `now`; how many it removed. Throws only when the folder cannot be read. */
export function sweepControlOutcomes(
  paths: Pick<SystemPaths, 'state'>,
  now: number = Date.now(),
  maxAgeMs: number = OUTCOME_MAX_AGE_MS,
): number {
  const folder = outcomesFolder(paths);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(folder, name);
    try {
      const stats = statSync(file);
      if (!stats.isFile() || now - stats.mtimeMs < maxAgeMs) continue;
      rmSync(file, { force: true });
      removed++;
    } catch {
      // Gone meanwhile (its CLI removed it), or not ours to remove: the next sweep looks again.
    }
  }
  return removed;
}

/** Sweeps now and every `intervalMs` until the returned stop is called; a failed sweep is logged and tried again next time. */
export function startOutcomeSweep(
  paths: Pick<SystemPaths, 'state'>,
  log: OperationalLog,
  intervalMs: number = OUTCOME_SWEEP_INTERVAL_MS,
  maxAgeMs: number = OUTCOME_MAX_AGE_MS,
): () => void {
  const sweep = () => {
    try {
      const removed = sweepControlOutcomes(paths, Date.now(), maxAgeMs);
      if (removed > 0)
        log.info('removed old control outcomes from system/state/controls/', {
          removed,
          older_than_hours: maxAgeMs / 3_600_000,
        });
    } catch (error) {
      log.warn('cannot sweep old control outcomes in system/state/controls/', { error: errorMessage(error) });
    }
  };
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
