/**
 * A claimed file (in system/processing/) as an intake item, right after its claim or after a crash.
 * Reading never follows a symlink and never reads more than `maxBytes + 1` bytes.
 */
import { closeSync, constants, lstatSync, openSync, readSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { claimedAtOf, generatedRequestIdFor, originalNameOf, parseClaimName } from './claim-name.js';
import { parseRequestFile, type ParsedReply, type ParsedRequest } from './request-file.js';
import type { ParsedControl } from './control-file.js';
import { errorCode } from '../errors.js';
import type { AttachmentInfo } from '../store/attachment-records.js';
import { readRequestFolder, type AttachmentLimits } from './request-folder.js';

interface ItemSource extends RequestFileRef {
  receivedAt: Date;
}

/** A claimed request or reply file: where it is in system/processing/ and the name it came with. */
export interface RequestFileRef {
  /** Absolute path of the claimed file in system/processing/. */
  claimedPath: string;
  /** The name the operator gave the file in the inbox. */
  sourceFile: string;
}

export interface IntakeRequest extends ItemSource, Omit<ParsedRequest, 'requestId'> {
  /** The author's request_id, or the one generated at the claim (stable across restarts). */
  requestId: string;
  /** Set for a request folder (docs/attachments.md): `claimedPath` is the folder. */
  attachments?: ClaimedAttachments;
}

/** The request file and the attachments of a claimed request folder. */
export interface ClaimedAttachments {
  /** The request file's name at the folder's top (`request.txt`, …). */
  requestFile: string;
  files: AttachmentInfo[];
}

/** The file a request's id is claimed with (its registry marker links to it): a folder's request file. */
export function claimTargetOf(item: IntakeRequest): string {
  return item.attachments ? path.join(item.claimedPath, item.attachments.requestFile) : item.claimedPath;
}

/** A reply, or an approval decision on a waiting tool call (README "Give an agent tools"). */
export type IntakeReply = ItemSource & ParsedReply;

/** A control: a cancel, fork, retry or re-run of a session (docs/run-control.md). */
export type IntakeControl = ItemSource & ParsedControl;

/** What the handler receives: a new request, a reply that resumes a paused session, or a control. */
export type IntakeItem = IntakeRequest | IntakeReply | IntakeControl;

/** A claimed file that cannot be an item; the caller moves it to failed/ (see moveToFailed). */
export interface IntakeRejection {
  kind: 'rejected';
  /** The operator's original file name. */
  file: string;
  claimedPath: string;
  reason: string;
}

function describeNonRegular(stats: import('node:fs').Stats): string | null {
  if (stats.isSymbolicLink()) {
    return 'it is a symbolic link, and links are never followed: copy or move the file itself into system/inbox/';
  }
  if (stats.isDirectory()) {
    return 'it is a folder: put request files directly in system/inbox/, or make it a request folder (request.txt plus attachments, docs/attachments.md)';
  }
  if (!stats.isFile())
    return 'it is not a regular file (device, pipe or socket): drop a regular .txt, .md or .json file';
  return null;
}

/**
 * At most `limit` bytes; O_NOFOLLOW fails on a symlink swapped in after lstat. `sizeHint` sizes the
 * buffer. Synchronous: a small file in the page cache costs less than the thread-pool round trips.
 */
export function readAtMost(file: string, limit: number, sizeHint: number): Buffer {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    let buffer = Buffer.allocUnsafe(Math.min(limit, sizeHint + 1));
    let filled = 0;
    while (filled < limit) {
      if (filled === buffer.length) {
        const grown = Buffer.allocUnsafe(Math.min(limit, buffer.length * 2));
        buffer.copy(grown, 0, 0, filled);
        buffer = grown;
      }
      const bytesRead = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

/**
 * The item of a claimed file or request folder, or a rejection saying what to fix. Throws only for
 * I/O failures. Without `attachments` (limits) a folder is refused as before request folders existed.
 */
export async function readClaimedFile(
  claimedPath: string,
  maxBytes: number,
  attachments?: AttachmentLimits,
): Promise<IntakeItem | IntakeRejection> {
  const absolutePath = path.resolve(claimedPath);
  const sourceFile = originalNameOf(absolutePath);
  const stats = lstatSync(absolutePath);
  const rejected = (reason: string): IntakeRejection => ({
    kind: 'rejected',
    file: sourceFile,
    claimedPath: absolutePath,
    reason,
  });
  if (stats.isDirectory() && attachments) return readClaimedFolder(absolutePath, maxBytes, attachments, stats.mtime);
  const nonRegular = describeNonRegular(stats);
  if (nonRegular) return rejected(nonRegular);
  if (stats.size > maxBytes) {
    return rejected(
      `the file is ${stats.size} bytes, over intake.max_bytes (${maxBytes}): shorten the request or raise intake.max_bytes in govflow.config.yaml`,
    );
  }
  return claimedItem(absolutePath, readAtMost(absolutePath, maxBytes + 1, stats.size), maxBytes, stats.mtime);
}

/** A claimed request folder (the daemon's own copy, folder-receipt.ts): its request file parsed as an inbox file would be. */
async function readClaimedFolder(
  folder: string,
  maxBytes: number,
  limits: AttachmentLimits,
  mtime: Date,
): Promise<IntakeRequest | IntakeRejection> {
  const sourceFile = originalNameOf(folder);
  const rejected = (reason: string): IntakeRejection => ({
    kind: 'rejected',
    file: sourceFile,
    claimedPath: folder,
    reason,
  });
  const contents = await readRequestFolder(folder, limits);
  if (contents.kind === 'invalid') return rejected(contents.reason);
  const requestPath = path.join(folder, contents.requestFile);
  const size = lstatSync(requestPath).size;
  if (size > maxBytes)
    return rejected(
      `its ${contents.requestFile} is ${size} bytes, over intake.max_bytes (${maxBytes}): shorten the request (put long texts in attachments) ` +
        `or raise intake.max_bytes`,
    );
  const parsed = parseRequestFile(contents.requestFile, readAtMost(requestPath, maxBytes + 1, size), maxBytes);
  if (parsed.kind === 'invalid') return rejected(`its ${contents.requestFile}: ${parsed.reason}`);
  if (parsed.kind === 'reply')
    return rejected(
      `its ${contents.requestFile} is a reply to a paused session; a request folder holds a new request: drop replies as files in system/inbox/`,
    );
  if (parsed.kind === 'control')
    return rejected(
      `its ${contents.requestFile} is a control (docs/run-control.md); a request folder holds a new request: drop controls as files in system/inbox/`,
    );
  return {
    ...parsed,
    requestId: parsed.requestId ?? generatedRequestIdFor(folder),
    sourceFile,
    claimedPath: folder,
    receivedAt: claimedAtOf(folder) ?? mtime,
    attachments: { requestFile: contents.requestFile, files: contents.attachments },
  };
}

/** readClaimedFile without the read (a submission hands its text over); `mtime` dates a hand-placed file. */
export function claimedItem(
  claimedPath: string,
  bytes: Buffer,
  maxBytes: number,
  mtime: Date = new Date(),
): IntakeItem | IntakeRejection {
  const absolutePath = path.resolve(claimedPath);
  const sourceFile = originalNameOf(absolutePath);
  const parsed = parseRequestFile(sourceFile, bytes, maxBytes);
  const source: ItemSource = {
    sourceFile,
    claimedPath: absolutePath,
    receivedAt: claimedAtOf(absolutePath) ?? mtime,
  };
  switch (parsed.kind) {
    case 'invalid':
      return { kind: 'rejected', file: sourceFile, claimedPath: absolutePath, reason: parsed.reason };
    case 'reply':
    case 'control':
      return { ...parsed, ...source };
    case 'request':
      return { ...parsed, requestId: parsed.requestId ?? generatedRequestIdFor(absolutePath), ...source };
  }
}

/** Claims left in system/processing/, oldest first, as absolute paths (hidden names are temp files). */
export async function recoverClaimedFiles(paths: SystemPaths): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(paths.processing);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const claims = names
    .filter((name) => !name.startsWith('.'))
    .map((name) => ({ name, claimedAt: parseClaimName(name)?.claimedAt.getTime() ?? 0 }));
  claims.sort(
    (left, right) => left.claimedAt - right.claimedAt || (left.name < right.name ? -1 : left.name > right.name ? 1 : 0),
  );
  return claims.map((claim) => path.join(path.resolve(paths.processing), claim.name));
}
