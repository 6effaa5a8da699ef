/**
 * Precision and recall of PII detectors against a labelled corpus (test/fixtures/pii/), shared by
 * the corpus test and bench/pii-detectors.mjs so both count the same way: a finding is a true
 * positive when a label of the same kind has exactly its value on that line.
 *
 * `lines`: `{ id, text, expect: [{ kind, value }] }` each; `detectors`: each has a `kind`;
 * `findPii(text, detectors)`: src/privacy/pii-detectors.ts's (the test passes the source, the
 * benchmark the build). Returns one score per kind: `{ kind, truePositives, falsePositives,
 * falseNegatives, precision, recall, examples }` — precision 1 when the detector found nothing,
 * recall 1 when the corpus holds no value of the kind, a few misses and false alarms as examples.
 */
export function scoreDetectors(lines, detectors, findPii) {
  const scores = new Map();
  const scoreOf = (kind) => {
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
    for (const finding of findPii(line.text, detectors)) {
      const score = scoreOf(finding.kind);
      const index = expected.indexOf(`${finding.kind}\0${finding.value}`);
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
