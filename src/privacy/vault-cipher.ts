/**
 * The PII vault as cluster mode stores it (docs/privacy.md "Where the originals are"): the vault's
 * JSON sealed with AES-256-GCM under a key that never enters the database — 32 bytes written as 64
 * hex or 44 base64 characters in GOVFLOW_VAULT_KEY or in the file `privacy.vault_key_file`.
 * A sealed vault is `iv (12 bytes) | tag (16 bytes) | ciphertext`; the session id is the
 * additional data, so one session's vault cannot be passed off as another's.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import { ConfigError, GovflowError, errorMessage } from '../errors.js';
import { VAULT_FORMAT, type VaultEntry } from './pii-vault.js';

export const VAULT_KEY_ENV = 'GOVFLOW_VAULT_KEY';
/** The key being rotated away from, for `govflow migrate` alone (docs/privacy.md "Rotating the vault key"). */
export const PREVIOUS_VAULT_KEY_ENV = 'GOVFLOW_VAULT_KEY_PREVIOUS';
export const VAULT_KEY_SETTING = 'privacy.vault_key_file';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 32-byte key from its written form (64 hex or 44 base64 characters; whitespace around ignored); null when it is neither. */
export function parseVaultKey(written: string): Buffer | null {
  const text = written.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/]{43}=$/.test(text)) {
    const key = Buffer.from(text, 'base64');
    if (key.length === 32) return key;
  }
  return null;
}

/** The vault key as configured: `key` null when none is set; `problem` says why a set one is unusable. */
export function vaultKeyOf(
  config: Pick<GovflowConfig, 'privacy' | 'root'>,
  env: NodeJS.ProcessEnv = process.env,
): { key: Buffer | null; problem: string | null } {
  const fromEnv = env[VAULT_KEY_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const key = parseVaultKey(fromEnv);
    return key
      ? { key, problem: null }
      : { key: null, problem: `${VAULT_KEY_ENV} is not a 32-byte key written as 64 hex or 44 base64 characters` };
  }
  const file = config.privacy.vault_key_file;
  if (file === null) return { key: null, problem: null };
  const resolved = path.resolve(config.root, file);
  let written: string;
  try {
    written = readFileSync(resolved, 'utf8');
  } catch (error) {
    return { key: null, problem: `${VAULT_KEY_SETTING} ${resolved} cannot be read: ${errorMessage(error)}` };
  }
  const key = parseVaultKey(written);
  return key
    ? { key, problem: null }
    : {
        key: null,
        problem: `${VAULT_KEY_SETTING} ${resolved} does not hold a 32-byte key written as 64 hex or 44 base64 characters`,
      };
}

/** The key cluster mode needs when `pii` redacts anything; a ConfigError (exit 2) naming both settings otherwise. */
export function requireVaultKey(config: Pick<GovflowConfig, 'privacy' | 'root'>, env?: NodeJS.ProcessEnv): Buffer {
  const { key, problem } = vaultKeyOf(config, env);
  if (key) return key;
  throw new ConfigError(
    `${problem ?? 'no PII vault key is set'}: in cluster mode with pii.redact the vault is kept in the store, encrypted; ` +
      `set ${VAULT_KEY_ENV} or ${VAULT_KEY_SETTING} to 32 random bytes as 64 hex characters ` +
      '(e.g. `openssl rand -hex 32`), the same on every daemon',
  );
}

function additionalData(sessionId: string): Buffer {
  return Buffer.from(`govflow-vault-v${VAULT_FORMAT}:${sessionId}`, 'utf8');
}

/** The vault's entries sealed for the store. */
export function sealVault(key: Buffer, sessionId: string, entries: readonly VaultEntry[]): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(additionalData(sessionId));
  const body = Buffer.concat([cipher.update(JSON.stringify({ v: VAULT_FORMAT, entries }), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** A sealed vault's entries; an `audit` error when the key is another or the bytes were altered. */
export function unsealVault(key: Buffer, sessionId: string, sealed: Buffer): VaultEntry[] {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(additionalData(sessionId));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
    const parsed = JSON.parse(text) as { v?: unknown; entries?: unknown };
    if (parsed.v !== VAULT_FORMAT || !Array.isArray(parsed.entries))
      throw new GovflowError('audit', `unsupported format ${String(parsed.v)}`);
    return parsed.entries as VaultEntry[];
  } catch (error) {
    throw new GovflowError(
      'audit',
      `the store's PII vault of session ${sessionId} cannot be opened with this key (key ${keyId(key)}): ${errorMessage(error)}; ` +
        `every daemon needs the same ${VAULT_KEY_ENV} (docs/privacy.md "Rotating the vault key")`,
    );
  }
}

/** A short, non-secret name for a key (the first 8 hex digits of its SHA-256), for messages. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}
