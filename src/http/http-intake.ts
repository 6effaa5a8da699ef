/**
 * Requests and replies over HTTP (docs/http-api.md), with an inbox file's checks (its parser) and
 * durability (InboxIntake.submit): the 202 comes once the claim is durable, so a kill -9 after it
 * loses nothing. An id claimed before, in any state, answers 409.
 */
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { SystemPaths } from '../config/system-paths.js';
import { discardStaged, httpFolderName, stageFolder, type FolderSubmission } from '../intake/folder-submission.js';
import { archiveRequestFile } from '../intake/request-archive.js';
import { readAtMost } from '../intake/claimed-file.js';
import { readRequestFolder, type AttachmentLimits } from '../intake/request-folder.js';
import { compactInTimeZone } from '../message/zoned-time.js';
import { receiveUpload } from './multipart-upload.js';
import { requestLimitsRefusal } from '../intake/request-limits.js';
import type { GovflowConfig } from '../config/config-loader.js';
import { parseJsonRequest, parseRequestFile, unknownFieldReason, type ParsedRequest } from '../intake/request-file.js';
import { generateRequestId, randomBase36, REQUEST_ID_PATTERN } from '../intake/request-ids.js';
import type { RequestIdRegistry } from '../intake/request-id-registry.js';
import { httpSubmissionName, type Submission, type SubmissionOutcome } from '../intake/request-submission.js';
import { generateSessionId } from '../pipeline/session-creation.js';
import { badRequest, conflict } from './http-problem.js';
import type { SessionReads } from '../store/session-reads.js';
import { isPlainObject } from '../message/json-text.js';
import { parseControlDocument, type ControlAction } from '../intake/control-file.js';
import type { ControlOutcome } from '../intake/control-outcome.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import type { AuthorizationHolder } from '../tools/forwarded-authorizations.js';
import type { ChatOrder } from '../pipeline/chat-turn.js';

export interface HttpIntakeOptions {
  /** The intake's handoff (InboxIntake.submit): resolves once the submission is durable. */
  submit: (submission: Submission) => Promise<SubmissionOutcome>;
  /** The intake's handoff of a multipart request's staged folder (InboxIntake.submitFolder). */
  submitFolder?: (submission: FolderSubmission) => Promise<SubmissionOutcome>;
  /** Where uploads are staged (system/processing/) and, in cluster mode, archived. */
  paths?: SystemPaths;
  /** intake.attachments: the bounds of a multipart upload. */
  attachments?: AttachmentLimits;
  /** Fsync uploads before the 202 (daemon.fsync). */
  durable?: boolean;
  /** Where accepted request ids are recorded (for ownerOf). */
  registry: RequestIdRegistry;
  /** intake.max_bytes: the same limit an inbox file has. */
  maxBytes: number;
  timezone: string;
  /** Cluster mode: request ids accepted by any daemon, and their owners, from the store. */
  reads?: SessionReads;
  /** Holds the caller's Authorization header for the session a request starts (MCP `forward_authorization`); none: not kept. */
  forwarding?: AuthorizationHolder;
  /** The configured limits a request's own `limits` may not exceed (SPEC §25); none: checked at the claim only. */
  sessionLimits?: GovflowConfig['limits'];
}

/**
 * The fields of a multipart request's `request` part: a JSON object with a string `request` is
 * §2's shape (docs/attachments.md); any other text is the request itself.
 */
function requestPartFields(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (isPlainObject(value) && typeof value.request === 'string') return value;
  } catch {
    // plain text
  }
  return { request: text };
}

/** Throws 400 for a body that is not a JSON object. */
function objectBody(body: unknown, example: string): Record<string, unknown> {
  if (!isPlainObject(body)) throw badRequest(`the body must be a JSON object such as ${example}`);
  return body;
}

export class HttpIntake {
  constructor(private readonly options: HttpIntakeOptions) {}

