/**
 * The chat on the real path (SPEC §23, issue 55): `govflow start` as a child process, the example
 * app behind `kind: openai-compatible` through the AI SDK against bench/fake-openai-server.mjs
 * (answers after BENCH_CHAT_LATENCY_MS, default 100, streamed as a model writes: one delta of
 * BENCH_CHAT_DELTA_CHARS characters, default 12, every BENCH_CHAT_DELTA_MS, default 5), the final
 * agent's answer a paragraph of prose.
 *
 * BENCH_CHAT_ROUNDS rounds (default 3), each a conversation of BENCH_CHAT_TURNS messages (default
 * 10) with one conversation_id (chat.history_turns 10, so turn 10 carries nine earlier turns), and
 * beside it, in the same round, its floor: the AI SDK alone sending the very requests the daemon
 * sent, captured and checked byte-identical (bench/sdk-floor.mjs: `streamText` for the streamed
 * calls, one at a time as a turn makes them). Per round, with the machine's load:
 * - CPU per model call: the daemon's (utime + stime, every turn of the round) against the SDK's;
 * - time to the first answer chunk, both from the moment the final agent's request reached the
 *   model server (a clock both processes share): to the first `content_chunk` of the turn's last
 *   `message_start` at the chat client, against the SDK's first text delta holding the answer's
 *   first characters (the floor of the target: the same text, parsed by nobody) and, printed
 *   beside it, the SDK's very first text delta (the JSON before the answer: no chat can show it).
 * Also, medians over rounds: POST → first chunk and POST → `message_complete` at turn 1 and turn
 * 10, and what the history adds in time and in bytes of the entry agent's request.
 * BENCH_CHAT_PROFILE=DIR profiles the daemon (DIR/<node>/govflow, start and every turn) and the
 * last round's floor (DIR/<node>/floor) and prints where each one's CPU went per call, by part
 * (govflow, AI SDK, zod, Node, GC…); profiling adds CPU to both sides.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import {
  REPOSITORY_ROOT,
  cleanUpOnExit,
  envInteger,
  exampleAnswers,
  makeExampleRoot,
  processCpu,
  reportResult,
  round,
  settleDeletions,
  startFakeModel,
  summarize,
} from './bench-support.mjs';
import { profilePartsPerCall } from './cpu-profile-summary.mjs';
import { measureSdkFloor } from './sdk-floor.mjs';

const ROUNDS = envInteger('BENCH_CHAT_ROUNDS', 3);
const TURNS = envInteger('BENCH_CHAT_TURNS', 10);
const LATENCY_MS = envInteger('BENCH_CHAT_LATENCY_MS', 100);
const DELTA_CHARS = envInteger('BENCH_CHAT_DELTA_CHARS', 12);
const DELTA_MS = envInteger('BENCH_CHAT_DELTA_MS', 5);
const ANSWER_MARK = '"answer":"';
const PROFILE = process.env.BENCH_CHAT_PROFILE;
const profileDir = (who) => PROFILE && path.join(PROFILE, `node${process.versions.node.split('.')[0]}`, who);
const ANSWER =
  'The team decided to ship v2 on 1 March. Alice sends the release notes by Friday; Bob books the venue. ' +
  'Nothing else was decided, and no other owner was named in the note, so the two action items above are the whole list.';
const clock = () => performance.timeOrigin + performance.now();

/** `govflow start` on `root`; resolves with its HTTP address and the process. */
function startDaemon(root) {
  const profile = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', profileDir('govflow')] : [];
  const cli = path.join(REPOSITORY_ROOT, 'bin', 'govflow.js');
  const child = spawn(process.execPath, [...profile, cli, 'start', '--root', root], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, OPENAI_API_KEY: 'bench' },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (data) => {
      out += data;
      const url = /HTTP API on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`govflow start exited (${code}): ${out}`)));
  });
}

/**
 * One chat message: ms from POST to the first chunk and to message_complete, and when (shared
 * clock) the first chunk after the turn's last message_start (the final call's: the answer) came.
 */
