/**
 * The floor of a model call (issue 41): the AI SDK alone — `generateText`, or `streamText` for a
 * request that asked for a stream — sending exactly the requests govflow sent, captured at the
 * fake server (bench/fake-openai-server.mjs with capture on), to the same server. Each captured
 * body becomes the SDK call that produces it (system, messages, temperature, max tokens, JSON
 * mode, the provider created as govflow creates it, the SDK's own fetch); the server captures what
 * the SDK sent in turn, and `measureSdkFloor` checks the two sets of bodies are byte-identical, so
 * the floor is the SDK doing the same work as govflow asks of it, not some other prompt.
 *
 * CPU per call is this child process's own (process.cpuUsage: every thread), over the replay after
 * a warm-up of WARM calls (the first bodies again; real-path.mjs gives as many as govflow's own
 * warm-up made), so Node's start, the SDK's loading and the first compilations are not counted.
 *
 *   node bench/sdk-floor.mjs BODIES.json BASE_URL CONCURRENCY WARM   (prints {"cpuMsPerCall":…})
 */
import { spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  fdatasync,
  fsync,
  mkdtempSync,
  open,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SCRIPT = fileURLToPath(import.meta.url);
const openAsync = promisify(open);
const fdatasyncAsync = promisify(fdatasync);

/** JSON mode as govflow asks for it (src/llm/ai-sdk-attempt.ts): the raw text, not parsed. */
const RAW_JSON_OUTPUT = {
  name: 'raw-json-text',
  responseFormat: Promise.resolve({ type: 'json' }),
  parseCompleteOutput: async ({ text }) => text,
  parsePartialOutput: async ({ text }) => ({ partial: text }),
  createElementStreamTransform: () => undefined,
};

const KNOWN_KEYS = new Set([
  'model',
  'messages',
  'temperature',
  'max_tokens',
  'response_format',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
]);

/**
 * The SDK call that sends `body` (a captured Chat Completions request); throws for what it cannot
 * replay. Tools are offered as govflow offers them (src/llm/ai-sdk-tools.ts: no execute, the
 * SDK's default choice); the example app's answers call none, so no tool turns are replayed.
 */
function callOf(body, modelFor, { tool, jsonSchema }) {
  for (const key of Object.keys(body))
    if (!KNOWN_KEYS.has(key)) throw new Error(`a captured request has "${key}": the floor replays plain conversations`);
  let system;
  const messages = [];
  for (const message of body.messages) {
    if (message.role === 'system' && system === undefined && messages.length === 0) system = message.content;
    else if ((message.role === 'user' || message.role === 'assistant') && typeof message.content === 'string')
      messages.push({ role: message.role, content: message.content });
    else throw new Error(`a captured ${message.role} message the floor cannot replay`);
  }
  if (body.tool_choice !== undefined && body.tool_choice !== 'auto')
    throw new Error(`a captured tool_choice ${JSON.stringify(body.tool_choice)} the floor cannot replay`);
  const tools = body.tools?.map(({ function: offer }) => [
    offer.name,
    tool({ description: offer.description, inputSchema: jsonSchema(offer.parameters) }),
  ]);
  return {
    stream: body.stream === true,
    settings: {
      model: modelFor(body.model),
      ...(system !== undefined ? { system } : {}),
      messages,
      ...(tools ? { tools: Object.fromEntries(tools) } : {}),
      temperature: body.temperature,
      maxOutputTokens: body.max_tokens,
      maxRetries: 0,
      ...(body.response_format ? { output: RAW_JSON_OUTPUT } : {}),
    },
  };
}

/** Child mode: replays the bodies at `concurrency`, prints CPU per call. */
async function replay(bodiesFile, baseURL, concurrencyText, warmText) {
  const { generateText, streamText, tool, jsonSchema } = await import('ai');
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  // As src/llm/ai-sdk-models.ts creates it, without govflow's fetch: the SDK as it comes.
  const provider = createOpenAICompatible({ name: 'openai-compatible', baseURL, includeUsage: true });
  const models = new Map();
  const modelFor = (id) => models.get(id) ?? models.set(id, provider.chatModel(id)).get(id);
  const calls = JSON.parse(readFileSync(bodiesFile, 'utf8')).map((text) =>
    callOf(JSON.parse(text), modelFor, { tool, jsonSchema }),
  );
  const concurrency = Number(concurrencyText);
  // With BENCH_FLOOR_ANSWER_MARK, each stream's first text delta and first delta past the mark
  // (the answer's first characters), on the clock other processes share; null: none.
  const mark = process.env.BENCH_FLOOR_ANSWER_MARK;
  let firstDeltas = [];
  const clock = () => performance.timeOrigin + performance.now();
  const one = async ({ stream, settings }) => {
    if (!stream) return (await generateText(settings)).text;
    let text = '';
    const first = { text: null, answer: null };
    for await (const piece of streamText({ ...settings, onError: () => {} }).textStream) {
      text += piece;
      if (!mark) continue;
      first.text ??= clock();
      if (first.answer === null) {
        const at = text.indexOf(mark);
        if (at !== -1 && text.length > at + mark.length) first.answer = clock();
      }
    }
    if (mark) firstDeltas.push(first);
    return text;
  };
  const run = async (list) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, list.length) }, async () => {
        while (next < list.length) await one(list[next++]);
      }),
    );
  };
  const warm = Array.from({ length: Number(warmText) }, (_, index) => calls[index % calls.length]);
  await run(warm);
  if (process.env.BENCH_FLOOR_SERVE)
    return serve(calls, one, warm.length, Number(process.env.BENCH_FLOOR_SERVE), path.dirname(bodiesFile));
  firstDeltas = [];
  const { threadCpuMs, threadCpuPerCall } = await import('./bench-support.mjs');
  const threadsBefore = threadCpuMs(process.pid);
  const before = process.cpuUsage();
  const started = performance.now();
  await run(calls);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(before);
  const threads = threadCpuPerCall(threadsBefore, threadCpuMs(process.pid), calls.length);
  console.log(
    JSON.stringify({
      cpuMsPerCall: (used.user + used.system) / 1000 / calls.length,
      systemMsPerCall: used.system / 1000 / calls.length,
      threads,
      wallMs,
      warm: warm.length,
      firstDeltas,
    }),
  );
}

