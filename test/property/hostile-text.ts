/**
 * fast-check arbitraries for text a hostile model or operator can produce: any UTF-16 code unit
 * (lone surrogates included), C0/C1 controls, DEL, line and paragraph separators, and the
 * audit log's own syntax (`---`, `[TAG: …]`, `\N`, backslashes).
 */
import fc from 'fast-check';

/** Every property test runs with this seed and a bounded number of runs (reproducible, fast). */
export const PROPERTY_SEED = 18;

export const NASTY_PIECES = [
  '\\',
  '\\\\',
  '\\N',
  '\\u0041',
  '\n',
  '\r',
  '\r\n',
  '\t',
  '\u0000',
  '\u0001',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0080',
  '\u0085',
  '\u009f',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\ud83d\ude00',
  ']',
  '[',
  '"',
  '{',
  '}',
  '---',
  '\n---\n',
  '[ENTRY_HASH: 00]',
  '[STATUS: success]',
  '```',
  '```json\n',
  'é',
  '日本',
];

/** One UTF-16 code unit, any value. */
export const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** Any code point, astral ones included (built here: fast-check's full-Unicode units take seconds to set up). */
export const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code));

/** Text mixing nasty pieces, arbitrary code units and code points and ordinary strings. */
export function hostileText(maxPieces = 24): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof(fc.constantFrom(...NASTY_PIECES), anyCodeUnit, fc.string({ maxLength: 8 }), anyCodePoint), {
      maxLength: maxPieces,
    })
    .map((pieces) => pieces.join(''));
}

/** Characters that must never appear raw on an audit line (SPEC §6). */
export const RAW_FORBIDDEN_ON_A_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** True when `text` holds a surrogate without its partner. */
export function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}
