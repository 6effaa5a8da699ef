/** Writes a whole file atomically (temp + rename), so readers never see half of it. */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fsyncDirectory } from './append-only-file.js';

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
