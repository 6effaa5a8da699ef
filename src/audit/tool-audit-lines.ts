/**
 * The audit extension lines of agents that act (README "Give an agent tools"; docs/audit-log.md), written after the entry's own
 * lines and before `[ENTRY_HASH: …]`, in this order, each only when it has something to say:
 *
 *     [TOOL_CALLS]: [{"id","name","is_error","ms"},…]
 *     [VIOLATIONS]: [{"kind","detail"},…]          e.g. {"kind":"tool_not_allowed","detail":"write_file"}
 *     [APPROVALS]: [{"call_id","tool","approve","user","at","reason"},…]
 *     [EVIDENCE]: [{"path","sha256","bytes"},…]
 *     [DELEGATIONS]: [{"child_session","agent","objective_sha256","status","ms"},…]   (README "Delegation")
 *
 * Each call appears once on a line: a call id the loop journaled twice (a repeated call given
 * its result again) is written the first time only.
 */
import { encodeJson } from './audit-line-encoding.js';

export interface ToolAuditLines {
  toolCalls?: Array<{ id: string; name: string; is_error: boolean; ms: number }>;
  violations?: Array<{ kind: string; detail: string }>;
  approvals?: Array<{
    call_id: string;
    tool: string;
    approve: boolean;
    /** The HTTP token's user, or the reply file's owner. */
    user: string | null;
    /** A `user` the reply file claimed (kept, not trusted). */
    claimed_user?: string;
    at: string;
    reason: string | null;
    /** The approved arguments' SHA-256, and whether the executed call's arguments hashed the same. */
    args_sha256?: string;
    executed_args_match?: boolean;
  }>;
  evidence?: Array<{ path: string; sha256: string; bytes: number }>;
  delegations?: Array<{ child_session: string | null; agent: string; objective_sha256: string; status: string; ms: number }>;
}

/** Each line's tag and the field it holds, in the order written (the parser reads them by this table too). */
export const TOOL_AUDIT_TAGS = { TOOL_CALLS: 'toolCalls', VIOLATIONS: 'violations', APPROVALS: 'approvals', EVIDENCE: 'evidence', DELEGATIONS: 'delegations' } as const;

/** The key that names the call an item is about, on the lines that have one. */
const CALL_KEYS: Partial<Record<keyof ToolAuditLines, string>> = { toolCalls: 'id', approvals: 'call_id' };

/** The items of a line, each call's first only. */
function oncePerCall(field: keyof ToolAuditLines, items: ReadonlyArray<object>): object[] {
  const key = CALL_KEYS[field];
  const idOf = (item: object) => (item as Record<string, unknown>)[key ?? ''];
  return key === undefined ? [...items] : items.filter((item, index) => items.findIndex((other) => idOf(other) === idOf(item)) === index);
}

/** The lines, in a fixed order, each without its trailing newline. */
export function formatToolAuditLines(lines: ToolAuditLines | undefined): string[] {
  if (!lines) return [];
  return Object.entries(TOOL_AUDIT_TAGS).flatMap(([tag, field]) => {
    const given = lines[field];
    const items = given ? oncePerCall(field, given) : undefined;
    return items && items.length > 0 ? [`[${tag}]: ${encodeJson(items)}`] : [];
  });
}
