/** Processed request files go to system/archive/YYYYMMDD/ under their original name, never overwriting. */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';

/** Moves `claimedPath` (if still there) into `archiveDir/day/`; a taken name gets `.1`, `.2`, ... */
export function archiveRequestFile(archiveDir: string, day: string, claimedPath: string, sourceFile: string): void {
  if (!existsSync(claimedPath)) return;
  const folder = path.join(archiveDir, day);
  mkdirSync(folder, { recursive: true });
  const base = path.basename(sourceFile);
  const extension = path.extname(base);
  let target = path.join(folder, base);
  for (let counter = 1; existsSync(target); counter++) {
    target = path.join(folder, `${path.basename(base, extension)}.${counter}${extension}`);
  }
  renameSync(claimedPath, target);
}
