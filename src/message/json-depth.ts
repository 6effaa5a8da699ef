/**
 * How deep JSON nests, measured without recursion: a model can answer with 100,000 nested arrays,
 * which every recursive walk (JSON.stringify, ajv, isDeepStrictEqual) overflows the stack on.
 * Depth counts containers: `1` and `"a"` are 0, `{}` and `[]` are 1, `{"a":[1]}` is 2.
 */

/** Where a text first nests past the limit; `depth` is the deepest level seen up to there. */
/** Deepest JSON nesting accepted in a model's answer by default (`message.max_depth`; the message object itself is depth 1). */
export const DEFAULT_MAX_DEPTH = 64;

export interface TextDepth {
  depth: number;
  /** Index of the bracket that went past the limit, or null when the text stays within it. */
  exceededAt: number | null;
}

/** Scans JSON text (valid or not) once, counting brackets outside strings, up to the first past `limit`. */
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

/** Depth of a value, walked with an explicit stack; `limit + 1` once past `limit`, so a cyclic value ends too. */
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
