/**
 * How deep JSON nests, measured without recursion: a model can answer with 100,000 nested
 * arrays, and every recursive walk over such a value (JSON.stringify, structuredClone, ajv,
 * isDeepStrictEqual) overflows the stack. `message.max_depth` (docs/configuration.md) is checked on the text
 * before it is parsed, so a too-deep value is never built; values from elsewhere are measured
 * with an explicit stack before anything recursive walks them.
 *
 * Depth counts containers: `1` and `"a"` are 0, `{}` and `[]` are 1, `{"a":[1]}` is 2.
 */

/** Where a text first nests past the limit; `depth` is the deepest level seen up to there. */
export interface TextDepth {
  depth: number;
  /** Index of the bracket that went past the limit, or null when the text stays within it. */
  exceededAt: number | null;
}

/**
 * Scans JSON text once, counting `{`/`[` against `}`/`]` outside strings (escapes respected).
 * Stops at the first bracket past `limit`. The text need not be valid JSON: chatter around it
 * only counts where it holds brackets outside quotes.
 */
export function jsonTextDepth(text: string, limit: number = Number.POSITIVE_INFINITY): TextDepth {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* \ */) index++;
      else if (code === 0x22 /* " */) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return { depth: deepest, exceededAt: index };
      }
    } else if ((code === 0x7d /* } */ || code === 0x5d) /* ] */ && depth > 0) depth--;
  }
  return { depth: deepest, exceededAt: null };
}

/**
 * Depth of a value (objects and arrays), walked with an explicit stack. Stops as soon as it
 * passes `limit` and returns `limit + 1` then, so a cyclic value also ends (as "too deep").
 */
export function jsonValueDepth(value: unknown, limit: number = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: Array<{ value: object; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > limit) return limit + 1;
    }
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return deepest;
}

/** The sentence a too-deep answer gets, for the model's repair prompt and the audit log. */
export function tooDeepMessage(limit: number, where = 'the JSON'): string {
  return `${where} nests deeper than message.max_depth (${limit}) levels of objects and arrays; answer with a flatter JSON object`;
}
