/**
 * Cluster mode (SPEC §15, issue #17): real `govflow start` daemons as child processes, each with
 * its own root, on one Postgres schema (GOVFLOW_TEST_PG_URL, default
 * postgres://root@127.0.0.1:5432/test; a fresh schema per run, dropped after). The model is the
 * scripted provider (instant, or a fixed latency). Request files are written before the clock
 * starts and renamed into the inboxes round-robin after BENCH_CLUSTER_WARMUP (default 4) warm-up
 * sessions per daemon; wall time runs to the last result file.
 *
 * Figures:
 *   - throughput: sessions/s for 1, 2 and 3 daemons, instant model, concurrency 8 per daemon
 *     (BENCH_CLUSTER_REQUESTS, default 150);
 *   - 100 ms model, concurrency 16 per daemon, 3 daemons: wall time against the ideal
 *     (BENCH_CLUSTER_LATENCY_REQUESTS, default 192 = 4 waves of 48). Ideal = waves × 5 calls ×
 *     100 ms (the 2 plan tasks run in parallel: 5 calls on the critical path). Target ≤ 1.15×;
 *   - per-step overhead, one daemon at concurrency 1, instant model: postgres store against the
 *     files store (BENCH_CLUSTER_STEP_SESSIONS, default 60 sessions × 6 messages). Target ≤ 2×;
 *   - references at the same moment (the machine may be shared): one files-mode daemon's
 *     sessions/s, and three independent files-mode daemons × 16 with the 100 ms model;
 *   - the audit append's share of a step, in that postgres run: the daemon is started with
 *     bench/cluster-query-timing.mjs preloaded, which times every query of the `pg` driver by
 *     statement; the share is the time per step in the statements that append to the chain over
 *     the step's wall time. The append commits in one statement with its journal record, so this
 *     is an upper bound.
 *
 * BENCH_CLUSTER_PARTS (default `throughput,latency,step`) picks which of the three batches run; `latency`
 * alone gives issue 55's two CPU figures (Postgres per message, daemons against files mode).
 *
 * Two model paths (BENCH_PATHS, default both), each figure on each: `scripted`, `kind: scripted`
 * in the daemons; `real`, `kind: openai-compatible` through the AI SDK against
 * bench/fake-openai-server.mjs in its own process (one per latency, shared by the daemons of a
 * run), answering the same texts after the same latency. The statement timing runs on the
 * scripted path only.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  REPOSITORY_ROOT,
  benchPaths,
  cleanUpOnExit,
  envInteger,
  makeExampleRoot,
  now,
  processCpu,
  removeRoot,
  reportResult,
  requestText,
  round,
  settleDeletions,
  sleep,
  stageRequest,
  startFakeModel,
} from './bench-support.mjs';

const PG_URL = process.env.GOVFLOW_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const REQUESTS = envInteger('BENCH_CLUSTER_REQUESTS', 150);
const LATENCY_REQUESTS = envInteger('BENCH_CLUSTER_LATENCY_REQUESTS', 192);
const STEP_SESSIONS = envInteger('BENCH_CLUSTER_STEP_SESSIONS', 60);
const WARMUP = envInteger('BENCH_CLUSTER_WARMUP', 4);
const LATENCY_MS = 100;
const STEPS = 6;
const CRITICAL_PATH_CALLS = 5;
const CLI = path.join(REPOSITORY_ROOT, 'bin', 'govflow.js');

const roots = [];
cleanUpOnExit(roots);
const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** The example app's answers for the scripted provider (the same as the daemon tests'). */
function scriptResponses() {
  const answer = (content, contentType, next) => ({
    json: {
      message_id: null,
      timestamp: null,
      agent: null,
      input: null,
      metadata: null,
      output: { content, content_type: contentType },
      next_agent: { name: next, reason: next ? `hand over to ${next}` : 'end of chain' },
      status: { code: 'success', message: `success: ${contentType}` },
      error: { has_error: false, error_code: null, error_message: null, retry_count: 0, recoverable: false },
      audit: { compliance_notes: 'bench answer', governance_files_consulted: [] },
    },
  });
  const tasks = [
    { id: 't1', agent: 'summarizer_agent', instruction: 'Summarise the text.', depends_on: [] },
    { id: 't2', agent: 'action_item_agent', instruction: 'List the action items.', depends_on: [] },
  ];
  return {
    objective_agent: [answer({ objectives: ['summarise the text'] }, 'objectives', 'goal_agent')],
    goal_agent: [
      answer(
        { source_text: 'text', objectives: [{ objective: 'summarise', goals: ['a summary exists'] }] },
        'goals',
        'planning_agent',
      ),
    ],
    planning_agent: [answer({ tasks }, 'plan', 'final_output_agent')],
    summarizer_agent: [answer({ summary: 'A short summary.', decisions: [] }, 'summary', null)],
    action_item_agent: [
      answer({ action_items: [{ task: 'send the report', owner: 'Bob', due: null }] }, 'action_items', null),
    ],
    final_output_agent: [answer({ answer: 'Done.' }, 'final_report', null)],
  };
}
const PATHS = benchPaths();
const PARTS = new Set(
  (process.env.BENCH_CLUSTER_PARTS ?? 'throughput,latency,step').split(',').map((part) => part.trim()),
);
for (const part of PARTS)
  if (!['throughput', 'latency', 'step'].includes(part))
    throw new Error(
      `BENCH_CLUSTER_PARTS=${process.env.BENCH_CLUSTER_PARTS}: each part must be throughput, latency or step`,
    );
