/**
 * A flood: BENCH_FLOOD_REQUESTS request files (default 10,000) renamed into the inbox at once,
 * an in-process daemon with an instant model at intake concurrency 16 (fsync on).
 *
 * Figures: sessions per second (first rename → last session finished); claim latency, the time a
 * file waits in system/inbox/ before the daemon claims it (all files arrive at t0, so the p-th
 * percentile is when all but (100 − p) % of them have left the inbox; sampled every 100 ms);
 * peak RSS of the process (getrusage maxrss); CPU per session.
 *
 * Two model paths (BENCH_PATHS, default both), each in its own process so each peak RSS is its
 * own: `scripted`, a provider in the process that answers at once; `real`, `kind:
 * openai-compatible` through the AI SDK against bench/fake-openai-server.mjs (started here, in
 * its own process, answering at once).
 *
 * Targets: ≥ 250 sessions/s, p99 claim latency ≤ 2 s, peak RSS ≤ 150 MB, on each path.
 *
 * The flooded process runs with the Node flags `govflow start` sets itself (DAEMON_NODE_FLAGS in
 * src/cli/daemon-node-flags.ts; as bench/memory.mjs does), so the peak RSS is the one an
 * operator's daemon gets; BENCH_FLOOD_NODE_FLAGS replaces them ('' for Node's defaults).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  InstantProvider,
  benchPaths,
  cleanUpOnExit,
  envInteger,
  exampleAnswers,
  importBuilt,
  makeExampleRoot,
  now,
  quietLog,
  removeRoot,
  reportResult,
  requestText,
  round,
  stageRequest,
  startFakeModel,
  within,
} from './bench-support.mjs';

const REQUESTS = envInteger('BENCH_FLOOD_REQUESTS', 10_000);
const CONCURRENCY = envInteger('BENCH_FLOOD_CONCURRENCY', 16);

/** The flood on one path in a child process with the daemon's Node flags; resolves with its figures. */
function floodIn(via, flags, providerYaml) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, GOVFLOW_FLOOD_CHILD: via, BENCH_FLOOD_PROVIDER_YAML: providerYaml };
    const child = spawn(process.execPath, [...flags.split(' ').filter(Boolean), fileURLToPath(import.meta.url)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env,
    });
    let out = '';
    child.stdout.on('data', (data) => {
      out += data;
      process.stdout.write(
        String(data)
          .split('\n')
          .filter((line) => !line.startsWith('FLOOD_RESULT '))
          .join('\n'),
      );
    });
    child.on('close', (code) => {
      const line = out.split('\n').find((text) => text.startsWith('FLOOD_RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('FLOOD_RESULT '.length)));
      else reject(new Error(`the ${via} flood exited with code ${code}`));
    });
  });
}

if (!process.env.GOVFLOW_FLOOD_CHILD) {
  const flags =
    process.env.BENCH_FLOOD_NODE_FLAGS ??
    (await import('../dist/cli/daemon-node-flags.js')).DAEMON_NODE_FLAGS.join(' ');
  const paths = benchPaths();
  const fake = paths.includes('real') ? await startFakeModel((await exampleAnswers()).answers, 0) : null;
  console.log(
    `flood: ${REQUESTS} request files renamed into the inbox at once, instant model, concurrency ${CONCURRENCY}; node flags: ` +
      `${flags || '(defaults)'}; paths: ${paths.join(', ')}`,
  );
  const results = {};
  for (const via of paths) results[via] = await floodIn(via, flags, via === 'real' ? fake.providerYaml : '');
  const callsExpected = REQUESTS * 6;
  if (fake) {
    const { calls } = await fake.stats();
    fake.stop();
    if (calls < callsExpected)
      throw new Error(`the real flood made ${calls} model calls, expected at least ${callsExpected}`);
  }
  const figures = [];
  const targets = [];
  console.log(
    `  ${'path'.padEnd(9)} ${'sessions/s'.padStart(10)} ${'p99 claim'.padStart(10)} ${'peak RSS'.padStart(9)} ${'CPU/session'.padStart(12)}`,
  );
  for (const [via, result] of Object.entries(results)) {
    console.log(
      `  ${via.padEnd(9)} ${String(result.rate).padStart(10)} ${`${result.p99} s`.padStart(10)} ${`${result.peakRssMb} MB`.padStart(9)} ` +
        `${`${result.cpuMsPerSession} ms`.padStart(12)}`,
    );
    figures.push(
      { name: `${via}: sessions per second`, unit: '/s', median: result.rate },
      { name: `${via}: p99 claim latency`, unit: 's', median: result.p99 },
      { name: `${via}: peak RSS`, unit: 'MB', median: result.peakRssMb },
      { name: `${via}: CPU per session`, unit: 'ms', median: result.cpuMsPerSession },
    );
    targets.push(
      {
        name: `${via}: sessions per second`,
        target: '≥ 250',
        value: result.rate,
        unit: '/s',
        pass: result.rate >= 250,
      },
      { name: `${via}: p99 claim latency`, target: '≤ 2 s', value: result.p99, unit: 's', pass: result.p99 <= 2 },
      {
        name: `${via}: peak RSS`,
        target: '≤ 150 MB',
        value: result.peakRssMb,
        unit: 'MB',
        pass: result.peakRssMb <= 150,
      },
    );
  }
  reportResult({
    bench: 'flood',
    config: { requests: REQUESTS, concurrency: CONCURRENCY, nodeFlags: flags, paths },
    figures,
    targets,
  });
  process.exit(0);
}

