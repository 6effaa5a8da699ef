/**
 * multipart-headers.ts: the part headers of a multipart body as sent, found across any chunking,
 * and a part busboy would drop or cut (a line break in its file name, no Content-Disposition)
 * named by number and file name; a well-formed body passes.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { watchPartHeaders } from '../../src/http/multipart-headers.js';

const BOUNDARY = '----govflow-headers-test';

function body(parts: string[]): Buffer {
  return Buffer.from(`${parts.map((part) => `--${BOUNDARY}\r\n${part}\r\n`).join('')}--${BOUNDARY}--\r\n`);
}

const field = 'Content-Disposition: form-data; name="request"\r\n\r\nRead the invoice.';
const file = (name: string, content = 'Total: 100 EUR') =>
  `Content-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${content}`;

/** Feeds `bytes` in chunks of `size` and answers what the check says with `delivered` parts read. */
function check(bytes: Buffer, size: number, delivered: number): string | null {
  const request = Object.assign(new EventEmitter(), {
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
  const verdict = watchPartHeaders(request as unknown as IncomingMessage);
  for (let at = 0; at < bytes.length; at += size) request.emit('data', bytes.subarray(at, at + size));
  return verdict(delivered);
}

describe('watchPartHeaders', () => {
  // 27, 28 and 29 bytes: about the delimiter's length (CRLF, two dashes and the boundary), where a
  // delimiter may begin in what one chunk left and end in the next.
  for (const size of [1, 3, 17, 27, 28, 29, 65_536])
    it(`finds every part in chunks of ${size} bytes`, () => {
      expect(
        check(body([field, file('a.txt'), file('annex/b.csv', `x\r\n--${BOUNDARY.slice(0, -1)}y\r\n\r\n`)]), size, 3),
      ).toBeNull();
      expect(check(body([field, file('inv\noice.txt')]), size, 1)).toMatch(
        /^part 2 of the upload \(file name "inv\\u000aoice\.txt"\) has a line break or another control character/,
      );
      expect(check(body([field, file('inv\r\noice.txt')]), size, 2)).toMatch(
        /^part 2 of the upload \(file name "inv\\u000d\\u000aoice\.txt"\) has a broken header/,
      );
      expect(check(body([field, 'Content-Type: text/plain\r\n\r\nno disposition']), size, 1)).toMatch(
        /^part 2 of the upload has no Content-Disposition: form-data header/,
      );
    });

  it('scans a large file part where its chunks arrive, copying only at part boundaries', () => {
    const large = 'x'.repeat(20 * 1024 * 1024);
    const bytes = body([field, file('big.bin', large), file('inv\noice.txt')]);
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      expect(check(bytes, 65_536, 2)).toMatch(/^part 3 of the upload \(file name "inv\\u000aoice\.txt"\)/);
      // Copying each of the 320 chunks onto the last one's tail copied the whole 20 MiB again;
      // now only the chunks where a part begins, and a delimiter's length at each seam.
      const copiedBytes = concat.mock.results.reduce((sum, result) => sum + (result.value as Buffer).length, 0);
      expect(copiedBytes).toBeLessThan(1024 * 1024);
    } finally {
      concat.mockRestore();
    }
  });

  it('names a part the parser did not hand over even when its header looks whole', () => {
    expect(check(body([field, file('a.txt')]), 64, 1)).toMatch(/the upload has 2 parts, and only 1 could be read/);
  });
});
