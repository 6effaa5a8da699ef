/**
 * Requests the HTTP API hands over, written straight into system/processing/ as the claim an inbox
 * file would leave. Each step is safe to cut by kill -9 or a power loss:
 * 1. write a hidden temp file in processing/ (recovery never reads hidden names), start its fdatasync;
 * 2. claim the request id with it (an exclusive hard link: a duplicate is refused before any answer);
 * 3. rename it to its claim name (same inode: the registry still knows it); the session may start;
 * 4. wait for the fdatasync and the folder fsyncs; only then is the submission acknowledged.
 * A crash between 2 and 3 leaves a temp file that owns its id: repairInterruptedSubmissions finishes
 * the rename; other temp files were never acknowledged and go. A power loss between 3 and 4 may
 * leave an empty or torn claim: recovery releases its id (releaseUnacknowledged) so a retry is accepted.
 */
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { fsyncSharedDirectory, openAsync } from '../store/append-only-file.js';
import { fdatasyncAsync } from '../store/atomic-file.js';
import { claimNameFor, originalNameOf, parseClaimName } from './claim-name.js';
import { parseRequestFile } from './request-file.js';
import { REQUEST_ID_PATTERN } from './request-ids.js';
import type { RequestIdRegistry } from './request-id-registry.js';
import { errorCode } from '../errors.js';

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

/**
 * Creates `file` with `text` in it; resolves with its descriptor, open for the fdatasync that goes
 * to the pool. The creation (an inode: the costly part on some file systems) runs on the pool too,
 * so a burst of submissions does not hold up the sessions running on the event loop.
 */
async function writeTemporary(file: string, text: string): Promise<number> {
  const fd = await openAsync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
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
 * Writes `submission` into system/processing/ as a claimed file; resolves once it is durable (a
 * session started at `onClaimed` may write before that, as one of an inbox file may).
 */
export async function writeClaimedSubmission(
  paths: SystemPaths,
  registry: RequestIdRegistry,
  submission: Submission,
  options: SubmissionOptions,
): Promise<SubmissionOutcome> {
  const { durable, onClaimed = () => {} } = options;
  const processing = path.resolve(paths.processing);
  const claimName = claimNameFor(submission.name);
  const temporary = path.join(processing, `.submit-${claimName}.tmp`);
  let fd: number;
  try {
    fd = await writeTemporary(temporary, submission.text);
  } catch (error) {
    // system/processing/ was removed under the daemon: make it again and write.
    if (errorCode(error) !== 'ENOENT') throw error;
    mkdirSync(processing, { recursive: true });
    fd = await writeTemporary(temporary, submission.text);
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
  await Promise.all([
    dataDurable,
    durable ? fsyncSharedDirectory(processing) : null,
    durable && submission.requestId !== null ? registry.syncFolder() : null,
  ]);
  return { kind: 'claimed', claimName };
}

/**
 * For a claim recovery cannot read: an HTTP submission (`http-<request_id>.json`) owning its id's
 * marker was cut by a power loss before its data (and so its 202) — its marker goes, so the
 * client's retry is accepted, not answered 409. Returns the id it released, or null.
 */
export function releaseUnacknowledged(registry: RequestIdRegistry, claimedPath: string): string | null {
  const requestId = HTTP_SUBMISSION_NAME.exec(originalNameOf(claimedPath))?.[1];
  if (requestId === undefined || !REQUEST_ID_PATTERN.test(requestId) || !ownsMarker(registry, requestId, claimedPath))
    return null;
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
 * Finishes submissions a crash cut between the id claim and the rename (a retry gets 409 while
 * GET shows the request); removes temp files that never claimed an id. Returns how many finished.
 */
export function repairInterruptedSubmissions(
  paths: SystemPaths,
  registry: RequestIdRegistry,
  maxBytes: number,
): number {
  const processing = path.resolve(paths.processing);
  if (!existsSync(processing)) return 0;
  let repaired = 0;
  for (const name of readdirSync(processing)) {
    const match = TEMP_PATTERN.exec(name);
    if (!match) continue;
    const temporary = path.join(processing, name);
    try {
      // `.submit-spare-*.tmp` (earlier versions) has no claim name: it gets an HTTP submission's.
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
