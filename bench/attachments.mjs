/**
 * Requests with files (SPEC §22, docs/attachments.md): what a 20 MB request costs the daemon.
 *
 * A `govflow start` child process (dry-run model, fsync on, default limits) per phase:
 * 1. **Request folder**: a folder holding request.txt and a 20,000,000-byte attachment, built
 *    under a hidden name in the inbox and moved in by one rename; figures: rename → session
 *    started (claim, checks, SHA-256, the copy into the workspace, the journal's first record:
 *    the intake time), and rename → result in the outbox.
 * 2. **Multipart upload**: the same file POSTed as multipart/form-data to /v1/requests; figures:
 *    POST → 202 (streamed to disk, hashed, fsynced, claimed) and POST → result.
 * Each phase runs BENCH_ATTACH_ROUNDS requests (default 3) after one small warm-up request, and
 * reads the daemon's peak resident memory (VmHWM, /proc) after the warm-up and after the rounds.
 *
 * 3. The same upload with a 200 MB file (BENCH_ATTACH_LARGE_BYTES; the limit raised for it): what
 *    an upload costs in memory must not grow with its size. An upload's socket buffers are
 *    garbage that V8 collects once external memory has grown by some tens of MB (its soft limit
 *    is 64 MB), so a streamed upload's peak levels off there whatever its size; a held one would
 *    add all of it.
 *
 * Targets: a 20 MB request folder is taken in ≤ 2 s and the peak grows by less than its size;
 * the 200 MB upload's peak grows by less than 64 MB.
 */
/* global FormData, Blob */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import {
  REPOSITORY_ROOT,
  cleanUpOnExit,
  envInteger,
  makeExampleRoot,
  now,
  removeRoot,
  reportResult,
  round,
  sleep,
  summarize,
} from './bench-support.mjs';

const ROUNDS = envInteger('BENCH_ATTACH_ROUNDS', 3);
const FILE_BYTES = envInteger('BENCH_ATTACH_BYTES', 20_000_000);
/** A second, larger upload: the peak must not grow with the size of what is uploaded. */
const LARGE_BYTES = envInteger('BENCH_ATTACH_LARGE_BYTES', 200_000_000);
/** The default limits, raised for the larger upload. */
const LIMITS = `intake: { attachments: { max_bytes: ${Math.max(20_971_520, FILE_BYTES, LARGE_BYTES)} } }\n`;
const roots = [];
cleanUpOnExit(roots);

/** 20 MB that do not compress or repeat: what a scanned contract looks like to a disk. */
function fileBytes(seed, size = FILE_BYTES) {
  const bytes = Buffer.alloc(size);
  let state = seed;
  for (let index = 0; index < size; index += 4) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes.writeUInt32LE(state, index);
  }
  return bytes;
}

function kilobytes(pid, field) {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match[1]);
}

