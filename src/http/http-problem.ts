/** The HTTP API's errors (docs/http-api.md): `{"error": {"code", "message"}}`, for routes' and Fastify's alike. */
import type { IncomingMessage } from 'node:http';
import { deletedRequest } from '../audit/log-retention.js';
import { errorMessage, GovflowError, type GovflowErrorKind } from '../errors.js';

export type ProblemCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'stopping'
  | 'not_ready'
  | 'too_many_requests'
  | 'queue_full'
  | 'keys_unavailable'
  | 'internal';

/** An error whose message is meant for the API client: it says what was wrong and what to send instead. */
export class HttpProblem extends GovflowError {
  override readonly name = 'HttpProblem';

  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    message: string,
    /** Sent as Retry-After (429, 503): when the client may try again. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(kindOfStatus(status), message, { retryable: status === 503 || status === 429 });
  }

  toBody(): { error: { code: ProblemCode; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

/** 4xx: the client must change what it sends; 503: starting or stopping, retry; other 5xx: our defect. */
function kindOfStatus(status: number): GovflowErrorKind {
  if (status < 500) return 'request';
  return status === 503 ? 'interrupted' : 'internal';
}

export const badRequest = (message: string) => new HttpProblem(400, 'bad_request', message);
export const notFound = (what: string) =>
  new HttpProblem(404, 'not_found', `${what} does not exist or is not yours to see`);
/** 404 naming the deletion, for a request or session audit retention deleted (the root's archive/deleted.jsonl); else null. */
export function retentionGone(logsDir: string, kind: 'requests' | 'sessions', id: string): HttpProblem | null {
  const deletion = deletedRequest(logsDir, id, kind);
  if (deletion === null) return null;
  const [what, gone] = kind === 'requests' ? ['request', 'result and journal are'] : ['session', 'journal is'];
  return new HttpProblem(
    404,
    'not_found',
    `${what} "${id}" ended on a day audit retention deleted (through ${deletion.day}, at ${deletion.at}): its ${gone} gone ` +
      `(audit.retention.delete_after_days)`,
  );
}

/** The deletion's 404 when retention deleted it, else the plain one. */
export function goneOrNotFound(logsDir: string, kind: 'requests' | 'sessions', id: string): HttpProblem {
  return (
    retentionGone(logsDir, kind, id) ?? notFound(`${kind === 'requests' ? 'request' : 'session'} "${id.slice(0, 140)}"`)
  );
}

export const forbidden = (message: string) => new HttpProblem(403, 'forbidden', message);
export const conflict = (message: string) => new HttpProblem(409, 'conflict', message);
export const stopping = () =>
  new HttpProblem(503, 'stopping', 'govflow is shutting down and accepts no new work; retry once it is back');

/** Fastify error codes (see fastify/lib/errors.js) mapped to what the client should fix. */
const FASTIFY_PROBLEMS: Record<string, (maxBodyBytes: number, detail: string) => HttpProblem> = {
  FST_ERR_CTP_BODY_TOO_LARGE: (max) =>
    new HttpProblem(
      413,
      'payload_too_large',
      `the request body is larger than http.max_body_bytes (${max} bytes): send less, or raise http.max_body_bytes`,
    ),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    badRequest('the body must be JSON: send it with "Content-Type: application/json"'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    badRequest('the body is shorter or longer than its Content-Length header says: send the whole body'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => badRequest('the body is empty but Content-Type says JSON: send a JSON object'),
  FST_ERR_CTP_INVALID_JSON_BODY: (_max, detail) =>
    badRequest(`the body is not valid JSON (${detail}): send one JSON object`),
  FST_ERR_CTP_INVALID_TYPE: () =>
    badRequest('the Content-Type header is malformed: send "Content-Type: application/json"'),
};

/** Any error a route or Fastify raised, as the problem to answer with. */
export function problemOf(error: unknown, maxBodyBytes: number): HttpProblem {
  if (error instanceof HttpProblem) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const detail = errorMessage(error);
  if (typeof code === 'string' && FASTIFY_PROBLEMS[code]) return FASTIFY_PROBLEMS[code](maxBodyBytes, detail);
  if (error instanceof SyntaxError) return badRequest(`the body is not valid JSON (${detail}): send one JSON object`);
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new HttpProblem(status === 413 ? 413 : 400, status === 413 ? 'payload_too_large' : 'bad_request', detail);
  }
  return new HttpProblem(500, 'internal', `govflow failed to answer: ${detail}; the operational log has the details`);
}

/** How much of a refused request's body is read and dropped before answering (see discardRest). */
const DISCARD_BYTES = 64 * 1024 * 1024;
const DISCARD_MS = 10_000;

/**
 * Reads and drops what is left of a request refused before its body was read to the end (a 413
 * mid-upload), so that a client still sending hears the answer instead of a broken pipe — a
 * lingering close, as nginx does. False when it gave up (over 64 MB or 10 s left): answer with
 * `Connection: close`.
 */
export async function discardRest(raw: IncomingMessage): Promise<boolean> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return true;
  return new Promise((resolve) => {
    let bytes = 0;
    const done = (whole: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      if (!whole) raw.pause();
      resolve(whole);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DISCARD_BYTES) done(false);
    };
    const onEnd = () => done(true);
    const onClose = () => done(raw.complete);
    const timer = setTimeout(() => done(false), DISCARD_MS);
    raw.on('data', onData).once('end', onEnd).once('close', onClose).once('error', onClose);
    raw.resume();
  });
}