// The child: one flood on the path GOVFLOW_FLOOD_CHILD names.
const via = process.env.GOVFLOW_FLOOD_CHILD;
const { GovflowDaemon } = await importBuilt('daemon/daemon.js');
const roots = [];
cleanUpOnExit(roots);

const root = makeExampleRoot(`intake: { concurrency: ${CONCURRENCY} }\n${process.env.BENCH_FLOOD_PROVIDER_YAML ?? ''}`);
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
const provider = via === 'scripted' ? { provider: new InstantProvider() } : {};
const daemon = await GovflowDaemon.start(root, {
  log,
  announce: () => {},
  ...provider,
  env: { GOVFLOW_TIMEZONE: 'UTC' },
});
const inbox = path.join(root, 'system', 'inbox');
const drops = Array.from({ length: REQUESTS }, (_, index) =>
  stageRequest(
    root,
    `flood-${index}.json`,
    JSON.stringify({ request: requestText(index), request_id: `flood-${index}` }),
  ),
);
const cpuBefore = process.cpuUsage();
const started = now();
for (const drop of drops) drop();
// When the share of files still waiting first fell to each level: the claim-latency percentiles.
const claimedBy = new Map([
  [50, null],
  [95, null],
  [99, null],
  [100, null],
]);
const sampler = setInterval(() => {
  const waiting = readdirSync(inbox).filter((name) => name.endsWith('.json')).length;
  const claimedShare = ((REQUESTS - waiting) / REQUESTS) * 100;
  for (const [percentile, at] of claimedBy)
    if (at === null && claimedShare >= percentile) claimedBy.set(percentile, now() - started);
}, 100);
const outcome = await within(done, Math.max(600_000, REQUESTS * 250), 'timeout');
clearInterval(sampler);
const cpu = process.cpuUsage(cpuBefore);
await daemon.stop();
removeRoot(root);
if (outcome === 'timeout') throw new Error(`${via} flood: only ${finished} of ${REQUESTS} sessions finished in time`);
if (failed > 0) throw new Error(`${via} flood: ${failed} sessions did not succeed`);
const seconds = (lastFinished - started) / 1000;
const rate = REQUESTS / seconds;
const p99 = (claimedBy.get(99) ?? lastFinished - started) / 1000;
const peakRssMb = process.resourceUsage().maxRSS / 1024;
const cpuMsPerSession = (cpu.user + cpu.system) / 1000 / REQUESTS;
console.log(
  `  ${via}: ${REQUESTS} sessions in ${round(seconds, 1)} s = ${round(rate, 1)} sessions/s; claim latency p50 ` +
    `${round((claimedBy.get(50) ?? 0) / 1000, 2)} s, p95 ${round((claimedBy.get(95) ?? 0) / 1000, 2)} s, p99 ${round(p99, 2)} s; peak RSS ` +
    `${round(peakRssMb, 1)} MB; CPU ${round(cpuMsPerSession, 1)} ms per session`,
);
console.log(
  `FLOOD_RESULT ${JSON.stringify({ rate: round(rate, 1), p99: round(p99, 2), peakRssMb: round(peakRssMb, 1), cpuMsPerSession: round(cpuMsPerSession, 1) })}`,
);
