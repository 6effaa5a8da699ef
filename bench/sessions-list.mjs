/**
 * The cost of listing sessions (SPEC §18, issue 43): BENCH_SESSIONS_LIST_COUNT sessions (default
 * 10,000: a manifest and a one-line journal each, as the runner leaves them) in a files-mode root,
 * listed by
 * - `GET /v1/sessions` of a real `govflow start` child process: the first page (the daemon's first
 *   listing builds its index), then BENCH_SESSIONS_LIST_REQUESTS first pages (default 100), then
 *   full walks through `next_cursor` at limit 50 and limit 1000;
 * - `govflow sessions --json` (a new process reading the root each time): the newest 50, and all;
 * - in cluster mode, when Postgres answers (GOVFLOW_TEST_PG_URL, default
 *   postgres://root@127.0.0.1:5432/test; a fresh schema, dropped after): the same count of rows in
 *   the store, listed through the cluster listing (first page, full walks) and the CLI.
 *
 * Figures: milliseconds, median of the runs (BENCH_SESSIONS_LIST_RUNS, default 5, for walks and CLI).
 * Target: a first page over HTTP p95 ≤ 50 ms once the index is built.
 */
import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  REPOSITORY_ROOT,
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

const COUNT = envInteger('BENCH_SESSIONS_LIST_COUNT', 10_000);
const REQUESTS = envInteger('BENCH_SESSIONS_LIST_REQUESTS', 100);
const RUNS = envInteger('BENCH_SESSIONS_LIST_RUNS', 5);
const TARGET_MS = 50;
const PG_URL = process.env.GOVFLOW_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const CLI = path.join(REPOSITORY_ROOT, 'bin', 'govflow.js');
const run = promisify(execFile);
const roots = [];
cleanUpOnExit(roots);

const STATES = ['SUCCESS', 'SUCCESS', 'FAILED', 'PARTIAL', 'CANCELLED', 'PAUSED'];
const USERS = ['alice', 'bob', 'carol', 'dave'];
const base = Date.parse('2026-01-01T00:00:00Z');

