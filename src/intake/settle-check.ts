/**
 * Deciding whether an inbox file is finished being written (README "How intake takes a flood": files written in
 * place are left alone until they stop changing).
 *
 * The rule is "size and mtime unchanged for settle_ms", but waiting settle_ms for every file
 * would put the whole settle time on the latency of every request. Most files arrive complete
 * (written elsewhere, then renamed in), so the wait is spent only where a file can still grow:
 *
 * - nobody wrote to it for settle_ms (mtime is old enough): ready;
 * - it was renamed or linked in after its last write (ctime later than mtime): ready — writing
 *   updates both stamps, a rename only ctime. Coarse timestamps (ext4 ticks every few ms) often
 *   hide this, hence the next rule;
 * - the watcher saw it appear and saw no write to it since: ready — an in-place writer's first
 *   write is what made the size non-zero, and that write is reported as a change;
 * - the same size and mtime as when it was seen settle_ms ago: ready (covers clock skew between
 *   the filesystem and this process, where mtime ages never add up);
 * - otherwise wait for whatever is left of settle_ms, then look again.
 *
 * Empty files are never "ready early": an empty file is what an in-place writer creates first.
 */

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
