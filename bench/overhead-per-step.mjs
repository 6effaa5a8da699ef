/**
 * Orchestration overhead per step: the example chain (objective → goal → planning → 2 plan tasks
 * → final output = 6 messages) with a model that answers instantly, so the time is govflow's own
 * (prompt, parse, validate, stamp, journal, audit, result files) plus the disk syncs.
 *
 * Figure: session wall time / 6, median over BENCH_OVERHEAD_SESSIONS sessions (default 200) per
 * run; median/min/max over BENCH_OVERHEAD_RUNS runs (default 3), each in a fresh temp root.
 * Four modes:
 *   - fsync on (default config): the figure with the target;
 *   - GOVFLOW_FSYNC=0 (every fsync and fdatasync off: journal, audit log, results); the share of
 *     the step that is fsync is (on - off) / on;
 *   - fsync on with the root on a RAM filesystem (BENCH_TMPFS, default /dev/shm, when present):
 *     govflow's own work with a disk that costs nothing;
 *   - fsync on, instrumented: every synchronous fs call wrapped to count and time it.
 * Plus probes in the same temp folder: write + fdatasync of an audit-entry-sized block, a
 * directory fsync, creating a file, creating a folder, a rename.
 *
 * Target: ≤ 0.6 ms per step (median), fsync on.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {
  InstantProvider,
  cleanUpOnExit,
  describeFigure,
  envInteger,
  fdatasyncProbe,
  importBuilt,
  makeExampleRoot,
  now,
  quietLog,
  removeRoot,
  reportResult,
  requestText,
  round,
  summarize,
} from './bench-support.mjs';

const { openRuntime } = await importBuilt('daemon/runtime.js');

const SESSIONS = envInteger('BENCH_OVERHEAD_SESSIONS', 200);
const RUNS = envInteger('BENCH_OVERHEAD_RUNS', 3);
const WARMUP = envInteger('BENCH_OVERHEAD_WARMUP', 30);
const STEPS = 6;
const TARGET_MS = 0.6;

const roots = [];
cleanUpOnExit(roots);

/** The synchronous fs calls govflow's pipeline makes, timed one by one in the instrumented run. */
const TIMED_FS_CALLS = [
  'fdatasyncSync',
  'fsyncSync',
  'openSync',
  'closeSync',
  'renameSync',
  'mkdirSync',
  'writeSync',
  'writeFileSync',
  'readFileSync',
  'existsSync',
  'rmSync',
  'unlinkSync',
  'linkSync',
  'fstatSync',
  'ftruncateSync',
  'readdirSync',
  'statSync',
];

/**
 * Wraps the sync fs calls govflow uses to reach the disk, counting calls and time inside them.
 * `syncBuiltinESMExports` makes `import { fdatasyncSync } from 'node:fs'` in the built modules
 * see the wrappers too. Calls made by the benchmark itself between sessions are not timed
 * (`active` is off then).
 */
function instrumentFs() {
  const byName = {};
  const originals = {};
  const state = { active: false };
  for (const name of TIMED_FS_CALLS) {
    const original = fs[name];
    originals[name] = original;
    byName[name] = { calls: 0, ms: 0 };
    fs[name] = function timed(...args) {
      if (!state.active) return original.apply(this, args);
      const started = now();
      try {
        return original.apply(this, args);
      } finally {
        byName[name].calls += 1;
        byName[name].ms += now() - started;
      }
    };
  }
  syncBuiltinESMExports();
  return {
    byName,
    state,
    reset() {
      for (const entry of Object.values(byName)) Object.assign(entry, { calls: 0, ms: 0 });
    },
    restore() {
      Object.assign(fs, originals);
      syncBuiltinESMExports();
    },
  };
}

