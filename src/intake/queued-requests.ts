/**
 * The requests of a files-mode root that were accepted but whose session has not started: claimed
 * files in system/processing/ with no journal yet (SPEC §18 lists them as `queued`). A claim's file
 * never changes, so each one is read once and remembered by its claim name.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { errorCode } from '../errors.js';
import type { ClaimedRequests } from '../store/session-index.js';
import type { SessionLineage, SessionRow } from '../store/session-listing.js';
import { claimedAtOf, sessionIdForClaim } from './claim-name.js';
import { readClaimedFile } from './claimed-file.js';

/** The request text a queued row keeps (for the web view's search): its beginning. */
const TEXT_KEPT = 2_000;

/**
 * The lineage of a fork, retry or re-run still queued, from the `fork` its claim carries
 * (daemon/fork-requests.ts); its `of_request` is filled by the listing, which knows the original.
 */
function lineageOf(fork: Record<string, unknown> | undefined): SessionLineage | null {
  if (!fork || typeof fork.of_session !== 'string' || !['fork', 'retry', 'rerun'].includes(String(fork.action)))
    return null;
  return {
    action: fork.action as SessionLineage['action'],
    of_session: fork.of_session,
    of_request: typeof fork.of_request === 'string' ? fork.of_request : '',
    from: typeof fork.from === 'number' ? fork.from : 1,
    by: typeof fork.by === 'string' ? fork.by : 'local',
    reason: typeof fork.reason === 'string' ? fork.reason : null,
  };
}

export class QueuedRequests implements ClaimedRequests {
  /** claim name → its row, or null for a claim that is no request (a reply, a control, an unreadable file). */
  private readonly known = new Map<string, SessionRow | null>();

  constructor(
    private readonly paths: Pick<SystemPaths, 'processing' | 'sessions'>,
    private readonly timezone: string,
    private readonly maxBytes: number,
  ) {}

  acceptedAt(claimedPath: string): Date | null {
    return claimedAtOf(claimedPath);
  }

  async queued(started: (sessionId: string) => boolean): Promise<SessionRow[]> {
    let names: string[];
    try {
      names = readdirSync(this.paths.processing);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw error;
    }
    const present = new Set(names);
    for (const name of this.known.keys()) if (!present.has(name)) this.known.delete(name);
    const rows: SessionRow[] = [];
    for (const name of names) {
      if (name.startsWith('.')) continue; // submissions in flight
      let row = this.known.get(name);
      if (row === undefined) {
        row = await this.read(name);
        this.known.set(name, row);
      }
      if (row !== null && !started(row.sessionId)) rows.push(row);
    }
    return rows;
  }

  private async read(name: string): Promise<SessionRow | null> {
    const claimedPath = path.join(this.paths.processing, name);
    let item;
    try {
      item = await readClaimedFile(claimedPath, this.maxBytes);
    } catch {
      return null; // gone meanwhile (its session started and archived it), or unreadable
    }
    if (item.kind !== 'request') return null;
    const acceptedAt = item.receivedAt.toISOString();
    const sessionId = item.sessionId ?? sessionIdForClaim(claimedPath, this.timezone);
    const chat = item.chat;
    return {
      sessionId,
      requestId: item.requestId,
      status: 'queued',
      state: 'queued',
      user: item.user ?? 'local',
      requestText: item.text.slice(0, TEXT_KEPT),
      agents: [],
      searchText: '',
      currentAgent: null,
      messages: 0,
      acceptedAt,
      startedAt: null,
      finishedAt: null,
      updatedAt: acceptedAt,
      costUsd: 0,
      lineage: lineageOf(item.fork),
      conversationId: typeof chat?.conversation_id === 'string' ? chat.conversation_id : sessionId,
      conversationTurn: typeof chat?.turn === 'number' ? chat.turn : 0,
    };
  }
}
