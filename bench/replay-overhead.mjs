/**
 * Replay overhead per model call (SPEC §13): what the `replay` provider costs on each call — the
 * prompt normalized and hashed, the recording looked up, the answer handed over (also as one
 * stream chunk) — against a provider that answers instantly with the same text.
 *
 * Setup: BENCH_REPLAY_SESSIONS sessions (default 20) of the example chain run with the dry-run
 * provider through the recording wrapper, so the cassette holds real prompts (6 calls a session,
 * ~10 KB of system prompt each). Then, BENCH_REPLAY_RUNS times (default 30), a fresh replay
 * provider answers every recorded call again; each call is timed alone.
 *
 * Figure: median time per call (and p95), minus the instant provider's median on the same
 * requests. Target: ≤ 0.2 ms per model call.
 */
import path from 'node:path';
import {
  cleanUpOnExit,
  envInteger,
  importBuilt,
  makeExampleRoot,
  now,
  removeRoot,
  reportResult,
  requestText,
  round,
  summarize,
} from './bench-support.mjs';

const { openRuntime } = await importBuilt('daemon/runtime.js');
const { DryRunProvider } = await importBuilt('llm/dry-run-provider.js');
const { CassetteRecorder, recordingProvider } = await importBuilt('llm/recording-provider.js');
const { ReplayProvider } = await importBuilt('llm/replay-provider.js');

const SESSIONS = envInteger('BENCH_REPLAY_SESSIONS', 20);
const RUNS = envInteger('BENCH_REPLAY_RUNS', 30);
const TARGET_MS = 0.2;

const roots = [];
cleanUpOnExit(roots);
const root = makeExampleRoot();
roots.push(root);
const cassetteFile = path.join(root, 'cassettes', 'bench.cassette.json');

// Record: every request the pipeline made, kept to be asked again.
const requests = [];
const recorded = recordingProvider(new DryRunProvider(), new CassetteRecorder(cassetteFile));
const capturing = {
  kind: recorded.kind,
  interfaceVersion: recorded.interfaceVersion,
  synthetic: true,
  async generate(request) {
    const response = await recorded.generate(request);
    requests.push({ ...request, onChunk: undefined, signal: undefined });
    return response;
  },
};
const runtime = await openRuntime(root, { env: { GOVFLOW_FSYNC: '0' }, provider: capturing });
for (let index = 0; index < SESSIONS; index++) {
  await runtime.runner.startSession(
    { requestId: `bench-${index}`, text: requestText(index), sourceFile: 'bench.txt', claimedPath: null },
    new AbortController().signal,
  );
}
await runtime.close();
const systemChars = summarize(requests.map((request) => request.system.length + request.prompt.length)).median;
console.log(
  `replay overhead: ${requests.length} recorded calls (${SESSIONS} sessions), median prompt ${systemChars} chars; ${RUNS} runs`,
);

const instant = {
  async generate(request) {
    request.signal.throwIfAborted();
    const text = '{"answer":true}';
    request.onChunk?.(text);
    return {
      text,
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
      model: request.model,
      provider: 'instant',
      attempts: 1,
    };
  },
};

async function timeCalls(provider) {
  const times = [];
  for (const request of requests) {
    const signal = new AbortController().signal;
    let chunks = 0;
    const started = now();
    await provider.generate({ ...request, signal, onChunk: () => chunks++ });
    times.push(now() - started);
  }
  return times;
}

const replayTimes = [];
const instantTimes = [];
for (let run = 0; run < RUNS; run++) {
  replayTimes.push(...(await timeCalls(ReplayProvider.fromTarget(cassetteFile))));
  instantTimes.push(...(await timeCalls(instant)));
}
// The first run warms up the JIT: leave it out.
const perRun = requests.length;
const replay = summarize(replayTimes.slice(perRun));
const baseline = summarize(instantTimes.slice(perRun));
const overhead = replay.median - baseline.median;
const pass = overhead <= TARGET_MS;
console.log(
  `  replay per call: median ${round(replay.median, 4)} ms, p95 ${round(replay.p95, 4)} ms, min ${round(replay.min, 4)}, max ${round(replay.max, 4)}`,
);
console.log(`  instant provider per call: median ${round(baseline.median, 4)} ms`);
console.log(`  overhead per model call: ${round(overhead, 4)} ms; target ≤ ${TARGET_MS} ms: ${pass ? 'PASS' : 'MISS'}`);
removeRoot(root);
roots.length = 0;

reportResult({
  bench: 'replay-overhead',
  title: 'Replay provider overhead per model call',
  config: { sessions: SESSIONS, runs: RUNS, calls: requests.length },
  figures: [
    {
      name: 'replay, per call',
      unit: 'ms',
      median: round(replay.median, 4),
      min: round(replay.min, 4),
      max: round(replay.max, 4),
      runs: RUNS - 1,
      note: `p95 ${round(replay.p95, 4)} ms; prompts ~${systemChars} chars`,
    },
    { name: 'instant provider, per call', unit: 'ms', median: round(baseline.median, 4), runs: RUNS - 1 },
  ],
  targets: [
    { name: 'overhead per model call', target: `≤ ${TARGET_MS} ms`, value: round(overhead, 4), unit: 'ms', pass },
  ],
  details: { replay, baseline },
});
