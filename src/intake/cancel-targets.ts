/**
 * The sessions a bulk cancel matches in a files root (docs/run-control.md): running and paused
 * ones by their manifests (a cache of the journal, so a bulk cancel may name one that ended since
 * — its control is then refused, as any late cancel is) or, before a new session's manifest has
 * landed, by its journal; queued ones by their claims. Delegated
 * children are left out: cancelling their parent cancels them.
 */
import type { SystemPaths } from '../config/system-paths.js';
import { SessionJournal } from '../store/journal-reader.js';
import { readSessionRecord } from '../store/session-index.js';
import type { CancellableStatus, CancelTarget } from '../store/session-reads.js';
import { queuedClaims } from './queued-claims.js';
import type { AttachmentLimits } from './request-folder.js';

export const CANCELLABLE_STATUSES: readonly CancellableStatus[] = ['running', 'paused', 'queued'];

export interface CancelFilter {
  statuses: readonly CancellableStatus[];
  /** Only this user's sessions; null: everyone's. */
  user: string | null;
  /** Only sessions made at or after this instant (ISO); null: any. */
  since: string | null;
}

/** True when `target` passes `filter`. */
export function matchesCancelFilter(target: CancelTarget, filter: CancelFilter): boolean {
  return (
    filter.statuses.includes(target.status) &&
    (filter.user === null || target.user === filter.user) &&
    (filter.since === null || Date.parse(target.createdAt) >= Date.parse(filter.since))
  );
}

/** Unfinished sessions of the root matching `filter`, oldest first. */
export async function filesCancelTargets(
  paths: SystemPaths,
  maxBytes: number,
  timezone: string,
  filter: CancelFilter,
  attachments?: AttachmentLimits,
): Promise<CancelTarget[]> {
  const targets: CancelTarget[] = [];
  if (filter.statuses.includes('running') || filter.statuses.includes('paused')) {
    for (const sessionId of SessionJournal.list(paths.sessions)) {
      // A session just started may have its journal before its manifest lands.
      const manifest = SessionJournal.readManifestOrJournal(paths.sessions, sessionId);
      if (!manifest || (manifest.state !== 'RUNNING' && manifest.state !== 'PAUSED')) continue;
      // Its first record alone (who asked, when), not the whole journal; none: damaged, nothing a control could apply to.
      const first = readSessionRecord(paths.sessions, sessionId);
      if (!first || first.delegation) continue;
      const target: CancelTarget = {
        sessionId,
        requestId: first.request_id,
        user: first.request.user ?? 'local',
        status: manifest.state === 'PAUSED' ? 'paused' : 'running',
        createdAt: first.created_at,
      };
      if (matchesCancelFilter(target, filter)) targets.push(target);
    }
  }
  if (filter.statuses.includes('queued')) {
    for (const claim of await queuedClaims(paths, maxBytes, timezone, attachments)) {
      const target: CancelTarget = {
        sessionId: claim.sessionId,
        requestId: claim.requestId,
        user: claim.user,
        status: 'queued',
        createdAt: claim.receivedAt,
      };
      if (matchesCancelFilter(target, filter)) targets.push(target);
    }
  }
  return targets.sort((left, right) => left.createdAt.localeCompare(right.createdAt));
}
