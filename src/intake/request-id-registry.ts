/**
 * Every request id ever accepted, so a duplicate never runs twice (README "Folder layout"), even
 * with two daemons on one root. One marker per id in system/state/requests/: creating it is the
 * claim, exclusive at the filesystem level (link(2) and O_EXCL fail when the name exists). The
 * marker names the claimed file that won, so re-claiming with it after a crash is not a duplicate.
 */
import { existsSync, linkSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { link, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { fsyncSharedDirectory } from '../store/append-only-file.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { randomBase36, REQUEST_ID_PATTERN } from './request-ids.js';
import { errorCode, GovflowError } from '../errors.js';

/** Format of a marker's content; bump when fields change meaning. */
const MARKER_FORMAT_VERSION = 1;

/** link() errors of filesystems without hard links (or across devices): use a JSON marker. */
const LINK_UNSUPPORTED = ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'];

export type ClaimOutcome = 'claimed' | 'duplicate';

interface MarkerContent {
  format_version: number;
  request_id: string;
  claimed_path: string;
  claimed_at: string;
}

export class RequestIdRegistry {
  /** system/state/requests/ */
  readonly directory: string;
  private readonly durable: boolean;
  private directoryReady = false;

  /** `durable`: fsync the marker and its folder before answering (default true; tests may turn it off). */
  constructor(paths: SystemPaths, options: { durable?: boolean } = {}) {
    this.directory = path.join(paths.state, 'requests');
    this.durable = options.durable ?? true;
  }

  /** The marker file of an id. `.` and `..` are valid ids but not usable file names, so they are spelled out. */
  markerPathOf(requestId: string): string {
    if (!REQUEST_ID_PATTERN.test(requestId)) {
      throw new GovflowError(
        'internal',
        `request id ${JSON.stringify(requestId)} does not match ${REQUEST_ID_PATTERN}: parse request files with parseRequestFile first`,
      );
    }
    const fileName = requestId === '.' || requestId === '..' ? requestId.replaceAll('.', '%2E') : requestId;
    return path.join(this.directory, fileName);
  }

  /**
   * Claims `requestId` for `claimedPath`: 'claimed' when this call made the marker or the marker
   * is this very file (our claim from before a crash), else 'duplicate'. On the thread pool, so a
   * flood does not stall running sessions. The marker is a hard link to the file (creating a file
   * is the costliest metadata operation on some filesystems; a link is as atomic and exclusive);
   * claims that are no file (stdin) and filesystems without links get a JSON marker naming it.
   * `syncFolder: false` leaves the folder fsync to the caller (syncFolder()).
   */
  async claim(requestId: string, claimedPath: string, options: { syncFolder?: boolean } = {}): Promise<ClaimOutcome> {
    const syncFolder = this.durable && (options.syncFolder ?? true);
    const marker = this.markerPathOf(requestId);
    if (!this.directoryReady) {
      await mkdir(this.directory, { recursive: true });
      this.directoryReady = true;
    }
    const claimed = path.resolve(claimedPath);
    try {
      linkSync(claimed, marker); // microseconds: no thread-pool round trip
      if (syncFolder) await this.syncFolder();
      return 'claimed';
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return (await this.isOwnMarker(marker, claimed)) ? 'claimed' : 'duplicate';
      if (errorCode(error) !== 'ENOENT' && !LINK_UNSUPPORTED.includes(errorCode(error) ?? '')) throw error;
    }
    const content: MarkerContent = {
      format_version: MARKER_FORMAT_VERSION,
      request_id: requestId,
      claimed_path: path.resolve(claimedPath),
      claimed_at: new Date().toISOString(),
    };
    const created = await this.createExclusively(marker, `${JSON.stringify(content)}\n`);
    if (created) {
      if (syncFolder) await this.syncFolder();
      return 'claimed';
    }
    return (await this.isOwnMarker(marker, content.claimed_path)) ? 'claimed' : 'duplicate';
  }

  /** Makes the markers so far durable: one folder fsync, shared by callers that arrive together. */
  async syncFolder(): Promise<void> {
    if (this.durable) await fsyncSharedDirectory(this.directory);
  }

  /**
   * Replaces each marker that is a hard link to one of `files` (`dev:ino`) by one holding only the
   * id and what HTTP reads check (`user`, `session_id`), renamed over it: the id stays refused while
   * the text leaves with the file (docs/audit-log.md "Retention and archives"). Returns the count.
   */
  keepIdsOnly(files: ReadonlySet<string>): number {
    let replaced = 0;
    for (const name of existsSync(this.directory) ? readdirSync(this.directory) : []) {
      const marker = path.join(this.directory, name);
      const stats = name.startsWith('.') ? undefined : statSync(marker, { throwIfNoEntry: false });
      if (!stats || stats.nlink < 2 || !files.has(`${stats.dev}:${stats.ino}`)) continue;
      let request: Record<string, unknown> = {};
      try {
        request = { ...(JSON.parse(readFileSync(marker, 'utf8')) as object) };
      } catch {
        // a text request: no owner fields
      }
      const owner = Object.fromEntries(
        ['user', 'session_id'].filter((key) => typeof request[key] === 'string').map((key) => [key, request[key]]),
      );
      const requestId = name.replaceAll('%2E', '.');
      writeFileAtomic(
        marker,
        `${JSON.stringify({ format_version: MARKER_FORMAT_VERSION, request_id: requestId, ...owner })}\n`,
        this.durable,
      );
      replaced++;
    }
    return replaced;
  }

  /** True when the marker is the claimed file itself (same inode) or a JSON marker naming it. */
  private async isOwnMarker(marker: string, claimedPath: string): Promise<boolean> {
    try {
      const [markerStats, claimedStats] = await Promise.all([stat(marker), stat(claimedPath)]);
      if (markerStats.ino === claimedStats.ino && markerStats.dev === claimedStats.dev) return true;
    } catch {
      // the claim is not a file (or is gone): only a JSON marker can name it
    }
    return (await this.readClaimedPath(marker)) === claimedPath;
  }

  /**
   * Writes a temporary file and hard-links it to the marker name: the exclusive step publishes a
   * whole file, so a crash never leaves an empty marker that makes our claim look like somebody
   * else's. Filesystems without hard links fall back to O_EXCL creation.
   */
  private async createExclusively(marker: string, text: string): Promise<boolean> {
    const temporary = path.join(this.directory, `.${process.pid}-${randomBase36(8)}.tmp`);
    await writeAndSync(temporary, 'w', text, this.durable);
    try {
      await link(temporary, marker);
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      if (!LINK_UNSUPPORTED.includes(errorCode(error) ?? '')) throw error;
      return this.createWithExclusiveOpen(marker, text);
    } finally {
      // A stray temporary file is harmless (markers never start with a dot).
      await unlink(temporary).catch(() => undefined);
    }
  }

  private async createWithExclusiveOpen(marker: string, text: string): Promise<boolean> {
    try {
      await writeAndSync(marker, 'wx', text, this.durable);
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      throw error;
    }
  }

  /** The claimed path a JSON marker records, or null when it is not one (then it counts as someone else's). */
  private async readClaimedPath(marker: string): Promise<string | null> {
    try {
      const content = JSON.parse(await readFile(marker, 'utf8')) as Partial<MarkerContent>;
      return content.format_version === MARKER_FORMAT_VERSION && typeof content.claimed_path === 'string'
        ? content.claimed_path
        : null;
    } catch {
      return null;
    }
  }
}

async function writeAndSync(file: string, flags: 'w' | 'wx', text: string, durable: boolean): Promise<void> {
  const handle = await open(file, flags);
  try {
    await handle.writeFile(text);
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
}
