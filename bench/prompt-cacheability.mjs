/**
 * Prompt cacheability: for each agent of the example app, the size of its prompt (characters, and
 * tokens estimated as characters / 4) and the share of it that is an identical prefix across
 * requests — what a provider's prompt cache can reuse.
 *
 * The prompts are the ones the real pipeline sends: BENCH_CACHE_REQUESTS (default 3) sessions with
 * different request texts run through openRuntime with the dry-run model (answers computed per
 * call, so a plan's task instructions carry request-specific text), recording each call's system
 * and user prompt. The system prompt is also rebuilt with buildSystemPrompt() and must be
 * identical. The prompt is system + user (the order providers receive them); the common prefix is
 * the longest prefix all requests share; share = common prefix / mean prompt length.
 *
 * Target: ≥ 80 % for every agent.
 */
import {
  cleanUpOnExit,
  envInteger,
  importBuilt,
  makeExampleRoot,
  quietLog,
  removeRoot,
  reportResult,
  requestText,
  round,
} from './bench-support.mjs';

const { openRuntime } = await importBuilt('daemon/runtime.js');
const { buildSystemPrompt } = await importBuilt('pipeline/prompt-builder.js');
const { DryRunProvider } = await importBuilt('llm/dry-run-provider.js');

const REQUESTS = Math.max(2, envInteger('BENCH_CACHE_REQUESTS', 3));
const TARGET_SHARE = 0.8;

const roots = [];
cleanUpOnExit(roots);

function commonPrefixLength(texts) {
  const shortest = Math.min(...texts.map((text) => text.length));
  let length = 0;
  while (length < shortest && texts.every((text) => text.charCodeAt(length) === texts[0].charCodeAt(length))) length++;
  return length;
}

/** The user prompt with its JSON re-serialized without indentation (same header line). */
function compactUserPrompt(prompt) {
  const newline = prompt.indexOf('\n');
  if (!prompt.includes('(JSON):') || newline === -1) return prompt;
  return `${prompt.slice(0, newline + 1)}${JSON.stringify(JSON.parse(prompt.slice(newline + 1)))}`;
}

/**
 * The user prompt with an upstream message reduced to what the agent works from: who sent it, its
 * status and output, and the user's request when that message answered the user. Compact JSON.
 */
function leanUserPrompt(prompt) {
  const newline = prompt.indexOf('\n');
  if (!prompt.includes('(JSON):') || newline === -1) return prompt;
  const content = JSON.parse(prompt.slice(newline + 1));
  const isMessage = content && typeof content === 'object' && content.agent && content.output && content.status;
  const lean = isMessage
    ? {
        from: content.agent.name,
        status: content.status,
        output: content.output,
        ...(content.input?.source === 'user' ? { request: content.input.content } : {}),
      }
    : content;
  return `${prompt.slice(0, newline + 1)}${JSON.stringify(lean)}`;
}

