/**
 * Prints the functions with the most self time in a V8 CPU profile (`node --cpu-prof`), the same
 * grouped by file, and by owner (Node's own work counted for the govflow module or package that
 * asked for it), so a missed target points at code.
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/overhead-per-step.mjs
 *   node bench/cpu-profile-summary.mjs /tmp/prof/<file>.cpuprofile [top=25]
 *
 * Exported `summarizeProfile` is used by the benchmarks that profile themselves.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Self time per function and per file, in milliseconds, highest first. */
export function summarizeProfile(profile, top = 25) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map();
  const deltas = profile.timeDeltas ?? [];
  for (let index = 0; index < profile.samples.length; index++) {
    const id = profile.samples[index];
    // A sample's time is the gap to the next sample.
    const ms = (deltas[index + 1] ?? 0) / 1000;
    selfMs.set(id, (selfMs.get(id) ?? 0) + ms);
  }
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const functions = new Map();
  const files = new Map();
  const owners = new Map();
  let totalMs = 0;
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id).callFrame;
    const file = shortUrl(frame.url, frame.lineNumber);
    const key = `${frame.functionName || '(anonymous)'}  ${file}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    functions.set(key, (functions.get(key) ?? 0) + ms);
    files.set(file || frame.functionName, (files.get(file || frame.functionName) ?? 0) + ms);
    const owner = ownerOf(id, byId, parentOf);
    owners.set(owner, (owners.get(owner) ?? 0) + ms);
    totalMs += ms;
  }
  const sorted = (map) =>
    [...map.entries()]
      .sort((left, right) => right[1] - left[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms: Math.round(ms * 10) / 10, share: Math.round((ms / totalMs) * 1000) / 10 }));
  return {
    totalMs: Math.round(totalMs),
    functions: sorted(functions),
    files: sorted(files),
    owners: sorted(owners),
    parts: partsOf(files),
  };
}

/**
 * Who a sample's time is for: the nearest frame on its stack in govflow's code (its module) or in a
 * package (its name), so Node's and V8's work (a socket write, a file write, a hash) counts for the
 * code that asked for it; idle, GC and the rest of the program stay themselves.
 */
function ownerOf(id, byId, parentOf) {
  const { functionName } = byId.get(id).callFrame;
  if (functionName.startsWith('(') && functionName.endsWith(')') && functionName !== '(anonymous)') return functionName;
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    const frame = byId.get(at).callFrame;
    const file = shortUrl(frame.url, frame.lineNumber);
    if (file.startsWith('dist/')) return file;
    if (!file.includes('node_modules/')) continue;
    return (
      /^(?:@[^/]+\/)?[^/]+/.exec(file.slice(file.lastIndexOf('node_modules/') + 'node_modules/'.length))?.[0] ?? file
    );
  }
  return 'Node alone (no govflow or package frame on the stack)';
}

/** Which part of the process a file's self time belongs to (where a model call's CPU goes). */
const PARTS = [
  ['idle', (file) => file === '(idle)'],
  ['garbage collector', (file) => file === '(garbage collector)'],
  ['govflow', (file) => file.startsWith('dist/')],
  ['AI SDK', (file) => /^node_modules\/(ai|@ai-sdk\/[^/]+)\//.test(file)],
  ['zod', (file) => file.startsWith('node_modules/zod/')],
  ['other packages', (file) => file.startsWith('node_modules/')],
  ['Node (node:*)', (file) => file.startsWith('node:')],
  ['program, native and other', () => true],
];

/** Self time per part (PARTS), in milliseconds, in PARTS order. */
function partsOf(files) {
  const totals = new Map(PARTS.map(([name]) => [name, 0]));
  for (const [file, ms] of files) {
    const [name] = PARTS.find(([, matches]) => matches(file));
    totals.set(name, totals.get(name) + ms);
  }
  return [...totals].map(([name, ms]) => ({ name, ms: Math.round(ms * 10) / 10 }));
}

/**
 * Self time per part (PARTS, idle left out) of every profile in `dir`, per one of `calls`: a
 * daemon that re-executes itself with its Node flags leaves two profiles there.
 */
export function profilePartsPerCall(dir, calls) {
  const perCall = new Map();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const { parts } = summarizeProfile(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    for (const { name, ms } of parts) if (name !== 'idle') perCall.set(name, (perCall.get(name) ?? 0) + ms / calls);
  }
  return perCall;
}

/**
 * A frame's file, from the package or dist/ on: `node_modules/ai/dist/index.mjs`, `dist/pipeline/x.js`.
 * A frame in the CLI's bundle (dist/bundle/, rolldown.config.mjs) is named after the module it
 * came from: rolldown starts each module's code with a `// <path>` line, and `line` (0-based) is
 * looked up among those.
 */
function shortUrl(url, line = 0) {
  if (!url) return '';
  const clean = url.replace(/^file:\/\//, '');
  if (clean.includes('/dist/bundle/'))
    return bundledModuleAt(clean, line) ?? clean.slice(clean.lastIndexOf('/dist/') + 1);
  const nodeModules = clean.lastIndexOf('node_modules/');
  if (nodeModules !== -1) return clean.slice(nodeModules);
  const dist = clean.lastIndexOf('/dist/');
  if (dist !== -1) return clean.slice(dist + 1);
  return clean.startsWith('node:') ? clean : path.basename(clean);
}

/** Per bundle file: the 0-based line where each module starts, and its path, in line order. */
const bundleModules = new Map();

function bundledModuleAt(file, line) {
  if (!bundleModules.has(file)) {
    const starts = [];
    try {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((text, index) => {
          const module = /^\/\/ ((?:node_modules|dist)\/\S+)$/.exec(text)?.[1];
          if (module) starts.push({ line: index, module });
        });
    } catch {
      // the bundle was rebuilt since: the frame keeps the bundle's file name
    }
    bundleModules.set(file, starts);
  }
  const starts = bundleModules.get(file);
  let low = 0;
  let high = starts.length - 1;
  let found = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (starts[middle].line <= line) {
      found = starts[middle].module;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

export function printProfileSummary(summary, write = console.log) {
  write(`  self time, top functions (of ${summary.totalMs} ms sampled):`);
  for (const entry of summary.functions)
    write(`    ${String(entry.ms).padStart(8)} ms ${String(entry.share).padStart(5)} %  ${entry.name}`);
  write('  self time by file:');
  for (const entry of summary.files)
    write(`    ${String(entry.ms).padStart(8)} ms ${String(entry.share).padStart(5)} %  ${entry.name}`);
  write("  time by owner (the nearest govflow module or package on the stack: Node's work counts for its caller):");
  for (const entry of summary.owners)
    write(`    ${String(entry.ms).padStart(8)} ms ${String(entry.share).padStart(5)} %  ${entry.name}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node bench/cpu-profile-summary.mjs <file.cpuprofile> [top]');
    process.exit(2);
  }
  printProfileSummary(summarizeProfile(JSON.parse(readFileSync(file, 'utf8')), Number(top ?? 25)));
}
