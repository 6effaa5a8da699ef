/**
 * A loopback model server that speaks the OpenAI Chat Completions wire format (what
 * `kind: openai-compatible` and `kind: ollama` send), for the real-path benchmark. Run as its
 * own process so its CPU is not counted against govflow or the AI SDK baseline:
 *
 *   node bench/fake-openai-server.mjs ANSWERS.json LATENCY_MS
 *
 * ANSWERS.json maps an agent name to the text it answers (the agent is read from the system
 * prompt's `You are "name"`); any other request gets the `*` entry. Answers after LATENCY_MS, as
 * one JSON body or, when the request asks for a stream, as SSE chunks of ~40 characters with the
 * usage in the last one. Prints `listening PORT` once up; `GET /stats` gives the calls counted;
 * `GET /first-seen` maps each `[bench-request ID]` marker found in a user message to when its first
 * call arrived (performance.timeOrigin + performance.now(), a clock other processes share);
 * `GET /markers` gives per marker its calls, the first arrival and when a call's connection was
 * closed by the client before its answer (a cancel: bench/cancel-latency.mjs holds every call
 * with a LATENCY_MS longer than the run). With BENCH_FAKE_CAPTURE=1 it keeps every request body
 * as the bytes arrived (UTF-8) and `GET /captured` hands them over as a JSON array, then forgets
 * them: bench/sdk-floor.mjs replays govflow's own requests and checks it sent the same bytes.
 * BENCH_FAKE_DELTA_MS=N (with BENCH_FAKE_DELTA_CHARS, default 40) paces a stream as a model writes
 * it: one delta of that many characters every N ms instead of all at once, and `GET /streams`
 * hands over (then forgets) when each streamed request arrived, in order (the clock of /first-seen):
 * bench/chat-turns.mjs times the first answer chunk from there. With capture on, `GET /timeline`
 * also hands over (then forgets) every call answered since: [arrived, answered, agent] (the same
 * clock; the agent as read from the system prompt), which bench/real-path-wide.mjs turns into waves.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const answers = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const latencyMs = Number(process.argv[3] ?? 100);
const stats = { calls: 0, streamed: 0 };
const firstSeen = {};
/** marker → { calls, first, closed: [times a call was closed unanswered] } */
const markers = {};
const MARKER = /\[bench-request ([\w-]+)\]/;
const capture = process.env.BENCH_FAKE_CAPTURE === '1';
let captured = [];
const deltaMs = Number(process.env.BENCH_FAKE_DELTA_MS ?? 0);
const deltaChars = Number(process.env.BENCH_FAKE_DELTA_CHARS ?? 40);
let streamArrivals = [];
let timeline = [];
const usage = { prompt_tokens: 900, completion_tokens: 120, total_tokens: 1020 };

function agentOf(body) {
  const system = (body.messages ?? [])
    .filter((message) => message.role === 'system')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
    .join('\n');
  return /You are "([a-z][a-z0-9_]*)"/.exec(system)?.[1];
}

const answerFor = (agent) => answers[agent] ?? answers['*'] ?? '{}';

/** A whole answer with its Content-Length, as llama.cpp's server, vLLM and Ollama send one. */
function plain(response, model, text) {
  const body = Buffer.from(
    JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage,
    }),
  );
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
  response.end(body);
}

function streamed(response, model, text) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const frame = (delta, extra = {}, finishReason = null) =>
    'data: ' +
    JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...extra,
    }) +
    '\n\n';
  const frames = [frame({ role: 'assistant', content: '' })];
  for (let at = 0; at < text.length; at += deltaChars) frames.push(frame({ content: text.slice(at, at + deltaChars) }));
  frames.push(frame({}, { usage }, 'stop'), 'data: [DONE]\n\n');
  if (deltaMs === 0) return response.end(frames.join(''));
  // Paced: the role frame and the first delta at once, then one delta every deltaMs.
  response.write(frames[0]);
  let next = 1;
  const write = () => {
    if (response.destroyed) return;
    if (next === frames.length - 2) return response.end(frames.slice(next).join(''));
    response.write(frames[next++]);
    setTimeout(write, deltaMs);
  };
  write();
}

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/captured') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(captured));
    captured = [];
    return;
  }
  if (request.method === 'GET' && request.url === '/timeline') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(timeline));
    timeline = [];
    return;
  }
  if (request.method === 'GET' && request.url === '/streams') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(streamArrivals));
    streamArrivals = [];
    return;
  }
  if (request.method === 'GET' && ['/stats', '/first-seen', '/markers'].includes(request.url)) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(request.url === '/stats' ? stats : request.url === '/markers' ? markers : firstSeen));
    return;
  }
  const arrived = performance.timeOrigin + performance.now();
  const parts = [];
  request.on('data', (part) => parts.push(part));
  request.on('end', () => {
    const text = Buffer.concat(parts).toString('utf8');
    if (capture) captured.push(text);
    const body = JSON.parse(text);
    const marker = (body.messages ?? [])
      .map((message) =>
        message.role === 'user' && typeof message.content === 'string' ? MARKER.exec(message.content)?.[1] : undefined,
      )
      .find(Boolean);
    if (marker) firstSeen[marker] ??= arrived;
    const seen = marker ? (markers[marker] ??= { calls: 0, first: arrived, closed: [] }) : null;
    if (seen) seen.calls += 1;
    stats.calls += 1;
    if (body.stream === true) {
      stats.streamed += 1;
      if (deltaMs > 0) streamArrivals.push(arrived);
    }
    const agent = agentOf(body);
    const answer = answerFor(agent);
    const timer = setTimeout(() => {
      if (capture) timeline.push([arrived, performance.timeOrigin + performance.now(), agent]);
      (body.stream === true ? streamed : plain)(response, body.model ?? 'bench-model', answer);
    }, latencyMs);
    response.on('close', () => {
      if (response.writableFinished) return;
      clearTimeout(timer);
      seen?.closed.push(performance.timeOrigin + performance.now());
    });
  });
});
server.keepAliveTimeout = 60_000;
// A backlog for 1,000 connections opened at once (real-path's 1,000 in flight), as model servers
// keep (uvicorn's default is 2048): with Node's 511 the kernel drops the rest's SYNs, which come
// back 1 or 3 s later.
server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => console.log(`listening ${server.address().port}`));
