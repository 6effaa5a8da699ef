/**
 * What signed checkpoints (SPEC §16) cost per step: the same REQUESTS requests (dry-run, six
 * messages each) through `govflow start` with and without `audit.signing_key` at the default
 * checkpoint interval (1 s) and one witness folder, in alternating rounds. Printed: the time per
 * step of each and the overhead (target ≤ 5 %).
 *
 *   node bench/signing.mjs            # 300 requests, 3 rounds each way
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  REPOSITORY_ROOT,
  envInteger,
  machineInfo,
  makeExampleRoot,
  removeRoot,
  reportResult,
  round,
  sleep,
  summarize,
} from './bench-support.mjs';

const REQUESTS = envInteger('REQUESTS', 300);
const ROUNDS = envInteger('ROUNDS', 3);
const CLI = path.join(REPOSITORY_ROOT, 'bin', 'govflow.js');
const keys = mkdtempSync(path.join(os.tmpdir(), 'govflow-bench-keys-'));
spawnSync(process.execPath, [CLI, 'keygen', '--out', path.join(keys, 'audit.key')], { stdio: 'ignore' });

async function perStepMs(signed) {
  const witness = mkdtempSync(path.join(os.tmpdir(), 'govflow-bench-witness-'));
  const audit = signed
    ? `audit: { signing_key: ${JSON.stringify(path.join(keys, 'audit.key'))}, witnesses: [${JSON.stringify(witness)}] }\n`
    : '';
  const root = makeExampleRoot(`intake: { concurrency: 8 }\n${audit}`, 'govflow-bench-signing-');
  try {
    const child = spawn(process.execPath, [CLI, 'start', '--root', root], { stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    while (!output.includes('ready')) await sleep(5);
    const inbox = path.join(root, 'system', 'inbox');
    const started = performance.now();
    for (let index = 0; index < REQUESTS; index++)
      writeFileSync(
        path.join(inbox, `r${index}.json`),
        JSON.stringify({ request: `Summarize note ${index}.`, request_id: `r${index}` }),
      );
    const outbox = path.join(root, 'system', 'outbox');
    while (readdirSync(outbox).filter((name) => name.endsWith('.json')).length < REQUESTS) await sleep(10);
    const elapsed = performance.now() - started;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
    return elapsed / (REQUESTS * 6);
  } finally {
    removeRoot(root);
    removeRoot(witness);
  }
}

const plain = [];
const signed = [];
for (let round_ = 0; round_ < ROUNDS; round_++) {
  plain.push(await perStepMs(false));
  signed.push(await perStepMs(true));
}
removeRoot(keys);
const [a, b] = [summarize(plain), summarize(signed)];
const overhead = (b.median / a.median - 1) * 100;
console.log(
  `per step, median of ${ROUNDS} rounds of ${REQUESTS} requests: ${round(a.median, 3)} ms unsigned, ${round(b.median, 3)} ms signed ` +
    `(checkpoint_ms 1000, one witness folder): ${round(overhead, 1)} % (target ≤ 5 %)`,
);
reportResult({
  bench: 'signing',
  machine: machineInfo(),
  unsigned_ms_per_step: round(a.median, 3),
  signed_ms_per_step: round(b.median, 3),
  targets: [
    {
      name: 'signed checkpoints, cost per step',
      target: '≤ 5 %',
      value: round(overhead, 1),
      unit: '%',
      pass: overhead <= 5,
    },
  ],
});
