/**
 * What changed in the agents' prompts since a case was recorded, as `govflow test` says it. An
 * agent file added or removed shows in no prompt's own files, so the cassette's `governance_tree` names those.
 */
import { fileChanges, fileHashes, noFileChanges, promptFileHashes, type FileChanges } from '../llm/cassette-format.js';
import type { ReplayProvider } from '../llm/replay-provider.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import { buildSystemPrompt } from '../pipeline/prompt-builder.js';

/** An agent whose prompt differs from every recording of it. */
export interface PromptChange {
  agent: string;
  /** Files of its prompt added, removed or edited since the closest recording. */
  promptFiles: FileChanges;
  /** False when its system prompt is as recorded: only its input (the request, an earlier answer) changed. */
  systemChanged: boolean;
  /** Governance files changed since the recording, for a system prompt whose own files did not; null when unlisted. */
  governance: FileChanges | null;
  /** The agent of the session's first replay miss when this agent missed after it (its input carries that failure). */
  after: string | null;
  diff: string | null;
}

const NO_CHANGES: FileChanges = { added: [], removed: [], changed: [] };

function merged(left: FileChanges, right: FileChanges): FileChanges {
  const union = (a: string[], b: string[]) => [...new Set([...a, ...b])].sort();
  return {
    added: union(left.added, right.added),
    removed: union(left.removed, right.removed),
    changed: union(left.changed, right.changed),
  };
}

/** Agents whose prompt changed since the recording: those that missed, and any other recorded agent whose files changed. */
export function promptChangesOf(replay: ReplayProvider | null, snapshot: GovernanceSnapshot): PromptChange[] {
  if (!replay) return [];
  const recordedTree = replay.recordedGovernanceTree();
  const governance = recordedTree === null ? null : fileChanges(recordedTree, fileHashes(snapshot.files));
  const byAgent = new Map<string, PromptChange>();
  for (const miss of replay.missed) {
    const known = byAgent.get(miss.agent);
    if (known) {
      known.promptFiles = merged(known.promptFiles, miss.governanceFileChanges);
      known.systemChanged ||= miss.systemChanged;
    } else {
      // After the first miss, an agent's input shows that failure as escaped JSON: its system prompt's diff says more.
      const after = miss.after?.agent ?? null;
      const diff = after === null ? miss.diff : miss.systemDiff;
      byAgent.set(miss.agent, {
        agent: miss.agent,
        promptFiles: miss.governanceFileChanges,
        systemChanged: miss.systemChanged,
        governance,
        after,
        diff,
      });
    }
  }
  for (const [agentName, recorded] of replay.recordedFileHashes()) {
    const agent = snapshot.agents.get(agentName);
    if (!agent || byAgent.has(agentName)) continue;
    const promptFiles = fileChanges(recorded, promptFileHashes(buildSystemPrompt(snapshot, agent).system));
    if (!noFileChanges(promptFiles))
      byAgent.set(agentName, {
        agent: agentName,
        promptFiles,
        systemChanged: true,
        governance,
        after: null,
        diff: null,
      });
  }
  return [...byAgent.values()];
}

function listed(changes: FileChanges, since: string): string {
  const segments: string[] = [];
  if (changes.changed.length > 0) segments.push(`whose text changed${since}: ${changes.changed.join(', ')}`);
  if (changes.added.length > 0) segments.push(`added${since}: ${changes.added.join(', ')}`);
  if (changes.removed.length > 0) segments.push(`removed${since}: ${changes.removed.join(', ')}`);
  return `governance files ${segments.join('; ')}`;
}

/** Why the agent's prompt changed, in one line. */
export function describePromptChange(change: PromptChange): string {
  if (!change.systemChanged && change.after !== null)
    return `its input changed: it carries the failed answer of agent "${change.after}" (the replay miss above)`;
  if (!change.systemChanged)
    return "no governance file changed (the input to it did: the request, or an earlier agent's answer)";
  if (!noFileChanges(change.promptFiles)) return listed(change.promptFiles, '');
  const governance = change.governance ?? NO_CHANGES;
  if (!noFileChanges(governance)) return `no file in its prompt changed; ${listed(governance, ' since the recording')}`;
  if (change.governance === null) {
    return (
      'no file in its prompt changed, and the cassette does not list the governance files it was recorded with (record again to have ' +
      "them named): an agent file added or removed, or another agent's description or output_schema, changes it too"
    );
  }
  return "no governance file changed, but govflow's own part of the prompt did (a newer govflow): record again";
}
