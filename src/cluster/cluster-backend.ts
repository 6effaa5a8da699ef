/** Cluster mode's backend (docs/cluster.md): the Postgres store behind the runtime, and the work source that claims from it. */
import type { GovflowConfig } from '../config/config-loader.js';
import type { Backend } from '../daemon/work-source.js';
import type { OperationalLog } from '../log-contract.js';
import { piiEnabled } from '../privacy/pii-redactor.js';
import { requireVaultKey, vaultKeyOf } from '../privacy/vault-cipher.js';
import { openClusterStore } from './cluster-store.js';
import { ClusterWork } from './cluster-work.js';
import { GovernanceVersions } from './governance-versions.js';
import { PostgresUserSpend } from './store-user-spend.js';

/** Opens the Postgres store; throws StoreUnreachableError (exit 2, naming host and port) when it does not answer. */
export async function openClusterBackend(config: GovflowConfig, log: OperationalLog): Promise<Backend> {
  // The store keeps the PII vaults sealed (docs/privacy.md): no key, no start (exit 2, naming both settings).
  if (piiEnabled(config.pii) || vaultKeyOf(config).problem !== null) requireVaultKey(config);
  const cluster = await openClusterStore(config, (message) =>
    log.warn('postgres connection error; the pool reconnects', { error: message }),
  );
  let versions: GovernanceVersions | null = null;
  return {
    runtimeOptions: {
      store: cluster.store,
      ...(config.limits.user_daily_usd !== null
        ? { spend: new PostgresUserSpend(cluster.pool, cluster.schema, config, log) }
        : {}),
      governanceFor: (sessionId, current) => versions?.snapshotFor(sessionId) ?? current.current(),
    },
    work(context) {
      versions = new GovernanceVersions(cluster.pool, cluster.schema, config, () =>
        context.runtime.governance.current(),
      );
      return new ClusterWork(config, cluster, versions, context);
    },
    close: () => cluster.close(),
  };
}
