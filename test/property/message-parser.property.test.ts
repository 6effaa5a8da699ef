/**
 * Property tests of the model-answer parser (SPEC §4 "Parsing", §7 message.max_depth): it never
 * throws on any text, finds the object inside chatter or a fence, repairs a trailing comma,
 * accepts any size, and accepts exactly the nesting depths up to the limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonValueDepth } from '../../src/message/json-depth.js';
import { parseModelOutput } from '../../src/message/message-parser.js';
import { PROPERTY_SEED, hostileText } from './hostile-text.js';

const RUNS = { seed: PROPERTY_SEED, numRuns: 300 };

/** A JSON object (the shape every answer must have). */
const jsonObject = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 4 }), {
  minKeys: 1,
  maxKeys: 5,
});

/** Model chatter: anything without braces or backticks (which would change what is extracted). */
const chatter = hostileText(10).map((text) => text.replace(/[{}`]/g, ''));

/** An object nested `depth` levels deep (the outermost object counts as 1). */
function nested(depth: number): Record<string, unknown> {
  let value: unknown = 1;
  for (let level = 1; level < depth; level++) value = level % 2 === 0 ? { k: value } : [value];
  return { root: value };
}

describe('parseModelOutput on hostile text', () => {
  it('never throws, and every failure says what to do', () => {
    fc.assert(
      fc.property(hostileText(40), (text) => {
        const parsed = parseModelOutput(text);
        if (!parsed.ok) expect(parsed.error.length).toBeGreaterThan(10);
        else expect(typeof parsed.value).toBe('object');
      }),
      RUNS,
    );
  });

  it('raw JSON, a fenced block or an object inside chatter all give back the same object', () => {
    fc.assert(
      fc.property(
        jsonObject,
        chatter,
        chatter,
        fc.constantFrom('raw', 'fenced', 'braces'),
        (value, before, after, form) => {
          const json = JSON.stringify(value);
          const text =
            form === 'raw'
              ? json
              : form === 'fenced'
                ? `${before}\n\`\`\`json\n${json}\n\`\`\`\n${after}`
                : `${before} ${json} ${after}`;
          const parsed = parseModelOutput(text);
          expect(parsed.ok).toBe(true);
          if (parsed.ok) expect(parsed.value).toEqual(JSON.parse(json));
        },
      ),
      RUNS,
    );
  });

  it('a trailing comma before the closing brace is repaired', () => {
    fc.assert(
      fc.property(jsonObject, (value) => {
        const json = JSON.stringify(value);
        const parsed = parseModelOutput(`${json.slice(0, -1)},}`);
        expect(parsed).toMatchObject({ ok: true, repairedTrailingCommas: true });
        if (parsed.ok) expect(parsed.value).toEqual(JSON.parse(json));
      }),
      RUNS,
    );
  });

  it('any size: long strings and wide objects parse whole', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 1, max: 2_000 }), (length, keys) => {
        const value: Record<string, unknown> = { text: 'x'.repeat(length) };
        for (let key = 0; key < keys; key++) value[`k${key}`] = key;
        const parsed = parseModelOutput(`Here you go: ${JSON.stringify(value)}`);
        expect(parsed.ok && (parsed.value.text as string).length).toBe(length);
      }),
      { seed: PROPERTY_SEED, numRuns: 30 },
    );
  });

  it('a depth is accepted exactly when it is within message.max_depth', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 4, max: 150 }), (depth, maxDepth) => {
        const value = nested(depth);
        expect(jsonValueDepth(value)).toBe(depth);
        const parsed = parseModelOutput(JSON.stringify(value), maxDepth);
        expect(parsed.ok).toBe(depth <= maxDepth);
        if (!parsed.ok) expect(parsed.error).toContain(`message.max_depth (${maxDepth})`);
      }),
      RUNS,
    );
  });

  it('brackets inside strings never count toward the depth', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[[\]{}"\\a]{0,300}$/), (noise) => {
        const parsed = parseModelOutput(JSON.stringify({ noise }), 4);
        expect(parsed).toMatchObject({ ok: true, value: { noise } });
      }),
      RUNS,
    );
  });
});
