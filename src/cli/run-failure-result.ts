/**
 * The result `govflow run` prints when an internal error left the session none (docs/results.md:
 * `failed`, PROCESSING_ERROR), so a caller reading `--json` always gets one.
 */
import { errorMessage } from '../errors.js';
import { isoInTimeZone } from '../message/zoned-time.js';
import { RESULT_FORMAT, type ResultDocument } from '../pipeline/session-result.js';

export interface InternalFailure {
  /** Null when the request never got an id (the failure came first). */
  requestId: string | null;
  sessionId: string | null;
  sourceFile: string;
  startedAt: Date;
  error: unknown;
  timezone: string;
}

export function internalFailureResult(failure: InternalFailure, finishedAt: Date = new Date()): ResultDocument {
  const message =
    `govflow could not finish this request: an internal error stopped the session (${errorMessage(failure.error)}); its ` +
    `journal, if any, is under system/sessions/`;
  return {
    format: RESULT_FORMAT,
    request_id: failure.requestId ?? '',
    session_id: failure.sessionId ?? '',
    source_file: failure.sourceFile,
    status: 'failed',
    output: null,
    message,
    answer: message,
    conversation_id: failure.sessionId ?? '',
    conversation_turn: 0,
    error: {
      has_error: true,
      error_code: 'PROCESSING_ERROR',
      error_message: message,
      retry_count: 0,
      recoverable: true,
    },
    messages: 0,
    started_at: isoInTimeZone(failure.startedAt, failure.timezone),
    finished_at: isoInTimeZone(finishedAt, failure.timezone),
    usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 },
  };
}
