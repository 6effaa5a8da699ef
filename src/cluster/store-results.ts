/**
 * Results as `govflow run` reads them in cluster mode: a reply's result is filed in the outbox of
 * the daemon that took the request, maybe another root's, so the run waits on the store instead.
 */
import type { CancelTarget, ResultSource, SessionStanding } from '../store/session-reads.js';
import { ClusterReads } from './cluster-reads.js';
import type { GovflowConfig } from '../config/config-loader.js';
import { openPool, quoteIdentifier, storeSettings } from './postgres-connection.js';

export interface StoreResults extends ResultSource {
  close(): Promise<void>;
}

export async function openStoreResults(config: GovflowConfig): Promise<StoreResults> {
  const settings = storeSettings(config);
  const pool = await openPool({ ...settings, poolSize: 1, applicationName: 'govflow run' });
  const sessions = `${quoteIdentifier(settings.schema)}.sessions`;
  return {
    async requestIdOf(sessionId) {
      const found = await pool.query<{ request_id: string }>(
        `select request_id from ${sessions} where session_id = $1`,
        [sessionId],
      );
      return found.rows[0]?.request_id ?? null;
    },
    async read(requestId) {
      const found = await pool.query<{ result_json: string | null }>(
        `select result_json from ${sessions} where request_id = $1`,
        [requestId],
      );
      return found.rows[0]?.result_json ?? null;
    },
    close: () => pool.end(),
  };
}

/** Where sessions stand in the store, for `govflow cancel|retry|fork|rerun` (docs/run-control.md). */
export interface StoreStandings {
  standing(sessionId: string): Promise<SessionStanding | null>;
  unfinished(): Promise<CancelTarget[]>;
  close(): Promise<void>;
}

export async function openStoreStandings(config: GovflowConfig): Promise<StoreStandings> {
  const settings = storeSettings(config);
  const pool = await openPool({ ...settings, poolSize: 1, applicationName: 'govflow control' });
  const reads = new ClusterReads(pool, settings.schema, null, config.paths, config.timezone);
  return {
    standing: (sessionId) => reads.sessionStanding(sessionId),
    unfinished: () => reads.unfinishedSessions(),
    close: () => pool.end(),
  };
}
