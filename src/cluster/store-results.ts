/**
 * Results as `govflow run` reads them in cluster mode (docs/cluster.md): from the `sessions` table, on
 * any root. A reply's result is filed in the outbox of the daemon that took the request, which may
 * be another root's, so the run waits on the store rather than on this root's outbox.
 */
import type { ResultSource } from '../cli/run-handover.js';
import type { GovflowConfig } from '../config/config-loader.js';
import { openPool, quoteIdentifier, storeSettings } from './postgres-connection.js';

export interface StoreResults extends ResultSource {
  close(): Promise<void>;
}

/** Opens a small pool on the store; throws StoreUnreachableError (host and port, no credentials). */
export async function openStoreResults(config: GovflowConfig): Promise<StoreResults> {
  const settings = storeSettings(config);
  const pool = await openPool({ ...settings, poolSize: 1, applicationName: 'govflow run' });
  const sessions = `${quoteIdentifier(settings.schema)}.sessions`;
  return {
    async requestIdOf(sessionId) {
      const found = await pool.query<{ request_id: string }>(`select request_id from ${sessions} where session_id = $1`, [sessionId]);
      return found.rows[0]?.request_id ?? null;
    },
    async read(requestId) {
      const found = await pool.query<{ result_json: string | null }>(`select result_json from ${sessions} where request_id = $1`, [requestId]);
      return found.rows[0]?.result_json ?? null;
    },
    close: () => pool.end(),
  };
}
