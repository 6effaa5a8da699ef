/**
 * The audit extension lines of agents that act (SPEC §10, §6), written after the entry's own
 * lines and before `[ENTRY_HASH: …]`, each only when it has something to say:
 *
 *     [TOOL_CALLS]: [{"id","name","is_error","ms"},…]
 *     [VIOLATIONS]: [{"kind","detail"},…]          e.g. {"kind":"tool_not_allowed","detail":"write_file"}
 *     [APPROVALS]: [{"call_id","tool","approve","user","at","reason"},…]
 *     [EVIDENCE]: [{"path","sha256","bytes"},…]
 *     [DELEGATIONS]: [{"child_session","agent","objective_sha256","status","ms"},…]   (SPEC §12)
 */
import { encodeJson } from './audit-line-encoding.js';

export interface ToolAuditLines {
  toolCalls?: Array<{ id: string; name: string; is_error: boolean; ms: number }>;
  violations?: Array<{ kind: string; detail: string }>;
  approvals?: Array<{ call_id: string; tool: string; approve: boolean; user: string | null; at: string; reason: string | null }>;
  evidence?: Array<{ path: string; sha256: string; bytes: number }>;
  delegations?: Array<{ child_session: string | null; agent: string; objective_sha256: string; status: string; ms: number }>;
}

/** The lines, in a fixed order, each without its trailing newline. */
export function formatToolAuditLines(lines: ToolAuditLines | undefined): string[] {
  if (!lines) return [];
  const out: string[] = [];
  if (lines.toolCalls && lines.toolCalls.length > 0) out.push(`[TOOL_CALLS]: ${encodeJson(lines.toolCalls)}`);
  if (lines.violations && lines.violations.length > 0) out.push(`[VIOLATIONS]: ${encodeJson(lines.violations)}`);
  if (lines.approvals && lines.approvals.length > 0) out.push(`[APPROVALS]: ${encodeJson(lines.approvals)}`);
  if (lines.evidence && lines.evidence.length > 0) out.push(`[EVIDENCE]: ${encodeJson(lines.evidence)}`);
  if (lines.delegations && lines.delegations.length > 0) out.push(`[DELEGATIONS]: ${encodeJson(lines.delegations)}`);
  return out;
}
