/**
 * The canonical JSON govflow hashes (approved arguments, signed checkpoints, a delegation's
 * `[HANDOFF]`) is RFC 8785's JSON Canonicalization Scheme for JSON values: checked against the
 * RFC's own examples (§3.2.2 serialization, §3.2.3 key order, Appendix B numbers).
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/message/canonical-json.js';

describe('canonicalJson is RFC 8785 for JSON values', () => {
  it("writes the RFC's §3.2.2 example as the RFC does", () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], ' +
        '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code unit, as §3.2.3 orders them', () => {
    const input = JSON.parse(
      '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One", ' +
        '"\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control", "\\u00f6": "Latin Small Letter O With Diaeresis"}',
    );
    // (Object.keys would put "1" first: integer-like keys lead in JavaScript objects, not in canonical JSON.)
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('writes numbers as ECMAScript does (Appendix B)', () => {
    const cases: Array<[number, string]> = [
      [-0, '0'],
      [5e-324, '5e-324'],
      [1.7976931348623157e308, '1.7976931348623157e+308'],
      [9007199254740992, '9007199254740992'],
      [295147905179352830000, '295147905179352830000'],
      [1e21, '1e+21'],
      [1e-7, '1e-7'],
      [0.000001, '0.000001'],
      [333333333.3333332, '333333333.3333332'],
    ];
    for (const [value, text] of cases) expect(canonicalJson(value)).toBe(text);
  });

  it('nests: objects in arrays in objects, each sorted, no whitespace', () => {
    expect(canonicalJson({ b: [{ z: 1, a: { y: null, x: 'é' } }], a: true })).toBe(
      '{"a":true,"b":[{"a":{"x":"é","y":null},"z":1}]}',
    );
  });
});
