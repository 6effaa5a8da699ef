/** Writes a whole file atomically (temp + rename), so readers never see half of it. */
import { closeSync, fdatasync, fsyncSync, open, openSync, renameSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { fsyncDirectory, fsyncSharedDirectory } from './append-only-file.js';
import { PLAIN_ENTRIES, type EntryMaker } from './spare-entries.js';

let counter = 0;
const openAsync = promisify(open);
const fdatasyncAsync = promisify(fdatasync);

export function writeFileAtomic(file: string, content: string, durable = true): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${++counter}.tmp`);
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, content);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  if (durable) fsyncDirectory(path.dirname(file));
}

/**
 * The same for the hot path: the syncs (and creating the temporary file, when no spare can be put
 * in its place) run on the thread pool; the write, close and rename, which cost microseconds,
 * run right here and save the thread-pool round trips.
 */
export async function writeFileAtomicAsync(file: string, content: string, durable = true, entries: EntryMaker = PLAIN_ENTRIES): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${++counter}.tmp`);
  const fd = entries.placeFile(temporary, true) ? openSync(temporary, 'w') : await openAsync(temporary, 'w');
  try {
    writeSync(fd, content);
    if (durable) await fdatasyncAsync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  if (durable) await fsyncSharedDirectory(path.dirname(file));
}