async function startDaemon(root) {
  const child = spawn(process.execPath, [path.join(REPOSITORY_ROOT, 'bin', 'govflow.js'), 'start', '--root', root], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.resume();
  const deadline = Date.now() + 30_000;
  while (!stdout.includes('ready')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the daemon did not start: ${stdout}`);
    await sleep(20);
  }
  const url = /HTTP API on (http:\/\/\S+)/.exec(stdout)?.[1];
  return { child, url };
}

async function stopDaemon({ child }) {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

async function until(probe, what, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

function sessionsOf(root) {
  const folder = path.join(root, 'system', 'sessions');
  return existsSync(folder) ? readdirSync(folder).filter((name) => !name.startsWith('.')) : [];
}

function resultCount(root) {
  const outbox = path.join(root, 'system', 'outbox');
  return existsSync(outbox) ? readdirSync(outbox).filter((name) => name.endsWith('.json')).length : 0;
}

function dropFolder(root, name, files) {
  const inbox = path.join(root, 'system', 'inbox');
  const hidden = path.join(inbox, `.${name}`);
  mkdirSync(hidden, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(path.join(hidden, file), content);
  const started = now();
  renameSync(hidden, path.join(inbox, name));
  return started;
}

async function folderPhase() {
  const root = makeExampleRoot(LIMITS, 'govflow-bench-attachments-');
  roots.push(root);
  const daemon = await startDaemon(root);
  dropFolder(root, 'warm-up', { 'request.txt': 'Summarise the note.\n', 'note.txt': 'A short note.\n' });
  await until(() => resultCount(root) === 1, 'the warm-up result');
  const baseline = kilobytes(daemon.child.pid, 'VmHWM');
  const intake = [];
  const total = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = sessionsOf(root).length;
    const bytes = fileBytes(round + 1);
    const started = dropFolder(root, `contract-${round}`, {
      'request.txt': 'Summarise the attached contract.\n',
      'contract.pdf': bytes,
    });
    await until(() => sessionsOf(root).length > before, 'the session to start');
    intake.push(now() - started);
    await until(() => resultCount(root) === round + 2, 'the result');
    total.push(now() - started);
  }
  const peak = kilobytes(daemon.child.pid, 'VmHWM');
  await stopDaemon(daemon);
  removeRoot(root);
  return { intake: summarize(intake), total: summarize(total), baselineKb: baseline, peakKb: peak };
}

async function uploadPhase(size) {
  const root = makeExampleRoot(`http: { listen: "127.0.0.1:0" }\n${LIMITS}`, 'govflow-bench-uploads-');
  roots.push(root);
  const daemon = await startDaemon(root);
  const post = async (text, name, bytes) => {
    const form = new FormData();
    form.append('request', text);
    form.append('file', new Blob([bytes]), name);
    const started = now();
    const response = await fetch(`${daemon.url}/v1/requests`, { method: 'POST', body: form });
    if (response.status !== 202) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
    return { started, accepted: now() };
  };
  await post('Summarise the note.', 'note.txt', Buffer.from('A short note.\n'));
  await until(() => resultCount(root) === 1, 'the warm-up result');
  const baseline = kilobytes(daemon.child.pid, 'VmHWM');
  const accepted = [];
  const total = [];
  for (let round = 0; round < ROUNDS; round++) {
    const bytes = fileBytes(round + 101, size);
    const timing = await post('Summarise the attached contract.', 'contract.pdf', bytes);
    accepted.push(timing.accepted - timing.started);
    await until(() => resultCount(root) === round + 2, 'the result');
    total.push(now() - timing.started);
  }
  const peak = kilobytes(daemon.child.pid, 'VmHWM');
  await stopDaemon(daemon);
  removeRoot(root);
  return { accepted: summarize(accepted), total: summarize(total), baselineKb: baseline, peakKb: peak };
}

const folder = await folderPhase();
const upload = await uploadPhase(FILE_BYTES);
const large = await uploadPhase(LARGE_BYTES);
const mb = (kb) => round(kb / 1024, 1);
const size = (bytes) => `${round(bytes / 1e6, 0)} MB`;
const growth = (phase) => mb(phase.peakKb - phase.baselineKb);
console.log(`${size(FILE_BYTES)} request folder (${ROUNDS} rounds, fsync on, dry-run model):`);
console.log(
  `  rename → session started (intake): median ${round(folder.intake.median, 0)} ms (min ${round(folder.intake.min, 0)}, max ${round(folder.intake.max, 0)})`,
);
console.log(`  rename → result: median ${round(folder.total.median, 0)} ms`);
console.log(
  `  peak RSS (VmHWM): ${mb(folder.baselineKb)} MB after the warm-up, ${mb(folder.peakKb)} MB after the rounds (+${growth(folder)} MB)`,
);
for (const [bytes, phase] of [
  [FILE_BYTES, upload],
  [LARGE_BYTES, large],
]) {
  console.log(`${size(bytes)} multipart upload (${ROUNDS} rounds):`);
  console.log(
    `  POST → 202: median ${round(phase.accepted.median, 0)} ms (min ${round(phase.accepted.min, 0)}, max ${round(phase.accepted.max, 0)})`,
  );
  console.log(`  POST → result: median ${round(phase.total.median, 0)} ms`);
  console.log(
    `  peak RSS (VmHWM): ${mb(phase.baselineKb)} MB after the warm-up, ${mb(phase.peakKb)} MB after the rounds (+${growth(phase)} MB)`,
  );
}
const figure = (name, unit, stats) => ({ name, unit, ...stats, runs: ROUNDS });
const peak = (name, phase) => ({
  name,
  unit: 'MB',
  median: mb(phase.peakKb),
  min: mb(phase.baselineKb),
  max: mb(phase.peakKb),
  runs: 1,
});
reportResult({
  bench: 'attachments',
  targets: [
    {
      name: `${size(FILE_BYTES)} request folder: rename → session started`,
      target: '≤ 2000 ms',
      value: round(folder.intake.median, 0),
      unit: 'ms',
      pass: folder.intake.median <= 2000,
    },
    {
      name: `${size(FILE_BYTES)} request folder: peak RSS growth`,
      target: `< ${size(FILE_BYTES)}`,
      value: growth(folder),
      unit: 'MB',
      pass: growth(folder) * 2 ** 20 < FILE_BYTES,
    },
    {
      name: `${size(LARGE_BYTES)} multipart upload: peak RSS growth (streamed, not held)`,
      target: '< 64 MB',
      value: growth(large),
      unit: 'MB',
      pass: growth(large) < 64,
    },
  ],
  figures: [
    figure('folder rename → session started', 'ms', folder.intake),
    figure('folder rename → result', 'ms', folder.total),
    figure(`upload ${size(FILE_BYTES)} POST → 202`, 'ms', upload.accepted),
    figure(`upload ${size(FILE_BYTES)} POST → result`, 'ms', upload.total),
    figure(`upload ${size(LARGE_BYTES)} POST → 202`, 'ms', large.accepted),
    peak('folder peak RSS', folder),
    peak(`upload ${size(FILE_BYTES)} peak RSS`, upload),
    peak(`upload ${size(LARGE_BYTES)} peak RSS`, large),
  ],
});
