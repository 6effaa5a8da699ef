/**
 * A flood: BENCH_FLOOD_REQUESTS request files (default 10,000) renamed into the inbox at once,
 * an in-process daemon with an instant model at intake concurrency 16 (fsync on).
 *
 * Figures: sessions per second (first rename → last session finished); claim latency, the time a
 * file waits in system/inbox/ before the daemon claims it (all files arrive at t0, so the p-th
 * percentile is when all but (100 − p) % of them have left the inbox; sampled every 100 ms);
 * peak RSS of the process (getrusage maxrss).
 *
 * Targets: ≥ 250 sessions/s, p99 claim latency ≤ 2 s, peak RSS ≤ 150 MB.
 *
 * The process runs with the Node flags of `npm start` (as bench/memory.mjs does), so the peak RSS
 * is the one an operator's daemon gets; BENCH_FLOOD_NODE_FLAGS replaces them ('' for Node's
 * defaults).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

if (process.env.GOVFLOW_FLOOD_CHILD !== '1') {
  const flags = process.env.BENCH_FLOOD_NODE_FLAGS
    ?? JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts.start.split(' ').filter((word) => word.startsWith('--')).join(' ');
  const child = spawnSync(process.execPath, [...flags.split(' ').filter(Boolean), fileURLToPath(import.meta.url)], { stdio: 'inherit', env: { ...process.env, GOVFLOW_FLOOD_CHILD: '1' } });
  process.exit(child.status ?? 1);
}
const NODE_FLAGS = process.execArgv;
import {
  InstantProvider,
  cleanUpOnExit,
  envInteger,
  importBuilt,
  makeExampleRoot,
  now,
  quietLog,
  removeRoot,
  reportResult,
  requestText,
  round,
  stageRequest,
  within,
} from './bench-support.mjs';

const { GovflowDaemon } = await importBuilt('daemon/daemon.js');

const REQUESTS = envInteger('BENCH_FLOOD_REQUESTS', 10_000);
const CONCURRENCY = envInteger('BENCH_FLOOD_CONCURRENCY', 16);
const roots = [];
cleanUpOnExit(roots);

const root = makeExampleRoot(`intake: { concurrency: ${CONCURRENCY} }\n`);
roots.push(root);
let finished = 0;
let failed = 0;
let resolveDone;
const done = new Promise((resolve) => {
  resolveDone = resolve;
});
let lastFinished = 0;
const log = quietLog((message, fields) => {
  if (message !== 'session finished' || !fields?.request) return;
  finished += 1;
  if (fields.status !== 'success') failed += 1;
  if (finished === REQUESTS) {
    lastFinished = now();
    resolveDone();
  }
});
const daemon = await GovflowDaemon.start(root, { log, announce: () => {}, provider: new InstantProvider(), env: { GOVFLOW_TIMEZONE: 'UTC' } });
const inbox = path.join(root, 'system', 'inbox');
console.log(`flood: ${REQUESTS} request files renamed into the inbox at once, instant model, concurrency ${CONCURRENCY}; node flags: ${NODE_FLAGS.join(' ') || '(defaults)'}`);
const drops = Array.from({ length: REQUESTS }, (_, index) => stageRequest(root, `flood-${index}.json`, JSON.stringify({ request: requestText(index), request_id: `flood-${index}` })));
const started = now();
for (const drop of drops) drop();
// When the share of files still waiting first fell to each level: the claim-latency percentiles.
const claimedBy = new Map([[50, null], [95, null], [99, null], [100, null]]);
const sampler = setInterval(() => {
  const waiting = readdirSync(inbox).filter((name) => name.endsWith('.json')).length;
  const claimedShare = ((REQUESTS - waiting) / REQUESTS) * 100;
  for (const [percentile, at] of claimedBy) if (at === null && claimedShare >= percentile) claimedBy.set(percentile, now() - started);
}, 100);
const outcome = await within(done, 600_000, 'timeout');
clearInterval(sampler);
await daemon.stop();
removeRoot(root);
if (outcome === 'timeout') throw new Error(`flood: only ${finished} of ${REQUESTS} sessions finished within 10 minutes`);
if (failed > 0) throw new Error(`flood: ${failed} sessions did not succeed`);
const seconds = (lastFinished - started) / 1000;
const rate = REQUESTS / seconds;
const p99 = (claimedBy.get(99) ?? lastFinished - started) / 1000;
const peakRssMb = process.resourceUsage().maxRSS / 1024;
console.log(`  ${REQUESTS} sessions in ${round(seconds, 1)} s = ${round(rate, 1)} sessions/s`);
console.log(`  claim latency: p50 ${round((claimedBy.get(50) ?? 0) / 1000, 2)} s, p95 ${round((claimedBy.get(95) ?? 0) / 1000, 2)} s, p99 ${round(p99, 2)} s`);
console.log(`  peak RSS ${round(peakRssMb, 1)} MB`);
reportResult({
  bench: 'flood',
  config: { requests: REQUESTS, concurrency: CONCURRENCY, nodeFlags: NODE_FLAGS.join(' ') },
  figures: [{ name: 'sessions per second', value: round(rate, 1) }, { name: 'p99 claim latency', value: round(p99, 2) }, { name: 'peak RSS', value: round(peakRssMb, 1) }],
  targets: [
    { name: 'sessions per second', target: '≥ 250', value: round(rate, 1), unit: '/s', pass: rate >= 250 },
    { name: 'p99 claim latency', target: '≤ 2 s', value: round(p99, 2), unit: 's', pass: p99 <= 2 },
    { name: 'peak RSS', target: '≤ 150 MB', value: round(peakRssMb, 1), unit: 'MB', pass: peakRssMb <= 150 },
  ],
});
