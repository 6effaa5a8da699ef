/**
 * PII detectors: precision and recall per detector on the labelled corpus
 * (test/fixtures/pii/corpus.jsonl, built by its generate-corpus.py with check digits computed
 * independently of govflow), and redaction throughput in MB/s of UTF-8 input.
 *
 * Throughput is measured twice with every kind enabled plus one custom pattern: on the corpus
 * text itself repeated (dense: about one PII value per 60 bytes, the worst case, since every
 * candidate runs its validator) and on meeting-note prose with one email and one phone number per
 * ~1 KiB (what requests look like). Targets (issue 14): precision ≥ 0.98 and recall ≥ 0.95 per
 * detector, ≥ 20 MB/s. The rate is given per wall second and per CPU second of this process
 * (process.cpuUsage): redaction is single-threaded and synchronous, so on a shared machine the
 * wall figure measures the scheduler as much as govflow; the target is checked on CPU time.
 *
 * BENCH_PII_MB (default 8): megabytes per throughput run; BENCH_PII_RUNS (default 5).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPOSITORY_ROOT, envInteger, importBuilt, reportResult, round, summarize } from './bench-support.mjs';
import { scoreDetectors } from '../test/support/detector-scoring.mjs';

const { builtInDetector, findPii } = await importBuilt('privacy/pii-detectors.js');
const { PII_KINDS } = await importBuilt('config/config-vocabulary.js');
const { PiiRedactor, piiDetectors } = await importBuilt('privacy/pii-redactor.js');

const MEGABYTES = envInteger('BENCH_PII_MB', 8);
const RUNS = envInteger('BENCH_PII_RUNS', 5);
const TARGET_PRECISION = 0.98;
const TARGET_RECALL = 0.95;
const TARGET_MBPS = 20;

const lines = readFileSync(path.join(REPOSITORY_ROOT, 'test/fixtures/pii/corpus.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));
const scores = scoreDetectors(lines, PII_KINDS.map(builtInDetector), findPii);

console.log(
  `PII detectors on ${lines.length} labelled lines (${lines.filter((line) => line.expect.length === 0).length} hard negatives)`,
);
console.log('  detector      TP   FP   FN  precision  recall');
for (const score of scores) {
  console.log(
    `  ${score.kind.padEnd(12)} ${String(score.truePositives).padStart(3)}  ${String(score.falsePositives).padStart(3)}  ` +
      `${String(score.falseNegatives).padStart(3)}  ${score.precision.toFixed(3).padStart(9)}  ` +
      `${score.recall.toFixed(3).padStart(6)}${score.examples.length ? `   e.g. ${score.examples.slice(0, 2).join('; ')}` : ''}`,
  );
}

const config = {
  redact: [...PII_KINDS],
  custom: [{ name: 'employee_id', pattern: 'EMP-[0-9]{6}' }],
  restore_in_result: false,
};
const prose =
  'Minutes of the weekly review. Alice will send the revised budget by Friday; Bob reviews the draft and the risk register. ' +
  'Carol asked whether the vendor contract covers support hours outside the EU and what the escalation path looks like. ' +
  'We agreed to move the launch to the second week of March, to keep version 2.4.1 frozen and to ship 2.5.0 after the audit. ' +
  'Open questions: the data retention policy (90 or 180 days), the owner of the on-call rota, and the training budget for Q3. ';
function textOf(unit, targetBytes, sprinkle) {
  const pieces = [];
  let bytes = 0;
  for (let index = 0; bytes < targetBytes; index++) {
    const piece = sprinkle
      ? `${unit}Contact person${index}@example.com or +44 20 7946 0${String(100 + (index % 900))}.\n`
      : unit;
    pieces.push(piece);
    bytes += Buffer.byteLength(piece);
  }
  return pieces.join('');
}
const corpusText = lines.map((line) => line.text).join('\n') + '\n';
const workloads = [
  { name: 'corpus text (dense PII)', text: textOf(corpusText, MEGABYTES * 1024 * 1024, false) },
  { name: 'prose, 2 values per KiB', text: textOf(prose + prose, MEGABYTES * 1024 * 1024, true) },
];
const throughput = [];
for (const workload of workloads) {
  const bytes = Buffer.byteLength(workload.text);
  const rates = [];
  const wallRates = [];
  let replaced = 0;
  for (let run = 0; run < RUNS + 1; run++) {
    const redactor = new PiiRedactor(piiDetectors(config));
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const { counts } = redactor.redact(workload.text);
    const cpu = process.cpuUsage(cpuBefore);
    const seconds = (performance.now() - started) / 1000;
    if (run === 0) continue; // warm-up: regex compilation and JIT
    rates.push(bytes / 1024 / 1024 / ((cpu.user + cpu.system) / 1e6));
    wallRates.push(bytes / 1024 / 1024 / seconds);
    replaced = Object.values(counts).reduce((sum, count) => sum + count, 0);
  }
  const stats = summarize(rates);
  const wall = summarize(wallRates);
  throughput.push({ name: workload.name, bytes, replaced, stats, wall });
  console.log(
    `  throughput, ${workload.name}: ${round(stats.median, 1)} MB per CPU second median (${round(stats.min, 1)} – ${round(stats.max, 1)}); ` +
      `${round(wall.median, 1)} MB per wall second; ${RUNS} runs of ${round(bytes / 1024 / 1024, 1)} MB, ${replaced} values replaced`,
  );
}

const lowestPrecision = scores.reduce((low, score) => (score.precision < low.precision ? score : low));
const lowestRecall = scores.reduce((low, score) => (score.recall < low.recall ? score : low));
const slowest = throughput.reduce((low, item) => (item.stats.median < low.stats.median ? item : low));
reportResult({
  bench: 'pii-detectors',
  title: 'PII detectors: precision, recall, throughput',
  config: { lines: lines.length, megabytes: MEGABYTES, runs: RUNS },
  figures: [
    ...scores.map((score) => ({
      name: `${score.kind}: precision / recall`,
      unit: '',
      median: `${round(score.precision, 3)} / ${round(score.recall, 3)}`,
      runs: 1,
      note: `TP ${score.truePositives}, FP ${score.falsePositives}, FN ${score.falseNegatives}`,
    })),
    ...throughput.map((item) => ({
      name: `throughput, ${item.name}`,
      unit: 'MB per CPU s',
      median: round(item.stats.median, 1),
      runs: RUNS,
      note: `${round(item.stats.min, 1)} – ${round(item.stats.max, 1)}; wall ${round(item.wall.median, 1)} MB/s`,
    })),
  ],
  targets: [
    {
      name: `precision, lowest detector (${lowestPrecision.kind})`,
      target: `≥ ${TARGET_PRECISION}`,
      value: round(lowestPrecision.precision, 3),
      unit: '',
      pass: lowestPrecision.precision >= TARGET_PRECISION,
    },
    {
      name: `recall, lowest detector (${lowestRecall.kind})`,
      target: `≥ ${TARGET_RECALL}`,
      value: round(lowestRecall.recall, 3),
      unit: '',
      pass: lowestRecall.recall >= TARGET_RECALL,
    },
    {
      name: `throughput, slowest workload (${slowest.name})`,
      target: `≥ ${TARGET_MBPS} MB/s (CPU time)`,
      value: round(slowest.stats.median, 1),
      unit: 'MB/s',
      pass: slowest.stats.median >= TARGET_MBPS,
    },
  ],
  details: {
    scores,
    throughput: throughput.map((item) => ({
      name: item.name,
      bytes: item.bytes,
      replaced: item.replaced,
      median: item.stats.median,
      wallMedian: item.wall.median,
    })),
  },
});
