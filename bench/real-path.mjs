/**
 * The real path: `govflow start --http` (no extra Node flags) with `kind: openai-compatible`
 * against a loopback OpenAI-wire server in its own process (bench/fake-openai-server.mjs), the
 * example app's six model calls per request, answers as the dry-run provider would give them.
 *
 * CPU is the daemon process's own (utime + stime from /proc), from the first request of the
 * measured batch to its last result in system/outbox/, divided by the model calls made: everything
 * govflow does per call is in it (HTTP intake, journal, audit, validation). It is set beside the
 * AI SDK's own cost per call, measured in a separate process against the same server in the same
 * run: `generateText` for the plain run (nobody reads chunks, so govflow asks plainly) and
 * `streamText` for the run where every session has its event stream open.
 *
 *   1. concurrency 16, 100 ms model, BENCH_REAL_REQUESTS (160) requests, plain and with events,
 *      BENCH_REAL_ROUNDS (3) rounds alternating with the AI SDK alone; the ratios are medians of rounds;
 *   2. concurrency 500, 2 s model, BENCH_REAL_WIDE_REQUESTS (500) requests: wall against the
 *      critical-path ideal (5 calls: the plan's two tasks run in parallel) and peak RSS.
 *
 * Targets (issue 27): CPU per call ≤ 1.5× generateText (plain), ≤ 1.3× streamText (events);
 * peak RSS ≤ 150 MB at concurrency 16; at 500 in flight wall ≤ 1.3× ideal and RSS ≤ 1 GB.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(BENCH_DIR, '..', 'bin', 'govflow.js');
const TICK_MS = 10; // /proc times are in clock ticks of 1/100 s on Linux

if (process.argv[2] === '--sdk-baseline') await sdkBaseline(...process.argv.slice(3));
else await main();

/** Child mode: the AI SDK alone against the fake, CPU per call of this process. */
async function sdkBaseline(mode, baseURL, callsText, concurrencyText, promptFile) {
  const { generateText, streamText } = await import('ai');
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  const { system, prompt } = JSON.parse(readFileSync(promptFile, 'utf8'));
  const provider = createOpenAICompatible({ name: 'bench', baseURL });
  const call = async () => {
    const model = provider.chatModel('bench-model');
    if (mode === 'generate') return (await generateText({ model, system, prompt, maxRetries: 0 })).text;
    const result = streamText({ model, system, prompt, maxRetries: 0 });
    let text = '';
    for await (const chunk of result.textStream) text += chunk;
    return text;
  };
  const runBatch = async (calls, concurrency) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < calls) await call();
      }),
    );
  };
  const calls = Number(callsText);
  const concurrency = Number(concurrencyText);
  await runBatch(concurrency * 2, concurrency);
  const before = process.cpuUsage();
  await runBatch(calls, concurrency);
  const used = process.cpuUsage(before);
  console.log(JSON.stringify({ cpuMsPerCall: (used.user + used.system) / 1000 / calls }));
}

