/** Builds the prompt for one agent call: a system part stable per agent and snapshot, so prompt caches hit, then the input. */
import { sha256Hex } from '../sha256-hex.js';
import type { AgentDefinition } from '../governance/agent-definition.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import { executionalAgents } from '../governance/routing-graph.js';
import { sacpProtocolBlock } from './sacp-answer.js';

export interface BuiltPrompt {
  system: string;
  systemSha256: string;
  /** Root-relative paths of the files in the prompt, for the compliance check. */
  files: string[];
}

const RULE = '='.repeat(72);

function fileBlock(filePath: string, content: string): string {
  return `${RULE}\n[FILE: ${filePath}]\n${RULE}\n${content.trimEnd()}\n\n`;
}

/** The system prompt of `agent`, cached per snapshot (it only depends on the two). */
const cache = new WeakMap<GovernanceSnapshot, Map<string, BuiltPrompt>>();

export function buildSystemPrompt(snapshot: GovernanceSnapshot, agent: AgentDefinition): BuiltPrompt {
  const perSnapshot = cache.get(snapshot) ?? new Map<string, BuiltPrompt>();
  cache.set(snapshot, perSnapshot);
  const cached = perSnapshot.get(agent.name);
  if (cached) return cached;

  const parts: string[] = [];
  const files: string[] = [];
  for (const file of snapshot.promptFiles) {
    parts.push(fileBlock(file.path, file.content));
    files.push(file.path);
  }
  const agentPath = agent.file ?? `govflow.config.yaml#agents.${agent.name}`;
  parts.push(fileBlock(agentPath, agent.instructions || agent.description));
  files.push(agentPath);
  // A free-text agent (SPEC §24) gets no message-format instructions; a SACP agent gets seed 000's.
  if (agent.protocol !== 'none')
    parts.push(agent.messageFormat === 'sacp' ? sacpProtocolBlock(agent) : protocolBlock(snapshot, agent, files));
  const system = parts.join('');
  const built = { system, systemSha256: sha256Hex(system), files };
  perSnapshot.set(agent.name, built);
  return built;
}

function protocolBlock(snapshot: GovernanceSnapshot, agent: AgentDefinition, files: string[]): string {
  const lines = [
    RULE,
    '[SYSTEM PROTOCOL: RESPONSE FORMAT]',
    RULE,
    `You are "${agent.name}" (${agent.type}): ${agent.description}`,
    'Answer with exactly ONE JSON object in the Sentient message format below and nothing else: no text before or after it.',
    '',
    'You own these fields:',
    `- output.content_type: "${agent.contentType}" (on success or partial).`,
    '- output.content: your result, shaped as your instructions say.',
    agent.next.length > 0
      ? `- next_agent.name: one of ${agent.next.map((name) => `"${name}"`).join(', ')} on success or partial; null when failed or pending. No ` +
        `other agent is allowed.`
      : '- next_agent.name: null (you are the end of your chain).',
    '- next_agent.reason, status {code: success|partial|failed|pending, message}, error {has_error, error_code, error_message, recoverable}, ' +
      'audit {compliance_notes, governance_files_consulted}.',
    '- error_code when has_error is true: OUT_OF_SCOPE, INVALID_INPUT, PROCESSING_ERROR, TIMEOUT, DEPENDENCY_ERROR or VALIDATION_ERROR; otherwise null.',
    '- status "pending" pauses the session and asks a person: put the question in status.message.',
    `- audit.governance_files_consulted may name only files shown above in [FILE: ...] markers: ${files.map((name) => `"${name}"`).join(', ')}.`,
    '',
    'The orchestrator owns message_id, timestamp, agent, input, metadata and error.retry_count and overwrites them; write null there.',
  ];
  if (agent.plan) {
    const executors = executionalAgents(snapshot.agents).map(
      (name) => `"${name}" (${snapshot.agents.get(name)?.description ?? ''})`,
    );
    lines.push(
      '',
      'You are a planning agent: output.content must be a plan the orchestrator executes:',
      '{"tasks": [{"id": "t1", "agent": "<executional agent>", "instruction": "<everything the agent needs>", "depends_on": []}]}',
      `Allowed task agents: ${executors.join(', ')}. Task ids are unique; depends_on lists ids of tasks whose results a task needs; no cycles.`,
      `All task results then go to next_agent.${agent.next.length > 0 ? '' : ' (none: the results end the session)'}`,
    );
  }
  if (agent.outputSchema)
    lines.push('', 'output.content must match this JSON Schema:', JSON.stringify(agent.outputSchema));
  lines.push(
    '',
    'Message format (all fields required, null where they do not apply):',
    JSON.stringify(messageTemplate(agent), null, 2),
    '',
  );
  return `${lines.join('\n')}\n`;
}

function messageTemplate(agent: AgentDefinition): Record<string, unknown> {
  return {
    message_id: null,
    timestamp: null,
    agent: null,
    input: null,
    output: { content: '<your result>', content_type: agent.contentType },
    next_agent: { name: agent.next[0] ?? null, reason: '<why this agent is next>' },
    status: { code: 'success', message: '<human-readable status>' },
    error: { has_error: false, error_code: null, error_message: null, retry_count: null, recoverable: false },
    metadata: null,
    audit: {
      compliance_notes: '<rules checked and how the result complies>',
      governance_files_consulted: ['<file from a [FILE: ...] marker>'],
    },
  };
}

function isMessage(
  value: unknown,
): value is { message_id: string; agent: { name: string }; input: { source: string; content: unknown } } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'message_id' in value &&
    'agent' in value &&
    'input' in value &&
    'output' in value
  );
}

/**
 * The upstream message with the message it answered elided (otherwise every earlier message nests
 * in the prompt), and without a `thought` a custom schema adds: reasoning is never passed on (SPEC §24).
 */
function promptView(content: unknown): unknown {
  if (!isMessage(content)) return content;
  const { thought: _thought, ...passed } = content as typeof content & { thought?: unknown };
  if (!isMessage(passed.input.content)) return passed;
  const earlier = passed.input.content;
  return {
    ...passed,
    input: {
      source: passed.input.source,
      content: `(message ${earlier.message_id} from ${earlier.agent.name}, omitted: it was handled earlier in the chain)`,
    },
  };
}

/** The variable part: the input this agent answers, compact JSON for structured input. */
export function buildUserPrompt(input: { source: string; content: unknown }): string {
  if (input.source === 'user' && typeof input.content === 'string') return `User request:\n${input.content}`;
  return `Input from ${input.source === 'user' ? 'the user' : `"${input.source}"`} (JSON):\n${JSON.stringify(promptView(input.content))}`;
}

/** A steward's advice for a retried step (docs/run-control.md), after the input; '' without one. */
export function stewardAdviceBlock(advice: { text: string } | undefined): string {
  return advice
    ? `\n\nSteward advice (your previous attempt at this step failed; a person reviewed it):\n${advice.text}`
    : '';
}

/** What the model is told after an invalid answer. */
export function buildRepairPrompt(problems: string[]): string {
  return [
    'Your previous answer was rejected by the orchestrator for these reasons:',
    ...problems.map((problem) => `- ${problem}`),
    'Answer again with the corrected, complete JSON object only.',
  ].join('\n');
}