/** One run: a fresh root and runtime, warm-up sessions, then `sessions` timed sessions. */
async function runOnce(label, env, sessions, probe, parent = os.tmpdir()) {
  const root = makeExampleRoot('', 'govflow-bench-', parent);
  roots.push(root);
  const runtime = await openRuntime(root, { provider: new InstantProvider(), env, log: quietLog() });
  const signal = new AbortController().signal;
  const runSession = async (id) => {
    const outcome = await runtime.runner.startSession(
      { requestId: id, text: requestText(Number(id.split('-').at(-1))), sourceFile: `${id}.txt`, claimedPath: null },
      signal,
    );
    if (outcome.status !== 'success' || outcome.result.messages !== STEPS) {
      throw new Error(
        `${label}: session ${id} ended ${outcome.status} with ${outcome.result.messages} messages; expected success with ${STEPS}`,
      );
    }
  };
  try {
    for (let index = 0; index < WARMUP; index++) await runSession(`warm-${label}-${index}`);
    probe?.reset();
    const perStep = [];
    const started = now();
    for (let index = 0; index < sessions; index++) {
      const sessionStarted = now();
      if (probe) probe.state.active = true;
      await runSession(`${label}-${index}`);
      if (probe) probe.state.active = false;
      perStep.push((now() - sessionStarted) / STEPS);
    }
    const wallMs = now() - started;
    return { perStep: summarize(perStep), wallMs, fsCalls: probe ? structuredClone(probe.byName) : null };
  } finally {
    await runtime.close();
    removeRoot(root);
    roots.splice(roots.indexOf(root), 1);
  }
}

/**
 * Times `count` appends of `bytes` bytes, each followed by fdatasync, `count` directory fsyncs,
 * file creations (open O_EXCL + close), folder creations and renames.
 */
function probeDisk(count, bytes) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'govflow-bench-fsync-'));
  roots.push(folder);
  try {
    const append = fdatasyncProbe(folder, count, bytes);
    const directoryTimes = [];
    for (let index = 0; index < count; index++) {
      const started = now();
      const directory = fs.openSync(folder, 'r');
      fs.fsyncSync(directory);
      fs.closeSync(directory);
      directoryTimes.push(now() - started);
    }
    const createTimes = [];
    for (let index = 0; index < count; index++) {
      const started = now();
      fs.closeSync(fs.openSync(path.join(folder, `created-${index}`), 'wx'));
      createTimes.push(now() - started);
    }
    const mkdirTimes = [];
    for (let index = 0; index < count; index++) {
      const started = now();
      fs.mkdirSync(path.join(folder, `folder-${index}`));
      mkdirTimes.push(now() - started);
    }
    const renameTimes = [];
    for (let index = 0; index < count; index++) {
      const started = now();
      fs.renameSync(path.join(folder, `created-${index}`), path.join(folder, `renamed-${index}`));
      renameTimes.push(now() - started);
    }
    return {
      append,
      directory: summarize(directoryTimes),
      create: summarize(createTimes),
      mkdir: summarize(mkdirTimes),
      rename: summarize(renameTimes),
    };
  } finally {
    removeRoot(folder);
    roots.splice(roots.indexOf(folder), 1);
  }
}

const baseEnv = { GOVFLOW_TIMEZONE: 'UTC' };
console.log(
  `overhead per step: ${RUNS} run(s) × ${SESSIONS} sessions (+${WARMUP} warm-up), ${STEPS} messages each, instant model`,
);

if (process.env.BENCH_OVERHEAD_ONLY) {
  // Profiling aid: one mode only ("on" or "off"), no report. node --cpu-prof bench/overhead-per-step.mjs
  const off = process.env.BENCH_OVERHEAD_ONLY === 'off';
  const run = await runOnce('only', off ? { ...baseEnv, GOVFLOW_FSYNC: '0' } : baseEnv, SESSIONS);
  console.log(`  fsync ${off ? 'off' : 'on'}: ${round(run.perStep.median, 3)} ms/step median`);
  process.exit(0);
}
const fsyncOn = [];
for (let run = 0; run < RUNS; run++) fsyncOn.push(await runOnce(`on${run}`, baseEnv, SESSIONS));
const fsyncOff = [];
for (let run = 0; run < RUNS; run++)
  fsyncOff.push(await runOnce(`off${run}`, { ...baseEnv, GOVFLOW_FSYNC: '0' }, SESSIONS));
