/**
 * Canonical JSON (docs/audit-log.md), what signed checkpoints and approved call arguments are hashed over:
 * the same value always gives the same text.
 */
import { sha256Hex } from '../sha256-hex.js';

/** Object keys sorted by code unit at every level, no whitespace; strings and numbers as JSON.stringify writes them. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

/** A tool call's arguments as an approval names them (docs/results.md): SHA-256 (hex) of their canonical JSON. */
export function argumentsSha256(input: unknown): string {
  return sha256Hex(canonicalJson(input ?? null));
}
