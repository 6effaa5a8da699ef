/**
 * The cross-process lock around every audit append: `<stateDir>/audit.lock`. Several govflow
 * processes may share one root (two daemons, a daemon and a one-shot CLI run); the audit chain is
 * one sequence, so only the lock holder may read the chain tail and append after it.
 *
 * Taking it is one link(2): each writer creates an owner file once
 * (`<stateDir>/audit-lock-owners/<pid>-<nonce>`, holding `<pid> <host> <nonce>`) and hard-links
 * it to `audit.lock`, which fails with EEXIST while another holder has it; releasing is one
 * unlink. Together about 3 µs on ext4, where an exclusive create plus unlink costs 10–30 µs (a
 * new inode each time) and flock(2) needs a native addon. Where hard links are refused, the
 * lock falls back to an exclusive create of the same text.
 *
 * A holder is only inside the lock for one synchronous append, so a lock that stays is a lock
 * whose holder died mid-append (kill -9, power loss):
 *   - same host and the pid is gone (`kill(pid, 0)` → ESRCH): broken at once;
 *   - taken before the machine last booted: broken at once (its pid may belong to another
 *     process by now);
 *   - otherwise (pid reused, another host or container sharing the folder): broken once it is
 *     older than `staleMs` (by the inode's ctime, which link and unlink update). Until then the
 *     waiter blocks, as a waiter for a live holder does.
 * Breaking happens under a second lock (`audit.lock.break`) and only removes the very lock that
 * was judged stale (same text, inode and ctime), so two processes breaking the same stale lock
 * cannot each remove a lock the other has just taken. The caller learns that it broke a lock: the
 * dead holder may have left a torn entry or a head record behind the logs, so it must re-read the
 * chain tail from the logs.
 *
 * Waiting is synchronous (Atomics.wait), like the rest of an append: appends stay serialized in
 * call order within a process and a step pays no event-loop round trip.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AuditLockError } from './audit-errors.js';
import { isProcessAlive } from '../store/process-alive.js';

export const AUDIT_LOCK_FILE = 'audit.lock';
/** Folder of the per-writer owner files linked to the lock. */
export const AUDIT_LOCK_OWNERS_DIR = 'audit-lock-owners';
/** A lock older than this is broken even when its pid looks alive (pid reuse, another host). */
export const DEFAULT_LOCK_STALE_MS = 10_000;

/** How often a waiter re-checks whether the holder died, after the first check. */
const STALE_CHECK_INTERVAL_MS = 20;
/** The first check comes after this much waiting: a live holder releases within ~1 ms. */
const FIRST_STALE_CHECK_MS = 2;
const FIRST_SLEEP_MS = 0.05;
const MAX_SLEEP_MS = 0.5;

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(milliseconds: number): void {
  Atomics.wait(sleepCell, 0, 0, milliseconds);
}

const HOST = os.hostname().replace(/\s/g, '_') || 'localhost';
const PROCESS_NONCE = randomBytes(6).toString('hex');
let instances = 0;

/** Who holds the lock, as its file says. */
export interface AuditLockOwner {
  pid: number;
  host: string;
  token: string;
}

export function parseLockOwner(text: string): AuditLockOwner | null {
  const match = /^(\d+) (\S+) (\S+)\n?$/.exec(text);
  if (!match) return null;
  return { pid: Number(match[1]), host: match[2], token: match[3] };
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

interface ObservedLock {
  text: string;
  ino: number;
  ctimeMs: number;
  ageMs: number;
}

/** Reads a lock file with its identity through one descriptor; null when it does not exist. */
function observe(file: string): ObservedLock | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    const buffer = Buffer.alloc(Math.min(stat.size, 4096));
    const length = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return {
      text: buffer.subarray(0, length).toString('utf8'),
      ino: stat.ino,
      ctimeMs: stat.ctimeMs,
      ageMs: Date.now() - stat.ctimeMs,
    };
  } finally {
    fs.closeSync(fd);
  }
}

