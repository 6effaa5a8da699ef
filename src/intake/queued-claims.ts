/**
 * Requests claimed into system/processing/ whose sessions have not started: the queued sessions
 * of a files root (docs/run-control.md). A request's session id is the one its JSON names (the
 * HTTP API always names one), else the one its claim derives (claim-name.ts), so a queued session
 * can be cancelled, listed and found by id before it has a journal.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { SessionJournal } from '../store/journal-reader.js';
import { readClaimedFile, type IntakeRequest } from './claimed-file.js';
import { parseClaimName, sessionIdForClaim } from './claim-name.js';
import type { AttachmentLimits } from './request-folder.js';

/** One queued session, as a listing or a bulk cancel needs it (the request text is not kept). */
export interface QueuedClaim {
  sessionId: string;
  requestId: string;
  user: string;
  receivedAt: string;
  claimedPath: string;
  sourceFile: string;
}

/** The claims of system/processing/ that are requests without a session yet, oldest first. */
export async function queuedClaims(
  paths: SystemPaths,
  maxBytes: number,
  timezone: string,
  attachments?: AttachmentLimits,
): Promise<QueuedClaim[]> {
  const queued: QueuedClaim[] = [];
  for (const item of await queuedRequests(paths, maxBytes, timezone, undefined, attachments)) {
    queued.push({
      sessionId: item.sessionId!,
      requestId: item.requestId,
      user: item.user ?? 'local',
      receivedAt: item.receivedAt.toISOString(),
      claimedPath: item.claimedPath,
      sourceFile: item.sourceFile,
    });
  }
  return queued;
}

/** The queued request whose session would be `sessionId`, or null. */
export async function findQueuedRequest(
  paths: SystemPaths,
  sessionId: string,
  maxBytes: number,
  timezone: string,
  attachments?: AttachmentLimits,
): Promise<IntakeRequest | null> {
  return (await queuedRequests(paths, maxBytes, timezone, sessionId, attachments))[0] ?? null;
}

async function queuedRequests(
  paths: SystemPaths,
  maxBytes: number,
  timezone: string,
  onlySession?: string,
  attachments?: AttachmentLimits,
): Promise<IntakeRequest[]> {
  let names: string[];
  try {
    names = readdirSync(paths.processing).filter((name) => !name.startsWith('.'));
  } catch {
    return [];
  }
  names.sort(
    (left, right) =>
      (parseClaimName(left)?.claimedAt.getTime() ?? 0) - (parseClaimName(right)?.claimedAt.getTime() ?? 0),
  );
  const found: IntakeRequest[] = [];
  for (const name of names) {
    const claimedPath = path.join(path.resolve(paths.processing), name);
    // A text or Markdown request names no session: its id comes from the claim, with no read.
    const plain = /\.(txt|md)$/i.test(name);
    if (plain && onlySession !== undefined && sessionIdForClaim(claimedPath, timezone) !== onlySession) continue;
    let item;
    try {
      item = await readClaimedFile(claimedPath, maxBytes, attachments);
    } catch {
      continue; // gone meanwhile (started, archived) or unreadable: not queued
    }
    if (item.kind !== 'request') continue;
    const sessionId = item.sessionId ?? sessionIdForClaim(claimedPath, timezone);
    if (onlySession !== undefined && sessionId !== onlySession) continue;
    if (SessionJournal.exists(paths.sessions, sessionId)) continue;
    found.push({ ...item, sessionId });
    if (onlySession !== undefined) break;
  }
  return found;
}
