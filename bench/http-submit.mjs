/**
 * HTTP intake and event streams.
 *
 * 1. Submit latency: BENCH_HTTP_REQUESTS requests (default 200) sent by BENCH_HTTP_CONCURRENCY
 *    clients (default 16) to an in-process GovflowDaemon with an instant model, once over HTTP
 *    (POST /v1/requests) and once as files (written, then renamed into system/inbox/); figure:
 *    submit → first model call of that request, p50 and p95. The clients of both paths run in a
 *    child process, as real clients and operators do, so each path's figure starts where its
 *    client hands the request over: one rename, or one write of the whole POST on a kept-alive
 *    connection (HttpConnection). Both runs use the same config (fsync on, intake.concurrency 16),
 *    so the difference is the path itself. Three load shapes:
 *    - **concurrency 16** (the target's): 16 requests in flight, as a load generator counts
 *      concurrency (ab -c, hey -c): each client sends its next request once its previous one
 *      finished. No request waits for a session slot, so the figure is the path plus the load of
 *      the 15 others.
 *    - **flood**: each client sends its next request as soon as the last one was acknowledged (the
 *      202; a file once renamed), so all 200 queue at once. Its p50 is mostly the wait behind about
 *      100 queued requests: it compares throughput, not what the path adds. Printed beside, with
 *      the time until the 202.
 *    - **one at a time**: BENCH_HTTP_SERIAL requests (default 30), each sent once the previous one
 *      finished: the path's own latency with nothing else running.
 * 2. Stream memory: a `govflow start` child process, one session held running by a slow scripted
 *    model, BENCH_HTTP_STREAMS event streams (default 100) opened on it; figure: the child's
 *    resident memory growth per open stream; then BENCH_HTTP_POLLS status polls (default 2,000,
 *    8 clients) of that request, `GET /v1/requests/:request_id`: the daemon's CPU per poll.
 *
 * BENCH_HTTP_ROUNDS rounds (default 5), HTTP and files alternating, so both meet the same machine
 * load; each figure is the median over rounds, and "added" the median of per-round differences.
 *
 * Two model paths (BENCH_PATHS, default both), each measured in every round: `scripted`, a provider
 * in the daemon's process (instant; the stream-memory session is held by `kind: scripted`), where
 * "first model call" is the provider's generate(); `real`, `kind: openai-compatible` through the
 * AI SDK against bench/fake-openai-server.mjs in its own process, where "first model call" is the
 * request's arrival at that server (the time the AI SDK and the loopback add is in the figure).
 *
 * Targets: the API adds ≤ 5 ms p50 to submit → first model call compared with the file path, 200
 * requests at concurrency 16 (issue 29; issue 13 asked ≤ 2 ms); 100 open streams cost ≤ 20 MB (≤ 200 kB each).
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  InstantProvider,
  REPOSITORY_ROOT,
  benchPaths,
  cleanUpOnExit,
  envInteger,
  exampleAnswers,
  importBuilt,
  makeExampleRoot,
  processCpu,
  quietLog,
  removeRoot,
  reportResult,
  requestText,
  round,
  sleep,
  stageRequest,
  startFakeModel,
  summarize,
  within,
} from './bench-support.mjs';

const REQUESTS = envInteger('BENCH_HTTP_REQUESTS', 200);
const CONCURRENCY = envInteger('BENCH_HTTP_CONCURRENCY', 16);
const STREAMS = envInteger('BENCH_HTTP_STREAMS', 100);
const POLLS = envInteger('BENCH_HTTP_POLLS', 2000);
const ROUNDS = envInteger('BENCH_HTTP_ROUNDS', 5);
const SERIAL = envInteger('BENCH_HTTP_SERIAL', 30);
/** Milliseconds on a clock both processes share. */
const absoluteNow = () => performance.timeOrigin + performance.now();
const round1 = (value) => round(value, 1);
const MARKER = /\[bench-request ([\w-]+)\]/;
const CONFIG = 'intake: { concurrency: 16 }\n';

/**
 * One kept-alive HTTP/1.1 connection that sends each POST with a single write, as load generators
 * (wrk, autocannon) do: the client's own cost stays out of the figure, as a file drop's is one
 * rename. (`fetch` spends 1–1.5 ms of its own before the request leaves it, on the same 2 cores.)
 */
