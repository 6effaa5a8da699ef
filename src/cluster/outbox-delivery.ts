/**
 * Results go to the outbox of the daemon that took the request, wherever they ran (docs/cluster.md).
 * `outbox_version` records what was written, so a result that changed (pending, then final) is
 * written again and nothing twice.
 */
import type { OperationalLog } from '../log-contract.js';
import { OutageLog } from './outage-log.js';
import { writeOutboxResult } from '../store/atomic-file.js';
import { prepared, tablesOf } from './postgres-connection.js';
import type { ClusterStore } from './cluster-store.js';
import type { StoreVaults } from './store-vaults.js';

export function outboxDelivery(
  cluster: Pick<ClusterStore, 'pool' | 'schema' | 'daemonId'>,
  outboxDir: string,
  durable: boolean,
  log: OperationalLog,
  options: { restore: StoreVaults | null },
): () => Promise<void> {
  const sessions = tablesOf(cluster.schema)('sessions');
  const dueStatement = prepared(
    `select session_id, request_id, result_json, result_report, result_version from ${sessions} where intake_daemon = $1 and ` +
      `result_version > outbox_version limit 100`,
  );
  const markStatement = prepared(
    `update ${sessions} s set outbox_version = greatest(s.outbox_version, w.version)
       from unnest($1::text[], $2::int[]) as w(session_id, version) where s.session_id = w.session_id`,
  );
  return new OutageLog(log).coalesced('write results to the outbox', async () => {
    for (;;) {
      const due = await cluster.pool.query<{
        session_id: string;
        request_id: string;
        result_json: string;
        result_report: string;
        result_version: number;
      }>({ ...dueStatement, values: [cluster.daemonId] });
      if (due.rows.length === 0) return;
      // The files first, then one statement marks every one written (a crash between writes them again, the same bytes).
      const written: typeof due.rows = [];
      try {
        for (const row of due.rows) {
          await writeOutboxResult(
            outboxDir,
            {
              requestId: row.request_id,
              json: options.restore
                ? await options.restore.restoreResult(row.session_id, row.result_json)
                : row.result_json,
              report: row.result_report,
            },
            durable,
          );
          written.push(row);
        }
      } finally {
        if (written.length > 0)
          await cluster.pool.query({
            ...markStatement,
            values: [written.map((row) => row.session_id), written.map((row) => row.result_version)],
          });
      }
    }
  });
}
