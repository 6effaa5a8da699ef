/**
 * One writer per root (README "One writer per root"): system/state/root.lock, created with O_EXCL,
 * names the owner (a daemon, or a `govflow run`), the only process that writes the audit log,
 * journals and request files. A lock whose owner is gone is removed by the next process under a
 * short-lived break file, so two processes never both remove a lock and each take one.
 */
import { errorCode, GovflowError } from '../errors.js';
import { closeSync, openSync, readFileSync, rmSync, statSync, unlinkSync, writeSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive } from '../store/process-alive.js';

export const ROOT_LOCK_FILE = 'root.lock';
/** A break file older than this was left by a process that died while breaking: removed. */
const BREAK_STALE_MS = 5_000;
/** Lock files this process holds (a lock naming this pid but not listed here is a reused pid's). */
const heldHere = new Set<string>();

export type RootOwnerKind = 'daemon' | 'run';

export interface RootOwner {
  pid: number;
  host: string;
  kind: RootOwnerKind;
  started_at: string;
}

/** The root is owned by another live process: a daemon (hand requests to it) or a one-shot run (wait). */
export class RootLockedError extends GovflowError {
  override readonly name = 'RootLockedError';
  constructor(
    readonly owner: RootOwner,
    readonly lockPath: string,
  ) {
    // A user error (exit 2): the root is in use, and the message says by whom and what to do.
    super(
      'usage',
      owner.kind === 'daemon'
        ? `a govflow daemon (pid ${owner.pid}) already runs on this root (${lockPath}); stop it first (kill ${owner.pid}: SIGTERM stops it ` +
            `gracefully), or use "govflow run" to hand it a request`
        : `a one-shot "govflow run" (pid ${owner.pid}) is using this root (${lockPath}); wait for it to finish`,
    );
  }
}

function parseOwner(text: string): RootOwner | null {
  try {
    const value = JSON.parse(text) as Partial<RootOwner>;
    if (
      typeof value.pid !== 'number' ||
      typeof value.host !== 'string' ||
      (value.kind !== 'daemon' && value.kind !== 'run')
    )
      return null;
    return { pid: value.pid, host: value.host, kind: value.kind, started_at: String(value.started_at ?? '') };
  } catch {
    return null;
  }
}

/** The lock's text and when it was made, or null when there is none. */
function observe(lockPath: string): { text: string; ctimeMs: number } | null {
  try {
    return { text: readFileSync(lockPath, 'utf8'), ctimeMs: statSync(lockPath).ctimeMs };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The live owner a lock names, or null when it is stale: unreadable, from before the last boot, or
 * naming a process that is gone (or this one: a pid reused in a restarted container).
 */
function liveOwner(observed: { text: string; ctimeMs: number }): RootOwner | null {
  const owner = parseOwner(observed.text);
  if (owner === null) return null;
  if (owner.host !== os.hostname()) return owner; // cannot judge another host's pid: keep it
  if (observed.ctimeMs < Date.now() - os.uptime() * 1000 - 1000) return null;
  if (owner.pid === process.pid) return null;
  if (!isProcessAlive(owner.pid)) return null;
  return owner;
}

export class RootLock {
  private released = false;

  private constructor(
    readonly lockPath: string,
    readonly owner: RootOwner,
  ) {}

  /** The root's live owner, or null when nobody owns it (for `govflow status` and `govflow run`). */
  static owner(stateDir: string): RootOwner | null {
    const lockPath = path.join(stateDir, ROOT_LOCK_FILE);
    const observed = observe(lockPath);
    if (observed === null) return null;
    return heldHere.has(lockPath) ? parseOwner(observed.text) : liveOwner(observed);
  }

  /** Takes the root (removing a stale lock); throws {@link RootLockedError} when a live process owns it. */
  static async acquire(stateDir: string, kind: RootOwnerKind): Promise<RootLock> {
    mkdirSync(stateDir, { recursive: true });
    const lockPath = path.join(stateDir, ROOT_LOCK_FILE);
    const owner: RootOwner = { pid: process.pid, host: os.hostname(), kind, started_at: new Date().toISOString() };
    if (heldHere.has(lockPath)) {
      const mine = observe(lockPath);
      throw new RootLockedError((mine && parseOwner(mine.text)) ?? owner, lockPath);
    }
    for (let attempt = 0; ; attempt++) {
      if (tryCreate(lockPath, owner)) {
        heldHere.add(lockPath);
        return new RootLock(lockPath, owner);
      }
      const observed = observe(lockPath);
      if (observed === null) {
        // Released meanwhile, or a name that exists but leads nowhere (a dangling symbolic link).
        if (attempt >= 50)
          throw new GovflowError(
            'usage',
            `cannot create the root lock ${lockPath}: something is there that cannot be read (a dangling symbolic link?); remove it`,
          );
        continue;
      }
      const live = liveOwner(observed);
      if (live !== null) throw new RootLockedError(live, lockPath);
      if (attempt >= 50) {
        throw new GovflowError(
          'usage',
          `could not take the root lock ${lockPath}: it keeps being re-created; if no govflow process runs on this root, remove the file`,
        );
      }
      if (!breakStale(lockPath, observed.text)) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Gives the root up (idempotent); only removes the lock while it still names this process. */
  release(): void {
    if (this.released) return;
    this.released = true;
    heldHere.delete(this.lockPath);
    try {
      if (parseOwner(readFileSync(this.lockPath, 'utf8'))?.pid !== this.owner.pid) return;
      unlinkSync(this.lockPath);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

function tryCreate(lockPath: string, owner: RootOwner): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw new GovflowError(
      'usage',
      `could not create the root lock ${lockPath} (${(error as Error).message}); check that ${path.dirname(lockPath)} is writable`,
      {
        cause: error,
      },
    );
  }
  try {
    writeSync(fd, `${JSON.stringify(owner)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Removes the stale lock `staleText` unless another process did; false while another is breaking it. */
function breakStale(lockPath: string, staleText: string): boolean {
  const breakPath = `${lockPath}.break`;
  let fd: number;
  try {
    fd = openSync(breakPath, 'wx');
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    try {
      if (Date.now() - statSync(breakPath).mtimeMs > BREAK_STALE_MS) rmSync(breakPath, { force: true });
    } catch {
      // removed meanwhile
    }
    return false;
  }
  closeSync(fd);
  try {
    if (observe(lockPath)?.text === staleText) unlinkSync(lockPath);
  } finally {
    rmSync(breakPath, { force: true });
  }
  return true;
}