class HttpConnection {
  static async open(target) {
    const url = new URL(target);
    const socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    await new Promise((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new HttpConnection(socket, url.host);
  }

  constructor(socket, host) {
    this.socket = socket;
    this.host = host;
  }

  /** Resolves with the answer's status once the whole answer (headers and Content-Length body) is in. */
  post(pathname, body) {
    const answer = new Promise((resolve, reject) => {
      let text = '';
      const onData = (chunk) => {
        text += chunk.toString('latin1');
        const end = text.indexOf('\r\n\r\n');
        if (end === -1) return;
        const length = Number(/content-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
        if (text.length < end + 4 + length) return;
        this.socket.off('data', onData);
        this.socket.off('error', reject);
        resolve(Number(text.slice(9, 12)));
      };
      this.socket.on('data', onData);
      this.socket.once('error', reject);
    });
    this.socket.write(
      `POST ${pathname} HTTP/1.1\r\nHost: ${this.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    return answer;
  }
}

/**
 * The clients (in the child process): `count` requests by `concurrency` clients over `path`
 * ('http': POST to `target`; 'files': a write, then a rename into `target`'s inbox). With
 * `waitForFinish`, a client sends its next request once the parent reports the last one finished.
 * Returns each request's send time (absolute ms) and, over HTTP, its time to the 202.
 */
async function runClients({ path: via, target, count, concurrency, waitForFinish, prefix }) {
  const finished = new Map();
  process.on('message', (id) => {
    finished.get(id)?.();
    finished.delete(id);
  });
  const sent = [];
  const accepted = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      let connection = null;
      while (next < count) {
        const index = next++;
        const id = `${prefix}-${index}`;
        const body = JSON.stringify({ request: `${requestText(index)}[bench-request ${id}]\n`, request_id: id });
        const done = waitForFinish ? new Promise((resolve) => finished.set(id, resolve)) : null;
        if (via === 'files') {
          const drop = stageRequest(target, `${id}.json`, body);
          sent.push([id, absoluteNow()]);
          drop();
        } else {
          connection ??= await HttpConnection.open(target);
          const started = absoluteNow();
          sent.push([id, started]);
          const status = await connection.post('/v1/requests', body);
          if (status !== 202) throw new Error(`POST ${id} answered ${status}`);
          accepted.push(absoluteNow() - started);
        }
        await (done ?? sleep(0));
      }
    }),
  );
  return { sent, accepted };
}

const roots = [];
const PATHS = benchPaths();
/** The real path's answers (agent → text), set by the main process when it runs that path. */
let answers = null;

/**
 * One run on `model` ('scripted' or 'real'): a daemon (with the HTTP API when `via` is 'http'),
 * the clients in a child process, `count` requests in the given shape. Returns submit → first
 * model call per request, the time to the 202 (HTTP), and the wall time until every session finished.
 */
async function measure(model, via, shape, count = REQUESTS, concurrency = CONCURRENCY) {
  const { GovflowDaemon } = await importBuilt('daemon/daemon.js');
  const fake = model === 'real' ? await startFakeModel(answers, 0) : null;
  const root = makeExampleRoot(`${CONFIG}${fake?.providerYaml ?? ''}`);
  roots.push(root);
  const firstCall = new Map();
  const requestOf = new Map();
  let child = null;
  let finishedCount = 0;
  let wake = () => {};
  const provider = fake
    ? null
    : new InstantProvider((request) => {
        const id = MARKER.exec(request.prompt)?.[1];
        if (id && !firstCall.has(id)) firstCall.set(id, absoluteNow());
      });
  const log = quietLog((message, fields) => {
    if (message === 'session started' && fields?.request) requestOf.set(fields.session, fields.request);
    // Count sessions, not lines.
    if (message === 'session finished' && requestOf.has(fields?.session)) {
      const id = requestOf.get(fields.session);
      requestOf.delete(fields.session);
      finishedCount += 1;
      if (shape !== 'flood' && child?.connected) child.send(id);
      wake();
    }
  });
  let ready = '';
  const daemon = await GovflowDaemon.start(root, {
    log,
    ...(provider ? { provider } : {}),
    env: { GOVFLOW_TIMEZONE: 'UTC' },
    announce: (line) => (ready = line),
    ...(via === 'http' ? { httpListen: '127.0.0.1:0' } : {}),
  });
  const target = via === 'http' ? /HTTP API on (\S+)/.exec(ready)?.[1] : root;
  const began = absoluteNow();
  let posted;
  try {
    child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_HTTP_CLIENT: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const answer = new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('error', reject);
      child.once('exit', (code) => code === 0 || reject(new Error(`the client process exited ${code}`)));
    });
    child.send({ path: via, target, count, concurrency, waitForFinish: shape !== 'flood', prefix: `${via}-${shape}` });
    posted = await within(answer, 180_000, null);
    if (!posted) throw new Error(`the ${via} clients did not finish within 180 s`);
    child.send('exit');
    while (finishedCount < count) await within(new Promise((resolve) => (wake = resolve)), 60_000, null);
    if (fake) for (const [id, at] of Object.entries(await fake.firstSeen())) firstCall.set(id, at);
  } finally {
    child?.kill();
    fake?.stop();
    await daemon.stop();
    removeRoot(root);
  }
  const wall = absoluteNow() - began;
  const missing = posted.sent.filter(([id]) => !firstCall.has(id));
  if (missing.length > 0)
    throw new Error(
      `no model call was seen for ${missing.length} requests (${missing
        .slice(0, 3)
        .map(([id]) => id)
        .join(', ')}…)`,
    );
  return {
    latency: summarize(posted.sent.map(([id, sent]) => firstCall.get(id) - sent)),
    accepted: summarize(posted.accepted),
    wall,
  };
}

function rssKb(pid) {
  return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
}

/** `govflow start` with one session held running by a model that answers after 10 minutes, and STREAMS event streams on it. */
async function streamMemory(model) {
  const script = path.join(makeExampleRoot(), 'script.yaml');
  const root = path.dirname(script);
  roots.push(root);
  const fake = model === 'real' ? await startFakeModel(answers, 600_000) : null;
  writeFileSync(script, 'responses:\n  objective_agent:\n    - { text: "{}", delay_ms: 600000 }\n');
  writeFileSync(
    path.join(root, 'govflow.config.yaml'),
    `timezone: UTC\n${fake?.providerYaml ?? 'provider: { kind: scripted, script: script.yaml }\n'}http: { listen: "127.0.0.1:0" }\n`,
  );
  const child = spawn(process.execPath, [path.join(REPOSITORY_ROOT, 'bin', 'govflow.js'), 'start', '--root', root], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const controllers = [];
  try {
    let out = '';
    const url = await within(
      new Promise((resolve) =>
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const match = /HTTP API on (\S+)/.exec(out);
          if (match) resolve(match[1]);
        }),
      ),
      20_000,
      null,
    );
    if (!url) throw new Error('the daemon printed no ready line with an HTTP address');
    const posted = await (
      await fetch(`${url}/v1/requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"request": "hold", "request_id": "held"}',
      })
    ).json();
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
    // What a client polling for its result costs the daemon, per GET.
    const poll = async (count) => {
      for (let index = 0; index < count; index++) await (await fetch(`${url}/v1/requests/held`)).arrayBuffer();
    };
    await poll(100);
    const cpuBefore = processCpu(child.pid).total;
    await Promise.all(Array.from({ length: 8 }, () => poll(POLLS / 8)));
    const pollCpuMs = (processCpu(child.pid).total - cpuBefore) / POLLS;
    return { before, after, perStreamKb: (after - before) / STREAMS, pollCpuMs };
  } finally {
    for (const controller of controllers) controller.abort();
    child.kill('SIGKILL');
    fake?.stop();
    removeRoot(root);
  }
}