/**
 * Serve mode: the floor with an HTTP intake in front, as SPEC §2 and §17 ask of any server taking
 * requests: Fastify takes `POST /v1/requests`, writes the request into a claim file and makes it
 * durable (created, written, fdatasynced, renamed, its folder fsynced: syncs shared by the requests
 * in flight), answers 202 once it is, and from the rename on sends that request's `callsPerRequest`
 * calls one after another (taken in order from the captured ones, as the replay's workers take
 * them). `GET /finished` counts the requests whose calls all came back. Nothing else: no session,
 * journal, audit entry or result.
 */
async function serve(calls, one, warm, callsPerRequest, parent) {
  const { default: Fastify } = await import('fastify');
  const { importBuilt } = await import('./bench-support.mjs');
  const { FdatasyncQueue } = await importBuilt('store/append-only-file.js');
  // In the caller's folder, which it removes (bench-support.mjs removeRoot: at its exit).
  const folder = mkdtempSync(path.join(parent, 'claims-'));
  const folderFd = openSync(folder, 'r');
  // The folder's entries synced as the daemon syncs its shared folders: one sync for a burst.
  const folderSyncs = new FdatasyncQueue(fsync, folder);
  let next = 0;
  let finished = 0;
  const app = Fastify({ bodyLimit: 1024 * 1024 });
  app.post('/v1/requests', async (request, reply) => {
    const body = request.body;
    if (typeof body?.request !== 'string' || typeof body.request_id !== 'string')
      return reply.code(400).send({ error: 'request and request_id' });
    const temporary = path.join(folder, `.submit-${body.request_id}.tmp`);
    const fd = await openAsync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    writeFileSync(fd, JSON.stringify(body));
    const dataDurable = fdatasyncAsync(fd).finally(() => closeSync(fd));
    renameSync(temporary, path.join(folder, `${body.request_id}.json`));
    void (async () => {
      for (let call = 0; call < callsPerRequest && next < calls.length; call++) await one(calls[next++]);
      finished += 1;
    })();
    await Promise.all([dataDurable, folderSyncs.sync(folderFd)]);
    return reply.code(202).send({ request_id: body.request_id, status: 'queued' });
  });
  app.get('/finished', async () => ({ finished }));
  // The daemon's backlog (src/http/http-server.ts): with Node's 511, a batch POSTed at once
  // overflows the accept queue, and each dropped client connects again 1 s later.
  const url = await app.listen({ host: '127.0.0.1', port: 0, backlog: 4096 });
  console.log(JSON.stringify({ url, warm }));
  process.once('SIGTERM', () => process.exit(0));
}

/** Where two texts first differ, with a little context, for the error. */
function firstDifference(left, right) {
  let at = 0;
  while (at < left.length && left[at] === right[at]) at++;
  return `at character ${at}: govflow …${left.slice(Math.max(0, at - 40), at + 60)}… the SDK …${right.slice(Math.max(0, at - 40), at + 60)}…`;
}

/**
 * Writes `bodies` where a floor child reads them, forgets what `fake` kept of earlier calls (and
 * its streams with `forgetStreams`) and starts this script as that child; `args` go before it (Node
 * flags), `env` into its environment. The caller removes `folder` (removeRoot) once the child is done.
 */