const RESPONSES = scriptResponses();
/** The same answers for the real path's server (agent → text). */
const FAKE_ANSWERS = Object.fromEntries(
  Object.entries(RESPONSES).map(([agent, [first]]) => [agent, JSON.stringify(first.json)]),
);
const fakes = new Map();
/** The real path's model server answering after `latencyMs`, started on first use. */
async function fakeFor(latencyMs) {
  if (!fakes.has(latencyMs)) fakes.set(latencyMs, await startFakeModel(FAKE_ANSWERS, latencyMs));
  return fakes.get(latencyMs);
}

/** A connection to the server that makes a fresh schema per run (dropped at the end), or null when no server answers. */
async function connectServer() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch {
    return null;
  }
  const schemas = [];
  return {
    client,
    async freshStore() {
      const schema = `gfbench_${process.pid}_${schemas.length}`;
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.query(`create schema "${schema}"`);
      schemas.push(schema);
      return `{ kind: postgres, url: "${PG_URL}", schema: ${schema} }`;
    },
    async close() {
      for (const schema of schemas) await client.query(`drop schema if exists "${schema}" cascade`).catch(() => {});
      await client.end().catch(() => {});
    },
  };
}

/** `govflow start` on a root; resolves once it printed its ready line. */
async function startDaemon(root, nodeArgs = [], env = {}) {
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'start', '--root', root], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const deadline = Date.now() + 30_000;
  while (!stdout.includes('ready')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(
        `govflow start --root ${root} did not get ready (exit ${child.exitCode}):\n${stderr.slice(-2000)}`,
      );
    await sleep(20);
  }
  return {
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      if ((await Promise.race([exited, sleep(20_000).then(() => 'late')])) === 'late') child.kill('SIGKILL');
    },
  };
}

/** Roots for `count` daemons on `model`'s path; `store` is the YAML of the store section (null: files). */
async function makeRoots(model, count, { store, concurrency, latencyMs }) {
  const provider =
    model === 'real' ? (await fakeFor(latencyMs)).providerYaml : 'provider: { kind: scripted, script: script.json }\n';
  return Array.from({ length: count }, () => {
    const root = makeExampleRoot(
      `${provider}intake: { concurrency: ${concurrency} }\n${store ? `store: ${store}\ncluster: { lease_ms: 10000 }\n` : ''}`,
      'govflow-bench-cluster-',
    );
    writeFileSync(
      path.join(root, 'script.json'),
      JSON.stringify({ latency_ms: latencyMs, loop: true, responses: RESPONSES }),
    );
    roots.push(root);
    return root;
  });
}

