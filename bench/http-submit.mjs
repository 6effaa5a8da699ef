/**
 * HTTP intake and event streams.
 *
 * 1. Submit latency: BENCH_HTTP_REQUESTS requests (default 200) posted to POST /v1/requests by
 *    BENCH_HTTP_CONCURRENCY clients at once (default 16), against an in-process GovflowDaemon with
 *    an instant model; figure: submit → first model call of that request, p50 and p95, next to the
 *    same requests dropped as files (16 writers renaming into system/inbox/). Both runs use the
 *    same config (fsync on, intake.concurrency 16), so the difference is the HTTP path itself.
 *    Also the time to the 202 (the request is durable as a claim by then), and BENCH_HTTP_SERIAL
 *    more requests (default 30) sent one at a time after the others finished: with no queue, the
 *    latency each path adds on its own.
 * 2. Stream memory: a `govflow start` child process, one session held running by a slow scripted
 *    model, BENCH_HTTP_STREAMS event streams (default 100) opened on it; figure: the child's
 *    resident memory growth per open stream.
 *
 * BENCH_HTTP_ROUNDS rounds (default 3), HTTP and files alternating, so both meet the same
 * machine load; the figure is the median over rounds of (HTTP p50 − files p50). The HTTP clients
 * run in a child process (BENCH_HTTP_CLIENTS=in-process puts them in the daemon's process, where
 * their own fetch work is charged to the API; the file path's "client" is a rename).
 *
 * Targets (issue 13): the API adds ≤ 2 ms p50 to submit → first model call compared with the file
 * path; 100 open streams cost ≤ 20 MB (≤ 200 kB each).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  InstantProvider,
  REPOSITORY_ROOT,
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
  sleep,
  stageRequest,
  summarize,
  within,
} from './bench-support.mjs';

const { GovflowDaemon } = await importBuilt('daemon/daemon.js');

const REQUESTS = envInteger('BENCH_HTTP_REQUESTS', 200);
const CONCURRENCY = envInteger('BENCH_HTTP_CONCURRENCY', 16);
const STREAMS = envInteger('BENCH_HTTP_STREAMS', 100);
const ROUNDS = envInteger('BENCH_HTTP_ROUNDS', 3);
const SERIAL = envInteger('BENCH_HTTP_SERIAL', 30);
/** `process` (default): the 16 clients run in a child process, as real clients do; `in-process`: in the daemon's own process. */
const CLIENTS = process.env.BENCH_HTTP_CLIENTS ?? 'process';
/** Milliseconds on a clock both processes share. */
const absoluteNow = () => performance.timeOrigin + performance.now();
const round1 = (value) => round(value, 1);
const MARKER = /\[bench-request ([\w-]+)\]/;
const CONFIG = 'intake: { concurrency: 16 }\n';

const roots = [];
cleanUpOnExit(roots);

/** Starts an in-process daemon; `firstCall` maps request marker → time of its first model call. */
async function startDaemon(root, http) {
  const firstCall = new Map();
  // The runner and the daemon both log "session finished": count sessions, not lines.
  const finishedSessions = new Set();
  let wake = () => {};
  const provider = new InstantProvider((request) => {
    const id = MARKER.exec(request.prompt)?.[1];
    if (id && !firstCall.has(id)) firstCall.set(id, now());
  });
  const log = quietLog((message, fields) => {
    if (message === 'session finished' && fields?.session) {
      finishedSessions.add(fields.session);
      wake();
    }
  });
  let ready = '';
  const daemon = await GovflowDaemon.start(root, { log, provider, env: { GOVFLOW_TIMEZONE: 'UTC' }, announce: (line) => (ready = line), ...(http ? { httpListen: '127.0.0.1:0' } : {}) });
  const url = /HTTP API on (\S+)/.exec(ready)?.[1] ?? null;
  const allFinished = async (count) => {
    while (finishedSessions.size < count) await new Promise((resolve) => (wake = resolve));
  };
  return { daemon, url, firstCall, allFinished };
}

/** Runs `work(index)` for 0..count-1 with `concurrency` workers. */
async function pool(count, concurrency, work) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) await work(next++);
  }));
}

/** The clients' side: posts the requests, returns each one's start (absolute ms) and its time to the 202. */
async function postAll(url) {
  const submitted = new Map();
  const accepted = [];
  await pool(REQUESTS, CONCURRENCY, async (index) => {
    const id = `http-${index}`;
    const started = absoluteNow();
    submitted.set(id, started);
    const response = await fetch(`${url}/v1/requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: `${requestText(index)}[bench-request ${id}]\n`, request_id: id }),
    });
    await response.arrayBuffer();
    if (response.status !== 202) throw new Error(`POST ${id} answered ${response.status}`);
    accepted.push(absoluteNow() - started);
  });
  return { submitted: [...submitted], accepted };
}

/** Runs postAll in a child process (real clients are other processes), collecting its answer. */
function postFromChildProcess(url) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
      env: { ...process.env, GOVFLOW_HTTP_CLIENTS_URL: url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the client process exited ${code}`))));
  });
}

