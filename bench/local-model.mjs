/**
 * The local provider's speed (SPEC §13): a tiny GGUF model (~0.5 MB: see
 * test/support/tiny-gguf-model.ts) answering one grammar-constrained Sentient message for the
 * example app's summarizer agent (message schema + its output_schema), after the model is loaded.
 *
 * node-llama-cpp is not a dependency: set GOVFLOW_NODE_LLAMA_CPP_DIR to a folder whose
 * node_modules holds it and which holds the model as tiny.gguf (the local-provider tests install
 * both into <tmp>/govflow-node-llama-cpp-3.22.1, used by default when present). Without them the
 * benchmark reports that it could not run.
 *
 * Figures: time to the first answer (node-llama-cpp import, llama.cpp init, model load, grammar
 * build, answer), then the median of BENCH_LOCAL_CALLS answers (default 20), threads: 1.
 * Target: ≤ 100 ms per constrained message after load.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  cleanUpOnExit,
  envInteger,
  importBuilt,
  makeExampleRoot,
  now,
  removeRoot,
  reportResult,
  round,
  summarize,
} from './bench-support.mjs';

const { LocalProvider } = await importBuilt('llm/local-provider.js');
const { SENTIENT_MESSAGE_SCHEMA } = await importBuilt('message/sentient-message.js');

const CALLS = envInteger('BENCH_LOCAL_CALLS', 20);
const TARGET_MS = 100;
const moduleDir = process.env.GOVFLOW_NODE_LLAMA_CPP_DIR ?? path.join(os.tmpdir(), 'govflow-node-llama-cpp-3.22.1');

if (
  !existsSync(path.join(moduleDir, 'node_modules', 'node-llama-cpp')) ||
  !existsSync(path.join(moduleDir, 'tiny.gguf'))
) {
  console.log(
    `local model: node-llama-cpp or tiny.gguf is not in ${moduleDir}; run the local-provider tests once (they put both there) or set ` +
      `GOVFLOW_NODE_LLAMA_CPP_DIR`,
  );
  reportResult({
    bench: 'local-model',
    title: 'Local model (not run)',
    config: {},
    figures: [],
    targets: [
      { name: 'constrained message after load', target: `≤ ${TARGET_MS} ms`, value: 'not run', unit: '', pass: false },
    ],
  });
  process.exit(0);
}

const roots = [];
cleanUpOnExit(roots);
const root = makeExampleRoot();
roots.push(root);
mkdirSync(path.join(root, 'models'));
copyFileSync(path.join(moduleDir, 'tiny.gguf'), path.join(root, 'models', 'tiny.gguf'));
const outputSchema = JSON.parse(readFileSync(path.join(root, 'schemas', 'action-items.json'), 'utf8'));
const provider = new LocalProvider({
  root,
  model: 'models/tiny.gguf',
  threads: 1,
  contextSize: 512,
  gpu: false,
  moduleDir,
});

const request = () => ({
  agent: 'action_item_agent',
  system: 'You extract action items. Answer with one JSON message.',
  prompt: 'User request:\nAna will send the budget by Friday; Raj books the venue.',
  model: '',
  temperature: 0,
  maxTokens: 1000,
  jsonSchema: SENTIENT_MESSAGE_SCHEMA,
  expectation: {
    contentType: 'action_items',
    next: [],
    agentType: 'executional',
    plan: false,
    executionalAgents: [],
    governanceFiles: [],
    outputSchema,
  },
  signal: new AbortController().signal,
});

const firstStarted = now();
const first = await provider.generate(request());
const firstMs = now() - firstStarted;
JSON.parse(first.text);
const times = [];
for (let call = 0; call < CALLS; call++) {
  const started = now();
  const response = await provider.generate(request());
  times.push(now() - started);
  if (response.text !== first.text)
    throw new Error('the tiny model answered differently: greedy decoding should be deterministic');
}
const figures = summarize(times);
const pass = figures.median <= TARGET_MS;
console.log(
  `local model: tiny GGUF (${first.usage.outputTokens} answer tokens, ${first.text.length} chars), threads 1`,
);
console.log(`  first answer (import, init, load, grammar, answer): ${round(firstMs, 1)} ms`);
console.log(
  `  constrained message after load: median ${round(figures.median, 1)} ms, min ${round(figures.min, 1)}, max ${round(figures.max, 1)} (` +
    `${CALLS} calls); target ≤ ${TARGET_MS} ms: ${pass ? 'PASS' : 'MISS'}`,
);
removeRoot(root);
roots.length = 0;

reportResult({
  bench: 'local-model',
  title: 'Local provider: tiny GGUF, one constrained message',
  config: { calls: CALLS, threads: 1 },
  figures: [
    { name: 'first answer incl. load', unit: 'ms', median: round(firstMs, 1), runs: 1 },
    {
      name: 'constrained message after load',
      unit: 'ms',
      median: round(figures.median, 1),
      min: round(figures.min, 1),
      max: round(figures.max, 1),
      runs: CALLS,
      note: `${first.usage.outputTokens} answer tokens`,
    },
  ],
  targets: [
    {
      name: 'constrained message after load',
      target: `≤ ${TARGET_MS} ms`,
      value: round(figures.median, 1),
      unit: 'ms',
      pass,
    },
  ],
});
