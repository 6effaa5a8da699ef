/** Temp folders for tests, removed together after each test or file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const created: string[] = [];

/** A new empty folder under the OS temp dir, removed by `removeTempFolders()`. */
export function makeTempFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  created.push(folder);
  return folder;
}

export function removeTempFolders(): void {
  for (const folder of created.splice(0)) rmSync(folder, { recursive: true, force: true });
}
