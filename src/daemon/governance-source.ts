/**
 * The current governance snapshot; every one served is stored under system/snapshots/<hash>.json,
 * so an auditor can read the exact text behind any message (GOVERNANCE_VERSION names the file).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import { ConfigError, GovflowError } from '../errors.js';
import { loadGovernance, type GovernanceSnapshot } from '../governance/governance-loader.js';
import { writeFileAtomic } from '../store/atomic-file.js';

export const SNAPSHOT_FORMAT = 1 as const;

export class GovernanceSource {
  private snapshot: GovernanceSnapshot;

  private constructor(
    private readonly config: GovflowConfig,
    snapshot: GovernanceSnapshot,
  ) {
    this.snapshot = snapshot;
    this.store(snapshot);
  }

  /** Loads the governance; throws the first ConfigError (all of them in `errors`) when invalid. */
  static load(config: GovflowConfig): { source: GovernanceSource; warnings: string[] } {
    const { snapshot, errors, warnings } = loadGovernance(config);
    if (!snapshot) throw new GovernanceInvalidError(errors);
    return { source: new GovernanceSource(config, snapshot), warnings };
  }

  current(): GovernanceSnapshot {
    return this.snapshot;
  }

  /** Reloads from disk: a valid tree replaces the snapshot; an invalid one keeps the last good. */
  reload(): { changed: boolean; errors: ConfigError[]; warnings: string[]; hash: string } {
    const { snapshot, errors, warnings } = loadGovernance(this.config);
    if (!snapshot) return { changed: false, errors, warnings, hash: this.snapshot.hash };
    const changed = snapshot.hash !== this.snapshot.hash;
    if (changed) {
      this.store(snapshot);
      this.snapshot = snapshot;
    }
    return { changed, errors, warnings, hash: snapshot.hash };
  }

  private store(snapshot: GovernanceSnapshot): void {
    const folder = this.config.paths.snapshots;
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `${snapshot.hash}.json`);
    if (existsSync(file)) return;
    writeFileAtomic(
      file,
      `${JSON.stringify({ format: SNAPSHOT_FORMAT, hash: snapshot.hash, files: snapshot.files }, null, 2)}\n`,
      this.config.daemon.fsync,
    );
  }
}

export class GovernanceInvalidError extends GovflowError {
  override readonly name = 'GovernanceInvalidError';
  constructor(readonly errors: ConfigError[]) {
    super(
      'config',
      `the governance tree has ${errors.length} error(s):\n${errors.map((error) => `  ${error.describe()}`).join('\n')}\nrun \`govflow validate\` for details`,
    );
  }
}
