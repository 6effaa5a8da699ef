/** `govflow migrate`: applies the Postgres store's schema migrations and nothing else (docs/cluster.md). */
import { loadConfig } from '../config/config-loader.js';
import { ConfigError } from '../errors.js';
import type { CommandDefinition } from './command-context.js';

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
    const { migrate, MIGRATIONS } = await import('../cluster/store-migrations.js');
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
    } finally {
      await pool.end();
    }
    return 0;
  },
};
