/**
 * Whether an inbox file is finished being written. Most arrive whole (renamed in), so rather than
 * wait settle_ms for each, a file is ready when its mtime is settle_ms old; or ctime > mtime (renamed
 * in after its last write; coarse ext4 stamps often hide it); or the watcher saw it appear and no
 * write since; or its size and mtime held for settle_ms (clock skew). Never an empty file early.
 */
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** What lstat said about the file, in the precise (bigint) units. */
export interface FileSighting {
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** An earlier sighting of the same name, with the wall-clock time it was taken. */
export interface EarlierSighting {
  size: bigint;
  mtimeNs: bigint;
  seenAtMs: number;
}

export interface SettleInput {
  sighting: FileSighting;
  earlier?: EarlierSighting;
  nowMs: number;
  settleMs: number;
  /** The watcher reported the name appearing and reported no write to it since. */
  arrivedWhole: boolean;
}

export type SettleVerdict = { ready: true; why: string } | { ready: false; waitMs: number };

const NANOSECONDS_PER_MILLISECOND = 1_000_000n;

export function settleVerdict(input: SettleInput): SettleVerdict {
  const { sighting, earlier, nowMs, settleMs } = input;
  if (settleMs <= 0) return { ready: true, why: 'settling is off (settle_ms = 0)' };

  const mtimeMs = Number(sighting.mtimeNs / NANOSECONDS_PER_MILLISECOND);
  const ageMs = nowMs - mtimeMs;
  if (ageMs >= settleMs) return { ready: true, why: 'not written to for settle_ms' };

  const nonEmpty = sighting.size > 0n;
  if (nonEmpty && sighting.ctimeNs > sighting.mtimeNs) return { ready: true, why: 'renamed in after its last write' };
  if (nonEmpty && input.arrivedWhole) return { ready: true, why: 'appeared whole (no write seen)' };

  if (earlier && earlier.size === sighting.size && earlier.mtimeNs === sighting.mtimeNs) {
    const unchangedForMs = nowMs - earlier.seenAtMs;
    if (unchangedForMs >= settleMs) return { ready: true, why: 'unchanged for settle_ms' };
    return { ready: false, waitMs: Math.max(1, settleMs - unchangedForMs) };
  }
  // An mtime in the future (skewed clock) gives a negative age: wait a full settle_ms, then the
  // "unchanged since the earlier sighting" rule decides.
  const remainingMs = ageMs < 0 ? settleMs : settleMs - ageMs;
  return { ready: false, waitMs: Math.max(1, Math.ceil(remainingMs)) };
}

/**
 * A folder as one sighting (request folders, docs/attachments.md): the bytes of every file in it,
 * the newest mtime of anything in it (a new name or a write anywhere moves it), and the folder's own
 * ctime (a rename moves it past every mtime). Walks at most `maxEntries` entries, never following a link.
 */
export function folderSighting(folder: string, maxEntries: number): FileSighting {
  const top = lstatSync(folder, { bigint: true });
  const sighting: FileSighting = { size: 0n, mtimeNs: top.mtimeNs, ctimeNs: top.ctimeNs };
  const pending = [folder];
  let seen = 0;
  while (pending.length > 0 && seen < maxEntries) {
    const current = pending.pop()!;
    let names: string[];
    try {
      names = readdirSync(current);
    } catch {
      continue; // removed meanwhile: the next sighting differs
    }
    for (const name of names) {
      if (++seen > maxEntries) break;
      let stats;
      try {
        stats = lstatSync(path.join(current, name), { bigint: true });
      } catch {
        continue;
      }
      if (stats.mtimeNs > sighting.mtimeNs) sighting.mtimeNs = stats.mtimeNs;
      if (stats.isDirectory()) pending.push(path.join(current, name));
      else if (stats.isFile()) sighting.size += stats.size;
    }
  }
  return sighting;
}
