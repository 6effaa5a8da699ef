/**
 * The read seam of the HTTP API and the web view: this root's files, or Postgres in cluster mode
 * (src/cluster/cluster-reads.ts). Handlers read synchronously: the server awaits `prefetch` first.
 */
import type { AttachmentInfo } from './attachment-records.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { type JournalRecord } from './session-journal.js';
import { SessionJournal } from './journal-reader.js';
import { archivedResult, sessionFolder } from './session-retention.js';
import type { SessionListing, SessionRow } from './session-listing.js';

export type StoreSubmission = 'queued' | 'duplicate' | 'turn_taken';

export interface SessionReads {
  prefetch(ids: { requestId?: string; sessionId?: string }): Promise<void>;
  /** The §9 result of a request, or null while it has none. */
  result(requestId: string): Record<string, unknown> | null;
  /** A session's journal records; throws when it has none (a JournalFormatError when one is damaged). */
  records(sessionId: string): JournalRecord[];
  /** The user and session of a request id the store accepted, when the store knows more than the root's registry. */
  ownerOf(requestId: string): Promise<{ user: string; sessionId: string | null } | null>;
  /**
   * A store that is its own durability (Postgres) commits a new request without an inbox claim;
   * `turn_taken`: a chat turn another daemon started first (docs/http-api.md "Chat").
   */
  submit?(request: {
    requestId: string;
    sessionId: string;
    text: string;
    user: string;
    metadata: Record<string, unknown> | null;
    /** A chat message's turn (docs/http-api.md "Chat"), stored with the request. */
    chat?: Record<string, unknown>;
    /** A multipart request's attachments (docs/attachments.md): the staged folder holding them, and their list. */
    attachments?: { folder: string; files: AttachmentInfo[] };
  }): Promise<StoreSubmission>;
  /** Every session of a shared store as the web view lists it (newest first); without it the web view indexes the root's files. */
  sessionRows?(): Promise<SessionRow[]>;
  /** The listing of a shared store (Postgres); without it the root's files are indexed (session-index.ts). */
  listing?: SessionListing;
  /**
   * Where a session of a shared store stands (docs/run-control.md): its user and state, and its
   * result's status once finished; null when the store has no such session. Without it the root's files are read.
   */
  sessionStanding?(sessionId: string): Promise<SessionStanding | null>;
  /** Unfinished sessions of a shared store, for a bulk cancel (oldest first); without it the root's files are read. */
  unfinishedSessions?(): Promise<CancelTarget[]>;
}

/** Where a session a cancel can still reach stands. */
export type CancellableStatus = 'running' | 'paused' | 'queued';

/** An unfinished session as a bulk cancel matches it (docs/run-control.md). */
export interface CancelTarget {
  sessionId: string;
  requestId: string;
  user: string;
  status: CancellableStatus;
  createdAt: string;
}

/** A session as a control sees it: whose, and whether it can still be cancelled (queued, running, paused). */
export interface SessionStanding {
  user: string;
  /** queued, running, paused, or the ended session's result status (success, failed, cancelled, …). */
  status: string;
}

export class FilesSessionReads implements SessionReads {
  constructor(private readonly paths: Pick<SystemPaths, 'outbox' | 'sessions' | 'logs'>) {}

  async prefetch(): Promise<void> {}

  result(requestId: string): Record<string, unknown> | null {
    try {
      return JSON.parse(readFileSync(path.join(this.paths.outbox, `${requestId}.json`), 'utf8')) as Record<
        string,
        unknown
      >;
    } catch {
      return archivedResult(this.paths, requestId); // moved by audit.retention (docs/audit-log.md)
    }
  }

  records(sessionId: string): JournalRecord[] {
    return SessionJournal.read(sessionFolder(this.paths, sessionId));
  }

  async ownerOf(): Promise<null> {
    return null;
  }
}

/** Where a handed-over request's result is read: this root's files, or the cluster's store. */
export interface ResultSource {
  /** The request id a session's results are filed under; null when there is no such session. */
  requestIdOf(sessionId: string): Promise<string | null>;
  /** The request's newest result document (its JSON text), or null when there is none yet. */
  read(requestId: string): Promise<string | null>;
}
