/**
 * The end of a request file's life (README "Folder layout"): once the runner reports it done
 * (`request_files_done`), the claimed file moves to system/archive/YYYYMMDD/ under its original
 * name, never overwriting. A move the disk refuses (ENOSPC, EDQUOT, EROFS, EIO) is retried in the
 * background (disk-waits.ts); the move is not synced: a file back in processing/ after a crash or
 * power cut is archived by recovery. With audit.retention, old day folders follow their audit day
 * (docs/audit-log.md "Retention and archives").
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { archiveFolderOf, writeGzip } from '../store/atomic-file.js';
import type { SystemPaths } from '../config/system-paths.js';
import { compactInTimeZone } from '../message/zoned-time.js';
import type { RequestFileRef } from './claimed-file.js';
import { diskCall, diskFailureCode, type DiskFaults } from '../store/disk-io.js';
import { diskWaits } from '../store/disk-waits.js';
import { RequestIdRegistry } from './request-id-registry.js';

/** Archives every file in `files` under today's folder (in `timezone`). */
export function archiveRequestFiles(
  archiveDir: string,
  timezone: string,
  files: readonly RequestFileRef[],
  now: Date = new Date(),
): void {
  if (files.length === 0) return;
  const day = compactInTimeZone(now, timezone);
  for (const file of files) archiveRequestFile(archiveDir, day, file.claimedPath, file.sourceFile);
}

/** Moves `claimedPath` (if still there) into `archiveDir/day/`; a taken name gets `.1`, `.2`, ... `faults`: tests. */
export function archiveRequestFile(
  archiveDir: string,
  day: string,
  claimedPath: string,
  sourceFile: string,
  faults?: DiskFaults,
): void {
  const moveOnce = () => moveToArchive(archiveDir, day, claimedPath, sourceFile, faults);
  try {
    moveOnce();
  } catch (error) {
    if (diskFailureCode(error) === null) throw error;
    void diskWaits.retry(claimedPath, moveOnce).catch(() => undefined);
  }
}

function moveToArchive(
  archiveDir: string,
  day: string,
  claimedPath: string,
  sourceFile: string,
  faults: DiskFaults | undefined,
): void {
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

/**
 * Moves the request files of days before `before` (`YYYYMMDD`) to
 * system/logs/archive/YYYYMMDD/requests/<name>.gz, where deleting the day takes them; their
 * markers first keep only the id (RequestIdRegistry.keepIdsOnly). Crash-safe: gzip copies synced,
 * then markers, then originals removed. Returns the days moved.
 */
export function archiveRequestDays(options: { paths: SystemPaths; before: string; durable?: boolean }): string[] {
  const { paths, before } = options;
  const days = (existsSync(paths.archive) ? readdirSync(paths.archive) : [])
    .filter((name) => /^\d{8}$/.test(name) && name < before)
    .sort();
  // Request files, and the files of request folders (docs/attachments.md) under their folder's name.
  const files = days.flatMap((day) =>
    readdirSync(path.join(paths.archive, day), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => ({
        day,
        name: path.relative(path.join(paths.archive, day), path.join(entry.parentPath, entry.name)),
      })),
  );
  const linked = new Set<string>();
  for (const { day, name } of files) {
    const file = path.join(paths.archive, day, name);
    const stats = statSync(file);
    // Attachments keep their mode 0600 in the archive, as the PII vault does.
    writeGzip(
      path.join(archiveFolderOf(paths.logs), day, 'requests', `${name}.gz`),
      readFileSync(file),
      stats.mode & 0o777,
    );
    linked.add(`${stats.dev}:${stats.ino}`);
  }
  if (linked.size > 0) new RequestIdRegistry(paths, { durable: options.durable ?? true }).keepIdsOnly(linked);
  for (const { day, name } of files) rmSync(path.join(paths.archive, day, name));
  for (const day of days)
    for (const entry of readdirSync(path.join(paths.archive, day), { withFileTypes: true }))
      if (entry.isDirectory()) rmEmptyFolders(path.join(paths.archive, day, entry.name));
  for (const day of days) {
    try {
      rmdirSync(path.join(paths.archive, day));
    } catch {
      // something else in it (not a request file): left as found
    }
  }
  return days;
}

/** The same for system/failed/ (with each `<name>.error.json`), by last write, into `failed/`. Returns how many moved. */
export function archiveFailedFiles(options: { paths: SystemPaths; before: string; timezone: string }): number {
  const { paths, before, timezone } = options;
  const entries = existsSync(paths.failed)
    ? readdirSync(paths.failed, { withFileTypes: true }).filter((entry) => entry.isFile() || entry.isDirectory())
    : [];
  let moved = 0;
  for (const entry of entries) {
    const file = path.join(paths.failed, entry.name);
    const stats = lstatSync(file);
    const day = compactInTimeZone(stats.mtime, timezone);
    if (day >= before) continue;
    // A refused request folder: its regular files go (links and special files inside are dropped, never followed).
    const regular = entry.isDirectory()
      ? readdirSync(file, { withFileTypes: true, recursive: true })
          .filter((inside) => inside.isFile())
          .map((inside) => path.relative(paths.failed, path.join(inside.parentPath, inside.name)))
      : [entry.name];
    for (const name of regular) {
      const source = path.join(paths.failed, name);
      writeGzip(
        path.join(archiveFolderOf(paths.logs), day, 'failed', `${name}.gz`),
        readFileSync(source),
        lstatSync(source).mode & 0o777,
      );
    }
    rmSync(file, { recursive: true, force: true });
    moved += 1;
  }
  return moved;
}

/** Removes `folder` and its subfolders once no file is left in them (a request folder whose files went to the archive). */
function rmEmptyFolders(folder: string): void {
  for (const entry of readdirSync(folder, { withFileTypes: true }))
    if (entry.isDirectory()) rmEmptyFolders(path.join(folder, entry.name));
  try {
    rmdirSync(folder);
  } catch {
    // something else in it: left as found
  }
}
