/**
 * Resources of a flood: a `govflow start` child process (dry-run, intake concurrency 4) gets
 * BENCH_FLOOD_FILES request files (default 1,000) renamed into its inbox at once; the script
 * samples the child's RSS and open file descriptors every 100 ms and prints the peaks and the
 * wall time to the last result. These figures were assertions of test/daemon/daemon-load.test.ts
 * (peak RSS < 400 MB, fds < 200, < 120 s), moved here: timing and memory belong in bench/.
 * Usage: npm run build && node bench/flood-resources.mjs
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPOSITORY_ROOT, envInteger, makeExampleRoot, removeRoot, sleep } from './bench-support.mjs';

const files = envInteger('BENCH_FLOOD_FILES', 1000);
const root = makeExampleRoot('intake:\n  concurrency: 4\n', 'govflow-flood-');
const child = spawn(process.execPath, [path.join(REPOSITORY_ROOT, 'bin', 'govflow.js'), 'start', '--root', root], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
const rssKb = () => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
const fds = () => readdirSync(`/proc/${child.pid}/fd`).length;
const outbox = path.join(root, 'system', 'outbox');
const results = () => readdirSync(outbox).filter((name) => name.endsWith('.json') && !name.startsWith('.')).length;

try {
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.resume();
  while (!stdout.includes('ready')) {
    if (child.exitCode !== null) throw new Error(`govflow start exited ${child.exitCode} before ready`);
    await sleep(20);
  }
  const baseline = rssKb();
  let peakRss = baseline;
  let peakFds = fds();
  const staging = path.join(root, 'staging');
  mkdirSync(staging, { recursive: true });
  const names = Array.from({ length: files }, (_, index) => `flood-${String(index).padStart(5, '0')}.txt`);
  for (const [index, name] of names.entries())
    writeFileSync(path.join(staging, name), `Request ${index}: summarise note ${index}.`);
  const started = performance.now();
  for (const name of names) renameSync(path.join(staging, name), path.join(root, 'system', 'inbox', name));
  while (results() < files) {
    peakRss = Math.max(peakRss, rssKb());
    peakFds = Math.max(peakFds, fds());
    if (performance.now() - started > 600_000)
      throw new Error(`only ${results()} of ${files} results after 10 minutes`);
    await sleep(100);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `flood of ${files} files: ${seconds.toFixed(1)} s (${(files / seconds).toFixed(0)} sessions/s), peak RSS ${(peakRss / 1024).toFixed(0)} ` +
      `MB (baseline ${(baseline / 1024).toFixed(0)} MB), peak open fds ${peakFds}`,
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  removeRoot(root);
}
