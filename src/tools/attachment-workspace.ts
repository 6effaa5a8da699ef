/**
 * A session's attachments in its workspace (docs/attachments.md): `<workspace>/<session_id>/attachments/<path>`,
 * copied before the first step, byte for byte as delivered (each copy checked against its SHA-256),
 * mode 0600. The file tools read them; writing tools refuse the folder (workspace-paths.ts).
 * A copy is written beside the folder and renamed into place, so a crash never leaves half of it.
 */
import { constants } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { GovflowError } from '../errors.js';
import { ATTACHMENTS_FOLDER, hashFile, type AttachmentInfo } from '../store/attachment-records.js';
import { fsyncDirectory } from '../store/append-only-file.js';
import { ensureWorkspace } from './workspace-paths.js';

/** A copy whose bytes differ from the list: the source changed after the list was made. */
export class AttachmentChangedError extends GovflowError {
  override readonly name = 'AttachmentChangedError';
  constructor(message: string) {
    super('internal', message);
  }
}

/**
 * Where attachments are copied from: a folder holding them under their paths (a request folder,
 * another workspace: copied by the kernel, no bytes through memory), or a reader of their bytes
 * (the store, in cluster mode).
 */
export type AttachmentSource = { folder: string } | { read: (file: AttachmentInfo) => AsyncIterable<Uint8Array> };

/** `<workspace>/<session_id>/attachments`. */
export function attachmentsFolderOf(sessionWorkspace: string): string {
  return path.join(sessionWorkspace, ATTACHMENTS_FOLDER);
}

/** Every attachment in place with its size (the hashes were checked when it was copied). */
export async function attachmentsPresent(sessionWorkspace: string, files: readonly AttachmentInfo[]): Promise<boolean> {
  for (const file of files) {
    const stats = await lstat(path.join(attachmentsFolderOf(sessionWorkspace), file.path)).catch(() => null);
    if (!stats || !stats.isFile() || stats.size !== file.bytes) return false;
  }
  return true;
}

/** A path from a list is only ever a relative path below the folder (the intake checked it; this checks again). */
function targetOf(folder: string, file: AttachmentInfo): string {
  const target = path.resolve(folder, file.path);
  if (path.isAbsolute(file.path) || file.path.split('/').includes('..') || !target.startsWith(folder + path.sep))
    throw new GovflowError('internal', `attachment path "${file.path}" leads outside the attachments folder`);
  return target;
}

/**
 * Writes `files` from `source` into `sessionWorkspace/attachments/`, replacing what a crash may
 * have left there; throws when a copy's SHA-256 differs from the list (the source changed).
 */
export async function materializeAttachments(
  sessionWorkspace: string,
  files: readonly AttachmentInfo[],
  source: AttachmentSource,
  durable = true,
): Promise<void> {
  const folder = attachmentsFolderOf(sessionWorkspace);
  const staging = path.join(sessionWorkspace, `.${ATTACHMENTS_FOLDER}.tmp`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    await copyInto(staging, files, source, durable);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  await rm(folder, { recursive: true, force: true });
  await rename(staging, folder);
  if (durable) fsyncDirectory(sessionWorkspace);
}

async function copyInto(
  staging: string,
  files: readonly AttachmentInfo[],
  source: AttachmentSource,
  durable: boolean,
): Promise<void> {
  for (const file of files) {
    const target = targetOf(staging, file);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    if ('folder' in source) {
      await copyFile(targetOf(path.resolve(source.folder), file), target, constants.COPYFILE_EXCL);
      await chmod(target, 0o600);
    } else await writeStream(target, source.read(file));
    if (durable) await syncFile(target);
    const copied = await hashFile(target);
    if (copied.sha256 !== file.sha256 || copied.bytes !== file.bytes)
      throw new AttachmentChangedError(
        `attachment "${file.path}" changed after it was received: it has ${copied.bytes} bytes with SHA-256 ${copied.sha256}, ` +
          `not ${file.bytes} bytes with ${file.sha256}`,
      );
  }
}

async function writeStream(target: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  const handle = await open(target, 'wx', 0o600);
  try {
    for await (const chunk of chunks) await handle.write(chunk);
  } finally {
    await handle.close();
  }
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/**
 * Copies the attachments of session `from` into session `to`'s workspace (fork, retry and rerun
 * bring the original's attachments, SPEC §18), each checked against its SHA-256 in `files` (the
 * original's list). Throws when the original's copy is gone or differs.
 */
export async function copySessionAttachments(
  workspaceRoot: string,
  from: string,
  to: string,
  files: readonly AttachmentInfo[],
  durable = true,
): Promise<void> {
  if (files.length === 0) return;
  const source = path.join(workspaceRoot, from);
  const target = await ensureWorkspace(workspaceRoot, to);
  await materializeAttachments(target, files, { folder: attachmentsFolderOf(source) }, durable);
}
