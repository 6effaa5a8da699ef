/**
 * Property tests of the request-file parser (SPEC §2): any bytes under any name give a request,
 * a reply or a reason — never an exception — and well-formed requests come back exactly as
 * written, whatever Unicode they hold.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_DEPTH, parseRequestFile } from '../../src/intake/request-file.js';
import { PROPERTY_SEED, hasLoneSurrogate, hostileText } from './hostile-text.js';

const RUNS = { seed: PROPERTY_SEED, numRuns: 300 };
const MAX_BYTES = 4_096;

const fileName = fc.oneof(
  fc.constantFrom(
    'request.txt',
    'NOTE.MD',
    'r.json',
    'r.JSON',
    'archive.zip',
    'noextension',
    '.hidden.txt',
    'a.b.c.json',
  ),
  hostileText(4).map((stem) => `${stem}.txt`),
);

/** Text a request may hold: well-formed Unicode (a lone surrogate cannot be UTF-8) with something in it. */
const requestText = hostileText(16).filter(
  (text) => !hasLoneSurrogate(text) && text.replace(/^\uFEFF/, '').trim() !== '',
);

const requestId = fc.stringMatching(/^[A-Za-z0-9._-]{1,20}$/).filter((id) => id !== '.' && id !== '..');

describe('parseRequestFile on any input', () => {
  it('never throws; an invalid file always gets a reason', () => {
    fc.assert(
      fc.property(
        fileName,
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }),
          hostileText(30).map((text) => Buffer.from(text, 'utf8')),
        ),
        (name, bytes) => {
          const parsed = parseRequestFile(name, Buffer.from(bytes), MAX_BYTES);
          expect(['request', 'reply', 'invalid']).toContain(parsed.kind);
          if (parsed.kind === 'invalid') expect(parsed.reason.length).toBeGreaterThan(10);
        },
      ),
      RUNS,
    );
  });

  it('JSON documents of any shape and nesting never throw', () => {
    const document = fc.oneof(
      fc.jsonValue({ maxDepth: 6 }),
      fc.record(
        { request: fc.jsonValue({ maxDepth: 2 }), metadata: fc.jsonValue({ maxDepth: 6 }) },
        { requiredKeys: [] },
      ),
      fc.record(
        { session_id: fc.jsonValue({ maxDepth: 1 }), reply: fc.jsonValue({ maxDepth: 1 }) },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(document, (value) => {
        const parsed = parseRequestFile('r.json', Buffer.from(JSON.stringify(value) ?? 'null', 'utf8'), 1_000_000);
        expect(['request', 'reply', 'invalid']).toContain(parsed.kind);
      }),
      RUNS,
    );
  });

  it('plain text comes back exactly (a leading BOM dropped)', () => {
    fc.assert(
      fc.property(requestText, fc.constantFrom('.txt', '.md', '.TXT'), (text, extension) => {
        const parsed = parseRequestFile(`request${extension}`, Buffer.from(text, 'utf8'), 1_000_000);
        expect(parsed).toEqual({
          kind: 'request',
          requestId: null,
          text: text.replace(/^\uFEFF/, ''),
          sessionId: null,
          user: null,
          metadata: null,
        });
      }),
      RUNS,
    );
  });

  it('a JSON request round-trips its fields', () => {
    fc.assert(
      fc.property(
        requestText,
        fc.option(requestId, { nil: undefined }),
        fc.option(requestText, { nil: undefined }),
        fc.option(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }), {
          nil: undefined,
        }),
        (request, id, user, metadata) => {
          const document = { request, request_id: id, user, metadata };
          const parsed = parseRequestFile('r.json', Buffer.from(JSON.stringify(document), 'utf8'), 1_000_000);
          expect(parsed).toEqual({
            kind: 'request',
            requestId: id ?? null,
            text: request,
            sessionId: null,
            user: user ?? null,
            metadata: metadata === undefined ? null : JSON.parse(JSON.stringify(metadata)),
          });
        },
      ),
      RUNS,
    );
  });

  it('over intake.max_bytes is refused, at the limit is not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), (size) => {
        const at = parseRequestFile('r.txt', Buffer.alloc(size, 'a'), size);
        expect(at.kind).toBe('request');
        const over = parseRequestFile('r.txt', Buffer.alloc(size + 1, 'a'), size);
        expect(over.kind === 'invalid' && over.reason).toContain('intake.max_bytes');
      }),
      RUNS,
    );
  });

  it('nesting is accepted up to the request depth limit and refused past it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 * MAX_REQUEST_DEPTH }), (depth) => {
        const metadata = '{"k":'.repeat(depth - 1) + '1' + '}'.repeat(depth - 1);
        const text = `{"request":"hi","metadata":${depth === 1 ? '{}' : metadata}}`;
        const parsed = parseRequestFile('r.json', Buffer.from(text), 1_000_000);
        // The document itself is one level: metadata adds depth - 1 more.
        expect(parsed.kind).toBe(depth <= MAX_REQUEST_DEPTH ? 'request' : 'invalid');
      }),
      RUNS,
    );
  });
});
