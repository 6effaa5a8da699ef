/**
 * `audit.retention` in cluster mode (docs/cluster.md "Retention"). Each daemon archives its own
 * root as in files mode — the projection's day files older than keep_days, the outbox results of
 * sessions that finished on them, request and refused files. Deletion happens once, in the store
 * (store-deletion.ts), and every daemon follows it: it copies the store's deletion records to its
 * `system/logs/archive/deleted.jsonl` and removes its own files of the deleted days, before its
 * projection opens and at every pass. A root's `system/state/legal-hold` is a row in the store
 * while it exists, and any row holds every daemon's deletion.
 */
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { readSigningKey } from '../audit/checkpoint-format.js';
import {
  LEGAL_HOLD_FILE,
  appendDeletionLines,
  dayCutoff,
  readDeletions,
  readNames,
  removeDeletedDays,
} from '../audit/log-retention.js';
import type { GovflowConfig } from '../config/config-loader.js';
import { archiveRootDays, fieldSigner, reportDeletion, type SignFields } from '../daemon/retention-pass.js';
import type { OperationalLog } from '../log-contract.js';
import { copyResultsToArchive } from '../store/session-retention.js';
import type { ClusterStore } from './cluster-store.js';
import { deleteStoreDays } from './store-deletion.js';
import { tablesOf } from './postgres-connection.js';

const RESULT_FILE = /^(.+)\.(json|md)$/;

export class StoreRetention {
  private held = false;
  private readonly table: (name: string) => string;
  private readonly sign: SignFields | undefined;

  constructor(
    private readonly config: GovflowConfig,
    private readonly cluster: Pick<ClusterStore, 'pool' | 'schema' | 'daemonId'>,
    private readonly log: OperationalLog,
  ) {
    this.table = tablesOf(cluster.schema);
    const { signing_key: signingKey } = config.audit;
    this.sign = fieldSigner(signingKey === null ? null : readSigningKey(signingKey));
  }

  /** Whether passes run (keep_days set); deletions are followed either way. */
  get enabled(): boolean {
    return this.config.audit.retention.keep_days !== null;
  }

  /** Copies the deletion records this root lacks and removes its files of the days (and results) they name. */
  async syncDeletions(): Promise<void> {
    const { paths } = this.config;
    const rows = await this.cluster.pool.query<{ entries: string; day: string; line: string }>(
      `select entries, day, line from ${this.table('audit_deletions')} order by entries`,
    );
    if (rows.rows.length === 0) return;
    const known = new Set(readDeletions(paths.logs).records.map(({ record }) => record.entries));
    const missing = rows.rows.filter((row) => !known.has(Number(row.entries)));
    appendDeletionLines(
      paths.logs,
      missing.map((row) => row.line),
    );
    for (const row of missing) {
      const requests = (JSON.parse(row.line) as { requests?: string[] }).requests ?? [];
      for (const id of requests)
        for (const suffix of ['.json', '.md']) fs.rmSync(path.join(paths.outbox, `${id}${suffix}`), { force: true });
    }
    const removed = removeDeletedDays(paths.logs, rows.rows.at(-1)!.day);
    if (missing.length > 0 || removed.length > 0)
      this.log.info('audit retention: followed the store, which deleted old days', {
        through: rows.rows.at(-1)!.day,
        records: missing.length,
        files_removed: removed.length,
      });
  }

  /** One pass (at start, then hourly). Never throws: a failure is warned about and the next pass tries again. */
  async pass(atStart: boolean): Promise<void> {
    const { config, log } = this;
    const { keep_days: keepDays, delete_after_days: deleteAfterDays } = config.audit.retention;
    try {
      await this.syncHold();
      const now = new Date();
      if (keepDays !== null) {
        const ends = await this.resultDays();
        archiveRootDays({
          config,
          now,
          atStart,
          log,
          archiveSessions: (before) => {
            let archived = 0;
            for (const [requestId, day] of ends) {
              if (day >= before) continue;
              for (const file of copyResultsToArchive(config.paths, requestId, day)) fs.rmSync(file);
              archived++;
            }
            return archived;
          },
        });
      }
      if (deleteAfterDays !== null) {
        const outcome = await deleteStoreDays({
          pool: this.cluster.pool,
          schema: this.cluster.schema,
          cutoff: dayCutoff(now, deleteAfterDays, config.timezone),
          now,
          ...(this.sign && { sign: this.sign }),
        });
        this.held = reportDeletion(
          log,
          {
            deleted: outcome.kind === 'deleted' ? outcome.record.days : [],
            held:
              outcome.kind === 'held'
                ? `system/state/legal-hold exists on the root of daemon ${outcome.daemons.join(', ')}`
                : null,
          },
          this.held,
        );
      }
      await this.syncDeletions();
    } catch (error) {
      log.warn('audit retention: a pass failed; the next one tries again', { error: (error as Error).message });
    }
  }

  /** This root's legal hold, as a row in the store while the file exists. */
  private async syncHold(): Promise<void> {
    const { paths } = this.config;
    const holds = this.table('legal_holds');
    if (fs.existsSync(path.join(paths.state, LEGAL_HOLD_FILE)))
      await this.cluster.pool.query(
        `insert into ${holds} (daemon_id, host, root) values ($1, $2, $3) on conflict (daemon_id) do nothing`,
        [this.cluster.daemonId, hostname(), path.dirname(path.dirname(paths.state))],
      );
    else await this.cluster.pool.query(`delete from ${holds} where daemon_id = $1`, [this.cluster.daemonId]);
  }

  /** The day (the chain's, as committed) each finished session whose result is in this outbox ended on. */
  private async resultDays(): Promise<Map<string, string>> {
    const ids = [
      ...new Set(
        readNames(this.config.paths.outbox)
          .map((name) => RESULT_FILE.exec(name)?.[1])
          .filter((id) => id !== undefined),
      ),
    ];
    if (ids.length === 0) return new Map();
    const rows = await this.cluster.pool.query<{ request_id: string; day: string }>(
      `select s.request_id, max(e.day) as day from ${this.table('sessions')} s
         join ${this.table('audit_entries')} e on e.session_id = s.session_id
        where s.request_id = any($1) and s.state = 'finished' group by s.request_id`,
      [ids],
    );
    return new Map(rows.rows.map((row) => [row.request_id, row.day]));
  }
}
