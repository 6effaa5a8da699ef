/** Where a session's PII vault is opened: its store's (cluster mode) or the file in its folder (docs/privacy.md). */
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import type { SessionStore } from '../store/session-store.js';
import { fileVault, type SessionVault } from './pii-vault.js';

export function openSessionVault(config: GovflowConfig, store: SessionStore, sessionId: string): Promise<SessionVault> {
  if (store.openVault) return store.openVault(sessionId);
  return Promise.resolve(fileVault(path.join(config.paths.sessions, sessionId), config.daemon.fsync));
}