const probe = instrumentFs();
const instrumented = await runOnce('probe', baseEnv, SESSIONS, probe);
probe.restore();
const disk = probeDisk(envInteger('BENCH_FSYNC_PROBES', 300), 1024);
// The same pipeline on a RAM filesystem: what govflow's own work costs when the disk costs nothing.
const TMPFS = process.env.BENCH_TMPFS ?? '/dev/shm';
let memoryFs = null;
if (fs.existsSync(TMPFS)) {
  const runs = [];
  for (let run = 0; run < RUNS; run++) runs.push(await runOnce(`tmpfs${run}`, baseEnv, SESSIONS, undefined, TMPFS));
  memoryFs = summarize(runs.map((run) => run.perStep.median));
}

const onStats = summarize(fsyncOn.map((run) => run.perStep.median));
const offStats = summarize(fsyncOff.map((run) => run.perStep.median));
const onP95 = summarize(fsyncOn.map((run) => run.perStep.p95));
const fsCalls = instrumented.fsCalls;
const perSession = (names, field) => names.reduce((sum, name) => sum + fsCalls[name][field], 0) / SESSIONS;
const SYNC_CALLS = ['fdatasyncSync', 'fsyncSync'];
const syncsPerSession = perSession(SYNC_CALLS, 'calls');
const syncMsPerStep = perSession(SYNC_CALLS, 'ms') / STEPS;
const fsMsPerStep = perSession(TIMED_FS_CALLS, 'ms') / STEPS;
const instrumentedPerStep = instrumented.perStep.mean;
const syncShare = syncMsPerStep / instrumentedPerStep;
const fsShare = fsMsPerStep / instrumentedPerStep;
const byName = Object.fromEntries(
  Object.entries(fsCalls)
    .filter(([, entry]) => entry.calls > 0)
    .sort((left, right) => right[1].ms - left[1].ms)
    .map(([name, entry]) => [
      name,
      {
        perSession: round(entry.calls / SESSIONS, 2),
        msPerSession: round(entry.ms / SESSIONS, 3),
        msEach: round(entry.ms / entry.calls, 4),
      },
    ]),
);

const fsyncShareOfStep = Math.max(0, (onStats.median - offStats.median) / onStats.median);
console.log(
  `  fsync on (default):      ${describeFigure(onStats, 'ms/step')}; p95 within runs ${round(onP95.median, 3)} ms`,
);
console.log(
  `  GOVFLOW_FSYNC=0:         ${describeFigure(offStats, 'ms/step')} (no fsync at all: the cost of everything else)`,
);
console.log(
  `  share that is fsync:     ${round(fsyncShareOfStep * 100, 1)} % ((on - off) / on; the syncs run on the thread pool)`,
);
if (memoryFs)
  console.log(
    `  same, root on ${TMPFS}:   ${describeFigure(memoryFs, 'ms/step')} (fsync on; a RAM filesystem: govflow's own work)`,
  );