async function submitOverHttp() {
  const root = makeExampleRoot(CONFIG);
  roots.push(root);
  const { daemon, url, firstCall, allFinished } = await startDaemon(root, true);
  let posted;
  const serial = [];
  try {
    posted = CLIENTS === 'in-process' ? await postAll(url) : await postFromChildProcess(url);
    await within(allFinished(REQUESTS), 120_000, null);
    // One at a time: no queue, so the latency is the path's own.
    for (let index = 0; index < SERIAL; index++) {
      const id = `http-serial-${index}`;
      const started = now();
      const response = await fetch(`${url}/v1/requests`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ request: `${requestText(index)}[bench-request ${id}]\n`, request_id: id }) });
      await response.arrayBuffer();
      await within(allFinished(REQUESTS + index + 1), 10_000, null);
      serial.push(firstCall.get(id) - started);
    }
  } finally {
    await daemon.stop();
    removeRoot(root);
  }
  const submitted = new Map(posted.submitted);
  const accepted = posted.accepted;
  const missing = [...submitted.keys()].filter((id) => !firstCall.has(id));
  if (missing.length > 0) throw new Error(`no model call was seen for ${missing.length} requests (${missing.slice(0, 3).join(', ')}…)`);
  const latencies = [...submitted].map(([id, started]) => firstCall.get(id) + performance.timeOrigin - started);
  return { latency: summarize(latencies), accepted: summarize(accepted), serial: summarize(serial) };
}

async function submitAsFiles() {
  const root = makeExampleRoot(CONFIG);
  roots.push(root);
  const { daemon, firstCall, allFinished } = await startDaemon(root, false);
  const dropped = new Map();
  const serial = [];
  try {
    const drops = Array.from({ length: REQUESTS }, (_unused, index) => {
      const id = `file-${index}`;
      return { id, drop: stageRequest(root, `${id}.json`, JSON.stringify({ request: `${requestText(index)}[bench-request ${id}]\n`, request_id: id })) };
    });
    await pool(REQUESTS, CONCURRENCY, async (index) => {
      dropped.set(drops[index].id, now());
      drops[index].drop();
      await sleep(0);
    });
    await within(allFinished(REQUESTS), 120_000, null);
    for (let index = 0; index < SERIAL; index++) {
      const id = `file-serial-${index}`;
      const drop = stageRequest(root, `${id}.json`, JSON.stringify({ request: `${requestText(index)}[bench-request ${id}]\n`, request_id: id }));
      const started = now();
      drop();
      await within(allFinished(REQUESTS + index + 1), 10_000, null);
      serial.push(firstCall.get(id) - started);
    }
  } finally {
    await daemon.stop();
    removeRoot(root);
  }
  const missing = [...dropped.keys()].filter((id) => !firstCall.has(id));
  if (missing.length > 0) throw new Error(`no model call was seen for ${missing.length} files (${missing.slice(0, 3).join(', ')}…)`);
  return { ...summarize([...dropped].map(([id, started]) => firstCall.get(id) - started)), serial: summarize(serial) };
}

function rssKb(pid) {
  return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
}

async function streamMemory() {
  const script = path.join(makeExampleRoot(), 'script.yaml');
  const root = path.dirname(script);
  roots.push(root);
  writeFileSync(script, 'responses:\n  objective_agent:\n    - { text: "{}", delay_ms: 600000 }\n');
  writeFileSync(path.join(root, 'govflow.config.yaml'), 'timezone: UTC\nprovider: { kind: scripted, script: script.yaml }\nhttp: { listen: "127.0.0.1:0" }\n');
  const child = spawn(process.execPath, [path.join(REPOSITORY_ROOT, 'bin', 'govflow.js'), 'start', '--root', root], { stdio: ['ignore', 'pipe', 'ignore'] });
  const controllers = [];
  try {
    let out = '';
    const url = await within(new Promise((resolve) => child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /HTTP API on (\S+)/.exec(out);
      if (match) resolve(match[1]);
    })), 20_000, null);
    if (!url) throw new Error('the daemon printed no ready line with an HTTP address');
    const posted = await (await fetch(`${url}/v1/requests`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"request": "hold", "request_id": "held"}' })).json();
    // Warm up the route and the stream code with a few streams, then measure.
    const open = async () => {
      const controller = new AbortController();
      controllers.push(controller);
      const response = await fetch(`${url}/v1/sessions/${posted.session_id}/events`, { signal: controller.signal });
      const reader = response.body.getReader();
      await reader.read(); // the session_started replay: the stream is open and served
      return reader;
    };
    await sleep(500);
    for (let index = 0; index < 5; index++) await open();
    await sleep(1000);
    const before = rssKb(child.pid);
    for (let index = 0; index < STREAMS; index++) await open();
    await sleep(1000);
    const after = rssKb(child.pid);
    return { before, after, perStreamKb: (after - before) / STREAMS };
  } finally {
    for (const controller of controllers) controller.abort();
    child.kill('SIGKILL');
    removeRoot(root);
  }
}

