/**
 * The `delegate` call as seed 004 designs it (docs/tools.md "Delegation"): its envelope read and
 * checked (`context_hints`, `handoff_data`, `constraints` that may only tighten `limits`), and the
 * handoff as the child gets it — redacted, written into its entry prompt as canonical JSON, and
 * hashed for its first audit entry (`[HANDOFF]`).
 */
import type { GovflowConfig } from '../config/config-loader.js';
import type { AgentDefinition } from '../governance/agent-definition.js';
import type { LlmToolOffer } from '../llm/provider.js';
import { canonicalJson } from '../message/canonical-json.js';
import { isPlainObject } from '../message/json-text.js';
import { sha256Hex } from '../sha256-hex.js';
import type { DelegationConstraints, HandoffLine } from '../store/session-journal.js';

export const DELEGATE_TOOL_NAME = 'delegate';

/** Largest `handoff_data`, in bytes of its JSON text. */
export const HANDOFF_DATA_MAX_BYTES = 65_536;

/** What a `delegate` call asks for, checked. */
export interface DelegationEnvelope {
  target: string;
  objective: string;
  input: unknown;
  contextHints: string[];
  handoffData: Record<string, unknown> | null;
  constraints: DelegationConstraints;
}

/** The handoff a child session is created with (before its own redaction). */
export interface HandoffRequest {
  context_hints: string[];
  handoff_data: Record<string, unknown> | null;
}

/** The `delegate` tool as the model is offered it. */
export function delegateOffer(agent: AgentDefinition): LlmToolOffer {
  const positive = { type: 'integer', minimum: 1 };
  return {
    name: DELEGATE_TOOL_NAME,
    description:
      `Hands a sub-task to another agent, which works on it in a separate session and returns its result (status, output, ` +
      `message, the files it wrote as artifacts, token usage, and confidence, requires_followup and new_facts when it gives ` +
      `them). Several delegate calls in one turn run at the same time. Agents you may delegate to: ${agent.delegates.join(', ')}.`,
    inputSchema: {
      type: 'object',
      properties: {
        agent: { type: 'string', enum: [...agent.delegates], description: 'The agent that starts the child session.' },
        objective: { type: 'string', description: 'What the child session must achieve.' },
        input: { description: 'The material it works on (text or JSON).' },
        context_hints: {
          type: 'array',
          items: { type: 'string' },
          description: 'Short keywords that frame the task (e.g. ["receipt", "tax"]).',
        },
        handoff_data: {
          type: 'object',
          description: `Facts, references or earlier results the child needs (at most ${HANDOFF_DATA_MAX_BYTES} bytes as JSON).`,
        },
        constraints: {
          type: 'object',
          properties: {
            max_tokens: { ...positive, description: 'Token budget of the child (at most the configured one).' },
            deadline_ms: {
              ...positive,
              description: 'Milliseconds the child may take (at most the configured deadline).',
            },
          },
          additionalProperties: false,
        },
      },
      required: ['agent', 'objective'],
      additionalProperties: false,
    },
  };
}

/** The envelope of a call, or why it cannot run (an error the model reads; no limit involved). */
export function readEnvelope(
  agent: AgentDefinition,
  input: Record<string, unknown>,
): { envelope: DelegationEnvelope } | { invalid: string } {
  const target = typeof input.agent === 'string' ? input.agent : '';
  const objective = typeof input.objective === 'string' ? input.objective : '';
  if (!agent.delegates.includes(target)) {
    return {
      invalid:
        target === ''
          ? `"agent" must name one of: ${agent.delegates.join(', ')}`
          : `${agent.name} may not delegate to "${target}"; it may delegate to: ${agent.delegates.join(', ')}`,
    };
  }
  if (objective.trim() === '')
    return { invalid: '"objective" must be a non-empty string saying what the child session must achieve' };
  const hints = input.context_hints ?? [];
  if (!Array.isArray(hints) || !hints.every((hint) => typeof hint === 'string'))
    return { invalid: '"context_hints" must be an array of strings when given' };
  const data = input.handoff_data ?? null;
  if (data !== null && !isPlainObject(data)) return { invalid: '"handoff_data" must be a JSON object when given' };
  const bytes = data === null ? 0 : Buffer.byteLength(JSON.stringify(data));
  if (bytes > HANDOFF_DATA_MAX_BYTES)
    return {
      invalid: `"handoff_data" is ${bytes} bytes as JSON, over the ${HANDOFF_DATA_MAX_BYTES} allowed; hand over less, or put it in "input"`,
    };
  const constraints = readConstraints(input.constraints);
  if (typeof constraints === 'string') return { invalid: constraints };
  return {
    envelope: { target, objective, input: input.input, contextHints: hints, handoffData: data, constraints },
  };
}

function readConstraints(value: unknown): DelegationConstraints | string {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) return '"constraints" must be an object {max_tokens?, deadline_ms?} when given';
  const constraints: DelegationConstraints = {};
  for (const [key, given] of Object.entries(value)) {
    if (key !== 'max_tokens' && key !== 'deadline_ms')
      return `"constraints" may hold only max_tokens and deadline_ms, not "${key}"`;
    if (typeof given !== 'number' || !Number.isInteger(given) || given < 1)
      return `"constraints.${key}" must be a whole number of at least 1`;
    constraints[key] = given;
  }
  return constraints;
}

/** The configured limit a constraint would loosen, named with both values; null when each only tightens. */
export function looserConstraint(
  constraints: DelegationConstraints,
  limits: GovflowConfig['limits'],
): { name: string; detail: string } | null {
  if (constraints.deadline_ms !== undefined && constraints.deadline_ms > limits.delegation_deadline_ms) {
    return {
      name: 'delegation_deadline_ms',
      detail:
        `constraints.deadline_ms = ${constraints.deadline_ms} is over limits.delegation_deadline_ms = ${limits.delegation_deadline_ms}; ` +
        `constraints may only tighten the configured limits`,
    };
  }
  const budget = limits.max_tokens_per_delegation;
  if (constraints.max_tokens !== undefined && budget !== null && constraints.max_tokens > budget) {
    return {
      name: 'max_tokens_per_delegation',
      detail:
        `constraints.max_tokens = ${constraints.max_tokens} is over limits.max_tokens_per_delegation = ${budget}; constraints may only ` +
        `tighten the configured limits`,
    };
  }
  return null;
}

/** The child's request text: the objective, then its input. */
export function childRequestText(objective: string, input: unknown): string {
  if (input === undefined || input === null) return objective;
  return `${objective}\n\nInput:\n${typeof input === 'string' ? input : JSON.stringify(input, null, 2)}`;
}

/**
 * The handoff as the child gets it: hints and data redacted with the child's placeholders, the
 * text appended to its entry prompt (the data as canonical JSON, the very text hashed), and the
 * `[HANDOFF]` line of its first audit entry.
 */
export function childHandoff(handoff: HandoffRequest, redact: <T>(value: T) => T): { text: string; line: HandoffLine } {
  const hints = redact(handoff.context_hints);
  const data = handoff.handoff_data === null ? null : redact(handoff.handoff_data);
  const canonical = data === null ? null : canonicalJson(data);
  const parts = [
    ...(hints.length > 0 ? [`Context hints: ${hints.join(', ')}`] : []),
    ...(canonical === null ? [] : [`Handoff data (JSON):\n${canonical}`]),
  ];
  return {
    text: parts.length > 0 ? `\n\n${parts.join('\n\n')}` : '',
    line: { context_hints: hints, handoff_data_sha256: canonical === null ? null : sha256Hex(canonical) },
  };
}