async function chatTurn(url, message, conversationId) {
  const started = performance.now();
  const response = await fetch(`${url}/v1/agent/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, context_type: 'notes', conversation_id: conversationId }),
  });
  const decoder = new TextDecoder();
  let firstChunk = null;
  let answerChunkAt = null;
  let text = '';
  let scanned = 0;
  for await (const piece of response.body) {
    text += decoder.decode(piece, { stream: true });
    // Whole frames only: `event: NAME` lines, in order.
    const end = text.lastIndexOf('\n\n');
    for (const [, event] of text.slice(scanned, end).matchAll(/^event: (\w+)$/gm)) {
      if (event === 'message_start') answerChunkAt = null;
      else if (event === 'content_chunk') {
        answerChunkAt ??= clock();
        firstChunk ??= performance.now() - started;
      }
    }
    if (end > scanned) scanned = end;
  }
  if (!text.includes('event: message_complete') || text.includes('event: error'))
    throw new Error(`turn did not answer: ${text.slice(-300)}`);
  return { firstChunk, complete: performance.now() - started, answerChunkAt };
}

const { answers } = await exampleAnswers();
const final = JSON.parse(answers.final_output_agent);
final.output = { ...final.output, content: { answer: ANSWER } };
answers.final_output_agent = JSON.stringify(final);
const model = await startFakeModel(answers, LATENCY_MS, {
  capture: true,
  deltaMs: DELTA_MS,
  deltaChars: DELTA_CHARS,
});
const roots = [];
cleanUpOnExit(roots);
const root = makeExampleRoot(`http: { listen: "127.0.0.1:0" }\n${model.providerYaml}chat: { history_turns: 10 }\n`);
roots.push(root);
await settleDeletions();
const daemon = await startDaemon(root);

const byTurn = Array.from({ length: TURNS }, () => ({ firstChunk: [], complete: [], entryBytes: [] }));
const rounds = [];
let warmCalls = 0;
let floorCalls = 0;
try {
  await chatTurn(daemon.url, 'Warm-up: summarize the note.', 'bench-warm-up');
  warmCalls = (await model.captured()).length;
  await model.streams();
  for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
    const load = os.loadavg()[0];
    const bodies = [];
    const answerMs = [];
    const callsBefore = (await model.stats()).calls;
    const cpuBefore = processCpu(daemon.child.pid).total;
    for (let turn = 0; turn < TURNS; turn++) {
      const figures = await chatTurn(
        daemon.url,
        `Turn ${turn + 1}: summarize this meeting note and list its action items. Weekly sync: ship v2 on 1 March.`,
        `bench-conversation-${roundIndex}`,
      );
      const sent = await model.captured();
      bodies.push(...sent);
      // The final agent's call is the turn's last stream; the entry agent's request its first call.
      answerMs.push(figures.answerChunkAt - (await model.streams()).at(-1));
      byTurn[turn].firstChunk.push(figures.firstChunk);
      byTurn[turn].complete.push(figures.complete);
      byTurn[turn].entryBytes.push(Buffer.byteLength(sent[0], 'utf8'));
    }
    const cpuMs = processCpu(daemon.child.pid).total - cpuBefore;
    const calls = (await model.stats()).calls - callsBefore;
    const last = roundIndex === ROUNDS - 1;
    const floorProfile = PROFILE && last ? profileDir('floor') : undefined;
    const floor = await measureSdkFloor(bodies, model, 1, warmCalls, floorProfile, [], ANSWER_MARK);
    if (last) floorCalls = warmCalls + bodies.length;
    const finals = floor.firstDeltas.filter((first) => first.answer !== null);
    if (finals.length !== TURNS) throw new Error(`the floor streamed ${finals.length} answers for ${TURNS} turns`);
    const row = {
      load,
      calls,
      cpuMsPerCall: cpuMs / calls,
      floorCpuMsPerCall: floor.cpuMsPerCall,
      answerMs: summarize(answerMs).median,
      floorAnswerMs: summarize(finals.map((first) => first.answer - first.arrived)).median,
      floorFirstDeltaMs: summarize(finals.map((first) => first.text - first.arrived)).median,
      streamed: floor.firstDeltas.length / calls,
    };
    row.cpuRatio = row.cpuMsPerCall / row.floorCpuMsPerCall;
    row.answerRatio = row.answerMs / row.floorAnswerMs;
    row.firstDeltaRatio = row.answerMs / row.floorFirstDeltaMs;
    rounds.push(row);
    console.log(
      `  round ${roundIndex + 1} (load ${round(load, 2)}): CPU per call ${round(row.cpuMsPerCall, 2)} ms / streamText floor ` +
        `${round(row.floorCpuMsPerCall, 2)} ms = ${round(row.cpuRatio, 2)}× (${calls} calls, ${Math.round(row.streamed * 100)} % ` +
        `streamed, ${floor.identical} bodies byte-identical); first answer chunk ${round(row.answerMs, 1)} ms / the SDK's ` +
        `first answer delta ${round(row.floorAnswerMs, 1)} ms = ${round(row.answerRatio, 2)}× (its first text delta ` +
        `${round(row.floorFirstDeltaMs, 1)} ms: ${round(row.firstDeltaRatio, 2)}×), medians of ${TURNS} turns`,
    );
  }
} finally {
  const exited = new Promise((resolve) => daemon.child.once('exit', resolve));
  daemon.child.kill('SIGTERM');
  await exited; // its profile is written as it exits
  model.stop();
}

