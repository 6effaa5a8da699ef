/**
 * Shared pieces of the benchmarks: temp roots holding a copy of the example app, providers that
 * answer instantly or after a fixed latency, the real path's model (a loopback OpenAI-wire server
 * in its own process), statistics, the machine description, and the one line each script prints
 * for run-all.mjs (`BENCH_RESULT {json}`).
 *
 * The benchmarks import the built code from ../dist/: run `npx tsc -p tsconfig.json` first.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(REPOSITORY_ROOT, 'dist');

/** Imports a module of the built project, with a clear message when it was not built. */
export async function importBuilt(relative) {
  const file = path.join(DIST, relative);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: build the project first (npx tsc -p tsconfig.json)`);
  }
  return import(file);
}

const { DryRunProvider } = await importBuilt('llm/dry-run-provider.js');
const { PROVIDER_INTERFACE_VERSION } = await importBuilt('llm/provider.js');

/** A whole-number environment override, or the default. */
export function envInteger(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`${name}=${value} must be a whole number of at least 1`);
  return parsed;
}

/**
 * A temp root with a copy of the example app (governance/, context/, schemas/) and a config:
 * timezone UTC, plus `configYaml`. Removed by `removeRoot`.
 */
export function makeExampleRoot(configYaml = '', prefix = 'govflow-bench-', parent = os.tmpdir()) {
  const root = mkdtempSync(path.join(parent, prefix));
  for (const folder of ['governance', 'context', 'schemas']) {
    cpSync(path.join(REPOSITORY_ROOT, folder), path.join(root, folder), { recursive: true });
  }
  writeFileSync(path.join(root, 'govflow.config.yaml'), `timezone: UTC\n${configYaml}`);
  return root;
}

function removeNow(root) {
  rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * Removes `root` (or any temp folder) when the process exits, not now. On ext4 without a journal
 * (this project's VMs), allocating an inode skips the ones deleted in the last 5 s, or 5 min while
 * their inode-table block is unwritten (fs/ext4/ialloc.c, recently_deleted()), block by block: a
 * bench that removed a round's thousands of files made the next round's file creations pay for
 * them (perf: ext4_create's scan was 22 % of a session run's samples; 1.5–1.9 ms more system CPU
 * per session after 3,000 deletions, bench/RESULTS.md). See also settleDeletions.
 */
export function removeRoot(root) {
  if (pendingRemovals.length === 0) process.once('exit', () => pendingRemovals.splice(0).forEach(removeNow));
  pendingRemovals.push(root);
}
const pendingRemovals = [];

/**
 * Before timing file creation: writes back what earlier deletions (an earlier bench's clean-up)
 * left unwritten and waits out ext4's 5 s window (removeRoot), so they do not weigh on this one.
 */
export async function settleDeletions() {
  execFileSync('sync');
  await sleep(5_500);
}

/** Removes every root in `roots` when the process exits, even after an error or Ctrl-C. */
export function cleanUpOnExit(roots) {
  const clean = () => {
    for (const root of roots) removeNow(root);
    roots.length = 0;
  };
  process.on('exit', clean);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      clean();
      process.exit(130);
    });
  }
  return clean;
}

/** An operational log that drops everything but lets a callback watch the messages. */
export function quietLog(onInfo = () => {}) {
  return {
    info(message, fields) {
      onInfo(message, fields);
    },
    warn() {},
    error(message, fields) {
      if (process.env.BENCH_VERBOSE) console.error('govflow error:', message, fields ?? '');
    },
  };
}

/**
 * Answers like the dry-run provider, but each agent's answer is computed once and then returned
 * as is: the model costs nothing, so what is measured is govflow's own work. Not `synthetic`, so
 * the pipeline treats it like a real model.
 */
export class InstantProvider {
  kind = 'bench-instant';
  interfaceVersion = PROVIDER_INTERFACE_VERSION;
  #dryRun = new DryRunProvider();
  #answers = new Map();
  /** Called with each request before it is answered (latency probes). */
  onCall;

  constructor(onCall) {
    this.onCall = onCall;
  }

  async generate(request) {
    this.onCall?.(request);
    return this.answer(request);
  }

  /** The precomputed answer for the request's agent (computed on first use). */
  async answer(request) {
    let answer = this.#answers.get(request.agent);
    if (!answer) {
      const generated = await this.#dryRun.generate(request);
      answer = { ...generated, model: 'bench-instant', provider: this.kind };
      this.#answers.set(request.agent, answer);
    }
    return answer;
  }
}

/** Answers like InstantProvider after `latencyMs` (a model with a fixed latency); honours the abort signal. */
export class FixedLatencyProvider extends InstantProvider {
  kind = 'bench-latency';

  constructor(latencyMs) {
    super();
    this.latencyMs = latencyMs;
    this.calls = 0;
  }

  async generate(request) {
    this.calls += 1;
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, this.latencyMs);
      request.signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(request.signal.reason);
        },
        { once: true },
      );
    });
    return this.answer(request);
  }
}

/**
 * The model paths a benchmark runs (BENCH_PATHS, default both): `scripted`, a provider in the
 * bench's own code or `kind: scripted` (no wire, no SDK); `real`, `kind: openai-compatible`
 * through the AI SDK against startFakeModel's server with the same latency.
 */
export function benchPaths() {
  const paths = (process.env.BENCH_PATHS ?? 'scripted,real')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of paths)
    if (name !== 'scripted' && name !== 'real')
      throw new Error(`BENCH_PATHS=${process.env.BENCH_PATHS}: each path must be scripted or real`);
  return paths;
}

/**
 * The example app's answers as InstantProvider gives them (agent → text), and the prompts of one
 * call, from one in-process session: what startFakeModel answers on the real path.
 */
export async function exampleAnswers() {
  const { GovflowDaemon } = await importBuilt('daemon/daemon.js');
  const answers = {};
  let samplePrompt = null;
  const provider = new (class extends InstantProvider {
    async generate(request) {
      const answer = await super.generate(request);
      answers[request.agent] = answer.text;
      samplePrompt ??= { system: request.system, prompt: request.prompt };
      return answer;
    }
  })();
  const root = makeExampleRoot();
  try {
    let finished;
    const done = new Promise((resolve) => (finished = resolve));
    const daemon = await GovflowDaemon.start(root, {
      log: quietLog((message) => message === 'session finished' && finished()),
      announce: () => {},
      provider,
      env: { GOVFLOW_TIMEZONE: 'UTC' },
    });
    dropRequest(root, 'capture.json', JSON.stringify({ request: requestText(0), request_id: 'capture' }));
    await done;
    await daemon.stop();
  } finally {
    removeRoot(root);
  }
  return { answers, samplePrompt };
}

const fakeServers = new Set();
process.on('exit', () => fakeServers.forEach((child) => child.kill('SIGKILL')));

/**
 * bench/fake-openai-server.mjs in its own process (its CPU is not the daemon's), answering
 * `answers` (agent → text, `*` for any other) after `latencyMs`. `providerYaml` is the config
 * section that points `kind: openai-compatible` at it; `stats()` counts the calls;
 * `firstSeen()` maps each `[bench-request ID]` marker in a prompt to when its first call arrived
 * (ms on the clock of performance.timeOrigin + performance.now(), which processes share).
 * `capture` keeps every request body for `captured()`. `deltaMs` paces streams (one delta of
 * `deltaChars` every `deltaMs`); `streams()` then gives when each streamed request arrived, in
 * order. Killed by `stop()` or when this process exits.
 */
export async function startFakeModel(answers, latencyMs, { capture = false, deltaMs = 0, deltaChars = 40 } = {}) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'govflow-bench-fake-'));
  const answersFile = path.join(folder, 'answers.json');
  writeFileSync(answersFile, JSON.stringify(answers));
  const child = spawn(
    process.execPath,
    [path.join(REPOSITORY_ROOT, 'bench', 'fake-openai-server.mjs'), answersFile, String(latencyMs)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        BENCH_FAKE_CAPTURE: capture ? '1' : '0',
        BENCH_FAKE_DELTA_MS: String(deltaMs),
        BENCH_FAKE_DELTA_CHARS: String(deltaChars),
      },
    },
  );
  fakeServers.add(child);
  child.once('exit', () => fakeServers.delete(child));
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (data) => {
      out += data;
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the fake model server exited (${code})`)));
  }).finally(() => removeRoot(folder)); // read at its start
  const url = `http://127.0.0.1:${port}`;
  const get = async (pathname) => (await fetch(`${url}${pathname}`)).json();
  return {
    url,
    pid: child.pid,
    baseUrl: `${url}/v1`,
    providerYaml: `provider:\n  kind: openai-compatible\n  model: bench-model\n  base_url: ${url}/v1\n`,
    stats: () => get('/stats'),
    firstSeen: () => get('/first-seen'),
    markers: () => get('/markers'),
    /** When each streamed request arrived since the last call (with `deltaMs`), in order. */
    streams: () => get('/streams'),
    /** The request bodies received since the last call (with `capture`), as sent. */
    captured: () => get('/captured'),
    /** Every call answered since the last call (with `capture`): [arrived, answered, agent] (the clock of /first-seen). */
    timeline: () => get('/timeline'),
    stop() {
      child.kill('SIGKILL');
    },
  };
}

