/**
 * What a spawned CLI costs to start: wall time and CPU (the kernel's accounting of the finished
 * child, user + system) of `govflow --help`, and of `status`, `validate` and `verify` on a root
 * made by `govflow init`, and of `govflow start` on it until its ready line (wall), stopped there
 * with SIGTERM (CPU: start, ready, drain, exit); median and minimum of N runs (the machine is
 * shared, so the minimum is the figure least disturbed by other load).
 * Usage: node bench/cli-startup.mjs [runs]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineInfo, reportResult, round, summarize } from './bench-support.mjs';

const runs = Number(process.argv[2] ?? 15);
const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'govflow.js');
const parent = mkdtempSync(path.join(tmpdir(), 'govflow-cli-startup-'));
const root = path.join(parent, 'app');

/** Node arguments that make the child report its own CPU at exit (kept across `start`'s re-exec), so only that command is counted. */
const REPORT_CPU = [
  '--import',
  'data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write(`\\ncpu_us ${u.userCPUTime+u.systemCPUTime}\\n`)})',
];
const cpuMsOf = (stderr) => Number(/cpu_us (\d+)/.exec(stderr)[1]) / 1000;

function measure(args) {
  const walls = [];
  const cpus = [];
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, [...REPORT_CPU, bin, ...args], { encoding: 'utf8' });
    walls.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (child.status !== 0) throw new Error(`govflow ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
    cpus.push(cpuMsOf(child.stderr));
  }
  return { wall: summarize(walls), cpu: summarize(cpus) };
}

/** `govflow start` until its ready line (wall), then SIGTERM; CPU of the whole run to its exit. */
async function measureStart(args) {
  const walls = [];
  const cpus = [];
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [...REPORT_CPU, bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await new Promise((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('ready')) resolve();
      });
      void exited.then(() => reject(new Error(`govflow ${args.join(' ')} exited before ready: ${stderr}`)));
    });
    walls.push(Number(process.hrtime.bigint() - started) / 1e6);
    child.kill('SIGTERM');
    if ((await exited) !== 0) throw new Error(`govflow ${args.join(' ')} did not stop cleanly: ${stderr}`);
    cpus.push(cpuMsOf(stderr));
  }
  return { wall: summarize(walls), cpu: summarize(cpus) };
}

try {
  const init = spawnSync(process.execPath, [bin, 'init', root], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`govflow init failed: ${init.stderr}`);
  const figures = [];
  for (const args of [
    ['--help'],
    ['status', '--root', root],
    ['validate', '--root', root],
    ['verify', '--root', root],
    ['start', '--root', root],
  ]) {
    const isStart = args[0] === 'start';
    const { wall, cpu } = isStart ? await measureStart(args) : measure(args);
    console.log(
      `govflow ${args[0]}${isStart ? ' (wall to ready, CPU to exit)' : ''}: wall median ${wall.median.toFixed(0)} ms (min ${wall.min.toFixed(0)}), ` +
        `CPU median ${cpu.median.toFixed(0)} ms (min ${cpu.min.toFixed(0)}) over ${runs} runs`,
    );
    for (const [kind, stats] of [
      ['CPU', cpu],
      ['wall', wall],
    ]) {
      const { median, min, max } = stats;
      figures.push({
        name: `${args[0]} ${kind}`,
        unit: 'ms',
        median: round(median, 1),
        min: round(min, 1),
        max: round(max, 1),
        runs,
      });
    }
  }
  reportResult({ bench: 'cli-startup', machine: machineInfo(), figures, targets: [] });
} finally {
  rmSync(parent, { recursive: true, force: true });
}
