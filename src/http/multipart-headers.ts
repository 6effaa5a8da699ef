/**
 * The part headers of a multipart body as sent (docs/attachments.md), watched beside the parser:
 * busboy silently skips a part whose name or file name holds a bare line break and cuts a file
 * name at a CRLF, so a sender would believe a file was read that never was. Every header block is
 * kept (bounded) and checked once the body ended: a part whose header lines are broken or hold a
 * control character is refused by number and file name, never dropped.
 */
import type { IncomingMessage } from 'node:http';
import { shownPath } from '../intake/request-folder.js';

/** Bytes of one part's header kept for the check (busboy's own bound is 80 KiB). */
const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from('\r\n');
const BLANK_LINE = Buffer.from('\r\n\r\n');
const HEADER_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/;
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** The boundary of a multipart/form-data content type, or null. */
function boundaryOf(contentType: string | undefined): string | null {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]) : null;
}

/** Splits a multipart body into the raw header blocks of its parts, chunk by chunk. */
class PartHeaderScanner {
  readonly headers: Buffer[] = [];
  private readonly delimiter: Buffer;
  /** The body as if preceded by CRLF, so the first delimiter is found like the others. */
  private pending: Buffer = Buffer.from(CRLF);
  private state: 'body' | 'header' | 'done' = 'body';

  constructor(boundary: string) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  push(chunk: Buffer): void {
    if (this.state === 'done') return;
    this.pending = this.joined(chunk);
    for (;;) {
      if (this.state === 'body') {
        const at = this.pending.indexOf(this.delimiter);
        if (at < 0) {
          this.pending = this.pending.subarray(Math.max(0, this.pending.length - this.delimiter.length + 1));
          return;
        }
        const after = at + this.delimiter.length;
        const lineEnd = this.pending.indexOf(CRLF, after);
        if (this.pending.length >= after + 2 && this.pending[after] === 0x2d && this.pending[after + 1] === 0x2d) {
          this.state = 'done';
          this.pending = Buffer.alloc(0);
          return;
        }
        if (lineEnd < 0) {
          this.pending = this.pending.subarray(at);
          return;
        }
        this.pending = this.pending.subarray(lineEnd + 2);
        this.state = 'header';
      } else {
        // An empty header block is the blank line alone.
        const end = this.pending.subarray(0, 2).equals(CRLF) ? -2 : this.pending.indexOf(BLANK_LINE);
        if (end === -1) {
          if (this.pending.length > MAX_HEADER_BYTES) {
            this.headers.push(Buffer.from(this.pending.subarray(0, MAX_HEADER_BYTES)));
            this.state = 'body';
            this.pending = this.pending.subarray(MAX_HEADER_BYTES);
          }
          return;
        }
        this.headers.push(end === -2 ? Buffer.alloc(0) : Buffer.from(this.pending.subarray(0, end)));
        this.pending = this.pending.subarray(end + 4);
        this.state = 'body';
      }
    }
  }

  /**
   * What is left unscanned followed by `chunk`. Inside a part's body what is left is shorter than
   * a delimiter, and `chunk` is scanned where it arrived unless a delimiter may begin in that
   * tail: copying every chunk onto it held 10–20 MB more at a 200 MB upload's peak on Node 24
   * (bench/attachments.mjs).
   */
  private joined(chunk: Buffer): Buffer {
    if (this.pending.length === 0) return chunk;
    const seamBytes = this.delimiter.length - 1;
    if (this.state === 'body' && this.pending.length <= seamBytes && chunk.length >= seamBytes) {
      const seam = Buffer.concat([this.pending, chunk.subarray(0, seamBytes)]);
      if (seam.indexOf(this.delimiter) < 0) return chunk;
    }
    return Buffer.concat([this.pending, chunk]);
  }
}

/** The file name a raw header names (up to its closing quote, or the header's end), shown with its control characters escaped. */
function rawFileName(header: string): string | null {
  const match = /filename="((?:[^"\\]|\\.)*)"?/i.exec(header);
  if (!match) return null;
  return shownPath(Buffer.from(match[1], 'latin1').toString('utf8').slice(0, 200));
}

/** Why part `index` (from 0) cannot be read as it was sent, or null. */
export function partHeaderProblem(header: Buffer, index: number): string | null {
  const text = header.toString('latin1');
  const name = rawFileName(text);
  const part = `part ${index + 1} of the upload${name === null ? '' : ` (file name "${name}")`}`;
  const lines = text.split('\r\n');
  if (lines.some((line) => CONTROL.test(line)))
    return (
      `${part} has a line break or another control character in its headers (its file name?): rename the file with printable ` +
      `characters only and send it again`
    );
  if (lines.some((line) => !/^[ \t]/.test(line) && !HEADER_LINE.test(line)))
    return `${part} has a broken header (a line break inside its file name?): rename the file with printable characters only and send it again`;
  if (!lines.some((line) => /^content-disposition:\s*form-data\s*(;|$)/i.test(line)))
    return `${part} has no Content-Disposition: form-data header: send every part with one, naming it (and a file part's filename)`;
  return null;
}

/**
 * Starts watching `request`'s body (call it in the same tick the parser starts reading it);
 * `check(delivered)` then names the first part the parser could not have read as it was sent,
 * or any part it did not deliver (`delivered`: the parts it handed over).
 */
export function watchPartHeaders(request: IncomingMessage): (delivered: number) => string | null {
  const boundary = boundaryOf(request.headers['content-type']);
  if (boundary === null) return () => null;
  const scanner = new PartHeaderScanner(boundary);
  request.on('data', (chunk: Buffer) => scanner.push(chunk));
  return (delivered) => {
    for (const [index, header] of scanner.headers.entries()) {
      const problem = partHeaderProblem(header, index);
      if (problem) return problem;
    }
    if (scanner.headers.length > delivered)
      return (
        `the upload has ${scanner.headers.length} parts, and only ${delivered} could be read: send each part with a ` +
        `Content-Disposition: form-data header naming it`
      );
    return null;
  };
}
