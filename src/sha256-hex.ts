import { createHash } from 'node:crypto';

/** SHA-256 of text (as UTF-8) or bytes, in lowercase hex: the one content hash govflow writes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