function outboxCount(root) {
  try {
    return readdirSync(path.join(root, 'system', 'outbox')).filter((name) => name.endsWith('.json')).length;
  } catch {
    return 0;
  }
}

async function waitForResults(label, rootsOfRun, count, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const done = rootsOfRun.reduce((sum, root) => sum + outboxCount(root), 0);
    if (done >= count) return;
    if (Date.now() > deadline)
      throw new Error(`${label}: only ${done} of ${count} results after ${timeoutMs / 1000} s`);
    await sleep(10);
  }
}

/**
 * CPU time so far of the daemons and of every local Postgres process (backends, WAL writer, …);
 * `postgresBackground` is the share of Postgres's own processes (WAL writer, checkpointer, …),
 * the rest is the backends serving clients.
 */
function cpuMs(daemonPids) {
  const postgresPids = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres');
      } catch {
        return false;
      }
    });
  const isBackground = (pid) => {
    try {
      return !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('(');
    } catch {
      return false;
    }
  };
  const sum = (pids) => pids.reduce((total, pid) => total + processCpu(pid).total, 0);
  return {
    daemons: sum(daemonPids),
    postgres: sum(postgresPids),
    postgresBackground: sum(postgresPids.filter(isBackground)),
  };
}

/**
 * Starts one daemon per root, renames `requests` staged files into the inboxes round-robin and
 * returns the wall time (ms) until every result file is there and the CPU time the daemons and
 * the local Postgres used meanwhile.
 */
async function timeBatch(label, rootsOfRun, requests, { nodeArgs, env, beforeClock } = {}) {
  const daemons = [];
  try {
    for (const root of rootsOfRun) daemons.push(await startDaemon(root, nodeArgs, env));
    // Warm-up: a few sessions per daemon before the clock starts (JIT, connections, caches).
    const warmups = rootsOfRun.flatMap((root, daemon) =>
      Array.from({ length: WARMUP }, (_, index) =>
        stageRequest(
          root,
          `warm-${label}-${daemon}-${index}.json`,
          JSON.stringify({ request: requestText(index), request_id: `warm-${label}-${daemon}-${index}` }),
        ),
      ),
    );
    for (const drop of warmups) drop();
    await waitForResults(label, rootsOfRun, warmups.length, 60_000);
    const drops = Array.from({ length: requests }, (_, index) => {
      const id = `${label}-${index}`;
      return stageRequest(
        rootsOfRun[index % rootsOfRun.length],
        `${id}.json`,
        JSON.stringify({ request: requestText(index), request_id: id }),
      );
    });
    await beforeClock?.();
    const cpuBefore = cpuMs(daemons.map((daemon) => daemon.pid));
    const started = now();
    for (const drop of drops) drop();
    await waitForResults(label, rootsOfRun, warmups.length + requests, 300_000);
    const wallMs = now() - started;
    const cpuAfter = cpuMs(daemons.map((daemon) => daemon.pid));
    return {
      wallMs,
      daemonCpuMs: cpuAfter.daemons - cpuBefore.daemons,
      postgresCpuMs: cpuAfter.postgres - cpuBefore.postgres,
      postgresBackgroundCpuMs: cpuAfter.postgresBackground - cpuBefore.postgresBackground,
    };
  } finally {
    await Promise.all(daemons.map((daemon) => daemon.stop()));
    for (const root of rootsOfRun) {
      removeRoot(root);
      roots.splice(roots.indexOf(root), 1);
    }
  }
}

/**
 * Where Postgres spends a batch, by statement, when the server has pg_stat_statements loaded
 * (`shared_preload_libraries`; a profile only, skipped when it is not): `reset()` before the clock,
 * `print(sessions)` after, each statement's calls and execution time per session.
 */
