/**
 * Signed checkpoints of the chain in Postgres (docs/cluster.md): one stream for the cluster's one
 * chain, in files mode's format, kept in `audit_checkpoints` and sent to this daemon's witnesses.
 * A try is one transaction under an advisory lock, so daemons never sign the same count twice, and
 * reads the database's clock under it, so counts and times rise together across daemons. Nothing
 * here fails or slows a session: a failed try is warned about once per outage and tried again.
 */
import type { KeyObject } from 'node:crypto';
import type pg from 'pg';
import { readSigningKey, signCheckpoint, type Checkpoint } from '../audit/checkpoint-format.js';
import { CheckpointWitnesses } from '../audit/checkpoint-witnesses.js';
import type { ChainState } from '../audit/checkpoint-writer.js';
import type { GovflowConfig } from '../config/config-loader.js';
import type { ClusterStore } from './cluster-store.js';
import type { OperationalLog } from '../log-contract.js';
import { OutageLog } from './outage-log.js';
import { inTransaction, tablesOf } from './postgres-connection.js';

const WHAT = 'sign a checkpoint of the audit chain';

export class StoreCheckpoints {
  /** Null unless audit.signing_key is set; ConfigError when the key cannot be read. */
  static forCluster(config: GovflowConfig, cluster: ClusterStore, log: OperationalLog): StoreCheckpoints | null {
    if (config.audit.signing_key === null) return null;
    const witnesses = new CheckpointWitnesses({
      stateDir: config.paths.state,
      witnesses: config.audit.witnesses,
      durable: config.daemon.fsync,
      log: (message, fields) => log.warn(message, fields),
    });
    const checkpoints = new StoreCheckpoints(
      cluster,
      readSigningKey(config.audit.signing_key),
      config.audit.checkpoint_ms,
      witnesses,
      log,
    );
    cluster.committer.onEntriesCommitted((lastHash) => checkpoints.committed(lastHash));
    return checkpoints;
  }

  /** ENTRY_HASH of the newest entry this daemon committed that no checkpoint is known to cover. */
  private uncovered: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** Local time before which a try would find the newest checkpoint too young. */
  private nextTryAt = 0;
  private closed = false;
  private readonly table: (name: string) => string;
  private readonly outages: OutageLog;

  private constructor(
    private readonly cluster: Pick<ClusterStore, 'pool' | 'schema' | 'daemonId'>,
    private readonly key: { privateKey: KeyObject; keyId: string },
    private readonly intervalMs: number,
    private readonly witnesses: CheckpointWitnesses,
    private readonly log: OperationalLog,
  ) {
    this.table = tablesOf(cluster.schema);
    this.outages = new OutageLog(log);
  }

  /** Entries this daemon just committed, the newest hashing to `lastHash` (the committer's order). */
  committed(lastHash: string): void {
    if (this.closed) return;
    this.uncovered = lastHash;
    this.schedule();
  }

  /** Signs what this daemon committed and no checkpoint covers yet, then one more try of each witness. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    if (this.uncovered !== null) await this.run(true);
    await this.witnesses.close();
  }

  private schedule(): void {
    if (this.closed || this.timer !== null || this.running !== null || this.uncovered === null) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.run(false);
      },
      Math.max(0, this.nextTryAt - Date.now()),
    );
    this.timer.unref();
  }

  private run(force: boolean): Promise<void> {
    this.running = this.tryOnce(force)
      .then((waitMs) => {
        this.nextTryAt = Date.now() + waitMs;
        this.outages.succeeded(WHAT);
      })
      .catch((error: unknown) => {
        this.nextTryAt = Date.now() + this.intervalMs;
        this.outages.failed(WHAT, error);
      })
      .finally(() => {
        this.running = null;
        this.schedule();
      });
    return this.running;
  }

  /** One try; resolves with how long until the next checkpoint may be signed. */
  private async tryOnce(force: boolean): Promise<number> {
    const target = this.uncovered;
    if (target === null) return 0;
    const signed: Checkpoint[] = [];
    const { intervalMs, log } = this;
    /** Too early to sign: what this daemon committed stays uncovered. */
    let early = false;
    const waitMs = await inTransaction(this.cluster.pool, async (client) => {
      await client.query('select pg_advisory_xact_lock(hashtext($1))', [`govflow-checkpoints:${this.cluster.schema}`]);
      const now = (await client.query<{ now: Date }>('select clock_timestamp() as now')).rows[0].now;
      const mine = await client.query<{ position: string }>(
        `select position from ${this.table('audit_entries')} where hash = $1`,
        [target],
      );
      const newest = (
        await client.query<{ entries: string; day: string; signed_at: Date }>(
          `select entries, day, signed_at from ${this.table('audit_checkpoints')} order by entries desc limit 1`,
        )
      ).rows.at(0);
      const age = newest ? now.getTime() - newest.signed_at.getTime() : Infinity;
      if (mine.rows.length === 0) {
        log.warn(
          'the audit chain in Postgres no longer holds an entry this daemon committed: not signing over it (run govflow verify --store)',
          { hash: target },
        );
        return intervalMs;
      }
      // Covered already: another daemon signed after these entries.
      if (newest !== undefined && Number(newest.entries) >= Number(mine.rows[0].position))
        return Math.max(0, intervalMs - age);
      early = !force && age < intervalMs;
      if (early) return intervalMs - age;
      for (const point of await this.pointsToSign(
        client,
        newest ? { entries: Number(newest.entries), day: newest.day } : null,
      )) {
        const checkpoint = signCheckpoint(this.key.privateKey, this.key.keyId, point, now);
        await client.query(
          `insert into ${this.table('audit_checkpoints')} (entries, day, hash, signed_at, daemon, line) values ($1, $2, $3, $4, $5, $6)`,
          [checkpoint.entries, checkpoint.day, checkpoint.hash, now, this.cluster.daemonId, JSON.stringify(checkpoint)],
        );
        signed.push(checkpoint);
      }
      return intervalMs;
    });
    if (early) return waitMs;
    if (this.uncovered === target) this.uncovered = null;
    for (const checkpoint of signed) this.witnesses.deliver(checkpoint);
    return waitMs;
  }

  /** The chain's head, preceded on a day's first checkpoint by the last entry of the day before. */
  private async pointsToSign(
    client: pg.PoolClient,
    newest: { entries: number; day: string } | null,
  ): Promise<ChainState[]> {
    const head = (
      await client.query<{ position: string; hash: string; day: string }>(
        `select h.position, h.hash, e.day from ${this.table('audit_head')} h join ${this.table('audit_entries')} e on e.position = h.position where h.id = 1`,
      )
    ).rows[0];
    const points: ChainState[] = [];
    if (newest === null || newest.day < head.day) {
      const dayEnd = await client.query<{ position: string; hash: string; day: string }>(
        `select position, hash, day from ${this.table('audit_entries')} where position > $1 and day < $2 order by position desc limit 1`,
        [newest?.entries ?? 0, head.day],
      );
      for (const row of dayEnd.rows) points.push({ entries: Number(row.position), hash: row.hash, day: row.day });
    }
    points.push({ entries: Number(head.position), hash: head.hash, day: head.day });
    return points;
  }
}
