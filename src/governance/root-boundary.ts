/**
 * Silent failure #4 (issue 11): every file that can reach a prompt or steer a run must lie inside
 * the root after symlinks are resolved, unless `allow_outside_root: true`.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { GovflowError } from '../errors.js';

/** A path that resolves outside the root; its message names both and says how to fix it. */
export class OutsideRootError extends GovflowError {
  override readonly name = 'OutsideRootError';
  constructor(
    readonly relative: string,
    readonly resolved: string,
    readonly root: string,
  ) {
    super(
      'config',
      `${relative} is outside the root ${root}${resolved === path.resolve(root, relative) ? '' : ` (it resolves to ${resolved})`}: ` +
        'move the file into the root, or set allow_outside_root: true in govflow.config.yaml',
    );
  }
}

export class RootBoundary {
  private realRoot: string | null = null;

  constructor(
    readonly root: string,
    readonly allowOutside: boolean,
  ) {}

  /** The absolute path of `relative`; throws {@link OutsideRootError} when it resolves outside the root (a missing path passes). */
  resolve(relative: string): string {
    const full = path.resolve(this.root, relative);
    if (this.allowOutside) return full;
    let real: string;
    try {
      real = realpathSync(full);
    } catch {
      real = full;
    }
    this.realRoot ??= realpathSync(this.root);
    const inside = path.relative(this.realRoot, real);
    if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside))
      throw new OutsideRootError(relative, real, this.root);
    return full;
  }
}
