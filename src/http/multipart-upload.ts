/**
 * `POST /v1/requests` as multipart/form-data (docs/attachments.md): a part `request` and file parts
 * whose file names are the attachment paths, streamed to a staged folder in system/processing/ as
 * they arrive (@fastify/multipart over busboy: a 20 MB upload never sits in memory). The upload is
 * bounded by `intake.attachments` — `max_bytes` over all files, `max_files` files — not by
 * `http.max_body_bytes`: past either it stops reading and answers 413.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import type { AttachmentLimits } from '../intake/request-folder.js';
import { isRequestFileName, REQUEST_FILE_NAMES, unsafeNameProblem } from '../intake/request-folder.js';
import { badRequest, HttpProblem } from './http-problem.js';
import { watchPartHeaders } from './multipart-headers.js';

/** What an upload left in its staged folder: the `request` part's text and the attachment paths written. */
export interface Upload {
  request: string;
  paths: string[];
}

const tooLarge = (message: string) => new HttpProblem(413, 'payload_too_large', message);

/** The reason an uploaded file name cannot be an attachment path, or null. */
export function uploadPathProblem(name: string): string | null {
  const shown = JSON.stringify(name.slice(0, 200));
  if (name === '')
    return 'a file part has no file name: give each file part a filename (its path among the attachments)';
  if (name.includes('\uFFFD'))
    return `the file name ${shown} is not UTF-8: name the file with UTF-8 characters only (attachment paths are recorded as text)`;
  const unsafe = unsafeNameProblem(name);
  if (unsafe) return `the file ${unsafe.slice('the '.length)}`;
  if (name.includes('\\'))
    return `the file name ${shown} holds a backslash: separate folders with "/" (e.g. "annex/prices.csv")`;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name))
    return `the file name ${shown} is an absolute path: give a path relative to the request (e.g. "annex/prices.csv")`;
  const segments = name.split('/');
  if (segments.includes('..'))
    return `the file name ${shown} contains "..", which would lead outside the request's attachments: give a path inside it`;
  if (segments.some((segment) => segment === '' || segment === '.'))
    return `the file name ${shown} has an empty or "." folder in it: write the path plainly (e.g. "annex/prices.csv")`;
  if (segments.length === 1 && isRequestFileName(name))
    return (
      `the file name ${shown} is a request file's name, and the request comes from the "request" part: rename the file (a request has ` +
      `exactly one of ${REQUEST_FILE_NAMES.join(', ')})`
    );
  return null;
}

/** Counts bytes through; fails once the upload's files pass `maxBytes` in all. */
function byteCounter(counted: { bytes: number }, maxBytes: number): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counted.bytes += chunk.length;
      if (counted.bytes > maxBytes)
        return done(
          tooLarge(
            `the attached files are over ${maxBytes} bytes in all (intake.attachments.max_bytes): send smaller files, fewer of them, or raise ` +
              `the limit in govflow.config.yaml`,
          ),
        );
      done(null, chunk);
    },
  });
}

/**
 * Streams the parts of `request` into `folder`: file parts under their names, the `request` part
 * kept (at most `maxRequestBytes`). Throws an HttpProblem (400, 413) saying what to change; the
 * caller removes the folder then.
 */
export async function receiveUpload(
  request: FastifyRequest,
  folder: string,
  limits: AttachmentLimits,
  maxRequestBytes: number,
): Promise<Upload> {
  try {
    return await receiveParts(request, folder, limits, maxRequestBytes);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'FST_INVALID_JSON_FIELD_ERROR')
      throw badRequest(
        'a part sent as application/json is not valid JSON: send the part "request" as a JSON object ({"request": "...", ' +
          '"request_id"?, "metadata"?}) or as plain text',
      );
    // The client went away mid-upload: its fault, not ours (no 500, no error in the log).
    const cutOff =
      request.raw.destroyed ||
      request.raw.readableAborted ||
      request.raw.socket?.destroyed === true ||
      (error as { code?: unknown }).code === 'ECONNRESET' ||
      (error as { code?: unknown }).code === 'FST_MP_PREMATURE_CLOSE';
    if (!(error instanceof HttpProblem) && cutOff)
      throw badRequest('the upload was cut off before its end: send it again');
    throw error;
  }
}

async function receiveParts(
  request: FastifyRequest,
  folder: string,
  limits: AttachmentLimits,
  maxRequestBytes: number,
): Promise<Upload> {
  const counted = { bytes: 0 };
  const paths: string[] = [];
  let text: string | null = null;
  const parts: AsyncIterable<Multipart> = request.parts({
    preservePath: true,
    limits: {
      // One more than allowed of each, so that going past is our own 413 with its reason.
      files: limits.max_files + 1,
      fileSize: limits.max_bytes + 1,
      fieldSize: maxRequestBytes + 1,
      fields: 8,
      parts: limits.max_files + 9,
    },
    throwFileSizeLimit: false,
  } as Parameters<FastifyRequest['parts']>[0]);
  // In this tick, before the body flows: the parser reads it from the first iteration on.
  const headerProblem = watchPartHeaders(request.raw);
  let delivered = 0;
  for await (const part of parts) {
    delivered += 1;
    if (part.type === 'field') {
      if (part.fieldname !== 'request')
        throw badRequest(
          `unknown part "${part.fieldname.slice(0, 64)}": send a part "request" (the text, or a JSON object {"request": "...", "request_id"?, ` +
            `"metadata"?}) and file parts`,
        );
      if (text !== null) throw badRequest('the part "request" was sent twice: send it once');
      // A part sent as application/json reaches here parsed (@fastify/multipart): its JSON again.
      const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      if (part.valueTruncated || Buffer.byteLength(value) > maxRequestBytes)
        throw tooLarge(
          `the part "request" is larger than intake.max_bytes (${maxRequestBytes} bytes): shorten it (put long texts in attached files) or ` +
            `raise intake.max_bytes`,
        );
      text = value;
      continue;
    }
    const name = part.filename;
    const problem = uploadPathProblem(name);
    if (problem) throw badRequest(problem);
    if (paths.includes(name)) throw badRequest(`two file parts are named ${JSON.stringify(name)}: name each file once`);
    if (paths.length + 1 > limits.max_files)
      throw tooLarge(
        `the request has more than ${limits.max_files} attached files (intake.attachments.max_files): send at most ${limits.max_files}, or ` +
          `raise the limit in govflow.config.yaml`,
      );
    const target = path.join(folder, ...name.split('/'));
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await pipeline(
      part.file,
      byteCounter(counted, limits.max_bytes),
      createWriteStream(target, { flags: 'wx', mode: 0o600 }),
    );
    paths.push(name);
  }
  const problem = headerProblem(delivered);
  if (problem) throw badRequest(problem);
  if (text === null)
    throw badRequest(
      'no part "request": send the request text (or {"request": "..."} as JSON) in a form field named "request", beside the file parts',
    );
  return { request: text, paths };
}