const root = makeExampleRoot();
roots.push(root);
/** agent → one { system, prompt } per request, in request order. */
const calls = new Map();
const dryRun = new DryRunProvider();
const provider = {
  kind: 'bench-recording',
  interfaceVersion: dryRun.interfaceVersion,
  async generate(request) {
    if (!calls.has(request.agent)) calls.set(request.agent, []);
    calls.get(request.agent).push({ system: request.system, prompt: request.prompt });
    return dryRun.generate(request);
  },
};
const runtime = await openRuntime(root, { provider, env: { GOVFLOW_TIMEZONE: 'UTC' }, log: quietLog() });
const rows = [];
try {
  const signal = new AbortController().signal;
  for (let index = 0; index < REQUESTS; index++) {
    // Different texts of realistic size; later agents see the earlier messages (ids, timestamps differ too).
    const outcome = await runtime.runner.startSession(
      {
        requestId: `cache-${index}`,
        text: requestText(index * 7 + 1),
        sourceFile: `cache-${index}.txt`,
        claimedPath: null,
      },
      signal,
    );
    if (outcome.status !== 'success') throw new Error(`session ${index} ended ${outcome.status}`);
  }
  const snapshot = runtime.governance.current();
  for (const [agentName, agentCalls] of calls) {
    if (agentCalls.length !== REQUESTS)
      throw new Error(`${agentName} was called ${agentCalls.length} times for ${REQUESTS} requests`);
    const rebuilt = buildSystemPrompt(snapshot, snapshot.agents.get(agentName)).system;
    if (agentCalls.some((call) => call.system !== rebuilt))
      throw new Error(`${agentName}: the pipeline sent a system prompt buildSystemPrompt() does not rebuild`);
    const full = agentCalls.map((call) => `${call.system}${call.prompt}`);
    const meanChars = full.reduce((sum, text) => sum + text.length, 0) / full.length;
    const meanSystem = agentCalls.reduce((sum, call) => sum + call.system.length, 0) / agentCalls.length;
    const prefix = commonPrefixLength(full);
    // What if the user part held compact JSON instead of JSON indented by 2 (buildUserPrompt)?
    const compact = agentCalls.map((call) => `${call.system}${compactUserPrompt(call.prompt)}`);
    const compactMean = compact.reduce((sum, text) => sum + text.length, 0) / compact.length;
    const compactShare = commonPrefixLength(compact) / compactMean;
    // What if, in addition, an upstream message were passed without its nested input chain and orchestrator fields?
    const lean = agentCalls.map((call) => `${call.system}${leanUserPrompt(call.prompt)}`);
    const leanMean = lean.reduce((sum, text) => sum + text.length, 0) / lean.length;
    const leanShare = commonPrefixLength(lean) / leanMean;
    rows.push({
      agent: agentName,
      chars: Math.round(meanChars),
      tokens: Math.round(meanChars / 4),
      systemChars: Math.round(meanSystem),
      userChars: Math.round(meanChars - meanSystem),
      prefixChars: prefix,
      share: prefix / meanChars,
      compactShare,
      compactTokens: Math.round(compactMean / 4),
      leanShare,
      leanTokens: Math.round(leanMean / 4),
    });
  }
} finally {
  await runtime.close();
  removeRoot(root);
  roots.length = 0;
}

console.log(
  `prompt cacheability: ${REQUESTS} requests through the pipeline; prompt = system + user; tokens ≈ chars / 4`,
);
console.log(
  '  agent                 chars  ~tokens   system     user   common prefix   share   (compact user JSON: ~tokens, share) (lean input: ~tokens, share)',
);
for (const row of rows) {
  console.log(
    `  ${row.agent.padEnd(20)} ${String(row.chars).padStart(6)} ${String(row.tokens).padStart(8)} ${String(row.systemChars).padStart(8)} ` +
      `${String(row.userChars).padStart(8)} ${String(row.prefixChars).padStart(15)} ${`${round(row.share * 100, 1)} %`.padStart(7)}   (` +
      `${row.compactTokens}, ${round(row.compactShare * 100, 1)} %) (${row.leanTokens}, ${round(row.leanShare * 100, 1)} %)`,
  );
}
const lowest = rows.reduce((low, row) => (row.share < low.share ? row : low), rows[0]);
const pass = lowest.share >= TARGET_SHARE;
console.log(
  `  lowest share: ${lowest.agent} ${round(lowest.share * 100, 1)} %; target ≥ ${TARGET_SHARE * 100} % for every agent: ${pass ? 'PASS' : 'MISS'}`,
);

reportResult({
  bench: 'prompt-cacheability',
  title: 'Prompt cacheability (identical prefix across requests)',
  config: { requests: REQUESTS },
  figures: rows.map((row) => ({
    name: `${row.agent}: cacheable prefix`,
    unit: '%',
    median: round(row.share * 100, 1),
    runs: 1,
    note:
      `${row.chars} chars ≈ ${row.tokens} tokens (system ${row.systemChars}, user ${row.userChars}); prefix ${row.prefixChars}; with ` +
      `compact user JSON ${round(row.compactShare * 100, 1)} %, lean input ${round(row.leanShare * 100, 1)} %`,
  })),
  targets: [
    {
      name: 'cacheable prefix, lowest agent',
      target: `≥ ${TARGET_SHARE * 100} %`,
      value: round(lowest.share * 100, 1),
      unit: '%',
      pass,
    },
  ],
  details: { rows },
});
