/**
 * The labelled corpus (test/fixtures/pii/corpus.jsonl, ≥ 300 lines with hard negatives) against
 * every built-in detector: the precision and recall targets of SPEC §12's issue, per detector.
 * Throughput is measured in bench/pii-detectors.mjs, not here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtInDetector, findPii } from '../../src/privacy/pii-detectors.js';
import { PII_KINDS } from '../../src/config/config-vocabulary.js';
import { scoreDetectors, type LabelledLine } from '../support/detector-scoring.mjs';
import { REPOSITORY_ROOT } from '../support/example-app.js';

const lines = readFileSync(path.join(REPOSITORY_ROOT, 'test/fixtures/pii/corpus.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as LabelledLine);

describe('PII corpus', () => {
  it('has at least 300 labelled lines, positives of every kind and hard negatives', () => {
    expect(lines.length).toBeGreaterThanOrEqual(300);
    expect(lines.filter((line) => line.expect.length === 0).length).toBeGreaterThanOrEqual(100);
    const kinds = new Set(lines.flatMap((line) => line.expect.map((label) => label.kind)));
    expect([...kinds].sort()).toEqual([...PII_KINDS].sort());
  });

  it('every detector reaches precision ≥ 0.98 and recall ≥ 0.95', () => {
    const scores = scoreDetectors(lines, PII_KINDS.map(builtInDetector), findPii);
    for (const score of scores) {
      expect(score.precision, `${score.kind} precision; ${score.examples.join('; ')}`).toBeGreaterThanOrEqual(0.98);
      expect(score.recall, `${score.kind} recall; ${score.examples.join('; ')}`).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('scoring counts a wrong kind as both a false alarm and a miss', () => {
    const [email] = scoreDetectors(
      [{ id: 1, text: 'a@corp.io', expect: [{ kind: 'phone', value: 'a@corp.io' }] }],
      [builtInDetector('email')],
      findPii,
    ).filter((score) => score.kind === 'email');
    expect(email).toMatchObject({ truePositives: 0, falsePositives: 1, precision: 0 });
  });
});
