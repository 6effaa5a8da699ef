/**
 * message.max_depth and every walk over model-controlled data: a 100,000-deep answer is refused
 * before it is parsed, and what does get deep (raw values, other inputs) is measured, written,
 * hashed and rendered without overflowing the stack.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeJson, decodeJson } from '../../src/audit/audit-line-encoding.js';
import { parseRequestFile } from '../../src/intake/request-file.js';
import { jsonTextDepth, jsonValueDepth } from '../../src/message/json-depth.js';
import { stringifyIteratively, stringifyJson } from '../../src/message/json-text.js';
import { parseModelOutput } from '../../src/message/message-parser.js';
import { loopKeyOf } from '../../src/pipeline/session-steps.js';

const HUNDRED_THOUSAND = 100_000;

function deepArrayText(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** A value nested `depth` arrays deep, built without recursion (JSON.parse is iterative in V8). */
function deepArray(depth: number): unknown {
  return JSON.parse(deepArrayText(depth));
}

describe('jsonTextDepth', () => {
  it('counts containers, not brackets inside strings or escaped quotes', () => {
    expect(jsonTextDepth('1').depth).toBe(0);
    expect(jsonTextDepth('{}').depth).toBe(1);
    expect(jsonTextDepth('{"a":[1,{"b":null}]}').depth).toBe(3);
    expect(jsonTextDepth('{"a":"[[[[{{{{"}').depth).toBe(1);
    expect(jsonTextDepth('{"a":"\\"[[[["}').depth).toBe(1);
    expect(jsonTextDepth('{"a":"\\\\"}[[').depth).toBe(2);
  });

  it('stops at the first bracket past the limit', () => {
    const result = jsonTextDepth(deepArrayText(HUNDRED_THOUSAND), 64);
    expect(result).toEqual({ depth: 65, exceededAt: 64 });
    expect(jsonTextDepth(deepArrayText(64), 64).exceededAt).toBeNull();
  });

  it('agrees with the depth of the parsed value for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), (value) => {
        expect(jsonTextDepth(JSON.stringify(value)).depth).toBe(jsonValueDepth(value));
      }),
      { seed: 18, numRuns: 300 },
    );
  });
});

describe('jsonValueDepth', () => {
  it('measures a 100,000-deep value and stops early at a limit', () => {
    const deep = deepArray(HUNDRED_THOUSAND);
    expect(jsonValueDepth(deep)).toBe(HUNDRED_THOUSAND);
    expect(jsonValueDepth(deep, 64)).toBe(65);
  });

  it('ends on a cyclic value (as too deep)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(jsonValueDepth(cyclic, 10)).toBe(11);
  });
});

describe('stringifyJson: JSON.stringify at any depth', () => {
  it('writes a 100,000-deep value that JSON.stringify cannot', () => {
    const deep = deepArray(HUNDRED_THOUSAND);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(stringifyJson(deep)).toBe(deepArrayText(HUNDRED_THOUSAND));
    const object = JSON.parse('{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000));
    expect(stringifyJson(object)).toBe('{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000));
  });

  it("the explicit-stack writer gives exactly JSON.stringify's text, compact and indented", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.constantFrom(0, 2), (value, indent) => {
        expect(stringifyIteratively(value, indent)).toBe(JSON.stringify(value, null, indent));
      }),
      { seed: 18, numRuns: 400 },
    );
  });

  it('follows JSON.stringify on undefined, functions, toJSON, non-finite numbers and cycles', () => {
    const odd = {
      a: undefined,
      b: () => 1,
      c: [undefined, () => 1, Number.NaN, -0],
      d: new Date(0),
      e: new String('s'),
    };
    expect(stringifyIteratively(odd)).toBe(JSON.stringify(odd));
    expect(stringifyIteratively(undefined)).toBeUndefined();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = [cyclic];
    expect(() => stringifyIteratively(cyclic)).toThrow(TypeError);
  });
});

describe('the parser refuses too-deep answers before parsing them', () => {
  it('a 100,000-deep array, bare, inside a message, fenced or after chatter', () => {
    const deep = deepArrayText(HUNDRED_THOUSAND);
    const answers = [
      deep,
      `{"output":{"content":${deep},"content_type":"text"}}`,
      'Here it is:\n```json\n{"output":' + deep + '}\n```\n',
      'Sure! {"output":' + deep + '} Hope that helps.',
    ];
    for (const answer of answers) {
      const parsed = parseModelOutput(answer);
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.error).toBe(
        'the response nests deeper than message.max_depth (64) levels of objects and arrays; answer with a flatter JSON object',
      );
    }
  });

  it('takes message.max_depth from its options; depth 64 exactly is accepted', () => {
    const atLimit = '{"a":' + deepArrayText(63) + '}';
    expect(parseModelOutput(atLimit).ok).toBe(true);
    expect(parseModelOutput('{"a":' + deepArrayText(64) + '}').ok).toBe(false);
    expect(parseModelOutput('{"a":[[1]]}', 2)).toMatchObject({ ok: false, error: expect.stringContaining('(2)') });
    expect(parseModelOutput('{"a":[1]}', 2).ok).toBe(true);
  });

  it('brackets in chatter or strings do not count', () => {
    const parsed = parseModelOutput('[[[[[[ notes ]]]]]] {"a":"' + '['.repeat(500) + '"}', 3);
    expect(parsed).toMatchObject({ ok: true, method: 'braces', value: { a: '['.repeat(500) } });
  });
});

describe('walks over model-controlled data survive deep values', () => {
  it('the audit encoder writes and reads back a 100,000-deep value', () => {
    const deep = deepArray(HUNDRED_THOUSAND);
    const written = encodeJson({ content: deep });
    expect(written.length).toBe(2 * HUNDRED_THOUSAND + '{"content":}'.length);
    expect(jsonValueDepth(decodeJson(written))).toBe(HUNDRED_THOUSAND + 1);
  });

  it('loop keys hash a 100,000-deep input, equal inputs alike', () => {
    const key = loopKeyOf('goal_agent', { source: 'objective_agent', content: deepArray(HUNDRED_THOUSAND) });
    expect(key).toMatch(/^goal_agent:[0-9a-f]{32}$/);
    expect(loopKeyOf('goal_agent', { source: 'objective_agent', content: deepArray(HUNDRED_THOUSAND) })).toBe(key);
    expect(loopKeyOf('goal_agent', { source: 'objective_agent', content: deepArray(HUNDRED_THOUSAND - 1) })).not.toBe(
      key,
    );
  });

  it('a JSON request nested past 64 levels is refused with a reason, not a crash later', () => {
    const metadata = '{"a":'.repeat(HUNDRED_THOUSAND) + '1' + '}'.repeat(HUNDRED_THOUSAND);
    const parsed = parseRequestFile(
      'deep.json',
      Buffer.from(`{"request":"hi","metadata":${metadata}}`),
      10 * 1024 * 1024,
    );
    expect(parsed).toEqual({
      kind: 'invalid',
      reason: 'the JSON nests deeper than 64 levels of objects and arrays: flatten "metadata"',
    });
    expect(parseRequestFile('ok.json', Buffer.from('{"request":"hi","metadata":{"a":{"b":[1]}}}'), 1024).kind).toBe(
      'request',
    );
  });
});
