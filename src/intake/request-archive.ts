/**
 * The end of a request file's life (README "Folder layout"): once its session has ended — or, for a reply, once
 * the reply was applied and the session ended or paused again — the claimed file moves from
 * system/processing/ to system/archive/YYYYMMDD/ under its original name, never overwriting.
 * The runner reports which files are done (the `request_files_done` event); the intake archives them.
 *
 * A move the disk refuses (ENOSPC, EDQUOT, EROFS, EIO: the new folder or entry needs space) is
 * retried in the background with backoff (disk-waits.ts): until it succeeds the file stays in
 * system/processing/, where a restart would find and archive it too. The move is not synced: after
 * a power cut the file may be back in processing/, and recovery archives it again.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { compactInTimeZone } from '../message/zoned-time.js';
import type { RequestFileRef } from '../pipeline/runner-contract.js';
import { diskCall, diskFailureCode, type DiskFaults } from '../store/disk-io.js';
import { diskWaits } from '../store/disk-waits.js';

/** Archives every file in `files` under today's folder (in `timezone`). */
export function archiveRequestFiles(archiveDir: string, timezone: string, files: readonly RequestFileRef[], now: Date = new Date()): void {
  if (files.length === 0) return;
  const day = compactInTimeZone(now, timezone);
  for (const file of files) archiveRequestFile(archiveDir, day, file.claimedPath, file.sourceFile);
}

/** Moves `claimedPath` (if still there) into `archiveDir/day/`; a taken name gets `.1`, `.2`, ... `faults`: tests. */
export function archiveRequestFile(archiveDir: string, day: string, claimedPath: string, sourceFile: string, faults?: DiskFaults): void {
  const moveOnce = () => moveToArchive(archiveDir, day, claimedPath, sourceFile, faults);
  try {
    moveOnce();
  } catch (error) {
    if (diskFailureCode(error) === null) throw error;
    void diskWaits.retry(claimedPath, moveOnce).catch(() => undefined);
  }
}

function moveToArchive(archiveDir: string, day: string, claimedPath: string, sourceFile: string, faults: DiskFaults | undefined): void {
  if (!existsSync(claimedPath)) return;
  const folder = path.join(archiveDir, day);
  mkdirSync(folder, { recursive: true });
  const base = path.basename(sourceFile);
  const extension = path.extname(base);
  let target = path.join(folder, base);
  for (let counter = 1; existsSync(target); counter++) {
    target = path.join(folder, `${path.basename(base, extension)}.${counter}${extension}`);
  }
  diskCall(faults, 'rename', target, () => renameSync(claimedPath, target));
}
