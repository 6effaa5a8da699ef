/**
 * Evidence files (README "Give an agent tools"): each path a message lists in `audit.evidence_files`
 * must be a file in the session workspace, else the output is invalid; each file's sha256 and size
 * go on the audit entry (`[EVIDENCE]`).
 */
import { readFile } from 'node:fs/promises';
import { sha256Hex } from '../sha256-hex.js';
import type { SentientMessage } from '../message/sentient-message.js';
import type { ToolBox } from '../tools/tool-box.js';
import { resolveExisting } from '../tools/workspace-paths.js';

export type EvidenceCheck =
  { ok: true; files: Array<{ path: string; sha256: string; bytes: number }> } | { ok: false; problems: string[] };

export async function checkEvidence(
  message: SentientMessage,
  tools: ToolBox | undefined,
  sessionId: string,
): Promise<EvidenceCheck> {
  const listed = (message.audit as { evidence_files?: unknown } | null)?.evidence_files;
  if (listed === undefined || listed === null) return { ok: true, files: [] };
  if (!Array.isArray(listed) || listed.some((entry) => typeof entry !== 'string')) {
    return {
      ok: false,
      problems: ['/audit/evidence_files must be an array of paths (strings) relative to the session workspace'],
    };
  }
  if (listed.length === 0) return { ok: true, files: [] };
  if (!tools)
    return {
      ok: false,
      problems: ['/audit/evidence_files names files, but this process has no session workspace; remove evidence_files'],
    };
  const workspace = await tools.workspaceOf(sessionId);
  const files: Array<{ path: string; sha256: string; bytes: number }> = [];
  const missing: string[] = [];
  for (const entry of listed as string[]) {
    try {
      const { absolute } = await resolveExisting(workspace, entry, 'evidence_files');
      const content = await readFile(absolute);
      files.push({ path: entry, sha256: sha256Hex(content), bytes: content.length });
    } catch (error) {
      missing.push(
        `${entry} (${error instanceof Error ? error.message.replace(/^evidence_files: /, '') : String(error)})`,
      );
    }
  }
  if (missing.length > 0) {
    return {
      ok: false,
      problems: [
        `/audit/evidence_files: these paths are not files inside the session workspace: ${missing.join('; ')}. Write them first (write_file) ` +
          `or list only files that exist.`,
      ],
    };
  }
  return { ok: true, files };
}
