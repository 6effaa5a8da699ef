import { describe, expect, it } from 'vitest';
import { isIgnoredName, parseRequestFile, type ParsedRequestFile } from '../../src/intake/request-file.js';
import { generateRequestId, REQUEST_ID_PATTERN } from '../../src/intake/request-ids.js';
import { claimNameFor, generatedRequestIdFor, originalNameOf, parseClaimName } from '../../src/intake/claim-name.js';

const MAX = 1024;

function parse(name: string, content: string | Buffer, maxBytes = MAX): ParsedRequestFile {
  return parseRequestFile(name, typeof content === 'string' ? Buffer.from(content, 'utf8') : content, maxBytes);
}

function reasonOf(result: ParsedRequestFile): string {
  if (result.kind !== 'invalid') throw new Error(`expected an invalid file, got ${JSON.stringify(result)}`);
  return result.reason;
}

describe('parseRequestFile: valid files', () => {
  it('takes the whole text of .txt and .md files, keeping inner whitespace', () => {
    expect(parse('a.txt', 'Summarise\n  the report\n')).toEqual({
      kind: 'request',
      requestId: null,
      text: 'Summarise\n  the report\n',
      sessionId: null,
      user: null,
      metadata: null,
    });
    expect(parse('B.MD', '# Title')).toMatchObject({ kind: 'request', text: '# Title' });
  });

  it('strips a UTF-8 byte order mark from text and JSON', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(parse('a.txt', Buffer.concat([bom, Buffer.from('hello')]))).toMatchObject({ text: 'hello' });
    expect(parse('a.json', Buffer.concat([bom, Buffer.from('{"request":"hi"}')]))).toMatchObject({ text: 'hi' });
  });

  it('reads every field of a JSON request', () => {
    const json = JSON.stringify({
      request: 'do it',
      request_id: 'order-1.A_b',
      session_id: 's1',
      user: 'ana',
      metadata: { a: 1 },
    });
    expect(parse('r.json', json)).toEqual({
      kind: 'request',
      requestId: 'order-1.A_b',
      text: 'do it',
      sessionId: 's1',
      user: 'ana',
      metadata: { a: 1 },
    });
  });

  it('treats null optional fields as absent', () => {
    expect(parse('r.json', '{"request":"x","request_id":null,"user":null,"metadata":null}')).toMatchObject({
      requestId: null,
      user: null,
      metadata: null,
    });
  });

  it('reads a reply to a paused session', () => {
    expect(parse('r.json', '{"session_id":"sess-1","reply":"yes, go on"}')).toEqual({
      kind: 'reply',
      sessionId: 'sess-1',
      reply: 'yes, go on',
    });
  });

  it('accepts a file of exactly max_bytes', () => {
    expect(parse('a.txt', 'x'.repeat(MAX))).toMatchObject({ kind: 'request' });
  });
});

