/**
 * Silent failure #4 (issue 11): the root is the boundary. Every file that can reach a prompt or
 * steer a run — `prompt.include` matches, `context/` and `governance/` files, config-declared
 * agent files, schemas, model files — must lie inside the root after symlinks are resolved, or
 * it is refused with an error naming the path (README "Files outside the root, and prices"). `allow_outside_root: true` lifts this.
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

  /**
   * The absolute path of `relative` (root-relative, or absolute); throws {@link OutsideRootError}
   * when it, or the file a symlink on its way points to, lies outside the root. A path that does
   * not exist is returned as is: reading it then fails with the usual "does not exist".
   */
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
    if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) {
      throw new OutsideRootError(relative, real, this.root);
    }
    return full;
  }
}
