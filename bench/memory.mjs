/**
 * Memory: resident set size of an in-process GovflowDaemon (instant model, default config) before
 * and after a long series of requests. Requests are dropped into the inbox in batches of
 * BENCH_MEMORY_SAMPLE_EVERY; after each batch has finished the script forces a full GC
 * (`--expose-gc`; the script re-runs itself with it when needed) and samples RSS and heap.
 * The process runs with the Node flags `govflow start` sets itself (DAEMON_NODE_FLAGS in
 * src/cli/daemon-node-flags.ts: V8's young generation touches up to 32 MB of pages in its first
 * busy minutes with Node's defaults, 4 MB with them); BENCH_MEMORY_NODE_FLAGS='' measures Node's
 * defaults instead. bench/memory-as-typed.mjs measures `govflow start` itself, per Node version.
 *
 * Figures: RSS growth from before the first request to after the last; heap growth; the trend,
 * the least-squares slope of the last half of the samples in MB per 1,000 requests.
 * Defaults: 10,000 requests (the issue's figure) sampled every 1,000, about 3.5 minutes on 2
 * cores; BENCH_MEMORY_REQUESTS / BENCH_MEMORY_SAMPLE_EVERY for a shorter run.
 *
 * Targets: RSS growth ≤ 20 MB; no growth trend (RSS slope of the last half ≤ 0.5 MB per 1,000
 * requests, i.e. ≤ 5 MB more over another 10,000).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The Node flags the daemon runs with: those `govflow start` sets, so the figure is the one an
 * operator gets; BENCH_MEMORY_NODE_FLAGS replaces them ('' for Node's defaults).
 */
async function daemonNodeFlags() {
  if (process.env.BENCH_MEMORY_NODE_FLAGS !== undefined)
    return process.env.BENCH_MEMORY_NODE_FLAGS.split(' ').filter(Boolean);
  return [...(await import('../dist/cli/daemon-node-flags.js')).DAEMON_NODE_FLAGS];
}

if (typeof globalThis.gc !== 'function') {
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', ...(await daemonNodeFlags()), fileURLToPath(import.meta.url)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(child.status ?? 1);
}
const NODE_FLAGS = process.execArgv.filter((flag) => flag !== '--expose-gc');

const {
  InstantProvider,
  cleanUpOnExit,
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
  slope,
  sleep,
  within,
} = await import('./bench-support.mjs');
const { GovflowDaemon } = await importBuilt('daemon/daemon.js');

const REQUESTS = envInteger('BENCH_MEMORY_REQUESTS', 10000);
const SAMPLE_EVERY = envInteger('BENCH_MEMORY_SAMPLE_EVERY', 1000);
const TARGET_GROWTH_MB = 20;
const TARGET_SLOPE_MB_PER_1000 = 0.5;
const MB = 1024 * 1024;

const roots = [];
cleanUpOnExit(roots);

/** Full GC (twice, with a turn between, so finalizers and weak-reference cleanups run), then a sample. */
async function sample(requests) {
  for (let round = 0; round < 2; round++) {
    globalThis.gc();
    await sleep(20);
  }
  const usage = process.memoryUsage();
  return {
    requests,
    rssMb: usage.rss / MB,
    heapUsedMb: usage.heapUsed / MB,
    externalMb: usage.external / MB,
    arrayBuffersMb: usage.arrayBuffers / MB,
  };
}

const root = makeExampleRoot();
roots.push(root);
let finished = 0;
let failed = 0;
let batchTarget = 0;
let batchDone = () => {};
const log = quietLog((message, fields) => {
  if (message !== 'session finished' || !fields?.request) return;
  finished += 1;
  if (fields.status !== 'success') failed += 1;
  if (finished === batchTarget) batchDone();
});

