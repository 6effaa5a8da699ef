/**
 * How an agent's answer becomes a candidate message (SPEC §24): the Sentient JSON it writes itself
 * (§4 parsing), a SACP answer mapped to one (sacp-answer.ts), or, for a `protocol: none` agent, its
 * whole text as `output.content` in a message the orchestrator makes.
 */
import type { AgentDefinition } from '../governance/agent-definition.js';
import { parseModelOutput } from '../message/message-parser.js';
import { sacpCandidate } from './sacp-answer.js';

/** A candidate message, with the `thought` its answer carried (SACP, or a custom schema's top-level string). */
export type CandidateResult =
  { ok: true; value: Record<string, unknown>; thought?: string } | { ok: false; error: string };

/** The candidate message of an answer's text, by the agent's protocol. */
export function candidateOf(agent: AgentDefinition, text: string, maxDepth: number): CandidateResult {
  if (agent.protocol === 'none') return { ok: true, value: freeTextMessage(agent, text) };
  const parsed = parseModelOutput(text, maxDepth);
  if (!parsed.ok) return parsed;
  if (agent.messageFormat === 'sacp') return sacpCandidate(agent, parsed.value);
  const thought = parsed.value.thought;
  return { ok: true, value: parsed.value, ...(typeof thought === 'string' && thought !== '' ? { thought } : {}) };
}

/** The next agent of a message the orchestrator makes: its only `next` entry, else null; routes decide at commit. */
export function defaultNext(agent: AgentDefinition): string | null {
  // Two or more: `govflow validate` requires a default route, which decides at commit.
  return agent.next[0] ?? null;
}

function freeTextMessage(agent: AgentDefinition, text: string): Record<string, unknown> {
  const next = defaultNext(agent);
  return {
    message_id: null,
    timestamp: null,
    agent: null,
    input: null,
    output: { content: text, content_type: agent.contentType },
    next_agent: { name: next, reason: next ? 'free-text agent: its only next agent' : 'free-text agent: end of chain' },
    status: { code: 'success', message: `${agent.name} answered in free text` },
    error: { has_error: false, error_code: null, error_message: null, retry_count: 0, recoverable: false },
    metadata: null,
    audit: { compliance_notes: null, governance_files_consulted: [] },
  };
}
