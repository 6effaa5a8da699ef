import type { PiiDetector, PiiFinding } from '../../src/privacy/pii-detectors.js';

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
  precision: number;
  recall: number;
  examples: string[];
}

export function scoreDetectors(
  lines: readonly LabelledLine[],
  detectors: readonly PiiDetector[],
  findPii: (text: string, detectors: readonly PiiDetector[]) => PiiFinding[],
): DetectorScore[];
