/**
 * A request folder taken from the inbox (docs/attachments.md): before it leaves system/inbox/ the
 * daemon copies every file of it into files and folders of its own (mode 0600 and 0700) — the
 * bytes it copied are the ones hashed, run, archived and kept — so nothing its sender does to its
 * own files afterwards (a write through a descriptor kept open, a hard link, a rename in a folder
 * it owns) reaches the request. The steps, each safe to cut by a crash:
 * 1. the folder is copied into `processing/.receiving-<claim>.tmp/` (refusals: see copyFile);
 * 2. the inbox folder is renamed to `processing/.received-<claim>` — the claim;
 * 3. the copy is renamed to `processing/<claim>`; 4. the sender's folder is removed.
 * A crash after 2 leaves `.received-<claim>`: finishReceipts copies it again (or just removes it
 * once 3 was done); a crash before leaves the folder in the inbox, and its copy is removed.
 */
import { constants, existsSync, readdirSync, renameSync } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { errorCode, GovflowError } from '../errors.js';
import { fsyncDirectory } from '../store/append-only-file.js';
import { listRequestFolder, type AttachmentLimits } from './request-folder.js';

const RECEIVED_PREFIX = '.received-';
const STAGING_PATTERN = /^\.receiving-(.+)\.tmp$/s;
/** Bytes copied at a time: one buffer per file. */
const COPY_BUFFER_BYTES = 256 * 1024;

/** What a receipt needs to know: the folder's bounds, the request file's, and whether to fsync. */
export interface ReceiptOptions {
  processing: string;
  limits: AttachmentLimits;
  /** intake.max_bytes: a request file is copied up to one byte past it (the reader refuses it then). */
  maxRequestBytes: number;
  durable: boolean;
}

/** How a receipt ended: the claim is in place, or the sender's folder is at `claimedPath` for system/failed/. */
export type Receipt = { kind: 'received' } | { kind: 'refused'; claimedPath: string; reason: string };

/** Raised inside a copy for what the sender has to fix; caught in this file and made the refusal's reason. */
class ReceiptRefused extends GovflowError {
  override readonly name = 'ReceiptRefused';
  constructor(reason: string) {
    super('request', reason);
  }
}

function stagingOf(processing: string, claimName: string): string {
  return path.join(processing, `.receiving-${claimName}.tmp`);
}

function receivedOf(processing: string, claimName: string): string {
  return path.join(processing, `${RECEIVED_PREFIX}${claimName}`);
}

/**
 * Copies one file of the sender's into `target` (created here, 0600). Refuses a file that is no
 * regular file once opened (a swap after the walk), that has other hard links (another name, maybe
 * outside the root, would keep write access to the same bytes), or that the daemon may not read.
 * At most `limit` bytes are copied; returns how many were.
 */
async function copyFile(
  source: string,
  target: string,
  shown: string,
  limit: number,
  durable: boolean,
): Promise<number> {
  let input;
  try {
    input = await open(source, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP')
      throw new ReceiptRefused(
        `"${shown}" is a symbolic link, and links are never followed: copy the file itself into the folder`,
      );
    if (code === 'EACCES' || code === 'EPERM')
      throw new ReceiptRefused(`the daemon may not read "${shown}": make it readable for the daemon's user`);
    throw error;
  }
  try {
    const stats = await input.stat();
    if (!stats.isFile())
      throw new ReceiptRefused(`"${shown}" is not a regular file (a device, pipe or socket): remove it`);
    if (stats.nlink > 1)
      throw new ReceiptRefused(
        `"${shown}" has ${stats.nlink} hard links, and a linked file is refused like a symbolic link (its other names could change it ` +
          `after it was received): copy the file itself into the folder`,
      );
    const output = await open(target, 'wx', 0o600);
    let copied = 0;
    try {
      const buffer = Buffer.allocUnsafe(COPY_BUFFER_BYTES);
      while (copied < limit) {
        const { bytesRead } = await input.read(buffer, 0, Math.min(buffer.length, limit - copied), null);
        if (bytesRead === 0) break;
        await output.write(buffer, 0, bytesRead);
        copied += bytesRead;
      }
      if (durable) await output.datasync();
    } finally {
      await output.close();
    }
    return copied;
  } finally {
    await input.close();
  }
}

/** Copies the request folder `source` into `staging` (made here); the reason it cannot be a request folder, or null. */
async function copyFolder(source: string, staging: string, options: ReceiptOptions): Promise<string | null> {
  const listing = listRequestFolder(source, options.limits);
  if (listing.kind === 'invalid') return listing.reason;
  await mkdir(staging, { mode: 0o700 });
  const folders = new Set<string>([staging]);
  const copyInto = async (relative: string, limit: number) => {
    const target = path.join(staging, ...relative.split('/'));
    if (!folders.has(path.dirname(target))) {
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      for (let folder = path.dirname(target); folder !== staging; folder = path.dirname(folder)) folders.add(folder);
    }
    return copyFile(path.join(source, ...relative.split('/')), target, relative, limit, options.durable);
  };
  try {
    await copyInto(listing.requestFile, options.maxRequestBytes + 1);
    let total = 0;
    for (const attachment of listing.attachments) {
      total += await copyInto(attachment.path, options.limits.max_bytes - total + 1);
      if (total > options.limits.max_bytes)
        return (
          `the attachments are over ${options.limits.max_bytes} bytes in all (intake.attachments.max_bytes), counted as they were ` +
          `copied: send smaller files, fewer of them, or raise the limit in govflow.config.yaml`
        );
    }
  } catch (error) {
    if (error instanceof ReceiptRefused) return `${error.message} (the whole folder was refused)`;
    throw error;
  }
  if (options.durable) for (const folder of [...folders].sort().reverse()) fsyncDirectory(folder);
  return null;
}

/** Removes the sender's folder once its copy is the claim; one the daemon may not remove is left, hidden. */
async function removeSenders(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true }).catch(() => undefined);
}

