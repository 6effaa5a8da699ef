/** The runtime folders under `system/` (README "Folder layout"), named once. */
import path from 'node:path';

export interface SystemPaths {
  system: string;
  inbox: string;
  outbox: string;
  logs: string;
  sessions: string;
  archive: string;
  failed: string;
  /** Claimed request files while their session runs (rename target: the claim is atomic). */
  processing: string;
  /** Small state files: audit head record, processed request ids, daemon lock. */
  state: string;
  /** Content-addressed governance snapshots, so auditors can read the text behind any message. */
  snapshots: string;
}

export function systemPaths(root: string): SystemPaths {
  const system = path.join(root, 'system');
  return {
    system,
    inbox: path.join(system, 'inbox'),
    outbox: path.join(system, 'outbox'),
    logs: path.join(system, 'logs'),
    sessions: path.join(system, 'sessions'),
    archive: path.join(system, 'archive'),
    failed: path.join(system, 'failed'),
    processing: path.join(system, 'processing'),
    state: path.join(system, 'state'),
    snapshots: path.join(system, 'snapshots'),
  };
}