describe('parseRequestFile: invalid files say what to fix', () => {
  const cases: Array<[string, string, string | Buffer, RegExp]> = [
    ['empty file', 'a.txt', '', /empty/],
    ['whitespace only', 'a.md', ' \n\t\n', /empty/],
    ['not UTF-8', 'a.txt', Buffer.from([0x68, 0xff, 0xfe, 0x69]), /UTF-8/],
    ['over max_bytes', 'a.txt', 'x'.repeat(MAX + 1), /max_bytes/],
    ['bad JSON', 'a.json', '{"request": ', /not valid JSON/],
    ['JSON array', 'a.json', '["request"]', /an array, not an object/],
    ['JSON string', 'a.json', '"request"', /not an object/],
    ['missing request', 'a.json', '{"text":"hi"}', /"request" must be a string, but it is missing/],
    ['non-string request', 'a.json', '{"request":42}', /"request" must be a string, but it is a number/],
    ['empty request', 'a.json', '{"request":"  "}', /"request" is empty/],
    ['bad request_id characters', 'a.json', '{"request":"x","request_id":"a/b"}', /"request_id" "a\/b" is not allowed/],
    [
      'request_id too long',
      'a.json',
      JSON.stringify({ request: 'x', request_id: 'a'.repeat(129) }),
      /1 to 128 characters/,
    ],
    ['empty request_id', 'a.json', '{"request":"x","request_id":""}', /"request_id" "" is not allowed/],
    ['numeric request_id', 'a.json', '{"request":"x","request_id":7}', /"request_id" must be a string/],
    ['non-string user', 'a.json', '{"request":"x","user":["u"]}', /"user" must be a string, but it is an array/],
    ['non-string session_id', 'a.json', '{"request":"x","session_id":1}', /"session_id" must be a string/],
    ['path-like session_id', 'a.json', '{"request":"x","session_id":".."}', /not a session id/],
    [
      'metadata not an object',
      'a.json',
      '{"request":"x","metadata":"m"}',
      /"metadata" must be a JSON object, but it is a string/,
    ],
    [
      'metadata an array',
      'a.json',
      '{"request":"x","metadata":[1]}',
      /"metadata" must be a JSON object, but it is an array/,
    ],
    ['reply without session_id', 'a.json', '{"reply":"yes"}', /needs "session_id"/],
    ['reply not a string', 'a.json', '{"session_id":"s","reply":3}', /"reply" must be a string/],
    ['reply traversing folders', 'a.json', '{"session_id":"../x","reply":"y"}', /not a session id/],
    ['both request and reply', 'a.json', '{"request":"x","session_id":"s","reply":"y"}', /both "request" and "reply"/],
    [
      'other extension',
      'a.pdf',
      'hello',
      /extension ".pdf" is not accepted: name the file \*\.txt or \*\.md .* or \*\.json/,
    ],
    ['no extension', 'README', 'hello', /no extension is not accepted/],
  ];
  it.each(cases)('%s', (_label, name, content, expected) => {
    expect(reasonOf(parse(name, content))).toMatch(expected);
  });
});

describe('isIgnoredName', () => {
  it.each(['.hidden.txt', '.DS_Store', 'a.txt.tmp', 'a.part', 'a.txt.swp', 'a.txt~', 'A.TMP'])('ignores %s', (name) => {
    expect(isIgnoredName(name)).toBe(true);
  });
  it.each(['a.txt', 'tmp.txt', 'a.json', 'a.tmp.txt', 'part'])('does not ignore %s', (name) => {
    expect(isIgnoredName(name)).toBe(false);
  });
});

describe('request ids and claim names', () => {
  it('generates valid, distinct ids in the documented shape', () => {
    const ids = new Set(Array.from({ length: 200 }, () => generateRequestId()));
    expect(ids.size).toBe(200);
    for (const id of ids) {
      expect(id).toMatch(REQUEST_ID_PATTERN);
      expect(id).toMatch(/^req-\d{8}-\d{6}-[0-9a-z]{6}$/);
    }
    expect(generateRequestId(new Date('2024-03-05T07:08:09Z'), 'abc123')).toBe('req-20240305-070809-abc123');
  });

  it('recovers the original name and the same generated id from a claim name', () => {
    const claim = claimNameFor('my file-1.txt', new Date('2024-03-05T07:08:09.123Z'));
    expect(claim).toMatch(/^1709622489123-[0-9a-z]{6}-my file-1\.txt$/);
    const claimedPath = `/root/system/processing/${claim}`;
    expect(originalNameOf(claimedPath)).toBe('my file-1.txt');
    expect(parseClaimName(claimedPath)?.claimedAt.toISOString()).toBe('2024-03-05T07:08:09.123Z');
    expect(generatedRequestIdFor(claimedPath)).toBe(generatedRequestIdFor(claimedPath));
    expect(generatedRequestIdFor(claimedPath)).toMatch(/^req-20240305-070809-[0-9a-z]{6}$/);
    expect(originalNameOf('/x/hand-placed.txt')).toBe('hand-placed.txt');
  });
});
