/**
 * How a control ended (docs/run-control.md), for whoever sent it: the HTTP API hears it live, the
 * CLI reads it from `system/state/controls/<control file name>` (a refused control also goes to
 * system/failed/ with its `.error.json`). A fork's outcome names the new session as the daemon
 * assigned it.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import type { ControlAction } from './control-file.js';

export interface ControlOutcome {
  control: ControlAction;
  /** The session acted on: cancelled, or the original of a fork. */
  session_id: string;
  /** applied: done (a cancel ended the session); accepted: queued with the store, applied by whichever daemon holds the session; refused: see `reason`. */
  status: 'applied' | 'accepted' | 'refused';
  reason?: string;
  /** Fork, retry, re-run: the new session and its request, queued. */
  new_session_id?: string;
  new_request_id?: string;
  /** The control file's name in the inbox (HTTP: the name the API gave it). */
  source_file: string;
  at: string;
}

/** What the backend made of a control: the outcome without what names the control. */
export type ControlVerdict = Omit<ControlOutcome, 'control' | 'session_id' | 'source_file' | 'at'>;

function outcomeFile(paths: Pick<SystemPaths, 'state'>, sourceFile: string): string {
  return path.join(paths.state, 'controls', path.basename(sourceFile));
}

export function writeControlOutcome(
  paths: Pick<SystemPaths, 'state'>,
  outcome: ControlOutcome,
  durable: boolean,
): void {
  mkdirSync(path.join(paths.state, 'controls'), { recursive: true });
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
