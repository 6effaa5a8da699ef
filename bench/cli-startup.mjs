/**
 * How fast a spawned CLI starts: wall time of `node bin/govflow.js --help` and of
 * `govflow status` on an empty root, median and minimum of N runs (the machine is shared, so the
 * minimum is the figure least disturbed by other load). Usage: node bench/cli-startup.mjs [runs]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 15);
const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'govflow.js');
const root = mkdtempSync(path.join(tmpdir(), 'govflow-cli-startup-'));

function measure(args) {
  const times = [];
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (child.status !== 0) throw new Error(`govflow ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0] };
}

try {
  for (const args of [['--help'], ['status', '--root', root]]) {
    const { median, min } = measure(args);
    console.log(`govflow ${args[0]}: median ${median.toFixed(0)} ms, min ${min.toFixed(0)} ms over ${runs} runs`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