console.log(
  `memory: ${REQUESTS} requests through the daemon (instant model), RSS sampled after a forced GC every ${SAMPLE_EVERY}; node flags: ` +
    `${NODE_FLAGS.join(' ') || '(defaults)'}`,
);
execFileSync('sync');
const daemon = await GovflowDaemon.start(root, {
  log,
  announce: () => {},
  provider: new InstantProvider(),
  env: { GOVFLOW_TIMEZONE: 'UTC' },
});
const samples = [];
const started = now();
try {
  samples.push(await sample(0));
  console.log(`  before: RSS ${round(samples[0].rssMb, 1)} MB, heap ${round(samples[0].heapUsedMb, 1)} MB`);
  for (let sent = 0; sent < REQUESTS;) {
    const batch = Math.min(SAMPLE_EVERY, REQUESTS - sent);
    batchTarget = sent + batch;
    const done = new Promise((resolve) => {
      batchDone = resolve;
    });
    for (let index = sent; index < sent + batch; index++) {
      dropRequest(root, `m-${index}.json`, JSON.stringify({ request: requestText(index), request_id: `m-${index}` }));
    }
    const outcome = await within(done, 600_000, 'timeout');
    if (outcome === 'timeout') throw new Error(`only ${finished} of ${batchTarget} sessions finished in 10 minutes`);
    sent += batch;
    const point = await sample(sent);
    samples.push(point);
    console.log(
      `  after ${String(sent).padStart(6)}: RSS ${round(point.rssMb, 1)} MB, heap ${round(point.heapUsedMb, 1)} MB, external ` +
        `${round(point.externalMb, 1)} MB (${round((now() - started) / 1000, 1)} s)`,
    );
  }
  if (failed > 0) throw new Error(`${failed} sessions did not succeed`);
} finally {
  await daemon.stop();
  removeRoot(root);
  roots.length = 0;
}

const first = samples[0];
const last = samples.at(-1);
const tail = samples.slice(Math.floor(samples.length / 2));
const perThousand = (field) =>
  slope(
    tail.map((point) => point.requests),
    tail.map((point) => point[field]),
  ) * 1000;
const rssGrowth = last.rssMb - first.rssMb;
const heapGrowth = last.heapUsedMb - first.heapUsedMb;
const afterFirstBatch = samples[1] ?? last;
const rssSlope = perThousand('rssMb');
const heapSlope = perThousand('heapUsedMb');
const growthPass = rssGrowth <= TARGET_GROWTH_MB;
const trendPass = rssSlope <= TARGET_SLOPE_MB_PER_1000;
console.log(
  `  RSS growth: ${round(rssGrowth, 1)} MB (${round(last.rssMb - afterFirstBatch.rssMb, 1)} MB after the first batch); heap growth ${round(heapGrowth, 1)} MB`,
);
console.log(
  `  trend (last ${tail.length} samples): RSS ${round(rssSlope, 2)} MB per 1,000 requests, heap ${round(heapSlope, 2)} MB per 1,000 requests`,
);
console.log(
  `  target RSS growth ≤ ${TARGET_GROWTH_MB} MB: ${growthPass ? 'PASS' : 'MISS'}; target no trend (≤ ${TARGET_SLOPE_MB_PER_1000} MB/1,000): ` +
    `${trendPass ? 'PASS' : 'MISS'}`,
);

reportResult({
  bench: 'memory',
  title: `Memory over ${REQUESTS} requests (daemon, instant model)`,
  config: { requests: REQUESTS, sampleEvery: SAMPLE_EVERY, nodeFlags: NODE_FLAGS.join(' ') },
  figures: [
    { name: 'RSS before', unit: 'MB', median: round(first.rssMb, 1), runs: 1 },
    { name: `RSS after ${REQUESTS} requests`, unit: 'MB', median: round(last.rssMb, 1), runs: 1 },
    {
      name: 'RSS growth',
      unit: 'MB',
      median: round(rssGrowth, 1),
      runs: 1,
      note: `${round(last.rssMb - afterFirstBatch.rssMb, 1)} MB after the first batch`,
    },
    { name: 'heap used growth', unit: 'MB', median: round(heapGrowth, 2), runs: 1 },
    { name: 'RSS trend (last half of samples)', unit: 'MB/1000 requests', median: round(rssSlope, 3), runs: 1 },
    { name: 'heap trend (last half of samples)', unit: 'MB/1000 requests', median: round(heapSlope, 3), runs: 1 },
    { name: 'wall time', unit: 's', median: round((now() - started) / 1000, 1), runs: 1 },
  ],
  targets: [
    {
      name: 'RSS growth',
      target: `≤ ${TARGET_GROWTH_MB} MB`,
      value: round(rssGrowth, 1),
      unit: 'MB',
      pass: growthPass,
    },
    {
      name: 'RSS trend',
      target: `≤ ${TARGET_SLOPE_MB_PER_1000} MB/1000 req`,
      value: round(rssSlope, 3),
      unit: 'MB/1000',
      pass: trendPass,
    },
  ],
  details: {
    samples: samples.map((point) => ({
      requests: point.requests,
      rssMb: round(point.rssMb, 2),
      heapUsedMb: round(point.heapUsedMb, 2),
    })),
  },
});
