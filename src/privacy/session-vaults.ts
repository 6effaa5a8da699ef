/** Where a session's PII vault is opened: its store's (cluster mode) or the file in its folder (docs/privacy.md). */
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import type { SessionStore } from '../store/session-store.js';
import { fileVault, readVault, type SessionVault, type VaultEntry } from './pii-vault.js';
import { sessionFolder } from '../store/session-retention.js';

export function openSessionVault(
  config: GovflowConfig,
  store: SessionStore,
  sessionId: string,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<SessionVault> {
  if (store.openVault) return store.openVault(sessionId);
  // A session being made has no vault file to read: its vault is written only once its journal exists
  // (SessionPrivacy.folderCreated), and a session whose journal exists is recovered, not made again.
  const folder = path.join(config.paths.sessions, sessionId);
  return Promise.resolve(fileVault(folder, config.daemon.fsync, fresh ? [] : readVault(folder)));
}

/** The vault entries a fork's original or a child's parent hands down; an original retention archived is read from the archive. */
export async function inheritedVault(
  config: GovflowConfig,
  store: SessionStore,
  sessionId: string,
): Promise<VaultEntry[]> {
  if (store.openVault) return [...(await store.openVault(sessionId)).entries];
  return readVault(sessionFolder(config.paths, sessionId));
}
