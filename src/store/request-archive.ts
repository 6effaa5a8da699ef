/**
 * Processed request files go to system/archive/YYYYMMDD/ under their original name, never
 * overwriting. A move the disk refuses (ENOSPC, EDQUOT, EROFS, EIO: the new folder or entry
 * needs space) is retried in the background with backoff (disk-waits.ts): until it succeeds the
 * file stays in system/processing/, where a restart would find and archive it too.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { diskCall, diskFailureCode } from './disk-io.js';
import { diskWaits } from './disk-waits.js';

/** Moves `claimedPath` (if still there) into `archiveDir/day/`; a taken name gets `.1`, `.2`, ... */
export function archiveRequestFile(archiveDir: string, day: string, claimedPath: string, sourceFile: string): void {
  try {
    moveOnce(archiveDir, day, claimedPath, sourceFile);
  } catch (error) {
    if (diskFailureCode(error) === null) throw error;
    void diskWaits.retry(claimedPath, () => moveOnce(archiveDir, day, claimedPath, sourceFile)).catch(() => undefined);
  }
}

function moveOnce(archiveDir: string, day: string, claimedPath: string, sourceFile: string): void {
  if (!existsSync(claimedPath)) return;
  const folder = path.join(archiveDir, day);
  mkdirSync(folder, { recursive: true });
  const base = path.basename(sourceFile);
  const extension = path.extname(base);
  let target = path.join(folder, base);
  for (let counter = 1; existsSync(target); counter++) {
    target = path.join(folder, `${path.basename(base, extension)}.${counter}${extension}`);
  }
  diskCall('rename', target, () => renameSync(claimedPath, target));
}
