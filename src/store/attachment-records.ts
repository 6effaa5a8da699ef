/**
 * Attachments as durable data (docs/attachments.md): the list a session records in its journal,
 * its first audit entry (`[ATTACHMENTS]`) and its result, each file by path, SHA-256, size and
 * media type. The media type is looked up by extension (mime-types), never sniffed.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime-types';

/** One attachment: its path inside the request folder (forward slashes), as delivered. */
export interface AttachmentInfo {
  path: string;
  sha256: string;
  bytes: number;
  /** The media type by extension; `application/octet-stream` when the extension says nothing. */
  type: string;
}

/** The text of a text attachment as the model may see it: redacted, perhaps cut at `inline_bytes`. */
export interface InlineAttachment {
  path: string;
  text: string;
  /** The bytes of the whole file, when the text was cut. */
  cutFrom?: number;
}

/** What a session records about its attachments (the session record of its journal). */
export interface SessionAttachments {
  files: AttachmentInfo[];
  /** Text attachments, redacted, in path order, within `intake.attachments.inline_bytes` in all. */
  inline: InlineAttachment[];
}

/** The workspace folder the attachments are copied to: `<workspace>/<session_id>/attachments/`. */
export const ATTACHMENTS_FOLDER = 'attachments';

/** Extensions whose UTF-8 text an agent may get inline in its prompt. */
export const TEXT_ATTACHMENT_EXTENSIONS: readonly string[] = [
  '.txt',
  '.md',
  '.csv',
  '.json',
  '.yaml',
  '.yml',
  '.xml',
  '.html',
];

/** Media types sent as file parts with `attachments: native` (what the openai, anthropic and google APIs take). */
export const NATIVE_MEDIA_TYPES: readonly string[] = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
];

export function mediaTypeOf(file: string): string {
  return mime.lookup(path.basename(file)) || 'application/octet-stream';
}

export function isTextAttachment(file: string): boolean {
  return TEXT_ATTACHMENT_EXTENSIONS.includes(path.extname(file).toLowerCase());
}

export function isNativeAttachment(type: string): boolean {
  return NATIVE_MEDIA_TYPES.includes(type);
}

/** Bytes read at a time when hashing: one buffer per file, reused, so a 20 MB file leaves no garbage behind. */
const HASH_BUFFER_BYTES = 256 * 1024;

/** SHA-256 and size of a file, read piece by piece into one buffer (a 20 MB attachment is never held whole). */
export async function hashFile(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  const handle = await open(file, 'r');
  let bytes = 0;
  try {
    const buffer = Buffer.allocUnsafe(HASH_BUFFER_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      bytes += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** The list as the audit line, the result and the event carry it: exactly these four keys, in this order. */
export function attachmentList(files: readonly AttachmentInfo[]): AttachmentInfo[] {
  return files.map(({ path: file, sha256, bytes, type }) => ({ path: file, sha256, bytes, type }));
}
