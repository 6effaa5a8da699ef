/**
 * What an inbox file means (README "Folder layout"), from its name and bytes alone: a request, a
 * reply to a paused session, or something to fix, with a reason saying what. No I/O.
 */
import path from 'node:path';
import { jsonTextDepth } from '../message/json-depth.js';
import { describeType, isPlainObject } from '../message/json-text.js';
import { errorMessage } from '../errors.js';
import { parseControlDocument, type ParsedControl } from './control-file.js';
import { parseRequestLimits, type RequestLimits } from './request-limits.js';
import { isSessionId, REQUEST_ID_PATTERN } from './request-ids.js';

/** Extensions the inbox accepts, compared case-insensitively (`REQUEST.TXT` is a request too). */
export const ACCEPTED_EXTENSIONS: readonly string[] = ['.txt', '.md', '.json'];

/** Suffixes of files still being written by tools that write a temporary name and rename it. */
const IGNORED_SUFFIXES: readonly string[] = ['.tmp', '.part', '.swp', '~'];

export interface ParsedRequest {
  kind: 'request';
  /** The id the author chose, or null: the intake generates one. */
  requestId: string | null;
  text: string;
  sessionId: string | null;
  user: string | null;
  metadata: Record<string, unknown> | null;
  /**
   * Written by the daemon when it accepts a fork, retry or re-run (docs/run-control.md): the
   * original and the operator's act. Honoured only in files the daemon's own user wrote.
   */
  fork?: Record<string, unknown>;
  /** Written by the HTTP API for a chat message's turn (src/pipeline/chat-turn.ts); honoured only in files the daemon's own user wrote. */
  chat?: Record<string, unknown>;
  /** The request's own limits (SPEC §25), tightening the configured ones for its session. */
  limits?: RequestLimits;
}

export interface ParsedReply {
  kind: 'reply';
  sessionId: string;
  reply: string;
  /** A decision on a tool call waiting for approval (README "Give an agent tools"): `{"session_id", "approve", "reason"?, "user"?}`. */
  approval?: ApprovalDecision;
}

export interface ApprovalDecision {
  approve: boolean;
  reason: string | null;
  /** The `user` the file claims; who decided is the file's owner, or `httpUser` (docs/results.md). */
  user: string | null;
  /** The call the decision is for; null: the one call waiting. */
  callId: string | null;
  /** SHA-256 of the call's arguments as the person saw them; null: not named. */
  argsSha256: string | null;
  /** Written by the HTTP API for its token's user; honoured only in files the daemon's own user wrote. */
  httpUser: string | null;
}

export interface InvalidRequestFile {
  kind: 'invalid';
  /** One sentence for the operator: what is wrong and what to change. */
  reason: string;
}

export type ParsedRequestFile = ParsedRequest | ParsedReply | ParsedControl | InvalidRequestFile;

/** Hidden files and the temporary names editors, downloaders and `rsync` write under until they rename. */
export function isIgnoredName(name: string): boolean {
  if (name.startsWith('.')) return true;
  const lower = name.toLowerCase();
  return IGNORED_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}

/**
 * The fields of a JSON document by kind and source: an inbox file, or an HTTP body (docs/http-api.md),
 * whose user and session come from the token and URL (the daemon writes them into the claim). One
 * table and one check, so both paths refuse a field with the same reason.
 */
export const JSON_FIELDS = {
  request: {
    file: ['request', 'request_id', 'session_id', 'user', 'metadata', 'limits'],
    http: ['request', 'request_id', 'metadata', 'limits'],
  },
  reply: {
    file: ['session_id', 'reply', 'user'],
    // One body for both answers over HTTP: the session decides which it waits for.
    http: ['reply', 'approve', 'reason', 'call_id', 'args_sha256'],
  },
  approval: {
    file: ['session_id', 'approve', 'reason', 'user', 'call_id', 'args_sha256', 'http_user'],
    http: ['reply', 'approve', 'reason', 'call_id', 'args_sha256'],
  },
} as const satisfies Record<string, Record<JsonSource, readonly string[]>>;

export type JsonSource = 'file' | 'http';
export type JsonDocumentKind = keyof typeof JSON_FIELDS;