/** "median (min–max)" of a rounds' field. */
const spread = (pick, digits = 2) => {
  const stats = summarize(rounds.map(pick));
  return { ...stats, text: `${round(stats.median, digits)} (${round(stats.min, digits)}–${round(stats.max, digits)})` };
};
const median = (values) => summarize(values).median;
const first = byTurn[0];
const last = byTurn[TURNS - 1];
const cpu = spread((row) => row.cpuRatio);
const answer = spread((row) => row.answerRatio);
const firstDelta = spread((row) => row.firstDeltaRatio);
console.log(
  `chat on the real path, Node ${process.version} (${ROUNDS} conversations of ${TURNS} turns, model latency ${LATENCY_MS} ms, ` +
    `${DELTA_CHARS} characters every ${DELTA_MS} ms, 6 calls a turn), medians of rounds (min–max), load ` +
    `${spread((row) => row.load).text}:`,
);
console.log(`  CPU per call / streamText floor: ${cpu.text}×`);
console.log(`  first answer chunk / the SDK's first answer delta: ${answer.text}×`);
console.log(`  first answer chunk / the SDK's first text delta (JSON before the answer): ${firstDelta.text}×`);
const figures = {
  cpu_ms_per_call: round(median(rounds.map((row) => row.cpuMsPerCall)), 2),
  floor_cpu_ms_per_call: round(median(rounds.map((row) => row.floorCpuMsPerCall)), 2),
  answer_chunk_ms_from_final_request: round(median(rounds.map((row) => row.answerMs)), 1),
  floor_answer_delta_ms: round(median(rounds.map((row) => row.floorAnswerMs)), 1),
  floor_first_text_delta_ms: round(median(rounds.map((row) => row.floorFirstDeltaMs)), 1),
  first_chunk_ms_turn1: round(median(first.firstChunk), 1),
  turn_ms_turn1: round(median(first.complete), 1),
  [`first_chunk_ms_turn${TURNS}`]: round(median(last.firstChunk), 1),
  [`turn_ms_turn${TURNS}`]: round(median(last.complete), 1),
  history_ms_added: round(median(last.complete) - median(first.complete), 1),
  entry_request_bytes_turn1: median(first.entryBytes),
  [`entry_request_bytes_turn${TURNS}`]: median(last.entryBytes),
};
for (const [name, value] of Object.entries(figures)) console.log(`  ${name}: ${value}`);
if (PROFILE) {
  // Whole processes, start and warm-up included, over every call each made; idle left out.
  const daemonCalls = warmCalls + rounds.reduce((sum, row) => sum + row.calls, 0);
  const govflow = profilePartsPerCall(profileDir('govflow'), daemonCalls);
  const floor = profilePartsPerCall(profileDir('floor'), floorCalls);
  console.log(`  where the CPU goes, ms per call (profiled, start included): govflow | floor`);
  console.log(
    `    ${[...govflow].map(([name, ms]) => `${name} ${round(ms, 2)} | ${round(floor.get(name), 2)}`).join(', ')}`,
  );
}
const nodeMajor = process.versions.node.split('.')[0];
const targets = [
  {
    name: `Node ${nodeMajor}: chat, CPU per call / streamText floor (#55), median of rounds`,
    target: '≤ 2.0×',
    value: round(cpu.median, 2),
    unit: `× (rounds ${cpu.text})`,
    pass: cpu.median <= 2.0,
  },
  {
    name: `Node ${nodeMajor}: chat, first answer chunk / the SDK's first answer delta (#55), median of rounds`,
    target: '≤ 1.2×',
    value: round(answer.median, 2),
    unit: `× (rounds ${answer.text})`,
    pass: answer.median <= 1.2,
  },
];
for (const target of targets)
  console.log(
    `  target ${target.name} ${target.target}: ${target.value} ${target.unit} ${target.pass ? 'PASS' : 'MISS'}`,
  );
reportResult({
  bench: 'chat-turns',
  title: `Chat on the real path (Node ${process.version})`,
  figures: Object.entries(figures).map(([name, value]) => ({ name, unit: '', median: value })),
  targets,
});