console.log(`  instrumented run (fsync on, every sync fs call timed): mean ${round(instrumentedPerStep, 3)} ms/step`);
console.log(
  `    sync fsync + fdatasync: ${round(syncsPerSession, 1)} calls/session, ${round(syncMsPerStep, 3)} ms/step = ${round(syncShare * 100, 1)} % of the step`,
);
console.log(`    all sync fs calls:     ${round(fsMsPerStep, 3)} ms/step = ${round(fsShare * 100, 1)} % of the step`);
console.log(`    everything else (JS):  ${round(instrumentedPerStep - fsMsPerStep, 3)} ms/step`);
console.log('    per fs call:           calls/session  ms/session  ms each');
for (const [name, entry] of Object.entries(byName)) {
  console.log(
    `      ${name.padEnd(16)} ${String(entry.perSession).padStart(12)} ${String(entry.msPerSession).padStart(11)} ${String(entry.msEach).padStart(8)}`,
  );
}
console.log(
  `  disk probe (${disk.append.count}×): append 1 KiB + fdatasync ${round(disk.append.median, 3)} ms median (p95 ` +
    `${round(disk.append.p95, 3)}); directory fsync ${round(disk.directory.median, 3)} ms median`,
);
console.log(
  `  disk probe: create a file ${round(disk.create.median, 3)} ms, create a folder ${round(disk.mkdir.median, 3)} ms, rename ` +
    `${round(disk.rename.median, 3)} ms (medians)`,
);
console.log(
  `    a session needs 1 folder and 4 files (journal, manifest, 2 results): ${round((disk.mkdir.median + 4 * disk.create.median) / STEPS, 3)} ` +
    `ms per step of creation alone`,
);

const pass = onStats.median <= TARGET_MS;
console.log(`  target ≤ ${TARGET_MS} ms/step: ${pass ? 'PASS' : 'MISS'}`);

reportResult({
  bench: 'overhead-per-step',
  title: 'Overhead per step (instant model, fsync on)',
  config: { sessions: SESSIONS, runs: RUNS, warmup: WARMUP, steps: STEPS },
  figures: [
    { name: 'ms per step, fsync on', unit: 'ms', ...pick(onStats) },
    { name: 'ms per step, GOVFLOW_FSYNC=0', unit: 'ms', ...pick(offStats) },
    {
      name: 'share of the step that is fsync ((on - off) / on)',
      unit: '%',
      median: round(fsyncShareOfStep * 100, 1),
      runs: RUNS,
    },
    ...(memoryFs ? [{ name: `ms per step, fsync on, root on ${TMPFS} (RAM)`, unit: 'ms', ...pick(memoryFs) }] : []),
    { name: 'create a file (probe)', unit: 'ms', ...pick(disk.create), runs: disk.create.count },
    { name: 'create a folder (probe)', unit: 'ms', ...pick(disk.mkdir), runs: disk.mkdir.count },
    { name: 'rename (probe)', unit: 'ms', ...pick(disk.rename), runs: disk.rename.count },
    { name: 'fsync/fdatasync calls per session', unit: 'calls', median: round(syncsPerSession, 2), runs: 1 },
    {
      name: 'time in fsync/fdatasync per step',
      unit: 'ms',
      median: round(syncMsPerStep, 4),
      runs: 1,
      note: `${round(syncShare * 100, 1)} % of the step`,
    },
    {
      name: 'time in all sync fs calls per step',
      unit: 'ms',
      median: round(fsMsPerStep, 4),
      runs: 1,
      note: `${round(fsShare * 100, 1)} % of the step`,
    },
    {
      name: 'time outside fs calls per step (JS)',
      unit: 'ms',
      median: round(instrumentedPerStep - fsMsPerStep, 4),
      runs: 1,
    },
    {
      name: 'append 1 KiB + fdatasync (probe)',
      unit: 'ms',
      ...pick(disk.append),
      runs: disk.append.count,
      note: `p95 ${round(disk.append.p95, 3)}`,
    },
    { name: 'directory fsync (probe)', unit: 'ms', ...pick(disk.directory), runs: disk.directory.count },
  ],
  targets: [
    {
      name: 'overhead per step (median, fsync on)',
      target: `≤ ${TARGET_MS} ms`,
      value: round(onStats.median, 3),
      unit: 'ms',
      pass,
    },
  ],
  details: { fsCallsPerSession: byName, syncShare: round(syncShare, 3), fsShare: round(fsShare, 3) },
});

function pick(stats) {
  return { median: round(stats.median, 4), min: round(stats.min, 4), max: round(stats.max, 4), runs: stats.count };
}