/** The reason a document holds a field its kind does not have; null when it holds none. */
export function unknownFieldReason(
  document: Record<string, unknown>,
  kind: JsonDocumentKind,
  source: JsonSource,
): string | null {
  const allowed: readonly string[] = JSON_FIELDS[kind][source];
  const unknown = Object.keys(document).find((key) => !allowed.includes(key));
  if (unknown === undefined) return null;
  const noun = kind === 'request' ? 'a request' : kind === 'reply' ? 'a reply' : 'an approval';
  return (
    `unknown field ${JSON.stringify(unknown.slice(0, 64))}: ${noun} has only ${allowed.map((key) => `"${key}"`).join(', ')} (remove it, ` +
    `or put it under "metadata" of a request)`
  );
}

function invalid(reason: string): InvalidRequestFile {
  return { kind: 'invalid', reason };
}

function checkSessionId(sessionId: string): string | null {
  if (!isSessionId(sessionId)) {
    return `"session_id" ${JSON.stringify(sessionId.slice(0, 140))} is not a session id: use the session_id from the pending result in system/outbox/`;
  }
  return null;
}

function parseReply(document: Record<string, unknown>): ParsedRequestFile {
  const unknown = unknownFieldReason(document, 'reply', 'file');
  if (unknown) return invalid(unknown);
  if (typeof document.session_id !== 'string') {
    return invalid('a reply needs "session_id" as a string: copy it from the pending result in system/outbox/');
  }
  if (typeof document.reply !== 'string') {
    return invalid(`"reply" must be a string, but it is ${describeType(document.reply)}`);
  }
  const sessionProblem = checkSessionId(document.session_id);
  if (sessionProblem) return invalid(sessionProblem);
  if (document.reply.trim() === '')
    return invalid('"reply" is empty: write the answer to the question in the pending result');
  return { kind: 'reply', sessionId: document.session_id, reply: document.reply };
}

function parseApproval(document: Record<string, unknown>): ParsedRequestFile {
  const unknown = unknownFieldReason(document, 'approval', 'file');
  if (unknown) return invalid(unknown);
  if (typeof document.session_id !== 'string') {
    return invalid('an approval needs "session_id" as a string: copy it from the pending result in system/outbox/');
  }
  if (typeof document.approve !== 'boolean') {
    return invalid(`"approve" must be true or false, but it is ${describeType(document.approve)}`);
  }
  for (const field of ['reason', 'user', 'call_id', 'args_sha256', 'http_user'] as const) {
    if (document[field] !== undefined && document[field] !== null && typeof document[field] !== 'string') {
      return invalid(`"${field}" must be a string when given, but it is ${describeType(document[field])}`);
    }
  }
  const sessionProblem = checkSessionId(document.session_id);
  if (sessionProblem) return invalid(sessionProblem);
  const text = (field: string) => (typeof document[field] === 'string' ? (document[field] as string) : null);
  const reason = text('reason');
  return {
    kind: 'reply',
    sessionId: document.session_id,
    reply: `${document.approve ? 'approved' : 'denied'}${reason ? `: ${reason}` : ''}`,
    approval: {
      approve: document.approve,
      reason,
      user: text('user'),
      callId: text('call_id'),
      argsSha256: text('args_sha256'),
      httpUser: text('http_user'),
    },
  };
}