/** Writes a request file elsewhere in the root, then renames it into system/inbox/ (an atomic drop). */
export function dropRequest(root, name, text) {
  stageRequest(root, name, text)();
}

/**
 * Writes a request file elsewhere in the root and returns the rename that drops it into
 * system/inbox/, so a benchmark can create its files before the clock starts.
 */
export function stageRequest(root, name, text) {
  const staging = path.join(root, 'bench-staging');
  mkdirSync(staging, { recursive: true });
  const temporary = path.join(staging, `${name}.part`);
  writeFileSync(temporary, text);
  return () => renameSync(temporary, path.join(root, 'system', 'inbox', name));
}

/** A request text of realistic size (~600 characters), different for every `index`. */
export function requestText(index) {
  const people = ['Alice', 'Bob', 'Chen', 'Dana', 'Emeka', 'Farah'];
  const who = (offset) => people[(index + offset) % people.length];
  return (
    `Summarize this meeting note and list its action items with owners (request ${index}):\n` +
    `Weekly sync #${index}. Decision: ship release ${1 + (index % 9)}.${index % 7} on ${1 + (index % 28)} March. ` +
    `${who(0)} will send the release notes by Friday. ${who(1)} will book the venue for the launch. ` +
    `${who(2)} asked whether the pricing page is ready; nobody owns it yet. ${who(3)} reviews the draft ` +
    `of the customer email before Wednesday. Open question: do we need legal review for the new terms? ` +
    `Next sync in ${1 + (index % 3)} weeks.\n`
  );
}

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

/** nproc, CPU model, Node version and the filesystem of the temp folder. */
export function machineInfo() {
  let cpuModel = 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpuModel;
  } catch {
    cpuModel = os.cpus()[0]?.model ?? cpuModel;
  }
  let tempFilesystem = 'unknown';
  try {
    const [source, type, options] = execFileSync(
      'findmnt',
      ['-n', '-o', 'SOURCE,FSTYPE,OPTIONS', '--target', os.tmpdir()],
      {
        encoding: 'utf8',
      },
    )
      .trim()
      .split(/\s+/);
    // An ext4 without a journal pays a scan for recently deleted inodes at every file creation (RESULTS.md).
    const journal = type === 'ext4' ? (ext4HasJournal(source) ? ', journaled' : ', NO journal') : '';
    tempFilesystem = `${type} (${options})${journal}`;
  } catch {
    /* not Linux: left unknown */
  }
  return {
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    cpuModel,
    node: process.version,
    tempDir: os.tmpdir(),
    tempFilesystem,
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
