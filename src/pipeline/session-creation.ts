/**
 * A new session's making (docs/run-control.md, docs/attachments.md): its id, the fork it starts
 * from read and checked, PII taken out of its request, its attachments received into the
 * workspace, and its first journal record written. What runs it after is the runner's.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { compactInTimeZone } from '../message/zoned-time.js';
import { SessionPrivacy } from '../privacy/session-privacy.js';
import { inheritedVault, openSessionVault } from '../privacy/session-vaults.js';
import type { RequestInfo, SessionRecord } from '../store/session-journal.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import type { ActiveSession } from './message-commit.js';
import { ControlRejectedError, type NewSessionRequest, type RunnerDependencies } from './runner-contract.js';
import { attachmentsOf, receiveAttachments } from './session-attachments.js';
import { childHandoff } from './delegation-envelope.js';
import type { PreparedFork, SessionForks } from './session-fork.js';
import { initialState } from './session-state.js';
import { sessionChatOf } from './chat-turn.js';

export function generateSessionId(now: Date, timezone: string): string {
  return `sess-${compactInTimeZone(now, timezone, true)}-${randomBytes(4).toString('hex')}`;
}

/** What names a new session before anything of it is written. */
export interface SessionOpening {
  sessionId: string;
  createdAt: Date;
  /** The governance's entry agent when the session is made (a request or a fork may name another). */
  entryAgent: string;
}

/** A session just made: its journal holds its first record. */
export interface CreatedSession {
  active: ActiveSession;
  fork: PreparedFork | null;
  /** Set when the fork cannot start after all (its original changed since the control was accepted): why. */
  forkRefusal: string | null;
}

/** Makes the session a new request asks for; nothing of it runs yet. */
export async function createSession(
  deps: RunnerDependencies,
  forks: SessionForks,
  request: NewSessionRequest,
  opening: SessionOpening,
  signal: AbortSignal,
): Promise<CreatedSession> {
  const { config } = deps;
  const { sessionId, createdAt } = opening;
  let fork: PreparedFork | null = null;
  let forkRefusal: string | null = null;
  if (request.fork) {
    try {
      fork = await forks.prepare(request.fork);
    } catch (error) {
      if (!(error instanceof ControlRejectedError)) throw error;
      forkRefusal = error.message;
    }
  }
  // PII leaves the request before anything is written (README "Privacy and guardrails"); originals go to the vault,
  // which a fork copies from its original, a delegated child from its parent and a conversation's turn from the
  // turn before it (their placeholders stay theirs: one placeholder never stands for two people).
  const inheritsFrom =
    fork?.original.session.session_id ??
    request.delegation?.parent_session_id ??
    request.chat?.previous_session_id ??
    null;
  const inherited = inheritsFrom === null ? [] : await inheritedVault(config, deps.store, inheritsFrom);
  const privacy = SessionPrivacy.forNewSession(
    config,
    await openSessionVault(config, deps.store, sessionId, { fresh: true }),
    inherited,
  );
  // Cluster mode's intake redacted the request already (its vault holds the originals): its counts come with it.
  privacy.countUserInput(request.piiCounts);
  const text = privacy.redactUserText(request.text);
  // A delegated child's handoff, in its placeholders: in its entry prompt, and hashed for its first entry.
  const handoff = request.handoff ? childHandoff(request.handoff, (value) => privacy.redactUserValue(value)) : null;
  const info: RequestInfo = {
    text: handoff ? text + handoff.text : text,
    user: request.user ?? null,
    metadata: request.metadata ? privacy.redactUserValue(request.metadata) : null,
    ...(request.limits ? { limits: request.limits } : {}),
  };
  // A fork's attachments are its original's (docs/run-control.md), copied from the original's workspace and checked.
  const requested = request.attachments ?? (fork ? attachmentsOf(config, fork.original.session) : undefined);
  // Into the workspace before the journal names them, so every session that exists has them (docs/attachments.md).
  const attachments =
    requested && requested.files.length > 0
      ? await receiveAttachments(config, deps.store, sessionId, requested, privacy, signal)
      : null;
  const sessionRecord: SessionRecord = {
    v: JOURNAL_FORMAT,
    type: 'session',
    session_id: sessionId,
    request_id: request.requestId,
    request: info,
    source_file: request.sourceFile,
    claimed_path: request.claimedPath,
    created_at: createdAt.toISOString(),
    entry_agent:
      request.entryAgent ?? (fork && fork.lineage.from > 1 ? fork.original.session.entry_agent : opening.entryAgent),
    ...(request.delegation
      ? { delegation: handoff ? { ...request.delegation, handoff: handoff.line } : request.delegation }
      : {}),
    ...(attachments ? { attachments } : {}),
    ...(request.chat ? { chat: sessionChatOf(request.chat, privacy) } : {}),
    ...(fork && request.fork
      ? {
          lineage: fork.lineage,
          fork: {
            control_id: request.fork.controlId,
            claimed_by: request.fork.claimedBy,
            claimed_at: request.fork.claimedAt,
            source_file: request.fork.sourceFile,
          },
        }
      : {}),
  };
  const stored = await deps.store.create(sessionRecord);
  const active: ActiveSession = {
    stored,
    state: initialState(sessionRecord),
    commitQueue: Promise.resolve(),
    privacy,
  };
  privacy.folderCreated();
  // A request folder's request file is redacted in place; its attachments stay as delivered (evidence).
  const requestFile = request.attachments?.requestFile;
  if (request.claimedPath)
    privacy.redactFile(requestFile ? path.join(request.claimedPath, requestFile) : request.claimedPath);
  deps.log?.info('session started', {
    session: sessionId,
    request: request.requestId,
    source: request.sourceFile,
  });
  deps.events?.emit('session_started', {
    sessionId,
    requestId: request.requestId,
    user: request.user ?? null,
    entryAgent: sessionRecord.entry_agent,
  });
  return { active, fork, forkRefusal };
}
