/**
 * A tool call's arguments as an approval names them (docs/results.md): SHA-256 (hex) of their canonical
 * JSON — object keys sorted by code unit at every level, no whitespace — so the same arguments
 * always give the same hash, and any change to them gives another.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../message/canonical-json.js';

export function argumentsSha256(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input ?? null)).digest('hex');
}
