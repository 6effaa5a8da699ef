/**
 * The chat on the real path (SPEC §23): `govflow start --http` as a child process, the example app
 * behind `kind: openai-compatible` through the AI SDK against bench/fake-openai-server.mjs (answers
 * after BENCH_CHAT_LATENCY_MS, default 20, streamed in ~40-character deltas), the final agent's
 * answer a paragraph of prose.
 *
 * BENCH_CHAT_ROUNDS conversations (default 3) of BENCH_CHAT_TURNS messages each (default 10), one
 * after the other with the same conversation_id (chat.history_turns 10, so turn 10 carries nine
 * earlier turns). Figures, medians over rounds:
 * - time to the first answer chunk: POST → the first `content_chunk` (six model calls, the last
 *   one streaming the answer);
 * - a turn: POST → `message_complete`;
 * - the history's cost: turn 10 minus turn 1, in time and in bytes of the entry agent's request.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import {
  REPOSITORY_ROOT,
  cleanUpOnExit,
  envInteger,
  exampleAnswers,
  makeExampleRoot,
  reportResult,
  round,
  startFakeModel,
  summarize,
} from './bench-support.mjs';

const ROUNDS = envInteger('BENCH_CHAT_ROUNDS', 3);
const TURNS = envInteger('BENCH_CHAT_TURNS', 10);
const LATENCY_MS = envInteger('BENCH_CHAT_LATENCY_MS', 20);
const ANSWER =
  'The team decided to ship v2 on 1 March. Alice sends the release notes by Friday; Bob books the venue. ' +
  'Nothing else was decided, and no other owner was named in the note, so the two action items above are the whole list.';

/** `govflow start` on `root`; resolves with its HTTP address and the process. */
function startDaemon(root) {
  const child = spawn(process.execPath, [path.join(REPOSITORY_ROOT, 'bin', 'govflow.js'), 'start', '--root', root], {
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

/** One chat message: ms to the first answer chunk and to message_complete. */
async function chatTurn(url, message, conversationId) {
  const started = performance.now();
  const response = await fetch(`${url}/v1/agent/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, context_type: 'notes', conversation_id: conversationId }),
  });
  const decoder = new TextDecoder();
  let firstChunk = null;
  let text = '';
  for await (const piece of response.body) {
    text += decoder.decode(piece, { stream: true });
    if (firstChunk === null && text.includes('event: content_chunk')) firstChunk = performance.now() - started;
  }
  if (!text.includes('event: message_complete') || text.includes('event: error'))
    throw new Error(`turn did not answer: ${text.slice(-300)}`);
  return { firstChunk, complete: performance.now() - started };
}

const { answers } = await exampleAnswers();
const final = JSON.parse(answers.final_output_agent);
final.output = { ...final.output, content: { answer: ANSWER } };
answers.final_output_agent = JSON.stringify(final);
const model = await startFakeModel(answers, LATENCY_MS, { capture: true });
const roots = [];
cleanUpOnExit(roots);
const root = makeExampleRoot(`http: { listen: "127.0.0.1:0" }\n${model.providerYaml}chat: { history_turns: 10 }\n`);
roots.push(root);
const daemon = await startDaemon(root);

const byTurn = Array.from({ length: TURNS }, () => ({ firstChunk: [], complete: [], entryBytes: [] }));
try {
  await chatTurn(daemon.url, 'Warm-up: summarize the note.', 'bench-warm-up');
  await model.captured();
  for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
    for (let turn = 0; turn < TURNS; turn++) {
      const figures = await chatTurn(
        daemon.url,
        `Turn ${turn + 1}: summarize this meeting note and list its action items. Weekly sync: ship v2 on 1 March.`,
        `bench-conversation-${roundIndex}`,
      );
      // The entry agent's request is the turn's first call.
      const [entry] = await model.captured();
      byTurn[turn].firstChunk.push(figures.firstChunk);
      byTurn[turn].complete.push(figures.complete);
      byTurn[turn].entryBytes.push(Buffer.byteLength(entry, 'utf8'));
    }
  }
} finally {
  daemon.child.kill('SIGTERM');
  model.stop();
}

const median = (values) => summarize(values).median;
const first = byTurn[0];
const last = byTurn[TURNS - 1];
const figures = {
  first_chunk_ms_turn1: round(median(first.firstChunk), 1),
  turn_ms_turn1: round(median(first.complete), 1),
  [`first_chunk_ms_turn${TURNS}`]: round(median(last.firstChunk), 1),
  [`turn_ms_turn${TURNS}`]: round(median(last.complete), 1),
  history_ms_added: round(median(last.complete) - median(first.complete), 1),
  entry_request_bytes_turn1: median(first.entryBytes),
  [`entry_request_bytes_turn${TURNS}`]: median(last.entryBytes),
};
console.log(
  `chat on the real path (${ROUNDS} conversations of ${TURNS} turns, model latency ${LATENCY_MS} ms per call, 6 calls a turn):`,
);
for (const [name, value] of Object.entries(figures)) console.log(`  ${name}: ${value}`);
reportResult({ bench: 'chat-turns', figures });