/** A JSON request from a file or (`source: 'http'`) POST /v1/requests: one check for both. */
export function parseJsonRequest(given: Record<string, unknown>, source: JsonSource = 'file'): ParsedRequestFile {
  // The daemon's own field on the request of a fork (docs/run-control.md); never one a client sends.
  const { fork, chat, ...document } = source === 'file' ? given : { ...given, fork: undefined, chat: undefined };
  if (source === 'http' && (given.fork !== undefined || given.chat !== undefined))
    return invalid(unknownFieldReason(given, 'request', source)!);
  if (fork !== undefined && !isPlainObject(fork))
    return invalid(`"fork" is written by the daemon as an object; it is ${describeType(fork)}: leave it out`);
  if (chat !== undefined && !isPlainObject(chat))
    return invalid(`"chat" is written by the daemon as an object; it is ${describeType(chat)}: leave it out`);
  if (typeof document.request !== 'string') {
    const found = document.request === undefined ? 'it is missing' : `it is ${describeType(document.request)}`;
    return invalid(
      `"request" must be a string, but ${found}: write {"request": "..."} (or {"session_id": "...", "reply": "..."} to answer a paused session)`,
    );
  }
  const unknown = unknownFieldReason(document, 'request', source);
  if (unknown) return invalid(unknown);
  if (document.request.trim() === '') return invalid('"request" is empty: write what you want done');

  // Optional strings: absent or null means "not given"; anything else must be a string.
  for (const key of ['request_id', 'session_id', 'user']) {
    const value = document[key];
    if (value !== undefined && value !== null && typeof value !== 'string')
      return invalid(`"${key}" must be a string, but it is ${describeType(value)}`);
  }
  const text = (key: string) => (typeof document[key] === 'string' ? (document[key] as string) : null);
  const requestId = text('request_id');
  if (requestId !== null && !REQUEST_ID_PATTERN.test(requestId)) {
    return invalid(
      `"request_id" ${JSON.stringify(requestId.slice(0, 140))} is not allowed: use 1 to 128 characters from A-Z a-z 0-9 . _ -, not "." or ".." (or leave it ` +
        `out to get one generated)`,
    );
  }
  const sessionId = text('session_id');
  if (sessionId !== null) {
    const sessionProblem = checkSessionId(sessionId);
    if (sessionProblem) return invalid(sessionProblem);
  }
  const metadata = document.metadata;
  if (metadata !== undefined && metadata !== null && !isPlainObject(metadata)) {
    return invalid(`"metadata" must be a JSON object, but it is ${describeType(metadata)}`);
  }
  const limits = parseRequestLimits(document.limits);
  if (limits && 'invalid' in limits) return invalid(limits.invalid);
  return {
    kind: 'request',
    requestId,
    text: document.request,
    sessionId,
    user: text('user'),
    metadata: (metadata as Record<string, unknown> | undefined) ?? null,
    ...(fork !== undefined ? { fork } : {}),
    ...(chat !== undefined ? { chat } : {}),
    ...(limits ? { limits } : {}),
  };
}

/** Deepest nesting of a JSON request: deeper `metadata` would overflow the stack of the writers that walk it. */
export const MAX_REQUEST_DEPTH = 64;

function parseJson(text: string): ParsedRequestFile {
  if (jsonTextDepth(text, MAX_REQUEST_DEPTH).exceededAt !== null) {
    return invalid(`the JSON nests deeper than ${MAX_REQUEST_DEPTH} levels of objects and arrays: flatten "metadata"`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return invalid(`the file is not valid JSON (${errorMessage(error)}): fix the JSON, or save plain text as .txt`);
  }
  if (!isPlainObject(document)) {
    return invalid(`the JSON is ${describeType(document)}, not an object: write {"request": "..."}`);
  }
  // A control (docs/run-control.md) acts on a session; it is never a request, whatever else it holds.
  if (document.control !== undefined) return parseControlDocument(document);
  if (document.request === undefined && document.reply === undefined && document.approve !== undefined)
    return parseApproval(document);
  if (document.request === undefined && document.reply !== undefined) return parseReply(document);
  if (document.request !== undefined && document.reply !== undefined) {
    return invalid('the JSON has both "request" and "reply": a file is either a new request or a reply, not both');
  }
  return parseJsonRequest(document);
}

/** Parses one inbox file; `bytes` may hold one byte over `maxBytes`, to tell "at the limit" from "over". */
export function parseRequestFile(fileName: string, bytes: Buffer, maxBytes: number): ParsedRequestFile {
  const extension = path.extname(fileName).toLowerCase();
  if (!ACCEPTED_EXTENSIONS.includes(extension)) {
    const shown = extension === '' ? 'no extension' : `extension "${extension}"`;
    return invalid(`${shown} is not accepted: name the file *.txt or *.md (plain text) or *.json`);
  }
  if (bytes.length > maxBytes) {
    return invalid(
      `the file is larger than intake.max_bytes (${maxBytes} bytes): shorten the request or raise intake.max_bytes in govflow.config.yaml`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return invalid('the file is not valid UTF-8 text: save it with UTF-8 encoding');
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (text.trim() === '') return invalid('the file is empty: write the request into it');

  if (extension === '.json') return parseJson(text);
  return { kind: 'request', requestId: null, text, sessionId: null, user: null, metadata: null };
}
