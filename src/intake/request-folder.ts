/**
 * A request folder (docs/attachments.md): one `request.txt|md|json` at its top and other regular
 * files (in subfolders too), its attachments. Read without following anything: a symlink or a
 * special file anywhere, a name that is not UTF-8, no request file or several, or more than
 * `intake.attachments` allows refuses the whole folder, with a reason that says what to fix.
 */
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { GovflowError } from '../errors.js';
import { hashFile, mediaTypeOf, type AttachmentInfo } from '../store/attachment-records.js';

/** `intake.attachments` as the intake checks it. */
export interface AttachmentLimits {
  max_files: number;
  max_bytes: number;
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
      refuse(`the name "${child}" would lead outside the folder: rename it`);
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
 * The request file and the attachments of `folder`, or why it is no request folder. Throws only
 * for I/O failures (the folder vanished, permissions): those are not the sender's to fix.
 */
export async function readRequestFolder(folder: string, limits: AttachmentLimits): Promise<RequestFolderReading> {
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
  const attachments: AttachmentInfo[] = [];
  for (const attachment of walked.attachments) {
    const { sha256, bytes } = await hashFile(path.join(folder, attachment.path));
    attachments.push({ path: attachment.path, sha256, bytes, type: mediaTypeOf(attachment.path) });
  }
  return { kind: 'folder', requestFile: walked.requestFiles[0], attachments };
}

/** Attachments are evidence, kept as delivered and readable by the daemon's user alone (mode 0600). */
export async function keepAsEvidence(folder: string, attachments: readonly AttachmentInfo[]): Promise<void> {
  for (const attachment of attachments) await chmod(path.join(folder, attachment.path), 0o600);
}
