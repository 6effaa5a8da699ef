/**
 * `govflow keygen --out FILE`: an Ed25519 key pair for audit checkpoints (docs/audit-log.md), FILE
 * (PKCS#8, 0600) and FILE.pub (SPKI). Existing files need `--force`: a new key cannot verify old checkpoints.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { newSigningKeyPair } from '../audit/checkpoint-format.js';
import { UsageError } from '../errors.js';
import type { CommandDefinition } from './command-context.js';

export const keygenCommand: CommandDefinition = {
  options: { out: { type: 'string' }, force: { type: 'boolean' } },
  async run({ io, values }) {
    if (typeof values.out !== 'string' || values.out === '')
      throw new UsageError('name the private key file: govflow keygen --out /etc/govflow/audit.key');
    const privateFile = path.resolve(values.out);
    const publicFile = `${privateFile}.pub`;
    for (const file of [privateFile, publicFile]) {
      if (existsSync(file) && values.force !== true)
        throw new UsageError(
          `${file} exists: keep it (checkpoints signed with it verify only with its key), or pass --force to replace it`,
        );
    }
    const { privatePem, publicPem } = newSigningKeyPair();
    // Its folder is made (mode 0700) when missing: keys usually live in a folder of their own.
    mkdirSync(path.dirname(privateFile), { recursive: true, mode: 0o700 });
    writeFileSync(privateFile, privatePem, { mode: 0o600 });
    chmodSync(privateFile, 0o600);
    writeFileSync(publicFile, publicPem, { mode: 0o644 });
    io.stderr(
      `wrote ${privateFile} (private, mode 0600: set audit.signing_key to it) and ${publicFile} (public: govflow verify --key ${publicFile})\n`,
    );
    return 0;
  },
};