async function startFloor(bodies, fake, concurrency, warmCalls, { args = [], env = {}, forgetStreams = false } = {}) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'govflow-bench-floor-'));
  const file = path.join(folder, 'bodies.json');
  writeFileSync(file, JSON.stringify(bodies));
  await fake.captured();
  await fake.timeline();
  if (forgetStreams) await fake.streams();
  const child = spawn(process.execPath, [...args, SCRIPT, file, fake.baseUrl, String(concurrency), String(warmCalls)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return { child, folder };
}

/**
 * Replays `bodies` (what govflow sent, as captured) through the SDK alone in a child process on
 * this Node, against `fake` (started with capture on), `concurrency` at a time after `warmCalls`
 * unmeasured ones (its CPU profile written into `profileDir` when given; `nodeFlags` on its command
 * line). Returns the SDK's CPU per call and the replay's wall time; throws unless the SDK sent
 * byte-identical bodies (compared as multisets). With `answerMark` (and a fake that paces its
 * streams, at concurrency 1), `firstDeltas` gives per measured stream, in order, when its request
 * reached the server (`arrived`), its first text delta (`text`) and its first delta past
 * `answerMark` (`answer`), in ms on the clock processes share.
 */
export async function measureSdkFloor(bodies, fake, concurrency, warmCalls, profileDir, nodeFlags = [], answerMark) {
  const { child, folder } = await startFloor(bodies, fake, concurrency, warmCalls, {
    args: [...nodeFlags, ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [])],
    env: { BENCH_FLOOR_ANSWER_MARK: answerMark ?? '' },
    forgetStreams: Boolean(answerMark),
  });
  try {
    const result = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (data) => (out += data));
      child.on('close', (code) =>
        code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the SDK floor exited with code ${code}`)),
      );
    });
    const timeline = await sentAsGovflow(bodies, fake, result.warm);
    // The measured streams were the last ones to arrive, one at a time.
    const arrivals = answerMark ? (await fake.streams()).slice(-result.firstDeltas.length) : [];
    return {
      cpuMsPerCall: result.cpuMsPerCall,
      systemMsPerCall: result.systemMsPerCall,
      threads: result.threads,
      wallMs: result.wallMs,
      identical: bodies.length,
      timeline,
      firstDeltas: result.firstDeltas.map((first, index) => ({ ...first, arrived: arrivals[index] })),
    };
  } finally {
    (await import('./bench-support.mjs')).removeRoot(folder);
  }
}

/**
 * Throws unless the floor sent `bodies` byte for byte (as multisets) after its `warm` calls; returns
 * the timeline of the calls it made after the warm-up, as the server saw them (bench/real-path-wide.mjs).
 */
async function sentAsGovflow(bodies, fake, warm) {
  const sent = (await fake.captured()).slice(warm);
  const timeline = (await fake.timeline()).sort((a, b) => a[0] - b[0]).slice(warm);
  const expected = [...bodies].sort();
  const actual = [...sent].sort();
  if (actual.length !== expected.length)
    throw new Error(`the SDK floor sent ${actual.length} requests for govflow's ${expected.length}`);
  const index = expected.findIndex((body, at) => body !== actual[at]);
  if (index !== -1)
    throw new Error(`the SDK floor sent other bytes than govflow ${firstDifference(expected[index], actual[index])}`);
  return timeline;
}

/**
 * The floor with an HTTP intake in front (the child's serve mode): `submit(url, finished)` posts the
 * batch to it and resolves with when the last 202 came, once `finished()` counts every request (as
 * real-path.mjs waits for govflow's results). Returns the wall from the first POST, the child's CPU
 * per call, the last 202 and the server's timeline; throws unless the bodies match govflow's.
 */
export async function measureHttpFloor(bodies, fake, callsPerRequest, warmCalls, submit) {
  const { processCpu, threadCpuMs } = await import('./bench-support.mjs');
  // Its warm-up runs 1,000 at a time; then the POSTs decide how many are in flight.
  const { child, folder } = await startFloor(bodies, fake, 1000, warmCalls, {
    env: { BENCH_FLOOR_SERVE: String(callsPerRequest) },
  });
  const exited = new Promise((resolve) => child.once('close', resolve));
  try {
    const { url, warm } = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (data) => {
        out += data;
        if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
      });
      child.once('close', (code) => reject(new Error(`the HTTP floor exited with code ${code}`)));
    });
    const finished = async () => (await (await fetch(`${url}/finished`)).json()).finished;
    const [cpuBefore, threadsBefore] = [processCpu(child.pid), threadCpuMs(child.pid)];
    const started = performance.now();
    const acceptedMs = await submit(url, finished);
    const wallMs = performance.now() - started;
    const [cpuAfter, threadsAfter] = [processCpu(child.pid), threadCpuMs(child.pid)];
    return {
      wallMs,
      acceptedMs,
      cpuMsPerCall: (cpuAfter.total - cpuBefore.total) / bodies.length,
      mainMsPerCall: (threadsAfter.main - threadsBefore.main) / bodies.length,
      timeline: await sentAsGovflow(bodies, fake, warm),
      startedAt: performance.timeOrigin + started,
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
    (await import('./bench-support.mjs')).removeRoot(folder);
  }
}

if (process.argv[1] === SCRIPT) await replay(...process.argv.slice(2));