async function main() {
  const {
    makeExampleRoot,
    removeRoot,
    cleanUpOnExit,
    exampleAnswers,
    startFakeModel,
    envInteger,
    round,
    reportResult,
    requestText,
  } = await import('./bench-support.mjs');
  const REQUESTS = envInteger('BENCH_REAL_REQUESTS', 160);
  const WIDE_REQUESTS = envInteger('BENCH_REAL_WIDE_REQUESTS', 500);
  const ROUNDS = envInteger('BENCH_REAL_ROUNDS', 3);
  const round2 = (value) => round(value, 2);
  const CALLS_PER_REQUEST = 6;
  const roots = [];
  const children = [];
  cleanUpOnExit(roots);
  process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

  // The answers (and one call's prompts) as the dry-run provider gives them, from one session.
  const { answers, samplePrompt } = await exampleAnswers();
  const promptFolder = mkdtempSync(path.join(os.tmpdir(), 'govflow-bench-prompt-'));
  roots.push(promptFolder);
  const promptFile = path.join(promptFolder, 'prompt.json');
  writeFileSync(promptFile, JSON.stringify(samplePrompt));
  const startFake = (latencyMs) => startFakeModel(answers, latencyMs);

  function sdkCpuPerCall(mode, baseUrl, calls, concurrency) {
    return new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          fileURLToPath(import.meta.url),
          '--sdk-baseline',
          mode,
          baseUrl,
          String(calls),
          String(concurrency),
          promptFile,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (data) => (out += data));
      child.on('close', (code) =>
        code === 0 ? resolve(JSON.parse(out).cpuMsPerCall) : reject(new Error(`sdk baseline exited ${code}`)),
      );
    });
  }

  const procCpuMs = (pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  };
  const peakRssMb = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  const rssMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

  /** `govflow start` on a fresh root; resolves once its ready line names the HTTP address. */
  async function startGovflow(fake, concurrency) {
    const root = makeExampleRoot(
      `intake: { concurrency: ${concurrency} }\nhttp: { listen: "127.0.0.1:0" }\n${fake.providerYaml}`,
    );
    roots.push(root);
    // Its operational log (stderr) is read and dropped, as a terminal or journald would take it.
    // BENCH_REAL_PROFILE=DIR writes the daemon's CPU profile there (bench/cpu-profile-summary.mjs reads it).
    const profile = process.env.BENCH_REAL_PROFILE
      ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_REAL_PROFILE]
      : [];
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
        const match = /HTTP API on (http:\/\/\S+)/.exec(out);
        if (!match) return;
        child.stdout.off('data', onData);
        resolve(match[1]);
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
    return { url, pid: child.pid, results, stop };
  }

  async function readEvents(url, requestId) {
    const response = await fetch(`${url}/v1/requests/${requestId}/events`);
    for await (const _ of response.body) void _;
  }

  /** Submits `count` requests over HTTP (with their event streams when `events`) and waits for every result. */
  async function batch(daemon, prefix, count, events) {
    const already = daemon.results();
    const streams = [];
    await Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const requestId = `${prefix}-${index}`;
        const response = await fetch(`${daemon.url}/v1/requests`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ request: requestText(index), request_id: requestId }),
        });
        if (response.status !== 202)
          throw new Error(`POST /v1/requests answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
        if (events) streams.push(readEvents(daemon.url, requestId));
      }),
    );
    while (daemon.results() < already + count) await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all(streams);
  }

  async function measured(latencyMs, concurrency, requests, events) {
    const fake = await startFake(latencyMs);
    const daemon = await startGovflow(fake, concurrency);
    try {
      await batch(daemon, 'warm', Math.min(concurrency, 32), events);
      const callsBefore = (await fake.stats()).calls;
      const streamedBefore = (await fake.stats()).streamed;
      const cpuBefore = procCpuMs(daemon.pid);
      const started = performance.now();
      await batch(daemon, 'run', requests, events);
      const wallMs = performance.now() - started;
      const cpuMs = procCpuMs(daemon.pid) - cpuBefore;
      const stats = await fake.stats();
      const calls = stats.calls - callsBefore;
      if (calls !== requests * CALLS_PER_REQUEST)
        throw new Error(`${calls} model calls for ${requests} requests, expected ${requests * CALLS_PER_REQUEST}`);
      return {
        cpuMsPerCall: cpuMs / calls,
        wallMs,
        peakRssMb: peakRssMb(daemon.pid),
        rssMb: rssMb(daemon.pid),
        streamedShare: (stats.streamed - streamedBefore) / calls,
        baseUrl: fake.baseUrl,
      };
    } finally {
      await daemon.stop();
      fake.stop();
    }
  }

  console.log(
    `real path: govflow start --http, kind openai-compatible, loopback OpenAI-wire server in its own process; ${CALLS_PER_REQUEST} model calls per request`,
  );
  const figures = [];
  const targets = [];

  // 1. Concurrency 16, 100 ms model: plain, then with an event stream on every session. Rounds
  // alternate the AI SDK alone and govflow, and each ratio is of one round: a shared machine's
  // speed drifts by more than the margins measured here between the start and the end of a run.
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const fake = await startFake(100);
    const generateCpu = await sdkCpuPerCall('generate', fake.baseUrl, REQUESTS * CALLS_PER_REQUEST, 16);
    const plain = await measured(100, 16, REQUESTS, false);
    const streamCpu = await sdkCpuPerCall('stream', fake.baseUrl, REQUESTS * CALLS_PER_REQUEST, 16);
    const withEvents = await measured(100, 16, REQUESTS, true);
    fake.stop();
    rounds.push({
      generateCpu,
      streamCpu,
      plain,
      withEvents,
      plainRatio: plain.cpuMsPerCall / generateCpu,
      eventsRatio: withEvents.cpuMsPerCall / streamCpu,
    });
    console.log(
      `  round ${round + 1}: generateText ${round2(generateCpu)} ms, govflow plain ${round2(plain.cpuMsPerCall)} ms (${round2(plain.cpuMsPerCall / generateCpu)}×, ${Math.round(plain.streamedShare * 100)} % streamed, peak RSS ${Math.round(plain.peakRssMb)} MB); streamText ${round2(streamCpu)} ms, govflow with event streams ${round2(withEvents.cpuMsPerCall)} ms (${round2(withEvents.cpuMsPerCall / streamCpu)}×, ${Math.round(withEvents.streamedShare * 100)} % streamed, peak RSS ${Math.round(withEvents.peakRssMb)} MB)`,
    );
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const plainRatio = median(rounds.map((r) => r.plainRatio));
  const eventsRatio = median(rounds.map((r) => r.eventsRatio));
  const peakRss = Math.max(...rounds.flatMap((r) => [r.plain.peakRssMb, r.withEvents.peakRssMb]));
  const plain = rounds[0].plain;
  console.log(
    `  median of ${ROUNDS} rounds: govflow plain ${round2(plainRatio)}× generateText; with event streams ${round2(eventsRatio)}× streamText; highest peak RSS ${Math.round(peakRss)} MB`,
  );
  figures.push(
    { name: 'AI SDK generateText: CPU per call', unit: 'ms', median: round2(median(rounds.map((r) => r.generateCpu))) },
    { name: 'AI SDK streamText: CPU per call', unit: 'ms', median: round2(median(rounds.map((r) => r.streamCpu))) },
    {
      name: 'govflow plain: CPU per model call',
      unit: 'ms',
      median: round2(median(rounds.map((r) => r.plain.cpuMsPerCall))),
    },
    {
      name: 'govflow with event streams: CPU per model call',
      unit: 'ms',
      median: round2(median(rounds.map((r) => r.withEvents.cpuMsPerCall))),
    },
    { name: 'govflow: peak RSS at concurrency 16', unit: 'MB', median: round(peakRss, 0) },
  );
  targets.push(
    {
      name: 'CPU per call / generateText (nobody reads chunks), median of rounds',
      target: '≤ 1.5×',
      value: round2(plainRatio),
      unit: '×',
      pass: plainRatio <= 1.5,
    },
    {
      name: 'CPU per call / streamText (event stream on every session), median of rounds',
      target: '≤ 1.3×',
      value: round2(eventsRatio),
      unit: '×',
      pass: eventsRatio <= 1.3,
    },
    {
      name: 'peak RSS at concurrency 16',
      target: '≤ 150 MB',
      value: round(peakRss, 0),
      unit: 'MB',
      pass: peakRss <= 150,
    },
  );

  // 2. 500 sessions in flight, 2 s model.
  const wide = await measured(2_000, 500, WIDE_REQUESTS, false);
  const idealMs = Math.ceil(WIDE_REQUESTS / 500) * 5 * 2_000;
  const wideRatio = wide.wallMs / idealMs;
  const perSessionMb = (wide.peakRssMb - plain.rssMb) / Math.min(500, WIDE_REQUESTS);
  console.log(
    `  concurrency 500, 2 s model, ${WIDE_REQUESTS} requests: wall ${round(wide.wallMs / 1000, 2)} s = ${round(wideRatio, 2)}× ideal (${idealMs / 1000} s); peak RSS ${round(wide.peakRssMb, 0)} MB (≈ ${round(perSessionMb, 2)} MB per session in flight); ${round(wide.cpuMsPerCall, 2)} ms CPU/call`,
  );
  figures.push(
    {
      name: `concurrency 500: wall / ideal (${WIDE_REQUESTS} requests, 2 s model)`,
      unit: '×',
      median: round(wideRatio, 2),
    },
    { name: 'concurrency 500: peak RSS', unit: 'MB', median: round(wide.peakRssMb, 0) },
    { name: 'concurrency 500: memory per session in flight', unit: 'MB', median: round(perSessionMb, 2) },
  );
  targets.push(
    {
      name: 'wall / ideal at 500 in flight',
      target: '≤ 1.3×',
      value: round(wideRatio, 2),
      unit: '×',
      pass: wideRatio <= 1.3,
    },
    {
      name: 'peak RSS at 500 in flight',
      target: '≤ 1024 MB',
      value: round(wide.peakRssMb, 0),
      unit: 'MB',
      pass: wide.peakRssMb <= 1024,
    },
  );
  for (const target of targets)
    console.log(
      `  target ${target.name} ${target.target}: ${target.value} ${target.unit} ${target.pass ? 'PASS' : 'MISS'}`,
    );
  reportResult({
    bench: 'real-path',
    title: 'The real path (openai-compatible over loopback)',
    config: { requests: REQUESTS, wideRequests: WIDE_REQUESTS, cpus: os.cpus().length },
    figures,
    targets,
  });
}
