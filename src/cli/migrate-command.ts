/** `govflow migrate`: applies the Postgres store's schema migrations and nothing else (docs/cluster.md). */
import { loadConfig } from '../config/config-loader.js';
import { ConfigError } from '../errors.js';
import type { CommandDefinition } from './command-context.js';
import { keyId, parseVaultKey, PREVIOUS_VAULT_KEY_ENV, requireVaultKey } from '../privacy/vault-cipher.js';

export const migrateCommand: CommandDefinition = {
  async run({ root, io }) {
    const config = loadConfig(root, io.env);
    if (config.store.kind !== 'postgres') {
      throw new ConfigError(
        'govflow migrate is for cluster mode: this root uses the files store (store.kind: files), which needs no migrations; set store: { ' +
          'kind: postgres, url: ... } in govflow.config.yaml to use Postgres',
      );
    }
    const { openPool, storeAddress, storeSettings } = await import('../cluster/postgres-connection.js');
    const { migrate } = await import('../cluster/schema-migrate.js');
    const { MIGRATIONS } = await import('../cluster/store-migrations.js');
    const settings = storeSettings(config);
    const pool = await openPool(settings);
    try {
      const applied = await migrate(pool, settings.schema);
      const newest = MIGRATIONS.at(-1)?.version ?? 0;
      io.stdout(
        applied.length > 0
          ? `migrated schema "${settings.schema}" at ${storeAddress(settings.url)} to version ${newest} (applied ${applied.join(', ')})\n`
          : `schema "${settings.schema}" at ${storeAddress(settings.url)} is up to date (version ${newest})\n`,
      );
      const written = io.env[PREVIOUS_VAULT_KEY_ENV];
      if (written !== undefined && written.trim() !== '') {
        // Key rotation (docs/privacy.md): every PII vault sealed again under the new key.
        const previous = parseVaultKey(written);
        if (!previous)
          throw new ConfigError(
            `${PREVIOUS_VAULT_KEY_ENV} is not a 32-byte key written as 64 hex or 44 base64 characters`,
          );
        const next = requireVaultKey(config, io.env);
        const { resealVaults } = await import('../cluster/store-vaults.js');
        const { resealed, current } = await resealVaults(pool, settings.schema, { previous, next });
        io.stdout(
          `PII vaults sealed again under the key ${keyId(next)}: ${resealed} (${current} were already); ` +
            `start every daemon with it, and keep the previous key until you have checked the results\n`,
        );
      }
    } finally {
      await pool.end();
    }
    return 0;
  },
};
