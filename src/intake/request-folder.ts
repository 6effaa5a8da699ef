/**
 * A request folder (docs/attachments.md): one `request.txt|md|json` at its top and other regular
 * files (in subfolders too), its attachments. Read without following anything: a symlink or a
 * special file anywhere, a name that is not UTF-8 or holds a control character or a bidi override,
 * no request file or several, or more than `intake.attachments` allows refuses the whole folder,
 * with a reason that says what to fix. A dropped folder is read from the daemon's own copy
 * (folder-receipt.ts made it at the claim), so what is hashed here is what the session gets.
 */
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { GovflowError } from '../errors.js';
import { hashFile, mediaTypeOf, type AttachmentInfo } from '../store/attachment-records.js';

/** `intake.attachments` as the intake checks it. */
export interface AttachmentLimits {
  max_files: number;
  max_bytes: number;
}

/** A folder listed, not read: its request file (top-level name) and its attachments' paths and sizes. */
export interface RequestFolderListing {
  kind: 'listed';
  requestFile: string;
  attachments: Array<{ path: string; bytes: number }>;
}

/** A folder that is a request: its request file (top-level name) and its attachments, hashed. */
export interface RequestFolderContents {
  kind: 'folder';
  requestFile: string;
  attachments: AttachmentInfo[];
}

export type RequestFolderReading = RequestFolderContents | { kind: 'invalid'; reason: string };

/** The names a request file may have, at the folder's top (compared case-insensitively). */
export const REQUEST_FILE_NAMES: readonly string[] = ['request.txt', 'request.md', 'request.json'];

