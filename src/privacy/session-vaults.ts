/** Where a session's PII vault is opened: its store's (cluster mode) or the file in its folder (docs/privacy.md). */
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import type { SessionStore } from '../store/session-store.js';
import { fileVault, readVault, type SessionVault, type VaultEntry } from './pii-vault.js';
import { sessionFolder } from '../store/session-retention.js';

export function openSessionVault(config: GovflowConfig, store: SessionStore, sessionId: string): Promise<SessionVault> {
  if (store.openVault) return store.openVault(sessionId);
  return Promise.resolve(fileVault(path.join(config.paths.sessions, sessionId), config.daemon.fsync));
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
