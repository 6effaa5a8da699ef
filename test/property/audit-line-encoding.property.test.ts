/**
 * Property tests of the audit line encoding (SPEC §6): for any text — lone surrogates, C0/C1
 * controls, U+2028/2029, the log's own syntax — the written form is one line with nothing raw
 * that could split or forge an entry, it survives UTF-8 on disk, and reads back exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatEntry, GENESIS_HASH } from '../../src/audit/audit-entry-format.js';
import { parseEntries } from '../../src/audit/audit-entry-parse.js';
import { decodeJson, encodeJson, escapeCode, escapeText, unescapeText } from '../../src/audit/audit-line-encoding.js';
import type { SentientMessage } from '../../src/message/sentient-message.js';
import { PROPERTY_SEED, RAW_FORBIDDEN_ON_A_LINE, hasLoneSurrogate, hostileText } from './hostile-text.js';

const RUNS = { seed: PROPERTY_SEED, numRuns: 400 };

/** What a string becomes after a trip through a UTF-8 file. */
function throughUtf8(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

describe('text values', () => {
  it('escapeText → unescapeText is the identity, through UTF-8 too', () => {
    fc.assert(
      fc.property(hostileText(), (text) => {
        const written = escapeText(text);
        expect(unescapeText(written)).toBe(text);
        expect(unescapeText(throughUtf8(written))).toBe(text);
      }),
      RUNS,
    );
  });

  it('the written form holds no control, separator or lone surrogate', () => {
    fc.assert(
      fc.property(hostileText(), (text) => {
        const written = escapeText(text);
        expect(RAW_FORBIDDEN_ON_A_LINE.test(written)).toBe(false);
        expect(hasLoneSurrogate(written)).toBe(false);
        // Only our own escapes follow a backslash.
        expect(/\\(?![\\nrt]|u[0-9a-f]{4})/.test(written.replace(/\\\\/g, ''))).toBe(false);
      }),
      RUNS,
    );
  });

  it('a code never holds a raw "]" (it cannot swallow the text after [STATUS: …])', () => {
    fc.assert(
      fc.property(hostileText(), (code) => {
        const written = escapeCode(code);
        expect(written.includes(']')).toBe(false);
        expect(unescapeText(written)).toBe(code);
      }),
      RUNS,
    );
  });
});

describe('JSON values', () => {
  it('encodeJson → decodeJson round-trips any JSON with hostile strings, on one clean line', () => {
    const hostileJson = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        hostileText(8),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(hostileText(3), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(hostileJson, (value) => {
        const written = encodeJson(value);
        expect(RAW_FORBIDDEN_ON_A_LINE.test(written)).toBe(false);
        expect(decodeJson(throughUtf8(written))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      RUNS,
    );
  });
});

describe('whole entries', () => {
  function messageOf(texts: string[], input: unknown): SentientMessage {
    const [agent, source, message, notes, file, errorMessage, id, parent] = texts;
    return {
      message_id: `msg-${id}`,
      timestamp: { executed_at: '2026-03-08T14:30:52.000+08:00', timezone: 'Asia/Singapore' },
      agent: { name: agent, type: 'governance' },
      input: { source, content: input },
      output: { content: null, content_type: file },
      next_agent: { name: null, reason: null },
      status: { code: 'failed', message },
      error: {
        has_error: true,
        error_code: 'PROCESSING_ERROR',
        error_message: errorMessage,
        retry_count: 1,
        recoverable: false,
      },
      metadata: { session_id: 'sess-1', request_id: 'req-1', sequence_number: 1, parent_message_id: parent },
      audit: { compliance_notes: notes, governance_files_consulted: [file] },
    };
  }

  it('any hostile fields: one entry of the fixed line count, read back field for field, from the UTF-8 bytes', () => {
    fc.assert(
      fc.property(
        fc.array(hostileText(12), { minLength: 8, maxLength: 8 }),
        fc.oneof(hostileText(12), fc.array(hostileText(4), { maxLength: 3 })),
        (texts, input) => {
          const message = messageOf(texts, input);
          const notes = [texts[3]];
          const { text, hash } = formatEntry(
            { message, governanceHash: 'gov', corrections: [texts[0]], complianceViolations: [], notes },
            'Asia/Singapore',
            GENESIS_HASH,
          );
          const fromDisk = throughUtf8(text);
          const { entries, torn } = parseEntries(fromDisk);
          expect(torn).toBeNull();
          expect(entries).toHaveLength(1);
          const [entry] = entries;
          expect(entry.hash).toBe(hash);
          expect(fromDisk.split('\n')).toHaveLength(typeof input === 'string' ? 22 : 23);
          expect(entry).toMatchObject({
            agent: texts[0],
            inputSource: texts[1],
            input,
            outputType: texts[4],
            status: { code: 'failed', message: texts[2] },
            error: { code: 'PROCESSING_ERROR', message: texts[5], retryCount: 1, recoverable: false },
            complianceNotes: texts[3],
            governanceFiles: [texts[4]],
            messageId: `msg-${texts[6]}`,
            parentMessageId: texts[7],
            corrections: [texts[0]],
            notes,
          });
        },
      ),
      { seed: PROPERTY_SEED, numRuns: 200 },
    );
  });
});
