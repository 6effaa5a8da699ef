/** Everything one daemon needs of the Postgres store, opened the same way by the daemon, `govflow status` and the tests. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import { openPool, storeSettings } from './postgres-connection.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { SessionLeases } from './session-leases.js';
import { StoreCommitter } from './store-committer.js';
import { migrate } from './schema-migrate.js';
import { StoreVaults } from './store-vaults.js';
import { vaultKeyOf } from '../privacy/vault-cipher.js';

export type ClusterStore = Awaited<ReturnType<typeof openClusterStore>>;

/**
 * This root's daemon id, kept in system/state/cluster-daemon-id so a restarted daemon is the same
 * daemon: results of the requests it took still reach its outbox.
 */
function daemonIdOf(stateDir: string): string {
  const file = path.join(stateDir, 'cluster-daemon-id');
  try {
    const id = readFileSync(file, 'utf8').trim();
    if (id) return id;
  } catch {
    // first start of this root in cluster mode
  }
  mkdirSync(stateDir, { recursive: true });
  const id = `${hostname()
    .replace(/[^A-Za-z0-9.-]/g, '-')
    .slice(0, 40)}-${randomBytes(4).toString('hex')}`;
  writeFileSync(file, `${id}\n`);
  return id;
}

export async function openClusterStore(config: GovflowConfig, onPoolError?: (message: string) => void) {
  const settings = storeSettings(config);
  const daemonId = daemonIdOf(config.paths.state);
  const pool = await openPool({ ...settings, applicationName: `govflow:${daemonId}` }, onPoolError);
  try {
    await migrate(pool, settings.schema);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const committer = new StoreCommitter({ pool, schema: settings.schema, daemonId, timezone: config.timezone });
  // The daemon refuses to start with pii.redact and no valid key (requireVaultKey); a reader without one opens no vault.
  const { key } = vaultKeyOf(config);
  const vaults = key ? new StoreVaults(pool, settings.schema, key, daemonId, config) : null;
  return {
    pool,
    schema: settings.schema,
    daemonId,
    committer,
    store: new PostgresSessionStore({
      pool,
      schema: settings.schema,
      daemonId,
      committer,
      leaseMs: config.cluster.lease_ms,
      vaults,
    }),
    vaults,
    leases: new SessionLeases(pool, settings.schema, daemonId, config.cluster.lease_ms, vaults),
    close: () => pool.end(),
  };
}