if (process.env.GOVFLOW_HTTP_CLIENTS_URL) {
  process.stdout.write(JSON.stringify(await postAll(process.env.GOVFLOW_HTTP_CLIENTS_URL)));
  process.exit(0);
}

console.log(`http submit: ${REQUESTS} requests at concurrency ${CONCURRENCY} (instant model, fsync on, intake.concurrency 16), ${ROUNDS} rounds, HTTP and files alternating; HTTP clients ${CLIENTS === 'in-process' ? 'in the daemon\'s process' : 'in a child process'}`);
const rounds = [];
for (let index = 0; index < ROUNDS; index++) {
  const overHttp = await submitOverHttp();
  const asFiles = await submitAsFiles();
  rounds.push({ overHttp, asFiles, added: overHttp.latency.median - asFiles.median });
  console.log(`  round ${index + 1}: HTTP submit → first model call p50 ${round1(overHttp.latency.median)} ms (p95 ${round1(overHttp.latency.p95)}; POST → 202 p50 ${round1(overHttp.accepted.median)}, p95 ${round1(overHttp.accepted.p95)}); files p50 ${round1(asFiles.median)} ms (p95 ${round1(asFiles.p95)}); added ${round1(overHttp.latency.median - asFiles.median)} ms; one at a time: HTTP p50 ${round1(overHttp.serial.median)} ms, files ${round1(asFiles.serial.median)} ms`);
}
const medianOf = (values) => summarize(values).median;
const httpP50 = medianOf(rounds.map((entry) => entry.overHttp.latency.median));
const httpP95 = medianOf(rounds.map((entry) => entry.overHttp.latency.p95));
const acceptedP50 = medianOf(rounds.map((entry) => entry.overHttp.accepted.median));
const filesP50 = medianOf(rounds.map((entry) => entry.asFiles.median));
const filesP95 = medianOf(rounds.map((entry) => entry.asFiles.p95));
const added = medianOf(rounds.map((entry) => entry.added));
const serialHttp = medianOf(rounds.map((entry) => entry.overHttp.serial.median));
const serialFiles = medianOf(rounds.map((entry) => entry.asFiles.serial.median));
console.log(`  median of ${ROUNDS} rounds: HTTP p50 ${round1(httpP50)} ms, files p50 ${round1(filesP50)} ms, added by the API ${round1(added)} ms (per-round differences: ${rounds.map((entry) => round1(entry.added)).join(', ')}); one at a time: HTTP ${round1(serialHttp)} ms, files ${round1(serialFiles)} ms`);
const memory = await streamMemory();
console.log(`  ${STREAMS} open event streams: daemon RSS ${memory.before} kB → ${memory.after} kB (${round(memory.perStreamKb, 1)} kB per stream)`);
reportResult({
  bench: 'http-submit',
  title: 'HTTP submit latency and event-stream memory',
  config: { requests: REQUESTS, concurrency: CONCURRENCY, streams: STREAMS, rounds: ROUNDS, clients: CLIENTS },
  figures: [
    { name: 'HTTP submit → first call p50', unit: 'ms', median: round1(httpP50) },
    { name: 'HTTP submit → first call p95', unit: 'ms', median: round1(httpP95) },
    { name: 'POST → 202 p50', unit: 'ms', median: round1(acceptedP50) },
    { name: 'file drop → first call p50', unit: 'ms', median: round1(filesP50) },
    { name: 'file drop → first call p95', unit: 'ms', median: round1(filesP95) },
    { name: 'added by the API (median of per-round p50 differences)', unit: 'ms', median: round1(added) },
    { name: 'one at a time: HTTP submit → first call p50', unit: 'ms', median: round1(serialHttp) },
    { name: 'one at a time: file drop → first call p50', unit: 'ms', median: round1(serialFiles) },
    { name: 'RSS per open stream', unit: 'kB', median: round(memory.perStreamKb, 1) },
  ],
  targets: [
    { name: 'API adds to submit→first call p50', target: '≤ 2 ms', value: round1(added), unit: 'ms', pass: added <= 2 },
    { name: 'RSS per open stream (100 streams ≤ 20 MB)', target: '≤ 200 kB', value: round(memory.perStreamKb, 1), unit: 'kB', pass: memory.perStreamKb <= 200 },
  ],
});