/**
 * Takes the settled inbox folder `inboxPath` as `claimName`: copied, then claimed (steps 1–4).
 * Null when it left the inbox meanwhile (another daemon claimed it, its sender took it back).
 * A refused folder is claimed as it is, for system/failed/.
 */
export async function receiveFolder(
  inboxPath: string,
  claimName: string,
  options: ReceiptOptions,
): Promise<Receipt | null> {
  const staging = stagingOf(options.processing, claimName);
  const received = receivedOf(options.processing, claimName);
  await rm(staging, { recursive: true, force: true });
  let refusal: string | null;
  try {
    refusal = await copyFolder(inboxPath, staging, options);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (errorCode(error) === 'ENOENT' && !existsSync(inboxPath)) return null;
    throw error;
  }
  try {
    renameSync(inboxPath, received);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  if (refusal !== null) {
    await rm(staging, { recursive: true, force: true });
    return { kind: 'refused', claimedPath: received, reason: refusal };
  }
  return placeCopy(staging, received, claimName, options);
}

async function placeCopy(
  staging: string,
  received: string,
  claimName: string,
  options: ReceiptOptions,
): Promise<Receipt> {
  renameSync(staging, path.join(options.processing, claimName));
  if (options.durable) fsyncDirectory(options.processing);
  await removeSenders(received);
  return { kind: 'received' };
}

/**
 * Finishes the receipts a crash cut (at a start, before anything is claimed): a copy whose folder
 * was never claimed goes; a claimed folder whose copy is in place goes; one whose copy is not is
 * copied again. Calls `onReceipt` for each claim it finishes, with its claim name.
 */
export async function finishReceipts(
  options: ReceiptOptions,
  onReceipt: (claimName: string, receipt: Receipt) => void,
): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(options.processing);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  for (const name of names) {
    const staged = STAGING_PATTERN.exec(name);
    if (staged && !names.includes(`${RECEIVED_PREFIX}${staged[1]}`))
      await rm(path.join(options.processing, name), { recursive: true, force: true });
  }
  for (const name of names) {
    if (!name.startsWith(RECEIVED_PREFIX)) continue;
    const claimName = name.slice(RECEIVED_PREFIX.length);
    const received = path.join(options.processing, name);
    if (existsSync(path.join(options.processing, claimName))) {
      await removeSenders(received);
      continue;
    }
    const staging = stagingOf(options.processing, claimName);
    await rm(staging, { recursive: true, force: true });
    const refusal = await copyFolder(received, staging, options).catch(async (error: unknown) => {
      await rm(staging, { recursive: true, force: true });
      throw error;
    });
    if (refusal !== null) {
      await rm(staging, { recursive: true, force: true });
      onReceipt(claimName, { kind: 'refused', claimedPath: received, reason: refusal });
    } else onReceipt(claimName, await placeCopy(staging, received, claimName, options));
  }
}
