/**
 * What comes back from a delegated child (docs/tools.md "Delegation"), read from its journal and
 * workspace once it ended: the files it wrote, copied into the parent's workspace under
 * `delegations/<child>/` with their hashes checked; the governance and context files in its
 * prompts and the tools it called; its tokens with its descendants'; and `confidence`,
 * `requires_followup` and `new_facts` when its final output holds them with those types.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { errorCode, errorMessage } from '../errors.js';
import { isPlainObject } from '../message/json-text.js';
import type { JournalRecord } from '../store/session-journal.js';
import type { DelegationOutcome, ToolResultRecord } from '../store/tool-journal-records.js';
import { ATTACHMENTS_FOLDER } from '../store/attachment-records.js';
import { buildSystemPrompt } from './prompt-builder.js';
import type { RunnerDependencies } from './runner-contract.js';

/** Folder of a parent's workspace that receives its children's files. */
export const DELEGATIONS_FOLDER = 'delegations';

export interface Artifact {
  path: string;
  sha256: string;
  bytes: number;
}

export type TokenUsage = NonNullable<DelegationOutcome['token_usage']>;

/** The child's side of the response, from its journal and workspace. */
export interface ChildReport {
  artifacts: Artifact[];
  used_sources: { files: string[]; tools: string[] };
  token_usage: TokenUsage;
}

/** The optional fields seed 004's response takes from the child's final `output.content`. */
export function outputFacts(output: unknown): {
  confidence?: number;
  requires_followup?: boolean;
  new_facts?: string[];
} {
  if (!isPlainObject(output)) return {};
  const { confidence, requires_followup: followup, new_facts: facts } = output;
  return {
    ...(typeof confidence === 'number' && Number.isFinite(confidence) && confidence >= 0 && confidence <= 100
      ? { confidence }
      : {}),
    ...(typeof followup === 'boolean' ? { requires_followup: followup } : {}),
    ...(Array.isArray(facts) && facts.every((fact) => typeof fact === 'string') ? { new_facts: facts } : {}),
  };
}

/** Reads what the ended child `childId` used and made, and copies its files into the parent's workspace. */
export async function childReport(
  deps: RunnerDependencies,
  parentId: string,
  childId: string,
  ownUsage: { input_tokens: number; output_tokens: number; cost_usd: number },
): Promise<ChildReport> {
  const records = await deps.store.records(childId);
  const results = records.filter((record): record is ToolResultRecord => record.type === 'tool_result');
  const usage = { ...ownUsage };
  for (const result of results) {
    const below = result.delegation?.token_usage;
    if (!below) continue;
    usage.input_tokens += below.input_tokens;
    usage.output_tokens += below.output_tokens;
    usage.cost_usd += below.cost_usd;
  }
  usage.cost_usd = Math.round(usage.cost_usd * 1e6) / 1e6;
  return {
    artifacts: await copyArtifacts(deps, parentId, childId),
    used_sources: { files: promptFilesOf(deps, childId, records), tools: [...new Set(results.map((r) => r.name))] },
    token_usage: usage,
  };
}

/** The files in the system prompts of the agents the child asked a model (governance and context files, agent files). */
function promptFilesOf(deps: RunnerDependencies, childId: string, records: JournalRecord[]): string[] {
  const snapshot = deps.governance(childId);
  const files = new Set<string>();
  for (const record of records) {
    if (record.type !== 'exchange') continue;
    const agent = snapshot.agents.get(record.agent);
    if (agent) for (const file of buildSystemPrompt(snapshot, agent).files) files.add(file);
  }
  return [...files];
}

async function sha256Of(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Regular files under `folder` (symlinks and other kinds skipped), as forward-slash paths relative to it. */
async function filesUnder(folder: string, prefix = ''): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(path.join(folder, prefix), { withFileTypes: true });
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      // Attachments are delivered to a session, not written by it.
      if (relative !== ATTACHMENTS_FOLDER) found.push(...(await filesUnder(folder, relative)));
    } else if (entry.isFile()) found.push(relative);
  }
  return found;
}

/**
 * Copies every file of the child's workspace to `<parent workspace>/delegations/<child>/<path>`;
 * a copy whose SHA-256 differs from the original's is removed and not listed (logged).
 */
async function copyArtifacts(deps: RunnerDependencies, parentId: string, childId: string): Promise<Artifact[]> {
  const workspaces = deps.config.tools.workspace;
  const source = path.join(workspaces, childId);
  const target = path.join(workspaces, parentId, DELEGATIONS_FOLDER, childId);
  const artifacts: Artifact[] = [];
  for (const relative of await filesUnder(source)) {
    const from = path.join(source, ...relative.split('/'));
    const to = path.join(target, ...relative.split('/'));
    const original = await sha256Of(from);
    await mkdir(path.dirname(to), { recursive: true });
    await copyFile(from, to);
    const copied = await sha256Of(to);
    if (copied.sha256 !== original.sha256) {
      await rm(to, { force: true }).catch((error: unknown) => {
        deps.log?.warn('delegated artifact copy not removed', { file: to, error: errorMessage(error) });
      });
      deps.log?.warn('delegated artifact not copied: its copy differs from the original', {
        session: parentId,
        child: childId,
        path: relative,
      });
      continue;
    }
    artifacts.push({ path: relative, ...original });
  }
  return artifacts;
}
