/**
 * Signed checkpoints of the audit chain (docs/audit-log.md), Ed25519 over canonical JSON. A copy
 * held off the machine (a witness) makes a cut of the newest entries, or a replaced day, detectable
 * even by someone who can rewrite every file of the root.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { canonicalJson } from '../message/canonical-json.js';
import { sha256Hex } from '../sha256-hex.js';

/** "The chain had `entries` entries, the last in day file `day` hashing to `hash`", signed `at` by `key`. */
export interface Checkpoint {
  day: string;
  entries: number;
  hash: string;
  at: string;
  /** The key id: SHA-256 of the public key's DER SPKI bytes. */
  key: string;
  /** Base64 Ed25519 signature over the canonical JSON of the fields above. */
  sig: string;
}

export function publicKeyId(publicKey: KeyObject): string {
  return sha256Hex(publicKey.export({ type: 'spki', format: 'der' }));
}

/** A new Ed25519 key pair as PEM: PKCS#8 private, SPKI public. */
export function newSigningKeyPair(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The private key at `file`, which must be an Ed25519 key; ConfigError naming the file otherwise. */
export function readSigningKey(file: string): { privateKey: KeyObject; keyId: string } {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(readFileSync(file));
  } catch (error) {
    throw new ConfigError(
      `audit.signing_key ${file} cannot be read as a PEM private key (${(error as Error).message}); make one with "govflow keygen --out ${file}"`,
      file,
      undefined,
      { cause: error },
    );
  }
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new ConfigError(
      `audit.signing_key ${file} is a ${privateKey.asymmetricKeyType} key; govflow signs with Ed25519 ("govflow keygen")`,
      file,
    );
  return { privateKey, keyId: publicKeyId(createPublicKey(privateKey)) };
}

/** The public key at `file` (SPKI PEM, `FILE.pub` of keygen); ConfigError naming the file otherwise. */
export function readPublicKey(file: string): { publicKey: KeyObject; keyId: string } {
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey(readFileSync(file));
  } catch (error) {
    throw new ConfigError(
      `${file} cannot be read as a PEM public key (${(error as Error).message}); pass the .pub file "govflow keygen" wrote`,
      file,
      undefined,
      { cause: error },
    );
  }
  if (publicKey.asymmetricKeyType !== 'ed25519')
    throw new ConfigError(
      `${file} is a ${publicKey.asymmetricKeyType} key; govflow checkpoints are signed with Ed25519`,
      file,
    );
  return { publicKey, keyId: publicKeyId(publicKey) };
}

export function signCheckpoint(
  privateKey: KeyObject,
  keyId: string,
  state: { day: string; entries: number; hash: string },
  at: Date,
): Checkpoint {
  return signFields(privateKey, keyId, {
    day: state.day,
    entries: state.entries,
    hash: state.hash,
    at: at.toISOString(),
  });
}

/** `fields` with `key` and `sig` over the canonical JSON of the rest, as a checkpoint (retention's deletion records too). */
export function signFields<T extends object>(
  privateKey: KeyObject,
  keyId: string,
  fields: T,
): T & { key: string; sig: string } {
  const signed = { ...fields, key: keyId };
  return { ...signed, sig: sign(null, Buffer.from(canonicalJson(signed)), privateKey).toString('base64') };
}

/** True when `checkpoint` is signed by `publicKey` over exactly its fields. */
export function checkpointSignatureHolds(checkpoint: Checkpoint, publicKey: KeyObject): boolean {
  const { sig, ...fields } = checkpoint;
  try {
    return verify(null, Buffer.from(canonicalJson(fields)), publicKey, Buffer.from(sig, 'base64'));
  } catch {
    return false;
  }
}

/** A checkpoint line as read back, or the reason it is not one. */
export function parseCheckpointLine(line: string): Checkpoint | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  const record = value as Partial<Record<keyof Checkpoint, unknown>>;
  if (typeof value !== 'object' || value === null) return 'not a JSON object';
  for (const key of ['day', 'hash', 'at', 'key', 'sig'] as const)
    if (typeof record[key] !== 'string') return `"${key}" is not a string`;
  if (!Number.isInteger(record.entries) || (record.entries as number) < 0) return '"entries" is not a count';
  return record as Checkpoint;
}
