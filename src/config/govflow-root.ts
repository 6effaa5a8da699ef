/** What makes a folder a govflow root (SPEC §21): any one of system/, govflow.config.yaml and governance/. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE_NAME } from './config-loader.js';

/** The names whose presence makes a folder a root, as a reader is told them. */
export const ROOT_MARKS = ['system/', CONFIG_FILE_NAME, 'governance/'] as const;

/** True when `root` holds system/, the config or governance/: a new root (just `govflow init`) counts. */
export function isGovflowRoot(root: string): boolean {
  return ROOT_MARKS.some((mark) => existsSync(path.join(root, mark)));
}
