/**
 * Request folders the HTTP API hands over (multipart/form-data, docs/attachments.md), claimed in
 * system/processing/ as a dropped folder would be, with request-submission.ts's steps:
 * 1. the parts stream into a hidden folder `.upload-<random>.tmp/` (recovery never reads it);
 * 2. its request file claims the request id (an exclusive hard link: a duplicate is refused first);
 * 3. files and folders are fsynced, and the folder is renamed to its claim name: the session may start;
 * 4. the folder fsyncs; only then is the submission acknowledged.
 * A crash between 2 and 3 leaves an upload that owns its id: repairInterruptedFolders finishes the
 * rename; other uploads were never acknowledged and go.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { fsyncDirectory, fsyncSharedDirectory } from '../store/append-only-file.js';
import { claimNameFor } from './claim-name.js';
import type { RequestIdRegistry } from './request-id-registry.js';
import type { SubmissionOptions, SubmissionOutcome } from './request-submission.js';
import { isRequestFileName } from './request-folder.js';
import { randomBase36, REQUEST_ID_PATTERN } from './request-ids.js';

const UPLOAD_PATTERN = /^\.upload-[0-9a-z]+\.tmp$/;

/** A folder being filled by an upload. */
export interface StagedFolder {
  folder: string;
}

/** An upload whose parts are all written, with its request file in place. */
export interface FolderSubmission extends StagedFolder {
  /** The inbox-style name (`http-<request_id>`): the result's `source_file`, the archive name. */
  name: string;
  requestId: string;
  /** `request.json` for HTTP submissions. */
  requestFile: string;
}

/** The inbox-style name of a multipart submission (`source_file` of its result, its archive name). */
export function httpFolderName(requestId: string): string {
  return `http-${requestId}`;
}

/** Makes the hidden folder an upload is written into (mode 0700: attachments are evidence). */
export function stageFolder(paths: SystemPaths): StagedFolder {
  const processing = path.resolve(paths.processing);
  mkdirSync(processing, { recursive: true });
  const folder = path.join(processing, `.upload-${randomBase36(12)}.tmp`);
  mkdirSync(folder, { mode: 0o700 });
  return { folder };
}

/** Removes a staged folder that will not be submitted (refused, cut off, duplicate). */
export function discardStaged(staged: StagedFolder): void {
  rmSync(staged.folder, { recursive: true, force: true });
}

/** fsyncs every file and folder under `folder` (the upload is acknowledged only after). */
async function syncTree(folder: string): Promise<void> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const child = path.join(folder, entry.name);
    if (entry.isDirectory()) await syncTree(child);
    else if (entry.isFile()) {
      const handle = await open(child, 'r');
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
    }
  }
  fsyncDirectory(folder);
}

/** Claims the id with the folder's request file, syncs, renames the folder to its claim name; 'duplicate' removes it. */
export async function claimSubmittedFolder(
  paths: SystemPaths,
  registry: RequestIdRegistry,
  submission: FolderSubmission,
  options: SubmissionOptions,
): Promise<SubmissionOutcome> {
  const { durable, onClaimed = () => {} } = options;
  const processing = path.resolve(paths.processing);
  const dataDurable = durable ? syncTree(submission.folder) : Promise.resolve();
  let claimed = false;
  try {
    claimed =
      (await registry.claim(submission.requestId, path.join(submission.folder, submission.requestFile), {
        syncFolder: false,
      })) === 'claimed';
  } finally {
    if (!claimed) {
      await dataDurable.catch(() => undefined);
      discardStaged(submission);
    }
  }
  if (!claimed) return { kind: 'duplicate' };
  await dataDurable;
  const claimName = claimNameFor(submission.name);
  renameSync(submission.folder, path.join(processing, claimName));
  onClaimed(claimName);
  await Promise.all([durable ? fsyncSharedDirectory(processing) : null, registry.syncFolder()]);
  return { kind: 'claimed', claimName };
}

/**
 * Finishes uploads a crash cut between the id claim and the rename (their request file owns the
 * id's marker); removes the others, never acknowledged. Returns how many finished.
 */
export function repairInterruptedFolders(paths: SystemPaths, registry: RequestIdRegistry): number {
  const processing = path.resolve(paths.processing);
  if (!existsSync(processing)) return 0;
  let repaired = 0;
  for (const name of readdirSync(processing)) {
    const staged = path.join(processing, name);
    if (!UPLOAD_PATTERN.test(name) || !lstatSync(staged, { throwIfNoEntry: false })?.isDirectory()) continue;
    try {
      const requestFile = readdirSync(staged).find(isRequestFileName);
      const requestPath = requestFile === undefined ? null : path.join(staged, requestFile);
      const requestId = requestPath === null ? null : requestIdIn(requestPath);
      if (requestPath !== null && requestId !== null && ownsMarkerOf(registry, requestId, requestPath)) {
        renameSync(staged, path.join(processing, claimNameFor(httpFolderName(requestId))));
        repaired += 1;
      } else rmSync(staged, { recursive: true, force: true });
    } catch {
      // gone meanwhile: nothing to repair
    }
  }
  return repaired;
}

/** The request id a staged request.json names, or null. */
function requestIdIn(file: string): string | null {
  try {
    const document = JSON.parse(readFileSync(file, 'utf8')) as { request_id?: unknown };
    return typeof document.request_id === 'string' && REQUEST_ID_PATTERN.test(document.request_id)
      ? document.request_id
      : null;
  } catch {
    return null;
  }
}

function ownsMarkerOf(registry: RequestIdRegistry, requestId: string, file: string): boolean {
  try {
    const marker = lstatSync(registry.markerPathOf(requestId));
    const own = lstatSync(file);
    return marker.ino === own.ino && marker.dev === own.dev;
  } catch {
    return false;
  }
}