function sameLock(a: ObservedLock | null, b: ObservedLock): boolean {
  return a !== null && a.text === b.text && a.ino === b.ino && a.ctimeMs === b.ctimeMs;
}

/** Owner files left by dead processes on this host (kill -9 skips close()). */
function removeDeadOwnerFiles(ownersDir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(ownersDir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(ownersDir, name);
    try {
      const owner = parseLockOwner(fs.readFileSync(file, 'utf8'));
      if (owner !== null && owner.host === HOST && owner.pid !== process.pid && !isProcessAlive(owner.pid)) fs.rmSync(file, { force: true });
    } catch {
      /* another process removed it, or it is not ours to judge */
    }
  }
}

export interface AuditLockAcquired {
  /** A dead holder's lock was removed: re-read the chain tail from the logs. */
  brokeStale: boolean;
  /** What the broken lock said, for the operator. */
  staleOwner?: string;
}

export class AuditAppendLock {
  readonly lockPath: string;
  private readonly breakPath: string;
  private readonly ownersDir: string;
  private readonly ownerName: string;
  private readonly ownerText: string;
  private ownerFile: string | null = null;
  /** False once the filesystem refused a hard link: take the lock by exclusive create instead. */
  private useLink = true;
  private held: { since: number } | null = null;

  constructor(
    stateDir: string,
    private readonly staleMs: number = DEFAULT_LOCK_STALE_MS,
  ) {
    this.lockPath = path.join(stateDir, AUDIT_LOCK_FILE);
    this.breakPath = `${this.lockPath}.break`;
    this.ownersDir = path.join(stateDir, AUDIT_LOCK_OWNERS_DIR);
    instances += 1;
    this.ownerName = `${process.pid}-${PROCESS_NONCE}-${instances}`;
    this.ownerText = `${process.pid} ${HOST} ${this.ownerName}\n`;
  }

  /**
   * Blocks until this process holds the lock. Throws {@link AuditLockError} when the lock file
   * cannot be created (permissions, missing folder) or stays held for 3 × `staleMs` although
   * stale locks are broken (something keeps re-creating it).
   */
  acquire(): AuditLockAcquired {
    if (this.held !== null) throw new AuditLockError('the audit lock is already held by this writer', this.lockPath);
    const started = performance.now();
    let nextStaleCheck = started + FIRST_STALE_CHECK_MS;
    let sleepMs = FIRST_SLEEP_MS;
    let result: AuditLockAcquired = { brokeStale: false };
    for (;;) {
      if (this.tryTake()) {
        this.held = { since: performance.now() };
        return result;
      }
      const now = performance.now();
      if (now >= nextStaleCheck) {
        const broken = this.breakIfStale();
        if (broken !== null) {
          result = { brokeStale: true, staleOwner: broken };
          continue;
        }
        nextStaleCheck = now + STALE_CHECK_INTERVAL_MS;
      }
      if (now - started > this.staleMs * 3) {
        throw new AuditLockError(
          `timed out after ${Math.round(now - started)} ms waiting for the audit lock ${this.lockPath} ` +
            `(held by: ${readText(this.lockPath)?.trim() ?? 'nobody now'}); if no govflow process is appending, remove the file`,
          this.lockPath,
        );
      }
      sleepSync(sleepMs);
      sleepMs = Math.min(sleepMs * 2, MAX_SLEEP_MS);
    }
  }

  /**
   * Removes the lock. A holder that kept it longer than `staleMs / 2` first checks that the file
   * is still its own: past `staleMs` another process may have broken it and taken a new one.
   */
  release(): void {
    const held = this.held;
    if (held === null) return;
    this.held = null;
    try {
      if (performance.now() - held.since > this.staleMs / 2 && readText(this.lockPath) !== this.ownerText) return;
      fs.unlinkSync(this.lockPath);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return;
      throw new AuditLockError(
        `could not remove the audit lock ${this.lockPath} (${(error as Error).message}); other govflow processes ` +
          `will wait up to ${this.staleMs} ms for it: check the permissions of ${path.dirname(this.lockPath)}`,
        this.lockPath,
        { cause: error },
      );
    }
  }

