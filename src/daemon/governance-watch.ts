/**
 * Hot reload of governance/, context/ and schemas/ (README "Write an agent"): a valid tree replaces
 * the snapshot for new steps; an invalid one is logged and the last good one kept.
 */
import { watch } from 'chokidar';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../errors.js';
import type { OperationalLog } from '../log-contract.js';
import type { GovernanceSource } from './governance-source.js';

/**
 * Resolves once watching (no edit after the `ready` line is missed), with the function that stops it.
 * `folders`: more root-relative folders that hold governance (`agents.claude_code_dir`).
 */
export async function watchGovernance(
  root: string,
  governance: GovernanceSource,
  log: OperationalLog,
  folders: readonly string[] = [],
): Promise<() => Promise<void>> {
  const targets = ['governance', 'context', 'schemas', ...folders]
    .map((folder) => path.join(root, folder))
    .filter((folder) => existsSync(folder));
  if (targets.length === 0) return async () => {};
  return watchSettled(
    targets,
    () => reloadGovernance(governance, log),
    (error) => log.error('governance watcher error', { error: errorMessage(error) }),
  );
}

/** Calls `changed` once edits of `targets` settled for 150 ms (a save is several events); resolves once ready. */
export async function watchSettled(
  targets: string | string[],
  changed: () => void,
  failed: (error: unknown) => void,
): Promise<() => Promise<void>> {
  let timer: NodeJS.Timeout | null = null;
  const watcher = watch(targets, { ignoreInitial: true });
  watcher.on('all', () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(changed, 150);
  });
  watcher.on('error', failed);
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    await watcher.close();
  };
}

function reloadGovernance(governance: GovernanceSource, log: OperationalLog): void {
  try {
    const { changed, errors, warnings, hash } = governance.reload();
    if (errors.length > 0) {
      for (const error of errors)
        log.error(`governance change rejected, keeping the last good snapshot: ${error.describe()}`, {
          file: error.file,
          line: error.line,
        });
      return;
    }
    for (const warning of warnings) log.warn(`governance: ${warning}`);
    if (changed) log.info('governance reloaded; new steps use the new snapshot', { governance: hash.slice(0, 12) });
  } catch (error) {
    log.error('governance reload failed, keeping the last good snapshot', { error: errorMessage(error) });
  }
}
