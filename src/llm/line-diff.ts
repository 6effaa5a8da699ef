/**
 * A readable line diff (`- ` recorded, `+ ` now, `  ` context) for replay misses and failed
 * `govflow test` cases. Longest common subsequence over lines after trimming the common head and
 * tail, so the usual case — a few changed lines in a long prompt — stays cheap.
 */

/** Unchanged lines shown around each change. */
const CONTEXT_LINES = 2;
/** Longest diff printed, in lines; the rest is counted. */
const MAX_LINES = 80;

type Operation = { kind: 'same' | 'removed' | 'added'; text: string };

/** Line-level edit script from `before` to `after`. */
function operations(before: string[], after: string[]): Operation[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const left = before.slice(head, before.length - tail);
  const right = after.slice(head, after.length - tail);
  const result: Operation[] = before.slice(0, head).map((text) => ({ kind: 'same', text }));
  if (left.length * right.length > 4_000_000) {
    // Too large to align: show both middles whole.
    result.push(
      ...left.map((text): Operation => ({ kind: 'removed', text })),
      ...right.map((text): Operation => ({ kind: 'added', text })),
    );
  } else {
    // lengths[i][j] = LCS length of left[i..] and right[j..]
    const width = right.length + 1;
    const lengths = new Uint32Array((left.length + 1) * width);
    for (let i = left.length - 1; i >= 0; i--) {
      for (let j = right.length - 1; j >= 0; j--) {
        lengths[i * width + j] =
          left[i] === right[j]
            ? lengths[(i + 1) * width + j + 1] + 1
            : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < left.length && j < right.length) {
      if (left[i] === right[j]) {
        result.push({ kind: 'same', text: left[i] });
        i++;
        j++;
      } else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
        result.push({ kind: 'removed', text: left[i++] });
      } else {
        result.push({ kind: 'added', text: right[j++] });
      }
    }
    while (i < left.length) result.push({ kind: 'removed', text: left[i++] });
    while (j < right.length) result.push({ kind: 'added', text: right[j++] });
  }
  result.push(...before.slice(before.length - tail).map((text): Operation => ({ kind: 'same', text })));
  return result;
}

/** Number of lines that differ (removed plus added). */
export function countChangedLines(before: string, after: string): number {
  return operations(before.split('\n'), after.split('\n')).filter((operation) => operation.kind !== 'same').length;
}

/** The diff as text, its two sides labelled; empty when the two are equal. */
export function lineDiff(before: string, after: string, [beforeLabel, afterLabel] = ['expected', 'actual']): string {
  if (before === after) return '';
  const script = operations(before.split('\n'), after.split('\n'));
  const shown = new Set<number>();
  script.forEach((operation, index) => {
    if (operation.kind === 'same') return;
    for (
      let near = Math.max(0, index - CONTEXT_LINES);
      near <= Math.min(script.length - 1, index + CONTEXT_LINES);
      near++
    )
      shown.add(near);
  });
  const lines = [`--- ${beforeLabel}`, `+++ ${afterLabel}`];
  let previous = -1;
  for (const index of [...shown].sort((a, b) => a - b)) {
    if (index !== previous + 1) lines.push(`@@ line ${lineNumberOf(script, index)} @@`);
    const operation = script[index];
    lines.push(`${operation.kind === 'removed' ? '-' : operation.kind === 'added' ? '+' : ' '} ${operation.text}`);
    previous = index;
  }
  if (lines.length > MAX_LINES + 2) {
    const hidden = lines.length - MAX_LINES - 2;
    return [...lines.slice(0, MAX_LINES + 2), `… ${hidden} more diff line(s)`].join('\n');
  }
  return lines.join('\n');
}

/** 1-based line in `before` (or the place in it) where script position `index` stands. */
function lineNumberOf(script: Operation[], index: number): number {
  let line = 1;
  for (let cursor = 0; cursor < index; cursor++) if (script[cursor].kind !== 'added') line++;
  return line;
}
