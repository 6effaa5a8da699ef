/**
 * The real path and the cost of governance per model call (issues 27 and 41): `govflow start`
 * (no extra Node flags) with `kind: openai-compatible` against a loopback OpenAI-wire server in
 * its own process (bench/fake-openai-server.mjs), the example app's six model calls per request,
 * answers as the dry-run provider would give them.
 *
 * CPU is the daemon process's own (utime + stime from /proc), from the first request of the
 * measured batch to its last result in system/outbox/, divided by the model calls made: everything
 * govflow does per call is in it (intake, journal, audit, validation). Its floor is the AI SDK
 * alone sending the very requests govflow sent, captured at the server and checked byte-identical
 * (bench/sdk-floor.mjs): `generateText` for plain calls, `streamText` for streamed ones, in its own
 * process on the same Node against the same server, in the same round. Both sides also give
 * their kernel (system) part and their CPU by thread — the main thread, V8's helpers (parallel and
 * concurrent garbage collection, background compiling), libuv's pool (file system calls) — read
 * from /proc without a profiler, so the split costs nothing (bench-support.mjs threadCpuMs). Each
 * round also times the floor under the V8 flags `govflow start` sets itself (src/cli/daemon-node-flags.ts),
 * not for the target: to tell what those flags cost from what govflow's own code adds.
 *
 *   1. concurrency 16, 100 ms model, BENCH_REAL_REQUESTS (160) requests per path, BENCH_REAL_ROUNDS
 *      (3) rounds; each round runs, each beside the floor of its own captured requests: the HTTP
 *      path (POST /v1/requests), the file path (request files renamed into system/inbox/, the
 *      intake counted), and the HTTP path with every session's event stream open (calls stream);
 *      ratios are medians of the rounds' ratios;
 *   2. 1,000 in flight, 2 s model, BENCH_REAL_WIDE_REQUESTS (1,000) requests: wall against the
 *      critical-path ideal (5 calls: the plan's two tasks run in parallel), the main thread's busy
 *      time against the same ideal (a floor under the wall: it runs every call's JavaScript), and
 *      peak RSS; beside it the SDK alone sending the same calls 1,000 at a time, wall against its
 *      own ideal (calls / 1,000 × 2 s); bench/real-path-wide.mjs reports it, with the excess over
 *      each ideal split into the intake and the steps after it, from the model server's timeline;
 *      BENCH_REAL_WIDE_ROUNDS (1) rounds, each on a fresh daemon and model server: with more than one,
 *      each figure and target is the median of the rounds', printed with their spread.
 *
 * Targets: CPU per call ≤ 2.0× the SDK floor on the HTTP path and on the file path (issue 41;
 * issue 27 asked 1.5× on HTTP); ≤ 1.3× streamText with event streams (27); peak RSS ≤ 150 MB at
 * concurrency 16; at 1,000 in flight wall ≤ 1.25× ideal and RSS ≤ 400 MB (41; 27 asked 1.3× and 1 GB at 500).
 * BENCH_REAL_PATHS (default http,file,events) picks the paths of part 1 and their order.
 * BENCH_NODE_ARGS='--flag …' starts each daemon with those Node arguments (a V8 flag, an --import
 * that samples the heap), to measure what they change; the targets are for none.
 * BENCH_REAL_PROFILE=DIR profiles each daemon and each floor (DIR/<node>-<path>-<round>/govflow and
 * /floor; bench/cpu-profile-summary.mjs reads one) and prints where the last round's CPU went per
 * call, by part (govflow, AI SDK, zod, Node, GC…); profiling itself adds CPU to both sides.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { profilePartsPerCall } from './cpu-profile-summary.mjs';
import { measureWideRounds, reportWide } from './real-path-wide.mjs';
import { measureHttpFloor, measureSdkFloor } from './sdk-floor.mjs';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(BENCH_DIR, '..', 'bin', 'govflow.js');

await main();

async function main() {
  const {
    makeExampleRoot,
    removeRoot,
    settleDeletions,
    cleanUpOnExit,
    exampleAnswers,
    startFakeModel,
    envInteger,
    round,
    reportResult,
    requestText,
    stageRequest,
    processCpu,
    threadCpuMs,
    threadCpuPerCall,
    machineInfo,
    importBuilt,
  } = await import('./bench-support.mjs');
  const { DAEMON_NODE_FLAGS } = await importBuilt('cli/daemon-node-flags.js');
  const REQUESTS = envInteger('BENCH_REAL_REQUESTS', 160);
  const WIDE_REQUESTS = envInteger('BENCH_REAL_WIDE_REQUESTS', 1000);
  const WIDE_IN_FLIGHT = 1000;
  const WIDE_ROUNDS = envInteger('BENCH_REAL_WIDE_ROUNDS', 1);
  const ROUNDS = envInteger('BENCH_REAL_ROUNDS', 3);
  const round2 = (value) => round(value, 2);
  const signed = (value) => `${value < 0 ? '−' : '+'}${round2(Math.abs(value))}`;
  const CALLS_PER_REQUEST = 6;
  const roots = [];
  const children = [];
  cleanUpOnExit(roots);
  process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

  // The answers as the dry-run provider gives them, from one session.
  const { answers } = await exampleAnswers();
  await settleDeletions();

  const peakRssMb = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  const rssMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

  /** `govflow start` on a fresh root; resolves once its ready line is out (naming the HTTP address when `http`). */
  async function startGovflow(fake, concurrency, http, profileDir) {
    const root = makeExampleRoot(
      `intake: { concurrency: ${concurrency} }\n${http ? 'http: { listen: "127.0.0.1:0" }\n' : ''}${fake.providerYaml}`,
    );
    roots.push(root);
    // Its operational log (stderr) is read and dropped, as a terminal or journald would take it.
    const profile = profileDir
      ? ['--cpu-prof', '--cpu-prof-dir', profileDir]
      : (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...profile, CLI, 'start', '--root', root], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GOVFLOW_TIMEZONE: 'UTC' },
    });
    child.stderr.resume();
    children.push(child);
    const url = await new Promise((resolve, reject) => {
      let out = '';
      const onData = (data) => {
        out += data;
        const line = out.split('\n').find((text) => text.includes('govflow ready'));
        if (line === undefined) return;
        child.stdout.off('data', onData);
        resolve(/HTTP API on (http:\/\/\S+?)[,\s]/.exec(line)?.[1] ?? null);
      };
      child.stdout.on('data', onData);
      child.once('exit', (code) => reject(new Error(`govflow start exited (${code}): ${out}`)));
    });
    child.stdout.resume();
    const outbox = path.join(root, 'system', 'outbox');
    const results = () => readdirSync(outbox).filter((name) => name.endsWith('.json')).length;
    const stop = async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      removeRoot(root);
    };
    return { root, url, pid: child.pid, results, stop };
  }

  async function readEvents(url, requestId) {
    const response = await fetch(`${url}/v1/requests/${requestId}/events`);
    for await (const _ of response.body) void _;
  }

  /**
   * Submits `count` requests — over HTTP (with their event streams when `events`), or as files
   * written first and then renamed into the inbox at once — and waits for every result.
   */
  async function batch(daemon, prefix, count, { events = false, files = false } = {}) {
    const already = await daemon.results();
    const started = performance.now();
    const streams = [];
    const body = (index) => JSON.stringify({ request: requestText(index), request_id: `${prefix}-${index}` });
    if (files) {
      const drops = Array.from({ length: count }, (_, index) =>
        stageRequest(daemon.root, `${prefix}-${index}.json`, body(index)),
      );
      for (const drop of drops) drop();
    } else {
      await Promise.all(
        Array.from({ length: count }, async (_, index) => {
          const response = await fetch(`${daemon.url}/v1/requests`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: body(index),
          });
          if (response.status !== 202)
            throw new Error(`POST /v1/requests answered ${response.status}: ${await response.text()}`);
          await response.arrayBuffer();
          if (events) streams.push(readEvents(daemon.url, `${prefix}-${index}`));
        }),
      );
    }
    // When the last request was accepted (HTTP: its 202; files: dropped): the intake's share of the wall.
    const acceptedMs = performance.now() - started;
    while ((await daemon.results()) < already + count) await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all(streams);
    return acceptedMs;
  }

  /** One path measured on a fresh daemon: CPU per call, wall, RSS, and the request bodies it sent. */
  async function measured(fake, concurrency, requests, options = {}) {
    const daemon = await startGovflow(fake, concurrency, !options.files, options.profileDir);
    try {
      await batch(daemon, 'warm', Math.min(concurrency, 32), options);
      await fake.captured?.();
      await fake.timeline(); // forget what came before
      const callsBefore = (await fake.stats()).calls;
      const streamedBefore = (await fake.stats()).streamed;
      const cpuBefore = processCpu(daemon.pid);
      const fakeBefore = processCpu(fake.pid);
      const threadsBefore = threadCpuMs(daemon.pid);
      const started = performance.now();
      const acceptedMs = await batch(daemon, 'run', requests, options);
      const wallMs = performance.now() - started;
      const cpuAfter = processCpu(daemon.pid);
      const fakeAfter = processCpu(fake.pid);
      const threadsAfter = threadCpuMs(daemon.pid);
      const systemMs = cpuAfter.system - cpuBefore.system;
      const cpuMs = cpuAfter.user - cpuBefore.user + systemMs;
      const stats = await fake.stats();
      const calls = stats.calls - callsBefore;
      if (calls !== requests * CALLS_PER_REQUEST)
        throw new Error(`${calls} model calls for ${requests} requests, expected ${requests * CALLS_PER_REQUEST}`);
      return {
        calls,
        cpuMs,
        fakeCpuMs: fakeAfter.user + fakeAfter.system - fakeBefore.user - fakeBefore.system,
        cpuMsPerCall: cpuMs / calls,
        systemMsPerCall: systemMs / calls,
        threads: threadCpuPerCall(threadsBefore, threadsAfter, calls),
        wallMs,
        acceptedMs,
        peakRssMb: peakRssMb(daemon.pid),
        rssMb: rssMb(daemon.pid),
        streamedShare: (stats.streamed - streamedBefore) / calls,
        bodies: fake.captured ? await fake.captured() : [],
        timeline: await fake.timeline(),
        startedAt: performance.timeOrigin + started,
      };
    } finally {
      await daemon.stop();
    }
  }

  console.log(
    `real path on Node ${process.version}: govflow start, kind openai-compatible, loopback OpenAI-wire server in its own process; ` +
      `${CALLS_PER_REQUEST} model calls per request; floor: the AI SDK alone sending govflow's captured requests; ` +
      `roots in ${os.tmpdir()} on ${machineInfo().tempFilesystem}`,
  );
  const figures = [];
  const targets = [];
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

  // 1. Concurrency 16, 100 ms model. Each path beside the floor of its own requests, in the same
  // round: a shared machine's speed drifts by more than the margins measured here within a run.
  // BENCH_REAL_PATHS picks the paths and their order (default http,file,events).
  const ALL_PATHS = [
    { key: 'http', label: 'HTTP path', options: {} },
    { key: 'file', label: 'file path', options: { files: true } },
    { key: 'events', label: 'HTTP with event streams', options: { events: true } },
  ];
  const PATHS = (process.env.BENCH_REAL_PATHS ?? 'http,file,events').split(',').map((key) => {
    const found = ALL_PATHS.find((candidate) => candidate.key === key.trim());
    if (!found)
      throw new Error(`BENCH_REAL_PATHS=${process.env.BENCH_REAL_PATHS}: each path must be http, file or events`);
    return found;
  });
  const rounds = [];
  const PROFILES = process.env.BENCH_REAL_PROFILE;
  const profileDir = (key, index, who) =>
    PROFILES && path.join(PROFILES, `node${process.versions.node.split('.')[0]}-${key}-round${index + 1}`, who);
  for (let index = 0; index < ROUNDS; index++) {
    const fake = await startFakeModel(answers, 100, { capture: true });
    const row = {};
    try {
      for (const { key, options } of PATHS) {
        const govflow = await measured(fake, 16, REQUESTS, {
          ...options,
          profileDir: profileDir(key, index, 'govflow'),
        });
        const floorProfile = profileDir(key, index, 'floor');
        const floor = await measureSdkFloor(govflow.bodies, fake, 16, 32 * CALLS_PER_REQUEST, floorProfile);
        // Not the target's floor: the same SDK under the V8 flags `govflow start` sets itself (SPEC
        // §21's memory figures), to tell what those flags cost from what govflow's code does.
        const flagged = await measureSdkFloor(govflow.bodies, fake, 16, 32 * CALLS_PER_REQUEST, undefined, [
          ...DAEMON_NODE_FLAGS,
        ]);
        row[key] = { govflow, floor, flagged, ratio: govflow.cpuMsPerCall / floor.cpuMsPerCall };
      }
    } finally {
      fake.stop();
    }
    rounds.push(row);
    console.log(
      `  round ${index + 1}: ` +
        PATHS.map(
          ({ key, label }) =>
            `${label} ${round2(row[key].govflow.cpuMsPerCall)} ms (system ${round2(row[key].govflow.systemMsPerCall)}) / ` +
            `floor ${round2(row[key].floor.cpuMsPerCall)} ms (system ${round2(row[key].floor.systemMsPerCall)}) = ` +
            `${round2(row[key].ratio)}× (${row[key].floor.identical} bodies byte-identical, ` +
            `${Math.round(row[key].govflow.streamedShare * 100)} % streamed, peak RSS ${Math.round(row[key].govflow.peakRssMb)} MB)`,
        ).join('; '),
    );
  }
  // Where the time goes without a profiler (so without its cost): CPU by thread and the kernel's part.
  const THREAD_KINDS = [
    ['main', 'main thread'],
    ['v8', 'V8 helpers (GC, compiling)'],
    ['pool', 'libuv pool (file calls)'],
    ['other', 'other threads'],
  ];
  console.log(`  CPU per call by thread, median of rounds (ms): govflow | floor`);
  for (const { key, label } of PATHS) {
    const medianOf = (who, pick) => round2(median(rounds.map((row) => pick(row[key][who]))));
    console.log(
      `    ${label}: ` +
        THREAD_KINDS.map(
          ([kind, name]) =>
            `${name} ${medianOf('govflow', (side) => side.threads[kind])} | ${medianOf('floor', (side) => side.threads[kind])}`,
        ).join(', ') +
        `; of all, in the kernel ${medianOf('govflow', (side) => side.systemMsPerCall)} | ` +
        `${medianOf('floor', (side) => side.systemMsPerCall)}`,
    );
  }
  console.log(
    `  the SDK floor under govflow's V8 flags (${DAEMON_NODE_FLAGS.join(' ')}), median of rounds (ms per call):`,
  );
  for (const { key, label } of PATHS) {
    const floorMs = median(rounds.map((row) => row[key].floor.cpuMsPerCall));
    const flaggedMs = median(rounds.map((row) => row[key].flagged.cpuMsPerCall));
    console.log(
      `    ${label}: ${round2(flaggedMs)} against ${round2(floorMs)} with Node's defaults (${signed(flaggedMs - floorMs)} ms: ` +
        `the flags' share of what govflow adds), V8 helpers ${round2(median(rounds.map((row) => row[key].flagged.threads.v8)))} ms`,
    );
    figures.push({
      name: `${label}: the SDK floor under govflow's V8 flags`,
      unit: 'ms',
      median: round2(flaggedMs),
    });
  }
  const ratioOf = (key) => median(rounds.map((row) => row[key].ratio));
  // What govflow adds, in ms: unlike the ratio, it does not move when the SDK itself gets cheaper
  // or dearer (a zod release, a Node version) and the floor with it.
  const addedOf = (key) => median(rounds.map((row) => row[key].govflow.cpuMsPerCall - row[key].floor.cpuMsPerCall));
  const peakRss = Math.max(...rounds.flatMap((row) => PATHS.map(({ key }) => row[key].govflow.peakRssMb)));
  console.log(
    `  median of ${ROUNDS} rounds: ` +
      PATHS.map(({ key, label }) => `${label} ${round2(ratioOf(key))}× the floor (+${round2(addedOf(key))} ms)`).join(
        ', ',
      ) +
      `; highest peak RSS ${Math.round(peakRss)} MB`,
  );
  for (const { key, label } of PATHS)
    figures.push(
      {
        name: `${label}: what govflow adds per model call (govflow − floor)`,
        unit: 'ms',
        median: round2(addedOf(key)),
      },
      {
        name: `${label}: govflow CPU per model call`,
        unit: 'ms',
        median: round2(median(rounds.map((row) => row[key].govflow.cpuMsPerCall))),
      },
      {
        name: `${label}: the SDK floor's CPU per call (${key === 'events' ? 'streamText' : 'generateText'})`,
        unit: 'ms',
        median: round2(median(rounds.map((row) => row[key].floor.cpuMsPerCall))),
      },
    );
  figures.push({ name: 'govflow: peak RSS at concurrency 16', unit: 'MB', median: round(peakRss, 0) });
  if (PROFILES) {
    // Whole processes, start and warm-up included, over every call each made; idle left out.
    const calls = (32 + REQUESTS) * CALLS_PER_REQUEST;
    const partsPerCall = (dir) => profilePartsPerCall(dir, calls);
    console.log(`  where the CPU goes, ms per call (round ${ROUNDS}, profiled, start included): govflow | floor`);
    for (const { key, label } of PATHS) {
      const govflow = partsPerCall(profileDir(key, ROUNDS - 1, 'govflow'));
      const floor = partsPerCall(profileDir(key, ROUNDS - 1, 'floor'));
      console.log(
        `    ${label}: ` +
          [...govflow].map(([name, ms]) => `${name} ${round2(ms)} | ${round2(floor.get(name))}`).join(', '),
      );
    }
  }
  const nodeMajor = process.versions.node.split('.')[0];
  targets.push(
    ...[
      ['http', 'CPU per call / SDK floor, HTTP path (#41; #27 asked 1.5×)', 2.0],
      ['file', 'CPU per call / SDK floor, file path, intake counted (#41)', 2.0],
      ['events', 'CPU per call / SDK floor (streamText), event stream on every session (#27)', 1.3],
    ]
      .filter(([key]) => PATHS.some((chosen) => chosen.key === key))
      .map(([key, name, limit]) => ({
        name: `Node ${nodeMajor}: ${name}, median of rounds`,
        target: `≤ ${limit.toFixed(1)}×`,
        value: round2(ratioOf(key)),
        unit: '×',
        pass: ratioOf(key) <= limit,
      })),
    {
      name: `Node ${nodeMajor}: peak RSS at concurrency 16`,
      target: '≤ 150 MB',
      value: round(peakRss, 0),
      unit: 'MB',
      pass: peakRss <= 150,
    },
  );

  // 2. 1,000 sessions in flight, 2 s model (issue 41). The daemon's main thread runs every call's
  // JavaScript, so its busy time over the batch is a floor under the wall on any number of cores.
  // Beside it, the SDK alone sends the very same calls 1,000 at a time (no sessions: each of its
  // 1,000 workers sends its calls one after another, so its ideal is calls / 1,000 × 2 s).
  const wideReport = await measureWideRounds(WIDE_ROUNDS, async () => {
    const wideFake = await startFakeModel(answers, 2_000, { capture: true });
    try {
      const wide = await measured(wideFake, WIDE_IN_FLIGHT, WIDE_REQUESTS);
      const wideFloor = await measureSdkFloor(wide.bodies, wideFake, WIDE_IN_FLIGHT, 32 * CALLS_PER_REQUEST);
      // The same with SPEC's intake in front: the batch POSTed as to govflow, each 202 after a durable claim.
      const wideHttpFloor = await measureHttpFloor(
        wide.bodies,
        wideFake,
        CALLS_PER_REQUEST,
        32 * CALLS_PER_REQUEST,
        (url, results) => batch({ url, results }, 'run', WIDE_REQUESTS),
      );
      return reportWide({
        wide,
        wideFloor,
        wideHttpFloor,
        requests: WIDE_REQUESTS,
        inFlight: WIDE_IN_FLIGHT,
        rssBeforeMb: rounds[0][PATHS[0].key].govflow.rssMb,
        nodeMajor,
      });
    } finally {
      wideFake.stop();
    }
  });
  figures.push(...wideReport.figures);
  targets.push(...wideReport.targets);
  for (const target of targets)
    console.log(
      `  target ${target.name} ${target.target}: ${target.value} ${target.unit} ${target.pass ? 'PASS' : 'MISS'}`,
    );
  reportResult({
    bench: 'real-path',
    title: `The real path and the cost of governance per model call (Node ${process.version})`,
    config: {
      requests: REQUESTS,
      wideRequests: WIDE_REQUESTS,
      wideRounds: WIDE_ROUNDS,
      rounds: ROUNDS,
      cpus: os.cpus().length,
      node: process.version,
    },
    figures,
    targets,
  });
}
