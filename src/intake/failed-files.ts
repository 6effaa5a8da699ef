/**
 * Files that cannot be requests go to system/failed/ with `<name>.error.json` beside them
 * (docs/results.md). Nothing there is overwritten: a taken name gets a counter (`report-1.txt`).
 */
import { link, lstat, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { errorCode, GovflowError } from '../errors.js';

/** The operator-facing record in failed/<name>.error.json. */
export interface FailedFileRecord {
  /** The name the operator gave the file. */
  file: string;
  reason: string;
  /** ISO 8601 time of the rejection. */
  at: string;
  /** Present when the file had to be stored under another name because the original was taken. */
  stored_as?: string;
}

const MAX_NAME_ATTEMPTS = 10_000;

/** `report.txt`, `report-1.txt`, `report-2.txt`, …; hidden-looking or extension-less names get the counter at the end. */
function candidateName(originalName: string, attempt: number): string {
  if (attempt === 0) return originalName;
  const extension = path.extname(originalName);
  const stem = extension === '' ? originalName : originalName.slice(0, -extension.length);
  return `${stem}-${attempt}${extension}`;
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Moves `sourcePath` (never followed) into failed/ under a free name: hard-linked first, which
 * fails rather than replace a name; a directory cannot be, so its name is checked before the rename.
 */
async function moveUnderFreeName(sourcePath: string, failedDirectory: string, originalName: string): Promise<string> {
  const isDirectory = (await lstat(sourcePath)).isDirectory();
  for (let attempt = 0; attempt < MAX_NAME_ATTEMPTS; attempt++) {
    const name = candidateName(originalName, attempt);
    const target = path.join(failedDirectory, name);
    if (await exists(`${target}.error.json`)) continue;
    if (isDirectory) {
      if (await exists(target)) continue;
      await rename(sourcePath, target);
      return target;
    }
    try {
      await link(sourcePath, target);
    } catch (error) {
      if (errorCode(error) === 'EEXIST') continue;
      if (errorCode(error) === 'EPERM' || errorCode(error) === 'ENOTSUP') {
        if (await exists(target)) continue;
        await rename(sourcePath, target);
        return target;
      }
      throw error;
    }
    await unlink(sourcePath);
    return target;
  }
  throw new GovflowError(
    'usage',
    `system/failed/ already holds ${MAX_NAME_ATTEMPTS} files named like "${originalName}": empty system/failed/ and restart`,
  );
}

/** Moves a file to failed/ and writes its error record; `reason` says what to fix. */
export async function moveToFailed(
  paths: SystemPaths,
  sourcePath: string,
  originalName: string,
  reason: string,
  options: { durable?: boolean; now?: Date } = {},
): Promise<void> {
  const storedPath = await moveUnderFreeName(sourcePath, paths.failed, originalName);
  const storedName = path.basename(storedPath);
  const record: FailedFileRecord = { file: originalName, reason, at: (options.now ?? new Date()).toISOString() };
  if (storedName !== originalName) record.stored_as = storedName;
  writeFileAtomic(`${storedPath}.error.json`, `${JSON.stringify(record, null, 2)}\n`, options.durable ?? true);
}
