/**
 * Intake latency: how long a request file waits between its arrival in system/inbox/ and the
 * first model call of its session. An in-process GovflowDaemon (default config: fsync on,
 * settle_ms 100, chokidar watcher) with an instant model that records when it is first called for
 * each request. Each file is written under a temp name elsewhere in the root, then renamed into
 * the inbox (an atomic drop); files are dropped one at a time, the next once the previous session
 * has finished.
 *
 * Figure: latency = rename → first model call; p50 and p95 over BENCH_INTAKE_FILES files
 * (default 50) per run; median/min/max over BENCH_INTAKE_RUNS runs (default 3), each with a
 * fresh root and daemon.
 *
 * Target: p50 ≤ 50 ms.
 */
import {
  InstantProvider,
  cleanUpOnExit,
  describeFigure,
  dropRequest,
  envInteger,
  importBuilt,
  makeExampleRoot,
  now,
  quietLog,
  removeRoot,
  reportResult,
  requestText,
  round,
  sleep,
  within,
  summarize,
} from './bench-support.mjs';

const { GovflowDaemon } = await importBuilt('daemon/daemon.js');

const FILES = envInteger('BENCH_INTAKE_FILES', 50);
const RUNS = envInteger('BENCH_INTAKE_RUNS', 3);
const WARMUP = envInteger('BENCH_INTAKE_WARMUP', 5);
const TARGET_P50_MS = 50;
const MARKER = /\[bench-request ([\w-]+)\]/;

const roots = [];
cleanUpOnExit(roots);

/** Resolves `waiters[id]` when the daemon logs the end of that request's session. */
function sessionEnds() {
  const waiters = new Map();
  const log = quietLog((message, fields) => {
    if (message !== 'session finished' || !fields?.request) return;
    waiters.get(fields.request)?.(fields.status);
    waiters.delete(fields.request);
  });
  return { log, ended: (requestId) => new Promise((resolve) => waiters.set(requestId, resolve)) };
}

async function runOnce(run) {
  const root = makeExampleRoot();
  roots.push(root);
  const firstCall = new Map();
  const provider = new InstantProvider((request) => {
    const id = MARKER.exec(request.prompt)?.[1];
    if (id && !firstCall.has(id)) firstCall.set(id, now());
  });
  const { log, ended } = sessionEnds();
  const daemon = await GovflowDaemon.start(root, {
    log,
    announce: () => {},
    provider,
    env: { GOVFLOW_TIMEZONE: 'UTC' },
  });
  const latencies = [];
  try {
    for (let index = 0; index < WARMUP + FILES; index++) {
      const id = `lat-${run}-${index}`;
      const end = ended(id);
      const text = `${requestText(index)}[bench-request ${id}]\n`;
      const dropped = now();
      dropRequest(root, `${id}.json`, JSON.stringify({ request: text, request_id: id }));
      const status = await within(end, 10_000, 'timeout');
      if (status !== 'success') throw new Error(`request ${id} ended "${status}" (expected success)`);
      const called = firstCall.get(id);
      if (called === undefined) throw new Error(`the model was never called for ${id}`);
      if (index >= WARMUP) latencies.push(called - dropped);
      await sleep(5); // let the watcher and the intake go quiet before the next drop
    }
  } finally {
    await daemon.stop();
    removeRoot(root);
    roots.splice(roots.indexOf(root), 1);
  }
  return summarize(latencies);
}

console.log(
  `intake latency: ${RUNS} run(s) × ${FILES} files (+${WARMUP} warm-up), dropped one at a time by rename into system/inbox/`,
);
const runs = [];
for (let run = 0; run < RUNS; run++) {
  const stats = await runOnce(run);
  runs.push(stats);
  console.log(
    `  run ${run + 1}: p50 ${round(stats.median, 2)} ms, p95 ${round(stats.p95, 2)} ms, min ${round(stats.min, 2)}, max ${round(stats.max, 2)}`,
  );
}
const p50 = summarize(runs.map((stats) => stats.median));
const p95 = summarize(runs.map((stats) => stats.p95));
const pass = p50.median <= TARGET_P50_MS;
console.log(`  p50: ${describeFigure(p50, 'ms', 2)}`);
console.log(`  p95: ${describeFigure(p95, 'ms', 2)}`);
console.log(`  target p50 ≤ ${TARGET_P50_MS} ms: ${pass ? 'PASS' : 'MISS'}`);

reportResult({
  bench: 'intake-latency',
  title: 'Intake latency (rename into inbox → first model call)',
  config: { files: FILES, runs: RUNS, warmup: WARMUP },
  figures: [
    {
      name: 'latency p50',
      unit: 'ms',
      median: round(p50.median, 2),
      min: round(p50.min, 2),
      max: round(p50.max, 2),
      runs: p50.count,
    },
    {
      name: 'latency p95',
      unit: 'ms',
      median: round(p95.median, 2),
      min: round(p95.min, 2),
      max: round(p95.max, 2),
      runs: p95.count,
    },
  ],
  targets: [
    { name: 'intake latency p50', target: `≤ ${TARGET_P50_MS} ms`, value: round(p50.median, 2), unit: 'ms', pass },
  ],
});
