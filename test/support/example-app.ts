/** The repository's example app, copied into test roots (one definition for every suite). */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The folders that make up the example app. */
export const EXAMPLE_APP_FOLDERS = ['governance', 'context', 'schemas'] as const;

/** Copies governance/, context/ and schemas/ of the repository into `root`. */
export function copyExampleAppInto(root: string): void {
  for (const folder of EXAMPLE_APP_FOLDERS) {
    cpSync(path.join(REPOSITORY_ROOT, folder), path.join(root, folder), { recursive: true });
  }
}
