/**
 * Sessions run on the governance version they started with (docs/cluster.md): the snapshot is
 * stored in Postgres by hash and the session pinned to it; a daemon that later runs the session
 * (a takeover, a reply) writes those files under system/state/governance/<hash>/ and loads them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { GovflowConfig } from '../config/config-loader.js';
import { loadGovernance, type GovernanceSnapshot } from '../governance/governance-loader.js';
import { tablesOf } from './postgres-connection.js';
import { GovflowError } from '../errors.js';

export class GovernanceVersions {
  private readonly snapshots = new Map<string, GovernanceSnapshot>();
  /** The version each session running here is pinned to. */
  private readonly pinned = new Map<string, string>();
  private readonly stored = new Set<string>();
  private readonly table: (name: string) => string;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly config: GovflowConfig,
    private readonly current: () => GovernanceSnapshot,
  ) {
    this.table = tablesOf(schema);
  }

  /** Pins a session to its row's version, or when it has none yet to this daemon's current one, stored first. */
  async pin(sessionId: string, pinnedHash: string | null): Promise<string> {
    let hash = pinnedHash;
    if (hash === null) {
      const snapshot = this.current();
      await this.store(snapshot);
      hash = snapshot.hash;
    } else if (!this.snapshots.has(hash) && hash !== this.current().hash) {
      this.snapshots.set(hash, await this.load(hash));
    }
    this.pinned.set(sessionId, hash);
    return hash;
  }

  unpin(sessionId: string): void {
    this.pinned.delete(sessionId);
  }

  /** The snapshot a session runs on (the current one for a session not pinned here). */
  snapshotFor(sessionId: string | undefined): GovernanceSnapshot {
    const current = this.current();
    const hash = sessionId === undefined ? undefined : this.pinned.get(sessionId);
    if (hash === undefined || hash === current.hash) return current;
    return this.snapshots.get(hash) ?? current;
  }

  private async store(snapshot: GovernanceSnapshot): Promise<void> {
    if (this.stored.has(snapshot.hash)) return;
    await this.pool.query(
      `insert into ${this.table('governance_snapshots')} (hash, files) values ($1, $2) on conflict do nothing`,
      [snapshot.hash, JSON.stringify(snapshot.files)],
    );
    this.stored.add(snapshot.hash);
  }

  private async load(hash: string): Promise<GovernanceSnapshot> {
    const row = await this.pool.query<{ files: Record<string, string> }>(
      `select files from ${this.table('governance_snapshots')} where hash = $1`,
      [hash],
    );
    const files = row.rows[0]?.files;
    if (!files)
      throw new GovflowError(
        'internal',
        `governance version ${hash} is not in the store; the session cannot run on the version it started with`,
      );
    const folder = path.join(this.config.paths.state, 'governance', hash);
    for (const [relative, text] of Object.entries(files)) {
      const target = path.join(folder, relative);
      if (!target.startsWith(folder + path.sep))
        throw new GovflowError('internal', `governance version ${hash} names a file outside its folder: ${relative}`);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
    const { snapshot, errors } = loadGovernance({ ...this.config, root: folder });
    if (!snapshot)
      throw new GovflowError(
        'config',
        `governance version ${hash} from the store does not load here: ${errors.map((error) => error.describe()).join('; ')}`,
      );
    if (snapshot.hash !== hash)
      throw new GovflowError(
        'config',
        `governance version ${hash} loads here as ${snapshot.hash} (a config difference between daemons?)`,
      );
    return snapshot;
  }
}
