/**
 * Where recovery may start reading the audit log for claims whose sessions never started
 * (docs/audit-log.md "Crash recovery"): a run that found system/processing/ empty notes where the
 * log ended; one that finds claims keeps the point noted by the run that claimed them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import type { AuditPosition } from '../store/session-journal.js';

const FILE_NAME = 'recovery-from.json';
/** Before every day file: recovery reads all of them (subject to the claim's day). */
const LOG_START: AuditPosition = { file: '', bytes: 0 };

function readPoint(file: string): AuditPosition | null {
  try {
    const point = JSON.parse(readFileSync(file, 'utf8')) as Partial<AuditPosition>;
    return typeof point.file === 'string' && Number.isSafeInteger(point.bytes) && point.bytes! >= 0
      ? { file: point.file, bytes: point.bytes! }
      : null;
  } catch {
    return null;
  }
}

/** Called at start, before anything is claimed; `logEnd`: where the audit log ends now (null: no log yet). */
export function recoveryPoint(paths: SystemPaths, logEnd: AuditPosition | null, durable: boolean): AuditPosition {
  const file = path.join(paths.state, FILE_NAME);
  let leftover: boolean;
  try {
    // Anything at all: a half-written HTTP submission may become a claim on recovery too.
    leftover = readdirSync(paths.processing).length > 0;
  } catch {
    leftover = false;
  }
  // Claims left by a run before this file existed (or a damaged file): read from the start.
  if (leftover) return readPoint(file) ?? LOG_START;
  const point = logEnd ?? LOG_START;
  writeFileAtomic(file, `${JSON.stringify(point)}\n`, durable);
  return point;
}