function statementProfile(client) {
  let available = false;
  return {
    async reset() {
      try {
        await client.query('create extension if not exists pg_stat_statements');
        await client.query('select pg_stat_statements_reset()');
        available = true;
      } catch {
        available = false;
      }
    },
    async print(sessions) {
      if (!available) {
        console.log('             (no statement profile: pg_stat_statements is not in shared_preload_libraries)');
        return;
      }
      const { rows } = await client.query(
        `select calls, total_exec_time as ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as text
           from pg_stat_statements where query like '%gfbench_%' order by total_exec_time desc limit 10`,
      );
      console.log('             Postgres by statement (execution time incl. lock waits, per session):');
      for (const row of rows)
        console.log(
          `               ${round(row.ms / sessions, 2)} ms, ${round(row.calls / sessions, 2)} calls: ${row.text.replace(/"gfbench_\d+_\d+"\./g, '')}`,
        );
    },
  };
}

// Its files-mode reference creates a session's files as any files-mode daemon does.
await settleDeletions();
const database = await connectServer();
if (!database) {
  console.log(
    `cluster: no Postgres server answers at ${PG_URL.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')} (GOVFLOW_TEST_PG_URL); skipped`,
  );
  reportResult({ bench: 'cluster', title: 'Cluster mode (skipped: no Postgres)', figures: [], targets: [] });
  process.exit(0);
}

