/**
 * Retention of the audit trail (docs/audit-log.md, `audit.retention`): day files older than `keep_days`
 * move, compressed, to `system/logs/archive/YYYYMMDD.log.gz`, where `govflow verify` still reads
 * them as part of the chain. The newest day file is never moved (the writer chains to it).
 *
 * Crash-safe: the archive is written to a temp file, synced and renamed before the day file is
 * removed; a day found both ways was archived whole and only its `.log` is left to remove (until
 * then readers take the `.log`, so no day counts twice).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { compactInTimeZone } from '../message/zoned-time.js';
import { fsyncDirectory } from '../store/append-only-file.js';
import { listLogFiles } from './audit-log-reader.js';

export const ARCHIVE_FOLDER = 'archive';

/** Archived day files (`YYYYMMDD.log.gz`) whose day is not also still in logs/, oldest first. */
export function listArchivedLogFiles(logsDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(logsDir, ARCHIVE_FOLDER));
  } catch {
    return [];
  }
  const current = new Set(listLogFiles(logsDir));
  return names.filter((name) => /^\d{8}\.log\.gz$/.test(name) && !current.has(name.slice(0, -3))).sort();
}

export interface RetentionOptions {
  logsDir: string;
  timezone: string;
  keepDays: number;
  now?: Date;
}

/** Archives the day files older than `keepDays`; returns the days moved. */
export function archiveOldDays(options: RetentionOptions): string[] {
  const now = options.now ?? new Date();
  const cutoff = compactInTimeZone(new Date(now.getTime() - options.keepDays * 86_400_000), options.timezone);
  const days = listLogFiles(options.logsDir);
  const archiveDir = path.join(options.logsDir, ARCHIVE_FOLDER);
  const moved: string[] = [];
  for (const name of days.slice(0, -1)) {
    const day = name.slice(0, 8);
    if (day >= cutoff) break;
    fs.mkdirSync(archiveDir, { recursive: true });
    const target = path.join(archiveDir, `${name}.gz`);
    if (!fs.existsSync(target)) {
      const temp = `${target}.tmp`;
      const fd = fs.openSync(temp, 'w', 0o644);
      try {
        fs.writeSync(fd, gzipSync(fs.readFileSync(path.join(options.logsDir, name))));
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(temp, target);
      fsyncDirectory(archiveDir);
    }
    fs.rmSync(path.join(options.logsDir, name));
    moved.push(day);
  }
  if (moved.length > 0) fsyncDirectory(options.logsDir);
  return moved;
}
