/**
 * Requests handed to the intake by a program (the HTTP API) instead of dropped into the inbox.
 * They skip the inbox and its watcher: the document is written once, durably, straight into
 * system/processing/ as a claimed file — exactly what the intake's own claim of an inbox file
 * leaves there — so the intake schedules it at once and crash recovery finds it like any claim.
 *
 * The steps, each safe to be cut by kill -9 or a power loss:
 * 1. write a hidden temp file in processing/ (recovery never reads hidden names) and start its
 *    fdatasync;
 * 2. claim the request id with it (a hard link in the registry: exclusive, so a duplicate is
 *    refused here, before anything is acknowledged);
 * 3. rename it to its claim name (the inode stays, so the registry still knows it as its own);
 *    the session may start now, as an inbox file's does once claimed;
 * 4. wait for the fdatasync and fsync processing/ and the registry folder; only then is the
 *    submission acknowledged.
 * A crash between 2 and 3 leaves a hidden temp file that owns its id: repairInterruptedSubmissions
 * (run before recovery lists processing/) finishes the rename. Any other hidden temp file was never
 * acknowledged and is removed. A power loss after 3 but before 4 may leave a claim whose data never
 * reached the disk (empty or torn): it was never acknowledged either, and recovery releases its
 * request id (releaseUnacknowledged) so the client's retry is accepted.
 */
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { fsyncSharedDirectory } from '../store/append-only-file.js';
import { fdatasyncAsync } from '../store/atomic-file.js';
import { claimNameFor, originalNameOf, parseClaimName } from './claim-name.js';
import { parseRequestFile, REQUEST_ID_PATTERN } from './request-file.js';
import type { RequestIdRegistry } from './request-id-registry.js';

/** The inbox-style name of an HTTP submission (`source_file` of its result, its archive name). */
export function httpSubmissionName(requestId: string): string {
  return `http-${requestId}.json`;
}

const HTTP_SUBMISSION_NAME = /^http-(.+)\.json$/s;

/** Temp files of submissions in flight: `.submit-<claim name>.tmp` in system/processing/. */
const TEMP_PATTERN = /^\.submit-(.+)\.tmp$/s;

/** What a program submits: the request file's content and the name it would have had in the inbox. */
export interface Submission {
  /** The inbox-style name (`http-<request_id>.json`): the result's `source_file`, the archive name. */
  name: string;
  /** The request file's JSON text, already checked by parseRequestFile. */
  text: string;
  /** The request id to claim; null for a reply (replies have no id). */
  requestId: string | null;
}

export type SubmissionOutcome = { kind: 'claimed'; claimName: string } | { kind: 'duplicate' };

/** Creates `file` with `text` in it; returns its descriptor, open for the fdatasync that goes to the pool. */
function writeTemporary(file: string, text: string): number {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    writeFileSync(fd, text);
    return fd;
  } catch (error) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw error;
  }
}

