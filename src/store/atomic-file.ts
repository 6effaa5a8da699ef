/** Writes a whole file atomically (temp + rename), so readers never see half of it. */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import path from 'node:path';
import { fsyncDirectory, fsyncDirectoryAsync } from './append-only-file.js';
import { PLAIN_ENTRIES, type EntryMaker } from './spare-entries.js';

let counter = 0;

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

/** The same, with the file and folder syncs on the thread pool instead of the event loop. */
export async function writeFileAtomicAsync(file: string, content: string, durable = true, entries: EntryMaker = PLAIN_ENTRIES): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${++counter}.tmp`);
  await entries.prepareFile(temporary);
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(content);
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  if (durable) await fsyncDirectoryAsync(path.dirname(file));
}
