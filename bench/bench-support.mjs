/**
 * Shared pieces of the benchmarks: temp roots holding a copy of the example app, providers that
 * answer instantly or after a fixed latency, the real path's model (a loopback OpenAI-wire server
 * in its own process), request texts, and everything bench-measure.mjs holds (statistics, the
 * machine description, the `BENCH_RESULT {json}` line, CPU read from /proc), re-exported.
 *
 * The benchmarks import the built code from ../dist/: run `npx tsc -p tsconfig.json` first.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep, tempFileSystem } from './bench-measure.mjs';

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

/**
 * Where deleting is noted for settleDeletions: the time of this machine's last bench clean-up.
 * One file for every script and Node, in the temp dir the roots are made in.
 */
const DELETED_AT = path.join(os.tmpdir(), 'govflow-bench-deleted-at');

/**
 * Under `npm run bench` (run-all.mjs sets BENCH_TRASH, a folder on the same file system) a root is
 * moved there, and run-all deletes them all once every script is done: no inode is freed while a
 * later script creates files. A script run alone deletes its roots, and notes when.
 */
function removeNow(root) {
  if (!existsSync(root)) return; // removed already (a root in two lists): nothing freed, nothing to note
  const trash = process.env.BENCH_TRASH;
  if (trash) {
    try {
      renameSync(root, path.join(trash, `${path.basename(root)}-${process.pid}-${++trashed}`));
      return;
    } catch {
      // Not on the trash's file system (a RAM root): deleted as below.
    }
  }
  deleteNoted(root);
}
let trashed = 0;

/** Deletes `folder` and notes when, for settleDeletions. */
export function deleteNoted(folder) {
  rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  try {
    writeFileSync(DELETED_AT, String(Date.now()));
  } catch {
    // Only a wait later on is lost.
  }
}

/**
 * Removes `root` (or any temp folder) when the process exits, not now (removeNow). On ext4 without
 * a journal (this project's VMs), allocating an inode skips the ones deleted in the last 60 s, or
 * 6 min while their inode-table block is unwritten, as a new file in it makes it again
 * (fs/ext4/ialloc.c, recently_deleted(), RECENTCY_MIN and RECENTCY_DIRTY; 5 s before 2020), block by
 * block: a bench that removed a round's thousands of files made the next round's file creations
 * pay for them (perf: ext4_create's scan was 22 % of a session run's samples; 1.5–1.9 ms more
 * system CPU per session after 3,000 deletions; on 2026-12-05, four runs of the durable step back
 * to back: libuv's pool 0.26, 0.45, 0.74, 1.08 ms a step, recently_deleted and the inode-table
 * lookups under it 30 % of the samples; bench/RESULTS.md). See also settleDeletions.
 */
export function removeRoot(root) {
  pendingRemovals.push(root);
}
const pendingRemovals = [];
process.on('exit', () => pendingRemovals.forEach(removeNow));

/**
 * ext4's window for a deleted inode (RECENTCY_MIN 60 s, plus RECENTCY_DIRTY 300 s while its
 * inode-table block is unwritten, which a new file in the same block makes it again), and a second.
 */
const RECENTLY_DELETED_MS = 361_000;

/**
 * Before timing file creation: writes back what earlier deletions (an earlier bench's clean-up)
 * left unwritten, then waits until the last one noted is out of ext4's window (removeRoot), so
 * they do not weigh on this one (on ext4 without a journal; elsewhere no wait). Under `npm run
 * bench` nothing is deleted until the end, so only its first such script can wait.
 * BENCH_NO_SETTLE=1 skips the wait (the figures then carry it).
 */
export async function settleDeletions() {
  execFileSync('sync');
  // Only ext4 without a journal looks back at deleted inodes (a journaled one skips the check).
  if (process.env.BENCH_NO_SETTLE === '1' || tempFileSystem()?.journal !== false) return;
  let deletedAt = NaN;
  try {
    deletedAt = Number(readFileSync(DELETED_AT, 'utf8'));
  } catch {
    // Nothing deleted yet.
  }
  const waitMs = deletedAt + RECENTLY_DELETED_MS - Date.now();
  if (!(waitMs > 0)) return;
  console.log(
    `  waiting ${Math.ceil(waitMs / 1000)} s: ext4 still skips the inodes an earlier bench freed (bench-support.mjs removeRoot; BENCH_NO_SETTLE=1 skips this)`,
  );
  await sleep(waitMs);
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

export * from './bench-measure.mjs';
