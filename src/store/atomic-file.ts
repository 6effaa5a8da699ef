/** Writes a whole file atomically (temp + rename), so readers never see half of it. */
import {
  closeSync,
  existsSync,
  fdatasync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fsyncDirectory, fsyncSharedDirectory, openAsync } from './append-only-file.js';
import { diskCall, type DiskFaults } from './disk-io.js';
import { diskWaits } from './disk-waits.js';
import type { SessionResultFiles } from './session-store.js';
import { errorCode, GovflowError } from '../errors.js';

let counter = 0;
/** fdatasync on the thread pool (the event loop goes on meanwhile). */
export const fdatasyncAsync = promisify(fdatasync);

function temporaryFor(file: string, tempDir: string): string {
  return path.join(tempDir, `.${path.basename(file)}.${process.pid}.${++counter}.tmp`);
}

export function writeFileAtomic(
  file: string,
  content: string | Uint8Array,
  durable = true,
  faults?: DiskFaults,
  mode?: number,
): void {
  const temporary = temporaryFor(file, path.dirname(file));
  const fd = openSync(temporary, 'w', mode);
  try {
    diskCall(faults, 'write', file, () =>
      writeSync(fd, typeof content === 'string' ? Buffer.from(content, 'utf8') : content),
    );
    if (durable) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, file);
  if (durable) fsyncDirectory(path.dirname(file));
}

export interface AtomicWriteOptions {
  /** fdatasync the file and fsync its folder (default true). */
  durable?: boolean;
  /** The rename waits for it (the file is written meanwhile); false: no rename, and the write throws {@link notPassedOn}. */
  passOn?: Promise<boolean>;
  /** Where the temporary file goes, on the same file system, to keep it out of a folder that must only hold finished files (the outbox). */
  tempDir?: string;
  faults?: DiskFaults;
}

/**
 * The same for the hot path: the open and the syncs run on the thread pool; the write, close and
 * rename cost microseconds and run right here. A disk that refuses the write is waited out and the
 * whole write retried (disk-waits.ts), so `file` is always the old file or the whole new one.
 */
export async function writeFileAtomicAsync(
  file: string,
  content: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const { durable = true, tempDir = path.dirname(file), faults, passOn } = options;
  const writeOnce = () => writeThroughTemporary(file, content, { durable, tempDir, faults, passOn });
  await diskWaits.retry(file, async () => {
    try {
      await writeOnce();
    } catch (error) {
      // Its folder (system/outbox/, ...) was removed under the daemon: make it again, say so, retry.
      const folder = path.dirname(file);
      if (errorCode(error) !== 'ENOENT' || existsSync(folder)) throw error;
      mkdirSync(folder, { recursive: true });
      diskWaits.noteRecreated(folder);
      await writeOnce();
    }
  });
  if (durable) await fsyncSharedDirectory(path.dirname(file));
}

/** Why a result (`what`) was not published: its session's last messages did not reach the disk (SessionStore.finish). */
export function notPassedOn(what: string): GovflowError {
  return new GovflowError(
    'internal',
    `${what} was not published: the session's last messages did not reach the disk (it runs again from its journal)`,
  );
}

/**
 * A session's result into the outbox, its temporary files in `system/` so that the outbox only ever
 * holds finished results; published once `passOn` allows it (SessionStore.finish).
 */
export async function writeOutboxResult(
  outboxDir: string,
  result: SessionResultFiles,
  durable: boolean,
  faults?: DiskFaults,
  passOn?: Promise<boolean>,
): Promise<void> {
  const tempDir = path.dirname(outboxDir);
  await Promise.all([
    writeFileAtomicAsync(path.join(outboxDir, `${result.requestId}.md`), result.report, {
      durable: false,
      tempDir,
      faults,
      passOn,
    }),
    writeFileAtomicAsync(path.join(outboxDir, `${result.requestId}.json`), result.json, {
      durable,
      tempDir,
      faults,
      passOn,
    }),
  ]);
}

async function writeThroughTemporary(
  file: string,
  content: string,
  options: Required<Pick<AtomicWriteOptions, 'durable' | 'tempDir'>> & Pick<AtomicWriteOptions, 'faults' | 'passOn'>,
): Promise<void> {
  const { durable, tempDir, faults, passOn } = options;
  const temporary = temporaryFor(file, tempDir);
  try {
    const fd = await openAsync(temporary, 'w');
    try {
      const bytes = Buffer.from(content, 'utf8');
      let written = 0;
      while (written < bytes.length)
        written += diskCall(faults, 'write', file, () => writeSync(fd, bytes, written, bytes.length - written));
      if (durable) await fdatasyncAsync(fd);
    } finally {
      closeSync(fd);
    }
    // Not a disk failure (no cause): thrown at once, the temporary file removed below.
    if (passOn && !(await passOn)) throw notPassedOn(file);
    diskCall(faults, 'rename', file, () => renameSync(temporary, file));
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The folder under system/logs/ that retention archives days into. */
export const ARCHIVE_FOLDER = 'archive';

export function archiveFolderOf(logsDir: string): string {
  return path.join(logsDir, ARCHIVE_FOLDER);
}

/** Writes `bytes` gzipped to `target` atomically, creating its folder; `mode` as the source's. */
export function writeGzip(target: string, bytes: Buffer, mode = 0o644): void {
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileAtomic(target, gzipSync(bytes), true, undefined, mode);
}
