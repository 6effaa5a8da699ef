/**
 * Finds the one JSON object in a model's answer (seed 000 §7): raw, fenced, or first `{` to last
 * `}`; trailing commas are mended. Nesting is measured on the text first (`message.max_depth`), so
 * a too-deep value is never built and nothing downstream overflows the stack walking it.
 */
import { DEFAULT_MAX_DEPTH, jsonTextDepth, tooDeepMessage } from './json-depth.js';
import { isPlainObject } from './json-text.js';

/** Where the object was found: the whole answer, a fenced block, or first `{` to last `}`. */
type Method = 'raw' | 'fenced' | 'braces';

export type ParseResult =
  | { ok: true; value: Record<string, unknown>; method: Method; repairedTrailingCommas: boolean }
  | { ok: false; error: string };

const FENCE = /```(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?```/;

/** Removes commas that directly precede `}` or `]`, outside strings. */
export function removeTrailingCommas(text: string): string {
  let result = '';
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      result += char;
      if (char === '\\') {
        result += text[index + 1] ?? '';
        index++;
      } else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    if (char === ',') {
      let look = index + 1;
      while (look < text.length && /\s/.test(text[look])) look++;
      if (text[look] === '}' || text[look] === ']') continue;
    }
    result += char;
  }
  return result;
}

function tryParse(text: string): { value?: unknown; error?: string; repaired: boolean } {
  try {
    return { value: JSON.parse(text), repaired: false };
  } catch (error) {
    const cleaned = removeTrailingCommas(text);
    if (cleaned !== text) {
      try {
        return { value: JSON.parse(cleaned), repaired: true };
      } catch {
        // fall through to the original error, which points at the real position
      }
    }
    return { error: error instanceof Error ? error.message : String(error), repaired: false };
  }
}

/** True when the object opened at `start` never closes (outside strings): the answer was cut off. */
function isCutOff(text: string, start: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if ((char === '}' || char === ']') && --depth === 0) return false;
  }
  return true;
}

/** The answer's JSON object, or why there is none; `maxDepth` is `message.max_depth`, the deepest nesting accepted. */
export function parseModelOutput(raw: string, maxDepth: number = DEFAULT_MAX_DEPTH): ParseResult {
  const text = raw.trim();
  if (text.length === 0) return { ok: false, error: 'the response was empty; answer with one JSON object' };
  const candidates: Array<{ text: string; method: Method }> = [{ text, method: 'raw' }];
  const fenced = FENCE.exec(text);
  if (fenced) candidates.push({ text: fenced[1].trim(), method: 'fenced' });
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first !== -1 && last > first) candidates.push({ text: text.slice(first, last + 1), method: 'braces' });

  // Report the error inside the extracted JSON (fenced block, else braces), not at the chatter.
  const parseErrors: Partial<Record<Method, string>> = {};
  let notAnObject: string | undefined;
  const tooDeep = tooDeepMessage(maxDepth, 'the response');
  for (const candidate of candidates) {
    if (jsonTextDepth(candidate.text, maxDepth).exceededAt !== null) {
      parseErrors[candidate.method] = tooDeep;
      continue;
    }
    const parsed = tryParse(candidate.text);
    if (parsed.error !== undefined) {
      parseErrors[candidate.method] = parsed.error;
      continue;
    }
    if (isPlainObject(parsed.value))
      return { ok: true, value: parsed.value, method: candidate.method, repairedTrailingCommas: parsed.repaired };
    notAnObject ??= `the response is JSON but not an object (got ${
      Array.isArray(parsed.value) ? 'an ' + 'array' : parsed.value === null ? 'null' : typeof parsed.value
    }); answer with one JSON object`;
  }
  const mainError = parseErrors.fenced ?? parseErrors.braces ?? parseErrors.raw;
  if (mainError === tooDeep) return { ok: false, error: tooDeep };
  if (notAnObject) return { ok: false, error: notAnObject };
  if (first === -1)
    return { ok: false, error: 'no JSON object found in the response; answer with one JSON object and nothing else' };
  if (last < first || isCutOff(text, first)) {
    return {
      ok: false,
      error:
        'the JSON object is cut off (it never closes); the response was probably truncated — answer with a shorter, complete JSON object',
    };
  }
  return { ok: false, error: `the response is not valid JSON: ${mainError ?? 'unknown parse error'}` };
}
