/**
 * The measuring half of the benchmarks' shared pieces: statistics, the machine description, the
 * one `BENCH_RESULT {json}` line each script prints for run-all.mjs, clocks and per-process and
 * per-thread CPU read from /proc. bench-support.mjs re-exports all of it.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, fdatasyncSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Median, min, max, mean and nearest-rank percentiles of `values`. */
export function summarize(values) {
  if (values.length === 0) return { count: 0, median: NaN, min: NaN, max: NaN, mean: NaN, p95: NaN };
  const sorted = [...values].sort((left, right) => left - right);
  const percentile = (share) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return {
    count: sorted.length,
    median,
    min: sorted[0],
    max: sorted[sorted.length - 1],
    mean: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
    p95: percentile(0.95),
  };
}

/**
 * The disk's price of one durable append, as the audit log pays it: `count` appends of `bytes`
 * bytes to a file in `folder` (left there: deleting it would free an inode, see bench-support.mjs
 * removeRoot), each followed by fdatasync; their times in ms, summarized. It moves from minute to
 * minute on a VM's virtual disk, so a synced figure is read beside it.
 */
export function fdatasyncProbe(folder, count, bytes = 1024) {
  const fd = openSync(path.join(folder, '.fdatasync-probe.log'), 'a');
  const block = Buffer.alloc(bytes, 0x61);
  const times = [];
  try {
    for (let index = 0; index < count; index++) {
      const started = performance.now();
      writeSync(fd, block);
      fdatasyncSync(fd);
      times.push(performance.now() - started);
    }
  } finally {
    closeSync(fd);
  }
  return summarize(times);
}

/** Least-squares slope of `ys` over `xs`. */
export function slope(xs, ys) {
  const n = xs.length;
  if (n < 2) return 0;
  const meanX = xs.reduce((sum, x) => sum + x, 0) / n;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (let index = 0; index < n; index++) {
    numerator += (xs[index] - meanX) * (ys[index] - meanY);
    denominator += (xs[index] - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

export function round(value, digits = 3) {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** "1.234 (min 1.1, max 1.5)" */
export function describeFigure(stats, unit, digits = 3) {
  return (
    `${round(stats.median, digits)} ${unit} (min ${round(stats.min, digits)}, max ${round(stats.max, digits)}, ${stats.count} run` +
    `${stats.count === 1 ? '' : 's'})`
  );
}

/** Whether the ext4 on `device` (/dev/vda) has a journal: jbd2 lists each journaled device as `<name>-<inode>`. */
function ext4HasJournal(device) {
  const name = path.basename(device);
  return readdirSync('/proc/fs/jbd2').some((entry) => entry.startsWith(`${name}-`));
}

/** The temp folder's file system: type, mount options, and for ext4 whether it has a journal (null when unknown). */
export function tempFileSystem() {
  try {
    const mount = execFileSync('findmnt', ['-n', '-o', 'SOURCE,FSTYPE,OPTIONS', '--target', os.tmpdir()], {
      encoding: 'utf8',
    });
    const [source, type, options] = mount.trim().split(/\s+/);
    return { type, options, journal: type === 'ext4' ? ext4HasJournal(source) : null };
  } catch {
    return null; // not Linux
  }
}

/** nproc, CPU model, Node version and the filesystem of the temp folder. */
export function machineInfo() {
  let cpuModel = 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpuModel;
  } catch {
    cpuModel = os.cpus()[0]?.model ?? cpuModel;
  }
  const fileSystem = tempFileSystem();
  // An ext4 without a journal pays a scan for recently deleted inodes at every file creation (RESULTS.md).
  const journal = fileSystem?.journal === true ? ', journaled' : fileSystem?.journal === false ? ', NO journal' : '';
  return {
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    cpuModel,
    node: process.version,
    tempDir: os.tmpdir(),
    tempFilesystem: fileSystem ? `${fileSystem.type} (${fileSystem.options})${journal}` : 'unknown',
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
  };
}

/**
 * Prints the machine-readable result run-all.mjs collects. `targets`: [{ name, target, value,
 * unit, pass }]; `figures`: [{ name, unit, median, min, max, runs, note? }].
 */
export function reportResult(result) {
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
}

/** Milliseconds since an arbitrary origin, sub-millisecond resolution. */
export const now = () => performance.now();

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`, or `fallback` after `ms` (the timer is cleared either way, so it never holds the process open). */
export function within(promise, ms, fallback) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Linux reports /proc times in clock ticks of 1/100 s. */
const TICK_MS = 10;

/** A process's CPU time so far from /proc, ms: user, system and their total; 0 for each once it is gone. */
export function processCpu(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const user = Number(fields[11]) * TICK_MS;
    const system = Number(fields[12]) * TICK_MS;
    return { user, system, total: user + system };
  } catch {
    return { user: 0, system: 0, total: 0 };
  }
}

/**
 * CPU (user + system, ms) of a process so far, by the thread kind Node names: the main thread (its
 * id is the pid; JavaScript runs there), V8's helpers (`V8Worker` on Node 24, `node` on Node 22, and
 * `DelayedTaskSche`: garbage collection in parallel and concurrently, background compiling),
 * libuv's thread pool (`libuv-worker`: file system calls, fdatasync among them) and any other. On
 * Node 20, whose threads all say `node`, everything but the main thread counts as `other`. Threads
 * that ended are not counted: subtract two readings of long-lived threads only.
 */
export function threadCpuMs(pid) {
  const split = { main: 0, v8: 0, pool: 0, other: 0 };
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return split;
  }
  const threads = [];
  for (const task of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
      threads.push({ task, comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ms });
    } catch {
      // ended meanwhile
    }
  }
  // Node 22 names its pool but not V8's workers (so its unnamed threads are V8's, even in a process
  // that never used the pool); Node 24 names both; Node 20 names neither.
  const named = threads.some(({ comm }) => comm === 'libuv-worker') || process.versions.node.startsWith('22.');
  for (const { task, comm, ms } of threads) {
    const kind =
      task === String(pid)
        ? 'main'
        : comm === 'V8Worker' || comm === 'DelayedTaskSche' || (named && comm === 'node')
          ? 'v8'
          : comm === 'libuv-worker'
            ? 'pool'
            : 'other';
    split[kind] += ms;
  }
  return split;
}

/** `after - before` of two threadCpuMs readings, per `calls`. */
export function threadCpuPerCall(before, after, calls) {
  return Object.fromEntries(Object.keys(after).map((kind) => [kind, (after[kind] - before[kind]) / calls]));
}