/** Subfolders deeper than this are refused (no request needs them; a runaway copy might). */
const MAX_DEPTH = 16;
/** Entries looked at before giving up on a folder far past any limit. */
const WALK_CAP = 10_000;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Control characters (C0, DEL, C1) and the Unicode bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069). */
const UNSAFE_NAME_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** `name` for a message: its control characters and bidi overrides written as \uXXXX, so the reader sees them. */
export function shownPath(name: string): string {
  return name.replace(
    new RegExp(UNSAFE_NAME_CHARACTERS.source, 'g'),
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Why `name` (an attachment path) cannot be kept, or null: a control character breaks every
 * prompt's attachment list and the report, a bidi override shows a reader another name.
 */
export function unsafeNameProblem(name: string): string | null {
  const found = UNSAFE_NAME_CHARACTERS.exec(name);
  if (!found) return null;
  const code = found[0].charCodeAt(0);
  const what = code >= 0x2000 ? 'a Unicode bidi override' : 'a control character';
  return `the name "${shownPath(name)}" holds ${what} (U+${code.toString(16).toUpperCase().padStart(4, '0')}): rename it with printable characters only`;
}

export function isRequestFileName(name: string): boolean {
  return REQUEST_FILE_NAMES.includes(name.toLowerCase());
}

/** A name for the operator when it is not UTF-8: the bytes that decode, the others as \xNN. */
function shownName(bytes: Buffer): string {
  let shown = '';
  for (const byte of bytes)
    shown += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16)}`;
  return shown;
}

interface Walked {
  requestFiles: string[];
  attachments: Array<{ path: string; bytes: number }>;
  totalBytes: number;
  entries: number;
}

/** What makes a folder no request folder; caught in this file and turned into the refusal's reason. */
class FolderRefused extends GovflowError {
  override readonly name = 'FolderRefused';
  constructor(reason: string) {
    super('request', reason);
  }
}

function refuse(reason: string): never {
  throw new FolderRefused(reason);
}

/** Lists `relative` (under `folder`) into `walked`; refuses on the first thing that cannot be an attachment. */
function walk(folder: string, relative: string, depth: number, walked: Walked, limits: AttachmentLimits): void {
  const where = relative === '' ? folder : path.join(folder, relative);
  const entries: Array<Dirent<Buffer>> = readdirSync(where, { withFileTypes: true, encoding: 'buffer' });
  entries.sort((left, right) => Buffer.compare(left.name, right.name));
  for (const entry of entries) {
    if (++walked.entries > WALK_CAP)
      refuse(
        `the folder holds more than ${WALK_CAP} entries, far past intake.attachments.max_files (${limits.max_files}): send fewer files`,
      );
    let name: string;
    try {
      name = utf8.decode(entry.name);
    } catch {
      const shown = relative === '' ? shownName(entry.name) : `${relative}/${shownName(entry.name)}`;
      return refuse(
        `the name "${shown}" in the folder is not UTF-8: rename it with UTF-8 characters only (attachment paths are recorded as text)`,
      );
    }
    const child = relative === '' ? name : `${relative}/${name}`;
    if (name === '.' || name === '..' || name.includes('/') || name.includes('\0'))
      refuse(`the name "${shownPath(child)}" would lead outside the folder: rename it`);
    const unsafe = unsafeNameProblem(child);
    if (unsafe) refuse(`${unsafe} (the whole folder was refused)`);
    const stats = lstatSync(path.join(folder, child));
    if (stats.isSymbolicLink())
      refuse(
        `"${child}" is a symbolic link, and links are never followed: copy the file itself into the folder (the whole folder was refused)`,
      );
    if (stats.isDirectory()) {
      if (depth + 1 > MAX_DEPTH)
        refuse(
          `"${child}" is nested deeper than ${MAX_DEPTH} folders: flatten the folder (the whole folder was refused)`,
        );
      walk(folder, child, depth + 1, walked, limits);
      continue;
    }
    if (!stats.isFile())
      refuse(
        `"${child}" is not a regular file (a device, pipe or socket): remove it, a request folder holds only files and folders (the whole folder was refused)`,
      );
    if (relative === '' && isRequestFileName(name)) {
      walked.requestFiles.push(name);
      continue;
    }
    walked.attachments.push({ path: child, bytes: stats.size });
    walked.totalBytes += stats.size;
    if (walked.attachments.length > limits.max_files)
      refuse(
        `the folder holds more than ${limits.max_files} attachments, over intake.attachments.max_files: send at most ${limits.max_files} ` +
          `files with one request, or raise the limit in govflow.config.yaml`,
      );
    if (walked.totalBytes > limits.max_bytes)
      refuse(
        `the attachments are over ${limits.max_bytes} bytes in all (intake.attachments.max_bytes): send smaller files, fewer of them, or ` +
          `raise the limit in govflow.config.yaml`,
      );
  }
}

/**
 * The request file and the attachments of `folder` (paths and sizes, nothing read), or why it is
 * no request folder. Throws only for I/O failures (the folder vanished, permissions).
 */
export function listRequestFolder(
  folder: string,
  limits: AttachmentLimits,
): RequestFolderListing | { kind: 'invalid'; reason: string } {
  const walked: Walked = { requestFiles: [], attachments: [], totalBytes: 0, entries: 0 };
  try {
    walk(folder, '', 0, walked, limits);
  } catch (error) {
    if (error instanceof FolderRefused) return { kind: 'invalid', reason: error.message };
    throw error;
  }
  if (walked.requestFiles.length === 0)
    return {
      kind: 'invalid',
      reason:
        `the folder holds no request file: put the request in ${REQUEST_FILE_NAMES.join(', ')} (exactly one) at the top of the folder, ` +
        `next to the attachments`,
    };
  if (walked.requestFiles.length > 1)
    return {
      kind: 'invalid',
      reason: `the folder holds several request files (${walked.requestFiles.join(', ')}): keep exactly one of ${REQUEST_FILE_NAMES.join(', ')}`,
    };
  return { kind: 'listed', requestFile: walked.requestFiles[0], attachments: walked.attachments };
}

/**
 * The request file and the attachments of `folder`, hashed, or why it is no request folder.
 * Throws only for I/O failures (the folder vanished, permissions): those are not the sender's to fix.
 */
export async function readRequestFolder(folder: string, limits: AttachmentLimits): Promise<RequestFolderReading> {
  const listing = listRequestFolder(folder, limits);
  if (listing.kind === 'invalid') return listing;
  const attachments: AttachmentInfo[] = [];
  for (const attachment of listing.attachments) {
    const { sha256, bytes } = await hashFile(path.join(folder, attachment.path));
    attachments.push({ path: attachment.path, sha256, bytes, type: mediaTypeOf(attachment.path) });
  }
  return { kind: 'folder', requestFile: listing.requestFile, attachments };
}