/** fdatasync on the pool, then close; resolves once the data is on disk (at once when not `durable`). */
async function syncAndClose(fd: number, durable: boolean): Promise<void> {
  try {
    if (durable) await fdatasyncAsync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface SubmissionOptions {
  /** false: no fsyncs (daemon.fsync off). */
  durable: boolean;
  /** Hears the claim name as soon as the claim is in place (step 3), before the syncs. */
  onClaimed?: (claimName: string) => void;
}

/**
 * Writes `submission` into system/processing/ as a claimed file; resolves once it is durable.
 * A crash before that leaves what any unacknowledged claim leaves (recovery runs it, or a power
 * loss undoes it: see releaseUnacknowledged); a session started at `onClaimed` may have written
 * before the claim's data reached the disk, as one of an inbox file may before the file's.
 */
export async function writeClaimedSubmission(paths: SystemPaths, registry: RequestIdRegistry, submission: Submission, options: SubmissionOptions): Promise<SubmissionOutcome> {
  const { durable, onClaimed = () => {} } = options;
  const processing = path.resolve(paths.processing);
  const claimName = claimNameFor(submission.name);
  const temporary = path.join(processing, `.submit-${claimName}.tmp`);
  let fd: number;
  try {
    fd = writeTemporary(temporary, submission.text);
  } catch (error) {
    // system/processing/ was removed under the daemon: make it again and write.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(processing, { recursive: true });
    fd = writeTemporary(temporary, submission.text);
  }
  const dataDurable = syncAndClose(fd, durable);
  if (submission.requestId !== null) {
    let claimed = false;
    try {
      claimed = (await registry.claim(submission.requestId, temporary, { syncFolder: false })) === 'claimed';
    } finally {
      if (!claimed) {
        unlinkSync(temporary);
        await dataDurable.catch(() => undefined);
      }
    }
    if (!claimed) return { kind: 'duplicate' };
  }
  renameSync(temporary, path.join(processing, claimName));
  onClaimed(claimName);
  await Promise.all([dataDurable, durable ? fsyncSharedDirectory(processing) : null, durable && submission.requestId !== null ? registry.syncFolder() : null]);
  return { kind: 'claimed', claimName };
}

/**
 * For a claim recovery cannot read: when it is an HTTP submission (`http-<request_id>.json`) that
 * owns its request id's marker, a power loss cut it before its data reached the disk, so it was
 * never acknowledged (the 202 waits for the data). The marker goes, so the client's retry is
 * accepted instead of answered 409; the claim itself goes to system/failed/ as any unreadable one.
 * Returns the request id it released, or null.
 */
export function releaseUnacknowledged(registry: RequestIdRegistry, claimedPath: string): string | null {
  const requestId = HTTP_SUBMISSION_NAME.exec(originalNameOf(claimedPath))?.[1];
  if (requestId === undefined || !REQUEST_ID_PATTERN.test(requestId) || !ownsMarker(registry, requestId, claimedPath)) return null;
  try {
    unlinkSync(registry.markerPathOf(requestId));
    return requestId;
  } catch {
    return null;
  }
}

/** True when `file` is the marker of `requestId`: the registry's hard link to it (same inode). */
function ownsMarker(registry: RequestIdRegistry, requestId: string, file: string): boolean {
  try {
    const [markerStats, fileStats] = [statSync(registry.markerPathOf(requestId)), lstatSync(file)];
    return markerStats.ino === fileStats.ino && markerStats.dev === fileStats.dev;
  } catch {
    return false;
  }
}

/**
 * Finishes submissions a crash cut between the id claim and the rename (the request goes on: the
 * client may not have had its answer, and a retry gets 409 while GET shows the request); removes
 * temp files that never claimed an id. Returns how many were finished.
 */
export function repairInterruptedSubmissions(paths: SystemPaths, registry: RequestIdRegistry, maxBytes: number): number {
  const processing = path.resolve(paths.processing);
  if (!existsSync(processing)) return 0;
  let repaired = 0;
  for (const name of readdirSync(processing)) {
    const match = TEMP_PATTERN.exec(name);
    if (!match) continue;
    const temporary = path.join(processing, name);
    try {
      // A name that is no claim name (`.submit-spare-*.tmp`, left by earlier versions) says
      // nothing: its content is a submission's JSON, and its claim gets the name an HTTP
      // submission of its id has.
      const unnamed = parseClaimName(match[1]) === null;
      const parsed = parseRequestFile(unnamed ? 'unnamed.json' : match[1], readFileSync(temporary), maxBytes);
      if (parsed.kind === 'request' && parsed.requestId !== null && ownsMarker(registry, parsed.requestId, temporary)) {
        const claimName = unnamed ? claimNameFor(httpSubmissionName(parsed.requestId)) : match[1];
        renameSync(temporary, path.join(processing, claimName));
        repaired += 1;
      } else unlinkSync(temporary);
    } catch {
      // gone meanwhile: nothing to repair
    }
  }
  return repaired;
}