function writeSessions(root) {
  const sessions = path.join(root, 'system', 'sessions');
  fs.mkdirSync(sessions, { recursive: true });
  for (let index = 0; index < COUNT; index++) {
    const sessionId = `sess-list-${String(index).padStart(6, '0')}`;
    const createdAt = new Date(base + index * 60_000).toISOString();
    const folder = path.join(sessions, sessionId);
    fs.mkdirSync(folder);
    const record = {
      v: 1,
      type: 'session',
      session_id: sessionId,
      request_id: `req-${index}`,
      request: { text: `Summarize meeting ${index}.`, user: USERS[index % USERS.length], metadata: null },
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
}

async function timed(action) {
  const started = now();
  const value = await action();
  return { ms: now() - started, value };
}

/** Runs `action` RUNS times; the summary of its milliseconds and its last value. */
async function repeat(action, runs = RUNS) {
  const times = [];
  let value;
  for (let index = 0; index < runs; index++) {
    const result = await timed(action);
    times.push(result.ms);
    value = result.value;
  }
  return { stats: summarize(times), value };
}

/** Every page of a listing through `page(cursor)`; resolves with the count listed and the pages. */
async function walkWith(page) {
  let cursor = null;
  let listed = 0;
  let pages = 0;
  do {
    const answer = await page(cursor);
    listed += answer.sessions.length;
    cursor = answer.next_cursor;
    pages += 1;
  } while (cursor !== null);
  return { listed, pages };
}

async function cliList(root, args, env = {}) {
  const { stdout } = await run(process.execPath, [CLI, 'sessions', '--root', root, '--json', ...args], {
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  return JSON.parse(stdout).sessions.length;
}

function startDaemon(root) {
  const child = spawn(process.execPath, [CLI, 'start', '--root', root, '--http', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /HTTP API on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.stderr.on('data', () => {});
    child.on('exit', (code) => reject(new Error(`govflow start exited (${code}) before its ready line:\n${out}`)));
  });
}

const figures = [];
const targets = [];
const figure = (name, stats, note) =>
  figures.push({
    name,
    unit: 'ms',
    median: round(stats.median, 1),
    min: round(stats.min, 1),
    max: round(stats.max, 1),
    runs: stats.count,
    ...(note ? { note } : {}),
  });
const show = (name, stats, note = '') =>
  console.log(
    `  ${name}: median ${round(stats.median, 1)} ms (min ${round(stats.min, 1)}, p95 ${round(stats.p95, 1)}, max ${round(stats.max, 1)}, ` +
      `${stats.count} runs)${note ? `; ${note}` : ''}`,
  );

// Files mode --------------------------------------------------------------------------------
const root = makeExampleRoot('', 'govflow-bench-list-');
roots.push(root);
const generated = await timed(async () => writeSessions(root));
console.log(`sessions list: ${COUNT} sessions written in ${round(generated.ms / 1000, 1)} s`);

const { child, url } = await startDaemon(root);
try {
  const get = async (query) => {
    const response = await fetch(`${url}/v1/sessions?${query}`);
    if (response.status !== 200) throw new Error(`GET /v1/sessions?${query}: ${response.status}`);
    return response.json();
  };
  const first = await timed(() => get('limit=50'));
  console.log(`files mode, HTTP (govflow start child process):`);
  console.log(`  first request (builds the index): ${round(first.ms, 1)} ms`);
  figure('HTTP first page, first request (index build)', summarize([first.ms]));
  const pages = await repeat(() => get('limit=50'), REQUESTS);
  show('first page (limit 50)', pages.stats);
  figure('HTTP first page (limit 50)', pages.stats, `p95 ${round(pages.stats.p95, 1)}`);
  targets.push({
    name: 'sessions list first page p95',
    target: `≤ ${TARGET_MS} ms`,
    value: round(pages.stats.p95, 1),
    unit: 'ms',
    pass: pages.stats.p95 <= TARGET_MS,
  });
  const filtered = await repeat(() => get('limit=50&status=cancelled&user=bob'), REQUESTS);
  show('first page, status and user filters', filtered.stats);
  figure('HTTP first page, filtered', filtered.stats);
  for (const limit of [50, 1000]) {
    const walk = await repeat(() =>
      walkWith((cursor) => get(`limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)),
    );
    if (walk.value.listed !== COUNT) throw new Error(`the walk listed ${walk.value.listed} of ${COUNT} sessions`);
    show(`full walk at limit ${limit}`, walk.stats, `${walk.value.pages} pages`);
    figure(`HTTP full walk, limit ${limit}`, walk.stats, `${walk.value.pages} pages`);
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

console.log('files mode, CLI (a new process each time, reading the root):');
const cliFirst = await repeat(() => cliList(root, ['--limit', '50']));
show('govflow sessions --limit 50 --json', cliFirst.stats);
figure('CLI newest 50', cliFirst.stats);
const cliAll = await repeat(() => cliList(root, []));
if (cliAll.value !== COUNT) throw new Error(`govflow sessions listed ${cliAll.value} of ${COUNT}`);
show('govflow sessions --json (all)', cliAll.stats);
figure('CLI all sessions', cliAll.stats);

// Cluster mode ------------------------------------------------------------------------------
const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
client.on('error', () => {});
let connected = false;
try {
  await client.connect();
  connected = true;
} catch {
  console.log(
    `cluster mode: no Postgres server answers at ${PG_URL.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')}; skipped`,
  );
}
if (connected) {
  const schema = `gfbench_list_${process.pid}`;
  const { migrate } = await importBuilt('cluster/schema-migrate.js');
  const { ClusterListing } = await importBuilt('cluster/cluster-listing.js');
  const pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
    await migrate(pool, schema);
    await client.query(
      `insert into "${schema}".sessions (session_id, request_id, state, request, user_name, intake_daemon, result_status, result_json, created_at)
       select 'sess-list-' || lpad(i::text, 6, '0'), 'req-' || i, 'finished', jsonb_build_object('text', 'Summarize meeting ' || i),
         (array['alice','bob','carol','dave'])[i % 4 + 1], 'bench', (array['success','failed','cancelled'])[i % 3 + 1],
         jsonb_build_object('status', (array['success','failed','cancelled'])[i % 3 + 1], 'messages', 6, 'started_at', '2026-01-01T00:00:00Z',` +
        ` 'finished_at', '2026-01-01T00:01:00Z')::text,
         timestamptz '2026-01-01' + i * interval '1 minute'
       from generate_series(0, ${COUNT - 1}) as i`,
    );
    await client.query(`analyze "${schema}".sessions`);
    const listing = new ClusterListing(pool, schema, 'UTC');
    const query = { status: null, user: null, sinceMs: null, cursor: null };
    console.log(`cluster mode (Postgres, ${COUNT} rows, one listing query per page):`);
    const page = await repeat(() => listing.list({ ...query, limit: 50 }), REQUESTS);
    show('first page (limit 50)', page.stats);
    figure('Postgres first page (limit 50)', page.stats, `p95 ${round(page.stats.p95, 1)}`);
    for (const limit of [50, 1000]) {
      const walk = await repeat(() => walkWith((cursor) => listing.list({ ...query, limit, cursor })));
      if (walk.value.listed !== COUNT) throw new Error(`the walk listed ${walk.value.listed} of ${COUNT} rows`);
      show(`full walk at limit ${limit}`, walk.stats, `${walk.value.pages} pages`);
      figure(`Postgres full walk, limit ${limit}`, walk.stats, `${walk.value.pages} pages`);
    }
    const clusterRoot = makeExampleRoot(
      `store: { kind: postgres, url: "${PG_URL}", schema: ${schema} }\n`,
      'govflow-bench-list-pg-',
    );
    roots.push(clusterRoot);
    const cli = await repeat(() => cliList(clusterRoot, []));
    if (cli.value !== COUNT) throw new Error(`govflow sessions listed ${cli.value} of ${COUNT} rows`);
    show('govflow sessions --json (all, from Postgres)', cli.stats);
    figure('CLI all sessions, Postgres', cli.stats);
  } finally {
    await client.query(`drop schema if exists "${schema}" cascade`).catch(() => {});
    await client.end();
    await pool.end();
  }
}

reportResult({
  bench: 'sessions-list',
  title: `Listing ${COUNT} sessions (govflow sessions, GET /v1/sessions)`,
  config: { sessions: COUNT, requests: REQUESTS, runs: RUNS },
  figures,
  targets,
});
for (const folder of roots.splice(0)) removeRoot(folder);