if (process.env.BENCH_HTTP_CLIENT === '1') {
  // The child: wait for the job, run the clients, answer, then wait to be told to exit.
  process.once('message', async (job) => {
    process.send(await runClients(job));
    process.on('message', (message) => message === 'exit' && process.exit(0));
  });
} else {
  cleanUpOnExit(roots);
  if (PATHS.includes('real')) ({ answers } = await exampleAnswers());
  console.log(
    `http submit: ${REQUESTS} requests by ${CONCURRENCY} clients in a child process (instant model, fsync on, intake.concurrency 16), ` +
      `${ROUNDS} rounds, HTTP and files alternating; paths: ${PATHS.join(', ')}`,
  );
  const rounds = [];
  for (let index = 0; index < ROUNDS; index++) {
    const entry = {};
    for (const model of PATHS) {
      const http = {
        closed: await measure(model, 'http', 'closed'),
        flood: await measure(model, 'http', 'flood'),
        serial: await measure(model, 'http', 'serial', SERIAL, 1),
      };
      const files = {
        closed: await measure(model, 'files', 'closed'),
        flood: await measure(model, 'files', 'flood'),
        serial: await measure(model, 'files', 'serial', SERIAL, 1),
      };
      entry[model] = { http, files };
      const line = (shape) =>
        `HTTP p50 ${round1(http[shape].latency.median)} ms (p95 ${round1(http[shape].latency.p95)}), files ` +
        `${round1(files[shape].latency.median)} ms (p95 ${round1(files[shape].latency.p95)}), added ` +
        `${round1(http[shape].latency.median - files[shape].latency.median)} ms`;
      console.log(`  round ${index + 1}, ${model}: concurrency ${CONCURRENCY}: ${line('closed')}`);
      console.log(
        `           flood: ${line('flood')}; all finished after HTTP ${Math.round(http.flood.wall)} ms, files ${Math.round(files.flood.wall)} ` +
          `ms; POST → 202 p50 ${round1(http.flood.accepted.median)} ms`,
      );
      console.log(`           one at a time: ${line('serial')}`);
    }
    rounds.push(entry);
  }
  const figures = [];
  const targets = [];
  for (const model of PATHS) {
    const medianOf = (pick) => summarize(rounds.map((entry) => pick(entry[model]))).median;
    const figure = (shape) => ({
      http: medianOf((entry) => entry.http[shape].latency.median),
      httpP95: medianOf((entry) => entry.http[shape].latency.p95),
      files: medianOf((entry) => entry.files[shape].latency.median),
      filesP95: medianOf((entry) => entry.files[shape].latency.p95),
      added: medianOf((entry) => entry.http[shape].latency.median - entry.files[shape].latency.median),
      perRound: rounds.map((entry) =>
        round1(entry[model].http[shape].latency.median - entry[model].files[shape].latency.median),
      ),
    });
    const closed = figure('closed');
    const flood = figure('flood');
    const serial = figure('serial');
    const acceptedP50 = medianOf((entry) => entry.http.flood.accepted.median);
    const floodWall = {
      http: medianOf((entry) => entry.http.flood.wall),
      files: medianOf((entry) => entry.files.flood.wall),
    };
    for (const [name, stats] of [
      [`concurrency ${CONCURRENCY}`, closed],
      ['flood', flood],
      ['one at a time', serial],
    ]) {
      console.log(
        `  ${model}, median of ${ROUNDS} rounds, ${name}: HTTP p50 ${round1(stats.http)} ms, files p50 ${round1(stats.files)} ms, added by ` +
          `the API ${round1(stats.added)} ms (per round: ${stats.perRound.join(', ')})`,
      );
    }
    const memory = await streamMemory(model);
    console.log(
      `  ${model}: ${STREAMS} open event streams: daemon RSS ${memory.before} kB → ${memory.after} kB (${round(memory.perStreamKb, 1)} kB per stream); ` +
        `${POLLS} status polls (GET /v1/requests/:id, 8 clients): ${round(memory.pollCpuMs, 3)} ms of daemon CPU each`,
    );
    const named = (name, unit, median) => ({ name: `${model}: ${name}`, unit, median });
    figures.push(
      named(`concurrency ${CONCURRENCY}: HTTP submit → first call p50`, 'ms', round1(closed.http)),
      named(`concurrency ${CONCURRENCY}: HTTP submit → first call p95`, 'ms', round1(closed.httpP95)),
      named(`concurrency ${CONCURRENCY}: file drop → first call p50`, 'ms', round1(closed.files)),
      named(`concurrency ${CONCURRENCY}: file drop → first call p95`, 'ms', round1(closed.filesP95)),
      named(
        `concurrency ${CONCURRENCY}: added by the API (median of per-round p50 differences)`,
        'ms',
        round1(closed.added),
      ),
      named('flood: HTTP submit → first call p50', 'ms', round1(flood.http)),
      named('flood: file drop → first call p50', 'ms', round1(flood.files)),
      named('flood: added (median of per-round p50 differences)', 'ms', round1(flood.added)),
      named(`flood: all ${REQUESTS} finished, HTTP`, 'ms', Math.round(floodWall.http)),
      named(`flood: all ${REQUESTS} finished, files`, 'ms', Math.round(floodWall.files)),
      named('flood: POST → 202 p50', 'ms', round1(acceptedP50)),
      named('one at a time: HTTP submit → first call p50', 'ms', round1(serial.http)),
      named('one at a time: file drop → first call p50', 'ms', round1(serial.files)),
      named('RSS per open stream', 'kB', round(memory.perStreamKb, 1)),
      named('daemon CPU per status poll (GET /v1/requests/:id)', 'ms', round(memory.pollCpuMs, 3)),
    );
    targets.push(
      {
        name: `${model}: API adds to submit→first call p50 at concurrency ${CONCURRENCY}`,
        target: '≤ 5 ms',
        value: round1(closed.added),
        unit: 'ms',
        pass: closed.added <= 5,
      },
      {
        name: `${model}: RSS per open stream (100 streams ≤ 20 MB)`,
        target: '≤ 200 kB',
        value: round(memory.perStreamKb, 1),
        unit: 'kB',
        pass: memory.perStreamKb <= 200,
      },
    );
  }
  reportResult({
    bench: 'http-submit',
    title: 'HTTP submit latency and event-stream memory',
    config: { requests: REQUESTS, concurrency: CONCURRENCY, streams: STREAMS, rounds: ROUNDS, paths: PATHS },
    figures,
    targets,
  });
}
