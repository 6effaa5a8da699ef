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
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(import.meta.url);

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

/** Where two texts first differ, with a little context, for the error. */
function firstDifference(left, right) {
  let at = 0;
  while (at < left.length && left[at] === right[at]) at++;
  return `at character ${at}: govflow …${left.slice(Math.max(0, at - 40), at + 60)}… the SDK …${right.slice(Math.max(0, at - 40), at + 60)}…`;
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
  const folder = mkdtempSync(path.join(os.tmpdir(), 'govflow-bench-floor-'));
  try {
    const file = path.join(folder, 'bodies.json');
    writeFileSync(file, JSON.stringify(bodies));
    await fake.captured(); // forget what came before
    await fake.timeline();
    if (answerMark) await fake.streams();
    const result = await new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          ...nodeFlags,
          ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
          SCRIPT,
          file,
          fake.baseUrl,
          String(concurrency),
          String(warmCalls),
        ],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
          env: { ...process.env, BENCH_FLOOR_ANSWER_MARK: answerMark ?? '' },
        },
      );
      let out = '';
      child.stdout.on('data', (data) => (out += data));
      child.on('close', (code) =>
        code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the SDK floor exited with code ${code}`)),
      );
    });
    const sent = (await fake.captured()).slice(result.warm);
    // The replay's calls as the server saw them, after the warm-up's (bench/real-path-wide.mjs).
    const timeline = (await fake.timeline()).sort((a, b) => a[0] - b[0]).slice(result.warm);
    // The measured streams were the last ones to arrive, one at a time.
    const arrivals = answerMark ? (await fake.streams()).slice(-result.firstDeltas.length) : [];
    const expected = [...bodies].sort();
    const actual = [...sent].sort();
    if (actual.length !== expected.length)
      throw new Error(`the SDK floor sent ${actual.length} requests for govflow's ${expected.length}`);
    const index = expected.findIndex((body, at) => body !== actual[at]);
    if (index !== -1)
      throw new Error(`the SDK floor sent other bytes than govflow ${firstDifference(expected[index], actual[index])}`);
    return {
      cpuMsPerCall: result.cpuMsPerCall,
      systemMsPerCall: result.systemMsPerCall,
      threads: result.threads,
      wallMs: result.wallMs,
      identical: expected.length,
      timeline,
      firstDeltas: result.firstDeltas.map((first, index) => ({ ...first, arrived: arrivals[index] })),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] === SCRIPT) await replay(...process.argv.slice(2));
