/** Writes a whole file atomically (temp + rename), so readers never see half of it. */
import { closeSync, fdatasync, fsyncSync, open, openSync, renameSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { fsyncDirectory, fsyncSharedDirectory } from './append-only-file.js';

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
 * The same for the hot path: creating the temporary file and the syncs run on the thread pool;
 * the write, close and rename, which cost microseconds, run right here and save the thread-pool
 * round trips.
 */
export async function writeFileAtomicAsync(file: string, content: string, durable = true): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${++counter}.tmp`);
  const fd = await openAsync(temporary, 'w');
  try {
    writeSync(fd, content);
    if (durable) await fdatasyncAsync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  if (durable) await fsyncSharedDirectory(path.dirname(file));
}
