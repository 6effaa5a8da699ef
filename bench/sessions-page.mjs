/**
 * The web view's sessions page with many sessions in the root (issue 16: ≤ 150 ms p95 at
 * 100,000 sessions). Generates BENCH_SESSIONS_PAGE_COUNT sessions (default 100,000: a manifest
 * and a one-line journal each, as the runner leaves them; statuses, users and request texts
 * varied) in a root on a RAM filesystem (BENCH_TMPFS, default /dev/shm, else the temp dir), starts
 * the daemon with its HTTP API, and times GET /ui/sessions over loopback: the first request (which
 * builds the in-memory index), then BENCH_SESSIONS_PAGE_REQUESTS (default 200) requests cycling
 * through no filter, a status filter, a search by request text, a search by request id and page 3.
 *
 * Target: p95 ≤ 150 ms after the first request.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  cleanUpOnExit,
  envInteger,
  importBuilt,
  makeExampleRoot,
  now,
  quietLog,
  removeRoot,
  reportResult,
  round,
  summarize,
} from './bench-support.mjs';

const { GovflowDaemon } = await importBuilt('daemon/daemon.js');
const COUNT = envInteger('BENCH_SESSIONS_PAGE_COUNT', 100_000);
const REQUESTS = envInteger('BENCH_SESSIONS_PAGE_REQUESTS', 200);
const TARGET_MS = 150;
const TMPFS = process.env.BENCH_TMPFS ?? '/dev/shm';
const parent = fs.existsSync(TMPFS) ? TMPFS : os.tmpdir();
const roots = [];
cleanUpOnExit(roots);

const root = makeExampleRoot('', 'govflow-bench-ui-', parent);
roots.push(root);
const sessions = path.join(root, 'system', 'sessions');
fs.mkdirSync(sessions, { recursive: true });
const STATES = ['SUCCESS', 'SUCCESS', 'SUCCESS', 'FAILED', 'PARTIAL', 'PAUSED'];
const WORDS = ['budget', 'venue', 'contract', 'hiring', 'roadmap', 'invoice', 'audit', 'launch'];
const generated = now();
const base = Date.parse('2026-01-01T00:00:00Z');
for (let index = 0; index < COUNT; index++) {
  const sessionId = `sess-bench-${String(index).padStart(6, '0')}`;
  const createdAt = new Date(base + index * 60_000).toISOString();
  const folder = path.join(sessions, sessionId);
  fs.mkdirSync(folder);
  const record = {
    v: 1,
    type: 'session',
    session_id: sessionId,
    request_id: `req-${index}`,
    request: {
      text: `Summarize the ${WORDS[index % WORDS.length]} meeting number ${index}.`,
      user: `user${index % 50}`,
      metadata: null,
    },
    source_file: `req-${index}.txt`,
    claimed_path: null,
    created_at: createdAt,
    entry_agent: 'objective_agent',
  };
  fs.writeFileSync(path.join(folder, 'journal.jsonl'), `${JSON.stringify(record)}\n`);
  const manifest = {
    v: 1,
    session_id: sessionId,
    request_id: `req-${index}`,
    state: STATES[index % STATES.length],
    current_agent: 'final_output_agent',
    source_file: `req-${index}.txt`,
    created_at: createdAt,
    updated_at: createdAt,
    messages: 6,
    usage: { input_tokens: 1000, output_tokens: 200, cached_input_tokens: 0, cost_usd: 0.001 },
    elapsed_ms: 1000,
    model_time_ms: 900,
    governance_hash: null,
    question: null,
  };
  fs.writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify(manifest));
}
const generateSeconds = (now() - generated) / 1000;
console.log(`sessions page: ${COUNT} sessions generated in ${round(generateSeconds, 1)} s under ${parent}`);

let readyLine = '';
const daemon = await GovflowDaemon.start(root, {
  env: {},
  log: quietLog(),
  httpListen: '127.0.0.1:0',
  announce: (line) => (readyLine = line),
});
const url = /HTTP API on (http:\/\/\S+)/.exec(readyLine)?.[1];
if (!url) throw new Error(`no HTTP address in the ready line: ${readyLine}`);
const paths = [
  '/ui/sessions',
  '/ui/sessions?status=failed',
  '/ui/sessions?q=venue+meeting',
  '/ui/sessions?q=req-99999',
  '/ui/sessions?page=3',
];
async function get(pathname) {
  const started = now();
  const response = await fetch(`${url}${pathname}`);
  const text = await response.text();
  if (response.status !== 200 || !text.includes('<h1>Sessions</h1>'))
    throw new Error(`GET ${pathname}: ${response.status}`);
  return now() - started;
}
try {
  const first = await get('/ui/sessions');
  const times = [];
  for (let index = 0; index < REQUESTS; index++) times.push(await get(paths[index % paths.length]));
  const stats = summarize(times);
  const pass = stats.p95 <= TARGET_MS;
  console.log(`  first request (builds the index): ${round(first, 1)} ms`);
  console.log(
    `  then ${REQUESTS} requests: median ${round(stats.median, 1)} ms, p95 ${round(stats.p95, 1)} ms, max ${round(stats.max, 1)} ms`,
  );
  console.log(`  target p95 ≤ ${TARGET_MS} ms: ${pass ? 'PASS' : 'MISS'}`);
  reportResult({
    bench: 'sessions-page',
    title: `Web view sessions page with ${COUNT} sessions`,
    config: { sessions: COUNT, requests: REQUESTS, root: parent },
    figures: [
      { name: 'first request (index build)', unit: 'ms', median: round(first, 1), runs: 1 },
      {
        name: 'GET /ui/sessions',
        unit: 'ms',
        median: round(stats.median, 1),
        min: round(stats.min, 1),
        max: round(stats.max, 1),
        runs: REQUESTS,
        note: `p95 ${round(stats.p95, 1)}`,
      },
      { name: 'generating the sessions', unit: 's', median: round(generateSeconds, 1), runs: 1 },
    ],
    targets: [{ name: 'sessions page p95', target: `≤ ${TARGET_MS} ms`, value: round(stats.p95, 1), unit: 'ms', pass }],
  });
} finally {
  await daemon.stop();
  removeRoot(root);
  roots.splice(roots.indexOf(root), 1);
}
