import { hash } from 'node:crypto';

/** SHA-256 of text (as UTF-8) or bytes, in lowercase hex: the one content hash govflow writes (one-shot: no Hash object). */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}
