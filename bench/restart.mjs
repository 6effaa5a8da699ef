/**
 * A restart costs what is pending, not the size of the day's log (issue #28). A root whose day log
 * already holds ENTRIES entries (written by the real audit writer, unsynced for speed) gets
 * REQUESTS request files at once; the daemon (`govflow start`, dry-run) is stopped with SIGTERM
 * (or kill -9 with STOP=kill) while most still wait, then started again. Printed: the rate it ran
 * at before the stop and the rate it drains the backlog at after the restart (target ≥ 0.5× the
 * rate before), for each log size (target: the rate at 300,000 entries within 10 % of 30,000).
 *
 *   node bench/restart.mjs                      # 30,000 and 300,000 entries, 1,500 requests
 *   ENTRIES=30000 REQUESTS=600 STOP=kill node bench/restart.mjs
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  REPOSITORY_ROOT,
  envInteger,
  importBuilt,
  machineInfo,
  makeExampleRoot,
  removeRoot,
  reportResult,
  round,
  sleep,
} from './bench-support.mjs';

const { AuditLogWriter } = await importBuilt('audit/audit-log-writer.js');
const REQUESTS = envInteger('REQUESTS', 1500);
const SIZES = process.env.ENTRIES ? [envInteger('ENTRIES', 30_000)] : [30_000, 300_000];
const STOP = process.env.STOP === 'kill' ? 'SIGKILL' : 'SIGTERM';
const CLI = path.join(REPOSITORY_ROOT, 'bin', 'govflow.js');

function fakeMessage(sessionId, sequence, at) {
  return {
    message_id: randomUUID(),
    timestamp: { executed_at: at, timezone: 'UTC' },
    agent: { name: 'objective_agent', type: 'governance' },
    input: { source: 'user', content: 'an earlier request of the day' },
    output: { content: ['an objective'], content_type: 'objectives' },
    next_agent: { name: null, reason: 'end' },
    status: { code: 'success', message: 'done' },
    error: { has_error: false, error_code: null, error_message: null, retry_count: 0, recoverable: false },
    metadata: {
      session_id: sessionId,
      request_id: `earlier-${sessionId}`,
      sequence_number: sequence,
      parent_message_id: null,
    },
    audit: { compliance_notes: 'earlier', governance_files_consulted: [] },
  };
}

async function prebuildLog(root, entries) {
  const writer = await AuditLogWriter.open({
    logsDir: path.join(root, 'system', 'logs'),
    stateDir: path.join(root, 'system', 'state'),
    timezone: 'UTC',
    durable: false,
  });
  const at = new Date().toISOString();
  for (let index = 0; index < entries; index++) {
    await writer.append({
      message: fakeMessage(`sess-earlier-${Math.floor(index / 6)}`, (index % 6) + 1, at),
      governanceHash: 'earlier',
      corrections: [],
      complianceViolations: [],
      notes: [],
    });
  }
  await writer.close();
}

function startDaemon(root) {
  const child = spawn(process.execPath, [CLI, 'start', '--root', root], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', () => {});
  const ready = new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('ready')) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
    child.on('exit', (code) => reject(new Error(`the daemon exited (${code}) before it was ready`)));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { child, ready, exited };
}

const results = (root) =>
  readdirSync(path.join(root, 'system', 'outbox')).filter((name) => name.endsWith('.json')).length;

async function measure(entries) {
  const root = makeExampleRoot('intake: { concurrency: 16 }\n', 'govflow-bench-restart-');
  try {
    await prebuildLog(root, entries);
    const first = startDaemon(root);
    await first.ready;
    const inbox = path.join(root, 'system', 'inbox');
    for (let index = 0; index < REQUESTS; index++)
      writeFileSync(
        path.join(inbox, `r${index}.json`),
        JSON.stringify({ request: `Summarize note ${index}.`, request_id: `r${index}` }),
      );
    const droppedAt = performance.now();
    // Let it run a while: about a fifth of the requests.
    while (results(root) < REQUESTS / 5) await sleep(20);
    const before = results(root) / ((performance.now() - droppedAt) / 1000);
    first.child.kill(STOP);
    await first.exited;
    const doneAtStop = results(root);
    const startedAt = performance.now();
    const second = startDaemon(root);
    await second.ready;
    while (results(root) < REQUESTS) await sleep(20);
    const after = (REQUESTS - doneAtStop) / ((performance.now() - startedAt) / 1000);
    second.child.kill('SIGTERM');
    await second.exited;
    return {
      entries,
      waiting_at_stop: REQUESTS - doneAtStop,
      before_per_s: round(before, 1),
      after_per_s: round(after, 1),
      ratio: round(after / before, 2),
    };
  } finally {
    removeRoot(root);
  }
}

const rows = [];
for (const entries of SIZES) {
  const row = await measure(entries);
  rows.push(row);
  console.log(
    `${entries} entries in the day log, ${row.waiting_at_stop} waiting at ${STOP}: ${row.before_per_s}/s before, ${row.after_per_s}/s after ` +
      `the restart (${row.ratio}× the rate before; target ≥ 0.5×)`,
  );
}
if (rows.length === 2)
  console.log(
    `rate after the restart at ${rows[1].entries} entries / at ${rows[0].entries}: ${round(rows[1].after_per_s / rows[0].after_per_s, 2)} (target within 10 %)`,
  );
reportResult({ bench: 'restart', machine: machineInfo(), stop: STOP, requests: REQUESTS, rows, targets: [] });
