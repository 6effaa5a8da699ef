/**
 * Cancel latency (SPEC §18, issue 43): how long from the moment the daemon claims a cancel to the
 * moment the model server sees the session's request closed. The daemon is a real `govflow start`
 * child process on the real adapter path (`kind: openai-compatible` over loopback, to
 * bench/fake-openai-server.mjs in its own process, which holds every call unanswered). The bench
 * keeps BENCH_CANCEL_IN_FLIGHT sessions (default 16) waiting on their first model call and cancels
 * them one after another over HTTP (`POST /v1/sessions/:id/cancel`), starting a new one after each,
 * until BENCH_CANCEL_COUNT cancels (default 200) are done.
 *
 * The claim time is the cancel's `claimed_at` in the session's journal (its claim name's instant);
 * the close time is when the model server's response saw its connection closed unanswered. Both
 * are this machine's wall clock. Also counted: model calls a session made after its cancel (must
 * be 0), and cancelled results (must be every one).
 *
 * Target: p95 ≤ 1000 ms (SPEC §18's cluster bound; files mode should be far below it).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  REPOSITORY_ROOT,
  cleanUpOnExit,
  envInteger,
  makeExampleRoot,
  now,
  removeRoot,
  reportResult,
  round,
  sleep,
  startFakeModel,
  summarize,
} from './bench-support.mjs';

const COUNT = envInteger('BENCH_CANCEL_COUNT', 200);
const IN_FLIGHT = envInteger('BENCH_CANCEL_IN_FLIGHT', 16);
const TARGET_MS = 1000;
const CLI = path.join(REPOSITORY_ROOT, 'bin', 'govflow.js');
const roots = [];
cleanUpOnExit(roots);

// Every call is held for an hour: only a cancel ends it.
const model = await startFakeModel({ '*': '{}' }, 3_600_000);
const root = makeExampleRoot(
  `${model.providerYaml}llm: { max_attempts: 1, timeout_ms: 3600000 }\nintake: { concurrency: ${IN_FLIGHT} }\n`,
  'govflow-bench-cancel-',
);
roots.push(root);

const daemon = spawn(process.execPath, [CLI, 'start', '--root', root, '--http', '127.0.0.1:0'], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
let daemonErr = '';
daemon.stderr.on('data', (chunk) => (daemonErr = `${daemonErr}${chunk}`.slice(-4000)));
const url = await new Promise((resolve, reject) => {
  let out = '';
  daemon.stdout.on('data', (chunk) => {
    out += chunk;
    const found = /HTTP API on (http:\/\/\S+)/.exec(out)?.[1];
    if (found) resolve(found);
  });
  daemon.once('exit', (code) => reject(new Error(`govflow start exited (${code}):\n${out}\n${daemonErr}`)));
});

async function post(pathname, body) {
  const response = await fetch(`${url}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (response.status !== 202) throw new Error(`POST ${pathname}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Polls the model server until `ready(markers)` holds (every 5 ms: it answers from memory). */
async function until(what, ready, timeoutMs = 60_000) {
  const deadline = now() + timeoutMs;
  for (;;) {
    const markers = await model.markers();
    if (ready(markers)) return markers;
    if (now() > deadline) throw new Error(`timed out waiting for ${what}\n${daemonErr}`);
    await sleep(5);
  }
}

let started = 0;
let cancelled = 0;
const sessions = new Map(); // marker → session id
async function startOne() {
  const marker = `c${started++}`;
  const answer = await post('/v1/requests', { request: `Summarize the meeting [bench-request ${marker}].` });
  sessions.set(marker, answer.session_id);
  return marker;
}

console.log(
  `cancel latency: ${COUNT} cancels, ${IN_FLIGHT} sessions in flight, govflow start child process, openai-compatible over loopback`,
);
const wall = now();
const live = [];
for (let index = 0; index < Math.min(IN_FLIGHT, COUNT); index++) live.push(await startOne());
while (cancelled < COUNT) {
  // The oldest session in flight: cancel it once its model call is held by the server.
  const marker = live.shift();
  await until(`the model call of ${marker}`, (markers) => markers[marker]?.calls >= 1);
  await post(`/v1/sessions/${sessions.get(marker)}/cancel`, { reason: 'bench' });
  cancelled += 1;
  if (started < COUNT) live.push(await startOne());
}
const markers = await until('every cancelled call to close', (seen) =>
  [...sessions.keys()].every((marker) => seen[marker]?.closed.length >= 1),
);
const wallSeconds = (now() - wall) / 1000;
// Late calls would come right after a cancel: give them a moment to show up.
await sleep(1000);
const after = await model.markers();

function journalOf(sessionId) {
  const file = path.join(root, 'system', 'sessions', sessionId, 'journal.jsonl');
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}
const latencies = [];
let lateCalls = 0;
let results = 0;
for (const [marker, sessionId] of sessions) {
  const control = journalOf(sessionId).find((record) => record.type === 'control' && record.action === 'cancel');
  if (!control) throw new Error(`session ${sessionId} has no cancel in its journal`);
  latencies.push(markers[marker].closed[0] - Date.parse(control.claimed_at));
  lateCalls += after[marker].calls - 1;
  const result = JSON.parse(
    fs.readFileSync(path.join(root, 'system', 'outbox', `${journalOf(sessionId)[0].request_id}.json`), 'utf8'),
  );
  if (result.status === 'cancelled') results += 1;
}
daemon.kill('SIGTERM');
await new Promise((resolve) => daemon.once('exit', resolve));
model.stop();

const stats = summarize(latencies);
console.log(
  `  claim → request closed: p50 ${round(stats.median, 1)} ms, p95 ${round(stats.p95, 1)} ms, max ${round(stats.max, 1)} ms, min ${round(stats.min, 1)} ms`,
);
console.log(
  `  model calls after a cancel: ${lateCalls}; cancelled results: ${results} of ${sessions.size}; wall ${round(wallSeconds, 1)} s`,
);
const pass = stats.p95 <= TARGET_MS && lateCalls === 0 && results === sessions.size;
console.log(
  `  target p95 ≤ ${TARGET_MS} ms, no call after a cancel, every result cancelled: ${pass ? 'PASS' : 'MISS'}`,
);
reportResult({
  bench: 'cancel-latency',
  title: `Cancel latency, claim → model request closed (${COUNT} cancels, ${IN_FLIGHT} in flight)`,
  config: { cancels: COUNT, inFlight: IN_FLIGHT, path: 'openai-compatible over loopback' },
  figures: [
    {
      name: 'claim → request closed',
      unit: 'ms',
      median: round(stats.median, 1),
      min: round(stats.min, 1),
      max: round(stats.max, 1),
      runs: stats.count,
      note: `p95 ${round(stats.p95, 1)}`,
    },
    { name: 'model calls after a cancel', unit: 'calls', median: lateCalls, runs: 1 },
  ],
  targets: [{ name: 'cancel latency p95', target: `≤ ${TARGET_MS} ms`, value: round(stats.p95, 1), unit: 'ms', pass }],
});
for (const folder of roots.splice(0)) removeRoot(folder);