const figures = [];
const targets = [];
try {
  console.log(
    `cluster: daemons as child processes sharing one fresh Postgres schema per run; paths: ${PATHS.join(', ')}`,
  );
  // Sessions per second, instant model.
  for (const count of PARTS.has('throughput') ? [1, 2, 3] : []) {
    for (const model of PATHS) {
      const { wallMs } = await timeBatch(
        `tp${count}-${model}`,
        await makeRoots(model, count, { store: await database.freshStore(), concurrency: 8, latencyMs: 0 }),
        REQUESTS,
      );
      const rate = REQUESTS / (wallMs / 1000);
      console.log(
        `  ${model.padEnd(8)} ${count} daemon(s), instant model, concurrency 8 each: ${REQUESTS} sessions in ${round(wallMs / 1000, 2)} s = ` +
          `${round(rate, 1)} sessions/s`,
      );
      figures.push({
        name: `${model}: ${count} daemon(s), instant model: sessions/s`,
        unit: 'sessions/s',
        median: round(rate, 1),
        runs: 1,
      });
    }
  }
  // Reference on the same machine at the same moment: one files-mode daemon.
  for (const model of PARTS.has('throughput') ? PATHS : []) {
    const { wallMs } = await timeBatch(
      `tp-files-${model}`,
      await makeRoots(model, 1, { store: null, concurrency: 8, latencyMs: 0 }),
      REQUESTS,
    );
    console.log(
      `  ${model.padEnd(8)} reference, 1 files-mode daemon, instant model, concurrency 8: ${round(REQUESTS / (wallMs / 1000), 1)} sessions/s`,
    );
    figures.push({
      name: `${model}: reference: 1 files-mode daemon, instant model: sessions/s`,
      unit: 'sessions/s',
      median: round(REQUESTS / (wallMs / 1000), 1),
      runs: 1,
    });
  }

  // 100 ms model, 16 per daemon, 3 daemons.
  const slots = 3 * 16;
  const idealMs = Math.ceil(LATENCY_REQUESTS / slots) * CRITICAL_PATH_CALLS * LATENCY_MS;
  const cores = os.availableParallelism();
  /**
   * What the CPU alone allows: the batch's CPU time (daemons + Postgres) spread over every core
   * with none idle, against the ideal — a floor under wall / ideal on this machine.
   */
  const describeCpu = (label, batch) => {
    const perSession = (batch.daemonCpuMs + batch.postgresCpuMs) / LATENCY_REQUESTS;
    const floor = (batch.daemonCpuMs + batch.postgresCpuMs) / cores / idealMs;
    console.log(
      `             CPU per session: daemons ${round(batch.daemonCpuMs / LATENCY_REQUESTS, 1)} ms + Postgres ` +
        `${round(batch.postgresCpuMs / LATENCY_REQUESTS, 1)} ms ` +
        `(its own processes ${round(batch.postgresBackgroundCpuMs / LATENCY_REQUESTS, 1)}); ` +
        `the ${LATENCY_REQUESTS} sessions' CPU on ${cores} cores alone takes ` +
        `${round(floor, 3)}× the ideal`,
    );
    figures.push({
      name: `${label}: CPU per session (daemons + Postgres)`,
      unit: 'ms',
      median: round(perSession, 1),
      runs: 1,
      note: `CPU-bound floor of wall / ideal on ${cores} cores: ${round(floor, 3)}×`,
    });
  };
  /** Each path's 3 × 16 batch on Postgres, for issue 55's CPU targets beside files mode. */
  const clusterCpu = {};
  const latencyPaths = PARTS.has('latency') ? PATHS : [];
  for (const model of latencyPaths) {
    const statements = statementProfile(database.client);
    const latency = await timeBatch(
      `lat-${model}`,
      await makeRoots(model, 3, { store: await database.freshStore(), concurrency: 16, latencyMs: LATENCY_MS }),
      LATENCY_REQUESTS,
      { beforeClock: () => statements.reset() },
    );
    const ratio = latency.wallMs / idealMs;
    console.log(
      `  ${model.padEnd(8)} 3 daemons × 16, ${LATENCY_MS} ms model: ${LATENCY_REQUESTS} sessions in ${round(latency.wallMs / 1000, 2)} s; ` +
        `ideal ${round(idealMs / 1000, 2)} s; wall/ideal ${round(ratio, 3)}`,
    );
    figures.push({
      name: `${model}: 3 daemons × 16, ${LATENCY_MS} ms model: wall / ideal`,
      unit: '×',
      median: round(ratio, 3),
      runs: 1,
      note: `${LATENCY_REQUESTS} sessions, ideal ${round(idealMs / 1000, 2)} s`,
    });
    targets.push(
      ...[
        ['#17', 1.15],
        ['#41', 1.5],
      ].map(([issue, limit]) => ({
        name: `${model}: 3 daemons × 16, 100 ms model: wall / ideal (${issue})`,
        target: `≤ ${limit}×`,
        value: round(ratio, 3),
        unit: '×',
        pass: ratio <= limit,
      })),
    );
    describeCpu(`${model}: cluster 3 × 16`, latency);
    clusterCpu[model] = latency;
    await statements.print(LATENCY_REQUESTS);
  }
  // Reference: three independent files-mode daemons (no shared store), the same load.
  for (const model of latencyPaths) {
    const filesLatency = await timeBatch(
      `lat-files-${model}`,
      await makeRoots(model, 3, { store: null, concurrency: 16, latencyMs: LATENCY_MS }),
      LATENCY_REQUESTS,
    );
    console.log(
      `  ${model.padEnd(8)} reference, 3 independent files-mode daemons × 16: ${round(filesLatency.wallMs / 1000, 2)} s; wall/ideal ` +
        `${round(filesLatency.wallMs / idealMs, 3)}`,
    );
    figures.push({
      name: `${model}: reference: 3 files-mode daemons × 16, 100 ms model: wall / ideal`,
      unit: '×',
      median: round(filesLatency.wallMs / idealMs, 3),
      runs: 1,
    });
    describeCpu(`${model}: files-mode 3 × 16`, { ...filesLatency, postgresCpuMs: 0, postgresBackgroundCpuMs: 0 });
    // Issue 55: Postgres's CPU per committed message, and the daemons' CPU against files mode's.
    const cluster = clusterCpu[model];
    const postgresPerMessage = cluster.postgresCpuMs / (LATENCY_REQUESTS * STEPS);
    const daemonsRatio = cluster.daemonCpuMs / filesLatency.daemonCpuMs;
    targets.push(
      {
        name: `${model}: 3 × 16 on Postgres: Postgres CPU per committed message (#55)`,
        target: '≤ 1 ms',
        value: round(postgresPerMessage, 2),
        unit: 'ms',
        pass: postgresPerMessage <= 1,
      },
      {
        name: `${model}: 3 × 16: the daemons' CPU on Postgres / in files mode (#55)`,
        target: '≤ 1.3×',
        value: round(daemonsRatio, 2),
        unit: '×',
        pass: daemonsRatio <= 1.3,
      },
    );
  }

  // Per-step overhead: one daemon, one session at a time, files store and postgres store.
  const timingFile = path.join(os.tmpdir(), `govflow-bench-query-timing-${process.pid}.json`);
  const timing = {
    nodeArgs: ['--import', path.join(REPOSITORY_ROOT, 'bench', 'cluster-query-timing.mjs')],
    env: { BENCH_QUERY_TIMING_FILE: timingFile },
  };
  const stepMs = {};
  for (const model of PARTS.has('step') ? PATHS : []) {
    stepMs[model] = {};
    for (const [kind, store] of [
      ['files', null],
      ['postgres', await database.freshStore()],
    ]) {
      const { wallMs } = await timeBatch(
        `step-${kind}-${model}`,
        await makeRoots(model, 1, { store, concurrency: 1, latencyMs: 0 }),
        STEP_SESSIONS,
        store && model === 'scripted' ? timing : {},
      );
      stepMs[model][kind] = wallMs / (STEP_SESSIONS * STEPS);
      console.log(
        `  ${model.padEnd(8)} per step, ${kind} store (1 daemon, concurrency 1, instant model, ${STEP_SESSIONS} sessions): ${round(stepMs[model][kind], 3)} ms`,
      );
      figures.push({
        name: `${model}: per-step overhead, ${kind} store`,
        unit: 'ms',
        median: round(stepMs[model][kind], 3),
        runs: 1,
      });
    }
    const stepRatio = stepMs[model].postgres / stepMs[model].files;
    targets.push({
      name: `${model}: per-step overhead: postgres / files store`,
      target: '≤ 2×',
      value: round(stepRatio, 2),
      unit: '×',
      pass: stepRatio <= 2,
    });
    console.log(`  ${model.padEnd(8)} postgres / files per step: ${round(stepRatio, 2)}× (target ≤ 2×)`);
  }

  const totals = existsSync(timingFile) ? JSON.parse(readFileSync(timingFile, 'utf8')) : null;
  rmSync(timingFile, { force: true });
  const statements = Object.entries(totals ?? {}).sort(([, a], [, b]) => b.ms - a.ms);
  if (statements.length === 0) {
    console.log(
      '  audit append share of a step: n/a (no scripted postgres run, or the daemon sent no queries through the pg driver)',
    );
  } else {
    const steps = (STEP_SESSIONS + WARMUP) * STEPS; // the daemon's whole life: warm-up sessions too
    console.log(`  statements per step, scripted, postgres store (start-up included), by time:`);
    for (const [text, { calls, ms }] of statements.slice(0, 6))
      console.log(`    ${round(ms / steps, 3)} ms, ${round(calls / steps, 2)} calls  ${text}`);
    // The audit append commits in the same statement as the journal record (one transaction), so
    // from outside it can only be bounded: the share of the step in the statements that append it.
    const append = statements.filter(([text]) => /commit_writes|insert into audit_entries|audit_head/i.test(text));
    const appendMs = append.reduce((sum, [, { ms }]) => sum + ms, 0) / steps;
    const share = (100 * appendMs) / stepMs.scripted.postgres;
    console.log(
      `  audit append (in its commit with the journal record): ${round(appendMs, 3)} ms of a ${round(stepMs.scripted.postgres, 3)} ms step = ` +
        `${round(share, 1)} % (an upper bound: the same statement commits the journal)`,
    );
    figures.push({
      name: 'scripted: audit append (with its journal commit) share of a step, postgres store',
      unit: '%',
      median: round(share, 1),
      runs: 1,
      note: `${round(appendMs, 3)} ms of ${round(stepMs.scripted.postgres, 3)} ms`,
    });
  }
} finally {
  await database.close();
  for (const fake of fakes.values()) fake.stop();
}

reportResult({
  bench: 'cluster',
  title: 'Cluster mode (daemons as child processes, one Postgres)',
  config: {
    paths: PATHS,
    requests: REQUESTS,
    latencyRequests: LATENCY_REQUESTS,
    stepSessions: STEP_SESSIONS,
    latencyMs: LATENCY_MS,
  },
  figures,
  targets,
});
