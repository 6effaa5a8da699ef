/** The session vault (pii-vault.json, mode 0600): the only file with original PII values. */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { writeFileAtomic } from '../store/atomic-file.js';
import { errorCode, GovflowError } from '../errors.js';

export const VAULT_FORMAT = 1 as const;
export const VAULT_FILE_NAME = 'pii-vault.json';

/** One original value and the placeholder that stands for it. */
export interface VaultEntry {
  placeholder: string;
  kind: string;
  value: string;
}

interface VaultFile {
  v: typeof VAULT_FORMAT;
  entries: VaultEntry[];
}

export function vaultPath(sessionFolder: string): string {
  return path.join(sessionFolder, VAULT_FILE_NAME);
}

/** Entries of the vault in `sessionFolder` (gzipped in an archived session's), or none when it has no vault yet. */
export function readVault(sessionFolder: string): VaultEntry[] {
  const file = vaultPath(sessionFolder);
  // One lookup for the common case, a new session's folder (that has none yet).
  const text = readIfThere(file) ?? readIfThere(`${file}.gz`, true);
  if (text === null) return [];
  const parsed = JSON.parse(text) as Partial<VaultFile>;
  if (parsed.v !== VAULT_FORMAT || !Array.isArray(parsed.entries)) {
    throw new GovflowError(
      'audit',
      `${file}: unsupported vault format ${JSON.stringify(parsed.v)} (this govflow reads v${VAULT_FORMAT})`,
    );
  }
  return parsed.entries;
}

/** The file's text (gunzipped), or null when there is none. */
function readIfThere(file: string, gzipped = false): string | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return null;
    throw error;
  }
  return (gzipped ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** Replaces the vault with `entries`; its temporary file (.pii-vault.json.*.tmp) is mode 0600 from its creation. */
export function writeVault(sessionFolder: string, entries: readonly VaultEntry[], durable: boolean): void {
  mkdirSync(sessionFolder, { recursive: true });
  const body: VaultFile = { v: VAULT_FORMAT, entries: [...entries] };
  writeFileAtomic(vaultPath(sessionFolder), `${JSON.stringify(body)}\n`, durable, undefined, 0o600);
}

/**
 * A session's vault where its store keeps it: files mode the file above, cluster mode a row of the
 * store sealed with the vault key (src/cluster/store-vaults.ts). `entries` is what it held when opened.
 */
export interface SessionVault {
  readonly entries: readonly VaultEntry[];
  /** Keeps the whole vault: the file at once; the store's row before the session's next write there. */
  write(entries: readonly VaultEntry[]): void;
}

/** The vault file in `sessionFolder` as a SessionVault holding `entries` (what {@link readVault} read, or none for a new session). */
export function fileVault(sessionFolder: string, durable: boolean, entries: readonly VaultEntry[]): SessionVault {
  return {
    entries,
    write: (entries) => writeVault(sessionFolder, entries, durable),
  };
}
