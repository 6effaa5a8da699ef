/**
 * The audit lines of agents that act (`[TOOL_CALLS]` … `[DELEGATIONS]`, docs/audit-log.md), after
 * the entry's own lines. A call id the loop journaled twice (a repeated call given its result
 * again) is written the first time only.
 */
import { encodeJson } from './audit-line-encoding.js';
import type { ToolAuditLines } from '../store/tool-journal-records.js';

/** Each line's tag and the field it holds, in the order written (the parser reads them by this table too). */
export const TOOL_AUDIT_TAGS = {
  TOOL_CALLS: 'toolCalls',
  VIOLATIONS: 'violations',
  APPROVALS: 'approvals',
  EVIDENCE: 'evidence',
  DELEGATIONS: 'delegations',
} as const;

/** The key that names the call an item is about, on the lines that have one. */
const CALL_KEYS: Partial<Record<keyof ToolAuditLines, string>> = { toolCalls: 'id', approvals: 'call_id' };

function oncePerCall(field: keyof ToolAuditLines, items: ReadonlyArray<object>): object[] {
  const key = CALL_KEYS[field];
  const idOf = (item: object) => (item as Record<string, unknown>)[key ?? ''];
  return key === undefined
    ? [...items]
    : items.filter((item, index) => items.findIndex((other) => idOf(other) === idOf(item)) === index);
}

export function formatToolAuditLines(lines: ToolAuditLines | undefined): string[] {
  if (!lines) return [];
  return Object.entries(TOOL_AUDIT_TAGS).flatMap(([tag, field]) => {
    const given = lines[field];
    const items = given ? oncePerCall(field, given) : undefined;
    return items && items.length > 0 ? [`[${tag}]: ${encodeJson(items)}`] : [];
  });
}
