/**
 * Requests handed to the intake by a program (the HTTP API) instead of dropped into the inbox.
 * They skip the inbox and its watcher: the document is written once, durably, straight into
 * system/processing/ as a claimed file — exactly what the intake's own claim of an inbox file
 * leaves there — so the intake schedules it at once and crash recovery finds it like any claim.
 *
 * The steps, each safe to be cut by kill -9 or a power loss:
 * 1. write a hidden temp file in processing/ and fdatasync it (recovery never reads hidden names);
 * 2. claim the request id with it (a hard link in the registry: exclusive, so a duplicate is
 *    refused here, before anything is acknowledged);
 * 3. rename it to its claim name (the inode stays, so the registry still knows it as its own);
 * 4. fsync processing/ and the registry folder; only then is the submission acknowledged (its
 *    session may already have started: see writeClaimedSubmission).
 * A crash between 2 and 3 leaves a hidden temp file that owns its id: repairInterruptedSubmissions
 * (run before recovery lists processing/) finishes the rename. Any other hidden temp file was never
 * acknowledged and is removed.
 */
import { closeSync, constants, existsSync, fdatasync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { fsyncSharedDirectory } from '../store/append-only-file.js';
import { claimNameFor } from './claim-name.js';
import { parseRequestFile } from './request-file.js';
import type { RequestIdRegistry } from './request-id-registry.js';

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
 * Creates, writes and closes synchronously (a small file in the page cache: microseconds each,
 * cheaper than thread-pool round trips queued behind the sessions' syncs); only the fdatasync goes
 * to the pool.
 */
async function writeSynced(file: string, text: string, durable: boolean): Promise<void> {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    writeFileSync(fd, text);
    if (durable) await new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `submission` into system/processing/ as a claimed file; resolves once it is durable.
 * `onPublished` hears the claim name as soon as the claim is in place (before the folder syncs),
 * so its session may start while they run: the acknowledgement still waits for them, and a crash
 * before it leaves what any unacknowledged claim leaves (recovery runs it, or a power loss undoes it).
 */
export async function writeClaimedSubmission(
  paths: SystemPaths,
  registry: RequestIdRegistry,
  submission: Submission,
  durable: boolean,
  onPublished: (claimName: string) => void = () => {},
): Promise<SubmissionOutcome> {
  const processing = path.resolve(paths.processing);
  const claimName = claimNameFor(submission.name);
  const temporary = path.join(processing, `.submit-${claimName}.tmp`);
  try {
    await writeSynced(temporary, submission.text, durable);
  } catch (error) {
    // system/processing/ was removed under the daemon: make it again and write.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(processing, { recursive: true });
    await writeSynced(temporary, submission.text, durable);
  }
  if (submission.requestId !== null) {
    let claimed = false;
    try {
      claimed = (await registry.claim(submission.requestId, temporary, { syncFolder: false })) === 'claimed';
    } finally {
      if (!claimed) unlinkSync(temporary);
    }
    if (!claimed) return { kind: 'duplicate' };
  }
  renameSync(temporary, path.join(processing, claimName));
  onPublished(claimName);
  if (durable) await Promise.all([fsyncSharedDirectory(processing), submission.requestId !== null ? registry.syncFolder() : null]);
  return { kind: 'claimed', claimName };
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
      const parsed = parseRequestFile(match[1], readFileSync(temporary), maxBytes);
      const marker = parsed.kind === 'request' && parsed.requestId !== null ? registry.markerPathOf(parsed.requestId) : null;
      const ownsMarker = marker !== null && existsSync(marker) && statSync(marker).ino === statSync(temporary).ino;
      if (ownsMarker) {
        renameSync(temporary, path.join(processing, match[1]));
        repaired += 1;
      } else unlinkSync(temporary);
    } catch {
      // gone meanwhile: nothing to repair
    }
  }
  return repaired;
}