  /**
   * Hands a request for `user` to the intake, resolved once durable; 400 for a bad body, 409 for a
   * known id. `authorization` (the caller's header) is held in memory for the session it starts;
   * `chat` makes it a turn of a conversation (docs/http-api.md "Chat").
   */
  async submit(
    body: unknown,
    user: string,
    sessionId: string = this.newSessionId(),
    { authorization, chat }: { authorization?: string; chat?: ChatOrder } = {},
  ): Promise<{ requestId: string; sessionId: string }> {
    const fields = objectBody(body, '{"request": "..."}');
    if (fields.request === undefined && (fields.reply !== undefined || fields.approve !== undefined)) {
      throw badRequest('send {"request": "..."}; replies go to POST /v1/sessions/:session_id/reply');
    }
    // The inbox's own check of a JSON request, with the fields a client may send.
    const { text, requestId, parsed } = this.requestDocument(fields, user, sessionId, chat);
    const release = this.holdAuthorization(sessionId, authorization);
    try {
      const storeSubmit = this.options.reads?.submit?.bind(this.options.reads);
      if (storeSubmit) {
        // Cluster mode (docs/cluster.md): committed to Postgres before the 202; its unique request id decides.
        const outcome = await storeSubmit({
          requestId,
          sessionId,
          text: parsed.text,
          user,
          metadata: parsed.metadata,
          ...(chat ? { chat: { ...chat } } : {}),
        });
        if (outcome === 'duplicate') throw this.duplicate(requestId);
        if (outcome === 'turn_taken')
          throw conflict(
            `conversation "${chat!.conversation_id}": another message of it was taken first (on another daemon); ` +
              `send the next one once it has answered`,
          );
        return { requestId, sessionId };
      }
      const outcome = await this.options.submit({ name: httpSubmissionName(requestId), text, requestId });
      if (outcome.kind === 'duplicate') throw this.duplicate(requestId);
      return { requestId, sessionId };
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * Holds the caller's header for `sessionId` before the handover (the session may start and call
   * a tool before the handover resolves); returns what lets it go when the submission is refused.
   */
  private holdAuthorization(sessionId: string, authorization: string | undefined): () => void {
    const holder = this.options.forwarding;
    if (!holder || authorization === undefined) return () => {};
    holder.hold(sessionId, authorization);
    return () => holder.release(sessionId);
  }

  /**
   * A multipart/form-data request (docs/attachments.md): its files streamed into a staged folder,
   * its `request` part checked as a JSON body would be, the folder checked as a dropped request
   * folder would be, then handed over durably. 400, 409 and 413 say what to change.
   */
  async submitMultipart(
    request: FastifyRequest,
    user: string,
    sessionId: string = this.newSessionId(),
  ): Promise<{ requestId: string; sessionId: string }> {
    const { paths, attachments: limits, submitFolder } = this.options;
    if (!paths || !limits || !submitFolder)
      throw badRequest(
        'this server takes requests as JSON only: send {"request": "..."} with Content-Type: application/json',
      );
    const staged = stageFolder(paths);
    let handedOver = false;
    const release = this.holdAuthorization(sessionId, request.headers.authorization);
    try {
      const upload = await receiveUpload(request, staged.folder, limits, this.options.maxBytes);
      const document = this.requestDocument(requestPartFields(upload.request), user, sessionId);
      writeFileSync(path.join(staged.folder, 'request.json'), document.text, { mode: 0o600 });
      const contents = await readRequestFolder(staged.folder, limits);
      if (contents.kind === 'invalid') throw badRequest(contents.reason.replace('the folder', 'the request'));
      const requestId = document.requestId;
      const storeSubmit = this.options.reads?.submit?.bind(this.options.reads);
      if (storeSubmit) {
        // Cluster mode (docs/cluster.md): request and attachments committed to Postgres before the 202.
        const outcome = await storeSubmit({
          requestId,
          sessionId,
          text: document.parsed.text,
          user,
          metadata: document.parsed.metadata,
          attachments: { folder: staged.folder, files: contents.attachments },
        });
        if (outcome === 'duplicate') throw this.duplicate(requestId);
        archiveRequestFile(
          paths.archive,
          compactInTimeZone(new Date(), this.options.timezone),
          staged.folder,
          httpFolderName(requestId),
        );
        handedOver = true;
        return { requestId, sessionId };
      }
      handedOver = true; // from here the submission owns the folder (and removes it on a duplicate)
      const outcome = await submitFolder({
        folder: staged.folder,
        name: httpFolderName(requestId),
        requestId,
        requestFile: 'request.json',
      });
      if (outcome.kind === 'duplicate') throw this.duplicate(requestId);
      return { requestId, sessionId };
    } catch (error) {
      release();
      throw error;
    } finally {
      if (!handedOver) discardStaged(staged);
    }
  }

  /** The claim's JSON document of a request body's fields, checked as an inbox file would be; 400 for a bad one. */
  private requestDocument(
    fields: Record<string, unknown>,
    user: string,
    sessionId: string,
    chat?: ChatOrder,
  ): { text: string; requestId: string; parsed: ParsedRequest } {
    const checked = parseJsonRequest(fields, 'http');
    if (checked.kind === 'invalid') throw badRequest(checked.reason);
    const requestId = (fields.request_id as string | undefined) ?? generateRequestId();
    const document = {
      request: fields.request,
      request_id: requestId,
      session_id: sessionId,
      user,
      metadata: fields.metadata ?? null,
      // A chat message's turn (docs/http-api.md "Chat"): the daemon's own field, like a fork's.
      ...(chat ? { chat } : {}),
      ...(fields.limits !== undefined && fields.limits !== null ? { limits: fields.limits } : {}),
    };
    const own = checked.kind === 'request' ? checked.limits : undefined;
    const refusal = this.options.sessionLimits ? requestLimitsRefusal(own, this.options.sessionLimits) : null;
    if (refusal !== null) throw badRequest(refusal);
    const text = `${JSON.stringify(document)}\n`;
    const parsed = parseRequestFile('request.json', Buffer.from(text, 'utf8'), this.options.maxBytes);
    if (parsed.kind === 'invalid')
      throw badRequest(
        parsed.reason.replace(
          'the file is larger than intake.max_bytes',
          'the request is larger than intake.max_bytes',
        ),
      );
    if (parsed.kind !== 'request' || parsed.requestId === null)
      throw badRequest('send {"request": "..."}; replies go to POST /v1/sessions/:session_id/reply');
    return { text, requestId: parsed.requestId, parsed };
  }

  /** A session id for a request about to be submitted (listeners can subscribe before it starts). */
  newSessionId(): string {
    return generateSessionId(new Date(), this.options.timezone);
  }

  /** Hands a reply (or an approval decision) to a paused session to the intake, durably. */
  async reply(sessionId: string, body: unknown, user: string, awaiting: 'reply' | 'approval'): Promise<void> {
    const fields = objectBody(body, '{"reply": "..."} or {"approve": true, "reason": "..."}');
    const unknown = unknownFieldReason(fields, awaiting, 'http');
    if (unknown) throw badRequest(unknown);
    let document: Record<string, unknown>;
    if (awaiting === 'approval') {
      if (typeof fields.approve !== 'boolean')
        throw badRequest('this session waits for an approval: send {"approve": true|false, "reason"?: "..."}');
      if (fields.reason !== undefined && typeof fields.reason !== 'string')
        throw badRequest('"reason" must be a string');
      if (fields.reply !== undefined)
        throw badRequest('this session waits for an approval, not a reply: send {"approve": true|false}');
      for (const field of ['call_id', 'args_sha256'] as const) {
        if (fields[field] !== undefined && typeof fields[field] !== 'string')
          throw badRequest(`"${field}" must be a string (from the pending result's approval)`);
      }
      // Who decides over HTTP is the token's user (docs/results.md): written as http_user, never as a claim.
      document = { session_id: sessionId, ...fields, http_user: user };
    } else {
      if (fields.approve !== undefined)
        throw conflict('this session waits for a reply, not an approval: send {"reply": "..."}');
      if (typeof fields.reply !== 'string' || fields.reply.trim() === '')
        throw badRequest('send {"reply": "..."} with the answer to the pending question');
      document = { session_id: sessionId, reply: fields.reply, user };
      const parsed = parseRequestFile(
        'reply.json',
        Buffer.from(JSON.stringify(document), 'utf8'),
        this.options.maxBytes,
      );
      if (parsed.kind === 'invalid') throw badRequest(parsed.reason);
    }
    const name = `reply-${sessionId}-${Date.now()}-${randomBase36(6)}.json`;
    await this.options.submit({ name, text: `${JSON.stringify(document)}\n`, requestId: null });
  }

  /**
   * Hands a control (docs/run-control.md) on `sessionId` to the intake, durably, as the token's
   * user; 400 for a bad body. With `settle`, resolves with how the daemon applied it (a fork's new
   * ids), else once it is durable. `events` is where the work source tells (control_settled).
   */
  async control(
    sessionId: string,
    action: ControlAction,
    body: unknown,
    user: string,
    settle: { events: SessionEvents; timeoutMs: number } | null,
  ): Promise<ControlOutcome | null> {
    const fields = body === undefined || body === null ? {} : objectBody(body, '{"reason": "..."}');
    const checked = parseControlDocument(fields, 'http');
    if (checked.kind === 'invalid' && !checked.reason.startsWith('"control"')) throw badRequest(checked.reason);
    const document = { control: action, session_id: sessionId, ...fields, http_user: user };
    const parsed = parseControlDocument(document);
    if (parsed.kind === 'invalid') throw badRequest(parsed.reason);
    const name = `control-${action}-${sessionId}-${Date.now()}-${randomBase36(6)}.json`;
    let settled: ((outcome: ControlOutcome) => void) | null = null;
    const outcome = settle
      ? new Promise<ControlOutcome>((resolve) => {
          settled = resolve;
        })
      : null;
    const off = settle?.events.on('control_settled', (event) => {
      if (event.source_file === name) settled?.(event);
    });
    try {
      await this.options.submit({ name, text: `${JSON.stringify(document)}\n`, requestId: null });
      if (!outcome || !settle) return null;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), settle.timeoutMs);
      });
      try {
        return await Promise.race([outcome, timeout]);
      } finally {
        clearTimeout(timer);
      }
    } finally {
      off?.();
    }
  }

  /** The user and session a request id belongs to, from its registry marker; null when never accepted. */
  async ownerOf(requestId: string): Promise<{ user: string; sessionId: string | null } | null> {
    if (!REQUEST_ID_PATTERN.test(requestId)) return null;
    let text: string;
    try {
      // Sized by what is there (a request file or a short marker), not by the cap: a status poll
      // allocated and zeroed max_bytes (1 MB) before, and its GC cost more than the rest of the GET.
      const limit = Math.min(this.options.maxBytes + 1, 4 * 1024 * 1024);
      text = readAtMost(this.options.registry.markerPathOf(requestId), limit, 4096).toString('utf8');
    } catch {
      return this.options.reads ? this.options.reads.ownerOf(requestId) : null;
    }
    // The marker is the request file itself (a hard link); a JSON marker names where the file was.
    let document: unknown = null;
    try {
      document = JSON.parse(text);
    } catch {
      return { user: 'local', sessionId: null };
    }
    if (isPlainObject(document) && typeof document.claimed_path === 'string' && document.format_version !== undefined) {
      try {
        document = JSON.parse(await readFile(document.claimed_path, 'utf8'));
      } catch {
        return { user: 'local', sessionId: null };
      }
    }
    if (!isPlainObject(document)) return { user: 'local', sessionId: null };
    return {
      user: typeof document.user === 'string' ? document.user : 'local',
      sessionId: typeof document.session_id === 'string' ? document.session_id : null,
    };
  }

  private duplicate(requestId: string) {
    return conflict(
      `request_id "${requestId}" was already accepted (it is queued, running or finished): GET /v1/requests/${requestId} shows it; use a new ` +
        `request_id for a new request`,
    );
  }
}
