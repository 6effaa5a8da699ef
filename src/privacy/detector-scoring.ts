/**
 * Precision and recall of PII detectors against a labelled corpus (test/fixtures/pii/), shared by
 * the corpus test and bench/pii-detectors.mjs so both count the same way: a finding is a true
 * positive when a label of the same kind has exactly its value on that line.
 */
import { findPii, type PiiDetector } from './pii-detectors.js';

/** One labelled corpus line. */
export interface LabelledLine {
  id: number;
  text: string;
  expect: Array<{ kind: string; value: string }>;
  note?: string;
}

export interface DetectorScore {
  kind: string;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** 1 when the detector found nothing (no false positive either). */
  precision: number;
  /** 1 when the corpus holds no value of this kind. */
  recall: number;
  /** A few misses and false alarms, for the report: `#id kind "value"`. */
  examples: string[];
}

export function scoreDetectors(lines: readonly LabelledLine[], detectors: readonly PiiDetector[]): DetectorScore[] {
  const scores = new Map<string, DetectorScore>();
  const scoreOf = (kind: string) => {
    let score = scores.get(kind);
    if (!score) {
      score = { kind, truePositives: 0, falsePositives: 0, falseNegatives: 0, precision: 1, recall: 1, examples: [] };
      scores.set(kind, score);
    }
    return score;
  };
  for (const detector of detectors) scoreOf(detector.kind);
  for (const line of lines) {
    const expected = line.expect.map((label) => `${label.kind}\0${label.value}`);
    const found = findPii(line.text, detectors).map((finding) => ({ key: `${finding.kind}\0${finding.value}`, finding }));
    for (const { key, finding } of found) {
      const score = scoreOf(finding.kind);
      const index = expected.indexOf(key);
      if (index >= 0) {
        score.truePositives++;
        expected.splice(index, 1);
      } else {
        score.falsePositives++;
        if (score.examples.length < 5) score.examples.push(`false alarm #${line.id} "${finding.value}"`);
      }
    }
    for (const key of expected) {
      const [kind, value] = key.split('\0');
      const score = scoreOf(kind);
      score.falseNegatives++;
      if (score.examples.length < 5) score.examples.push(`missed #${line.id} "${value}"`);
    }
  }
  for (const score of scores.values()) {
    const flagged = score.truePositives + score.falsePositives;
    const labelled = score.truePositives + score.falseNegatives;
    score.precision = flagged === 0 ? 1 : score.truePositives / flagged;
    score.recall = labelled === 0 ? 1 : score.truePositives / labelled;
  }
  return [...scores.values()];
}