  get isHeld(): boolean {
    return this.held !== null;
  }

  /** Removes this writer's owner file (releasing the lock first if held). Safe to call twice. */
  close(): void {
    try {
      this.release();
    } finally {
      const ownerFile = this.ownerFile;
      this.ownerFile = null;
      if (ownerFile !== null) fs.rmSync(ownerFile, { force: true });
    }
  }

  /** One attempt: true when this writer now holds the lock. */
  private tryTake(): boolean {
    if (this.useLink) {
      const ownerFile = this.ownerFile ?? this.createOwnerFile();
      try {
        fs.linkSync(ownerFile, this.lockPath);
        return true;
      } catch (error) {
        const code = errorCode(error);
        if (code === 'EEXIST') return false;
        if (code === 'ENOENT' && this.ownerFile !== null && !fs.existsSync(ownerFile)) {
          this.ownerFile = null; // someone cleaned the owners folder: make it again
          return this.tryTake();
        }
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EMLINK' && code !== 'ENOSYS') {
          throw this.cannotCreate(error);
        }
        this.useLink = false;
      }
    }
    return this.tryCreate();
  }

  private createOwnerFile(): string {
    try {
      fs.mkdirSync(this.ownersDir, { recursive: true });
      removeDeadOwnerFiles(this.ownersDir);
      const file = path.join(this.ownersDir, this.ownerName);
      fs.writeFileSync(file, this.ownerText);
      this.ownerFile = file;
      return file;
    } catch (error) {
      throw this.cannotCreate(error);
    }
  }

  private cannotCreate(error: unknown): AuditLockError {
    return new AuditLockError(
      `could not create the audit lock ${this.lockPath} (${(error as Error).message}); check that ` +
        `${path.dirname(this.lockPath)} exists and is writable`,
      this.lockPath,
      { cause: error },
    );
  }

  private tryCreate(): boolean {
    let fd: number;
    try {
      fd = fs.openSync(this.lockPath, 'wx');
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      throw this.cannotCreate(error);
    }
    try {
      fs.writeSync(fd, this.ownerText);
    } catch (error) {
      // An empty lock would only be broken by age: remove it now.
      try {
        fs.closeSync(fd);
        fs.unlinkSync(this.lockPath);
      } catch {
        /* reported through the original error */
      }
      throw new AuditLockError(`could not write the audit lock ${this.lockPath} (${(error as Error).message})`, this.lockPath, {
        cause: error,
      });
    }
    fs.closeSync(fd);
    return true;
  }

  /** Removes the current lock when its holder is dead (or it is too old); returns what it said. */
  private breakIfStale(): string | null {
    const observed = observe(this.lockPath);
    if (observed === null) return null; // released meanwhile: just retry
    const owner = parseLockOwner(observed.text);
    const holderDied = owner !== null && owner.host === HOST && owner.pid !== process.pid && !isProcessAlive(owner.pid);
    // A lock older than the last boot is stale whatever its pid (now perhaps another process's).
    const beforeBoot = observed.ctimeMs < Date.now() - os.uptime() * 1000 - 1000;
    if (!holderDied && !beforeBoot && observed.ageMs <= this.staleMs) return null;

    let breakFd: number;
    try {
      breakFd = fs.openSync(this.breakPath, 'wx');
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      // Another process is breaking it. A break lock only outlives a breaker that died within
      // these few lines; remove it once it is old.
      const breaker = observe(this.breakPath);
      if (breaker !== null && breaker.ageMs > this.staleMs) fs.rmSync(this.breakPath, { force: true });
      return null;
    }
    fs.closeSync(breakFd);
    try {
      // Re-read under the break lock: remove only the very lock judged stale.
      if (!sameLock(observe(this.lockPath), observed)) return null;
      fs.unlinkSync(this.lockPath);
      return observed.text.trim() || '(empty lock file)';
    } finally {
      fs.rmSync(this.breakPath, { force: true });
    }
  }
}
