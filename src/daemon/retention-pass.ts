/**
 * One pass of `audit.retention` (docs/audit-log.md "Retention and archives"), at start and hourly.
 * The root's own files are archived the same way in both modes; what deletes differs: files mode
 * deletes archived days here, cluster mode deletes in the store (src/cluster/store-retention.ts).
 */
import type { KeyObject } from 'node:crypto';
import { signFields } from '../audit/checkpoint-format.js';
import { archiveOldDays, dayCutoff, deleteOldDays } from '../audit/log-retention.js';
import type { GovflowConfig } from '../config/config-loader.js';
import { archiveFailedFiles, archiveRequestDays } from '../intake/request-archive.js';
import type { OperationalLog } from '../log-contract.js';
import { archiveFinishedSessions } from '../store/session-retention.js';

export type SignFields = <T extends object>(fields: T) => T & { key: string; sig: string };

export function fieldSigner(key: { privateKey: KeyObject; keyId: string } | null): SignFields | undefined {
  return key ? <T extends object>(fields: T) => signFields(key.privateKey, key.keyId, fields) : undefined;
}

/**
 * Moves the root's day files older than keep_days to the archive and, at start or when days moved,
 * what went with them: the sessions (`archiveSessions`, returning how many), request files and
 * refused files. Throws on a failure (the caller warns and tries again at the next pass).
 */
export function archiveRootDays(options: {
  config: GovflowConfig;
  now: Date;
  atStart: boolean;
  log: OperationalLog | undefined;
  archiveSessions: (before: string) => number;
}): void {
  const { config, now, log } = options;
  const { paths, timezone } = config;
  const keepDays = config.audit.retention.keep_days!;
  const moved = archiveOldDays({ logsDir: paths.logs, timezone, keepDays, now });
  if (moved.length > 0)
    log?.info('audit retention: archived day files', { days: moved, folder: 'system/logs/archive' });
  if (!options.atStart && moved.length === 0) return;
  const before = dayCutoff(now, keepDays, timezone);
  const sessions = options.archiveSessions(before);
  if (sessions > 0)
    log?.info('audit retention: archived finished sessions and their results', {
      sessions,
      folder: 'system/logs/archive/YYYYMMDD',
    });
  const requestDays = archiveRequestDays({ paths, before, durable: config.daemon.fsync });
  if (requestDays.length > 0)
    log?.info('audit retention: archived processed request files', {
      days: requestDays,
      folder: 'system/logs/archive/YYYYMMDD/requests',
    });
  const failed = archiveFailedFiles({ paths, before, timezone });
  if (failed > 0)
    log?.info('audit retention: archived refused request files', {
      files: failed,
      folder: 'system/logs/archive/YYYYMMDD/failed',
    });
}

/** Logs a deletion, and a legal hold once while it lasts; returns whether a hold stopped this pass. */
export function reportDeletion(
  log: OperationalLog | undefined,
  outcome: { deleted: string[]; held: string | null },
  heldBefore: boolean,
): boolean {
  if (outcome.deleted.length > 0)
    log?.info('audit retention: deleted archived days', {
      days: outcome.deleted,
      record: 'system/logs/archive/deleted.jsonl',
    });
  if (outcome.held !== null && !heldBefore)
    log?.info(`audit retention: ${outcome.held}, so nothing is deleted while it does`);
  return outcome.held !== null;
}

/** Files mode's pass, telling `onArchived` which sessions it moved to the archive. Never throws. */
export function filesRetentionPass(
  config: GovflowConfig,
  key: { privateKey: KeyObject; keyId: string } | null,
  log: OperationalLog | undefined,
  onArchived: (sessionIds: string[]) => void,
): (atStart: boolean) => void {
  const { paths, timezone } = config;
  const deleteAfterDays = config.audit.retention.delete_after_days;
  const sign = fieldSigner(key);
  let held = false;
  return (atStart) => {
    try {
      const now = new Date();
      archiveRootDays({
        config,
        now,
        atStart,
        log,
        archiveSessions: (before) => {
          const archived = archiveFinishedSessions({ paths, timezone, before, workspace: config.tools.workspace });
          if (archived.length > 0) onArchived(archived);
          return archived.length;
        },
      });
      if (deleteAfterDays === null) return;
      const outcome = deleteOldDays({
        logsDir: paths.logs,
        stateDir: paths.state,
        timezone,
        deleteAfterDays,
        now,
        ...(sign && { sign }),
      });
      held = reportDeletion(
        log,
        { deleted: outcome.deleted, held: outcome.held ? 'system/state/legal-hold exists' : null },
        held,
      );
    } catch (error) {
      log?.warn('audit retention: a pass failed; the next one tries again', { error: (error as Error).message });
    }
  };
}
