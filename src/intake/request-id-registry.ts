/**
 * Remembers every request id that was ever accepted, so a duplicate never runs twice (SPEC §2) —
 * even with two daemons on one root, and across restarts.
 *
 * One marker file per id in system/state/requests/. Creating it is the claim, and creation is
 * exclusive at the filesystem level (link(2) and O_EXCL both fail when the name exists), so two
 * processes racing for the same id cannot both win. The marker records which claimed file won:
 * when the daemon crashed between claiming the id and starting the session, re-claiming with the
 * same file is recognised as its own earlier claim instead of a duplicate.
 */
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { fsyncDirectory } from '../store/append-only-file.js';
import { randomBase36, REQUEST_ID_PATTERN } from './request-file.js';

/** Format of a marker's content; bump when fields change meaning. */
const MARKER_FORMAT_VERSION = 1;

export type ClaimOutcome = 'claimed' | 'duplicate';

export interface RequestIdRegistryOptions {
  /** fsync the marker and its folder before answering (default true; tests may turn it off). */
  durable?: boolean;
}

interface MarkerContent {
  format_version: number;
  request_id: string;
  claimed_path: string;
  claimed_at: string;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export class RequestIdRegistry {
  /** system/state/requests/ */
  readonly directory: string;
  private readonly durable: boolean;

  constructor(paths: SystemPaths, options: RequestIdRegistryOptions = {}) {
    this.directory = path.join(paths.state, 'requests');
    this.durable = options.durable ?? true;
  }

  /** The marker file of an id. `.` and `..` are valid ids but not usable file names, so they are spelled out. */
  markerPathOf(requestId: string): string {
    if (!REQUEST_ID_PATTERN.test(requestId)) {
      throw new Error(`request id ${JSON.stringify(requestId)} does not match ${REQUEST_ID_PATTERN}: parse request files with parseRequestFile first`);
    }
    const fileName = requestId === '.' || requestId === '..' ? requestId.replaceAll('.', '%2E') : requestId;
    return path.join(this.directory, fileName);
  }

  /** True when the id was claimed before (by this or any daemon on the root). */
  has(requestId: string): boolean {
    return existsSync(this.markerPathOf(requestId));
  }

  /**
   * Claims `requestId` for the request in `claimedPath`. 'duplicate' when another file already
   * claimed it; 'claimed' when this call created the marker, or when the marker names this very
   * file (our own claim from before a crash).
   */
  claim(requestId: string, claimedPath: string): ClaimOutcome {
    const marker = this.markerPathOf(requestId);
    mkdirSync(this.directory, { recursive: true });
    const content: MarkerContent = {
      format_version: MARKER_FORMAT_VERSION,
      request_id: requestId,
      claimed_path: path.resolve(claimedPath),
      claimed_at: new Date().toISOString(),
    };
    const created = this.createExclusively(marker, `${JSON.stringify(content)}\n`);
    if (created) {
      if (this.durable) fsyncDirectory(this.directory);
      return 'claimed';
    }
    return this.readClaimedPath(marker) === content.claimed_path ? 'claimed' : 'duplicate';
  }

  /**
   * Writes the content to a temporary file and hard-links it to the marker name. The link is the
   * exclusive step, and it publishes a complete file: a crash can never leave an empty marker
   * that would make our own claim look like somebody else's. Filesystems without hard links fall
   * back to O_EXCL creation.
   */
  private createExclusively(marker: string, text: string): boolean {
    const temporary = path.join(this.directory, `.${process.pid}-${randomBase36(8)}.tmp`);
    writeAndSync(temporary, 'w', text, this.durable);
    try {
      linkSync(temporary, marker);
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(errorCode(error) ?? '')) throw error;
      return this.createWithExclusiveOpen(marker, text);
    } finally {
      try {
        unlinkSync(temporary);
      } catch {
        // Already gone; a stray temporary file is harmless (markers never start with a dot).
      }
    }
  }

  private createWithExclusiveOpen(marker: string, text: string): boolean {
    try {
      writeAndSync(marker, 'wx', text, this.durable);
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      throw error;
    }
  }

  /** The claimed path a marker records, or null when it cannot be read (then it counts as someone else's). */
  private readClaimedPath(marker: string): string | null {
    try {
      const content = JSON.parse(readFileSync(marker, 'utf8')) as Partial<MarkerContent>;
      return typeof content.claimed_path === 'string' ? content.claimed_path : null;
    } catch {
      return null;
    }
  }
}

function writeAndSync(file: string, flags: 'w' | 'wx', text: string, durable: boolean): void {
  const fd = openSync(file, flags);
  try {
    writeSync(fd, text);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
