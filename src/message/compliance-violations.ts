/**
 * Compliance flags for one message, written to its `[COMPLIANCE VIOLATIONS]` line (they do not stop
 * the run): it must carry its audit data, and consult only files that were in its prompt.
 */
import type { SentientMessage } from '../message/sentient-message.js';

/** `./governance\\audit.md` → `governance/audit.md`: how names are compared. */
function normalizeName(name: string): string {
  return name
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '');
}

/**
 * Why this message falls short of the audit rules; empty when it complies. A consulted name matches
 * a prompt file by path, or by a basename no other prompt file has (seed 002 writes "audit.md").
 */
export function complianceViolations(message: SentientMessage, filesInPrompt: string[]): string[] {
  const violations: string[] = [];
  const audit = message.audit as SentientMessage['audit'] | null | undefined;
  const notes = audit?.compliance_notes;
  if (typeof notes !== 'string' || notes.trim() === '') {
    violations.push(
      `audit.compliance_notes is ${notes === null || notes === undefined ? 'null' : 'empty'}: the agent must say how the step complies`,
    );
  }
  const consulted = audit?.governance_files_consulted;
  if (!Array.isArray(consulted)) {
    violations.push('audit.governance_files_consulted is null: the agent must list the governance files it consulted');
    return violations;
  }

  const promptPaths = new Set(filesInPrompt.map(normalizeName));
  const byBasename = new Map<string, string[]>();
  for (const promptPath of promptPaths) {
    const base = promptPath.slice(promptPath.lastIndexOf('/') + 1);
    byBasename.set(base, [...(byBasename.get(base) ?? []), promptPath]);
  }
  for (const name of consulted) {
    const normalized = typeof name === 'string' ? normalizeName(name) : '';
    if (promptPaths.has(normalized)) continue;
    const matches = normalized.includes('/') ? [] : (byBasename.get(normalized) ?? []);
    if (matches.length === 1) continue;
    violations.push(
      matches.length > 1
        ? `governance_files_consulted names "${String(name)}", which matches several prompt files (${matches.join(', ')}); name it by its path`
        : `governance_files_consulted names "${String(name)}", which was not in this agent's prompt`,
    );
  }
  return violations;
}
