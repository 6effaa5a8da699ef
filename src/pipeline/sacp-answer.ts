/**
 * Seed 000's Standard Agent Communication Protocol (SPEC §24 `message.format: sacp`): the protocol
 * block its agents get (seed 000 §3.1), and its answer `{thought, status, data, message,
 * next_step_hint?}` mapped to the candidate Sentient message the orchestrator validates and commits.
 */
import type { AgentDefinition } from '../governance/agent-definition.js';

const SACP_STATUSES = ['success', 'failure', 'clarification_needed', 'completed'] as const;

/** Seed 000 §2.1's response schema, for providers with native structured output (a local model's grammar). */
export const SACP_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    thought: { type: 'string' },
    status: { type: 'string', enum: [...SACP_STATUSES] },
    data: { type: 'object' },
    message: { type: 'string' },
    next_step_hint: { type: 'string' },
  },
  required: ['thought', 'status', 'data', 'message'],
};

/** The system prompt block of a SACP agent: seed 000 §3.1 as written, then where it may hand over. */
export function sacpProtocolBlock(agent: AgentDefinition): string {
  const hint =
    agent.next.length > 0
      ? `Optionally add "next_step_hint": one of ${agent.next.map((name) => `"${name}"`).join(', ')}, the agent that should act next.`
      : 'You are the end of your chain: leave out "next_step_hint".';
  return [
    '### SYSTEM PROTOCOL: RESPONSE FORMAT INSTRUCTIONS',
    'You are a highly organized AI agent integrated into a larger workflow.',
    'CRITICAL: You MUST provide your response in a valid JSON format.',
    'DO NOT include any text outside the JSON block.',
    'DO NOT use markdown code blocks (```json ... ```) unless specifically asked, but the raw response MUST be parseable JSON.',
    '',
    'Your response schema is:',
    '{',
    '    "thought": "Your reasoning process here...",',
    '    "status": "success" | "failure" | "clarification_needed",',
    '    "data": {',
    '        "key": "value"',
    '        // Any structured data extracted or generated',
    '    },',
    '    "message": "The final human-readable answer."',
    '}',
    '',
    'Example:',
    '{',
    '    "thought": "I need to calculate the sum. 5+5 is 10.",',
    '    "status": "success",',
    '    "data": { "result": 10 },',
    '    "message": "The result is 10."',
    '}',
    '',
    `You are "${agent.name}" (${agent.type}): ${agent.description}`,
    'Use "clarification_needed" to ask the user a question (put it in "message"); "completed" when the whole task is done.',
    hint,
    '',
  ].join('\n');
}

/** The Sentient candidate of a parsed SACP answer, or the problems to send back for repair (§4). */
export function sacpCandidate(
  agent: AgentDefinition,
  answer: Record<string, unknown>,
): { ok: true; value: Record<string, unknown>; thought: string } | { ok: false; error: string } {
  const problems: string[] = [];
  if (typeof answer.thought !== 'string') problems.push('"thought" must be a string');
  if (!SACP_STATUSES.includes(answer.status as never))
    problems.push(`"status" must be one of ${SACP_STATUSES.map((status) => `"${status}"`).join(', ')}`);
  if (!('data' in answer)) problems.push('"data" is required (an object with your structured result)');
  if (typeof answer.message !== 'string') problems.push('"message" must be a string');
  const hint = answer.next_step_hint;
  if (hint !== undefined && hint !== null && typeof hint !== 'string')
    problems.push('"next_step_hint" must be a string');
  const status = answer.status as (typeof SACP_STATUSES)[number];
  const hinted = typeof hint === 'string' && agent.next.includes(hint) ? hint : null;
  const defaultRoute = (agent.routes ?? []).some((route) => route.when === null);
  const goesOn = status === 'success' || status === 'completed';
  // Two or more next agents: the hint or a default route must choose (routes decide at commit).
  if (goesOn && problems.length === 0 && hinted === null && agent.next.length > 1 && !defaultRoute)
    problems.push(
      `"next_step_hint" must name the next agent: one of ${agent.next.map((name) => `"${name}"`).join(', ')}`,
    );
  if (problems.length > 0) return { ok: false, error: `not a valid SACP answer: ${problems.join('; ')}` };
  const message = answer.message as string;
  const next = goesOn ? (hinted ?? agent.next[0] ?? null) : null;
  const failed = status === 'failure';
  return {
    ok: true,
    thought: answer.thought as string,
    value: {
      message_id: null,
      timestamp: null,
      agent: null,
      input: null,
      output: { content: answer.data ?? null, content_type: agent.contentType },
      next_agent: { name: next, reason: hinted ? 'SACP next_step_hint' : next ? 'SACP: its next agent' : null },
      status: { code: failed ? 'failed' : status === 'clarification_needed' ? 'pending' : 'success', message },
      error: failed
        ? {
            has_error: true,
            error_code: 'PROCESSING_ERROR',
            error_message: message,
            retry_count: 0,
            recoverable: false,
          }
        : { has_error: false, error_code: null, error_message: null, retry_count: 0, recoverable: false },
      metadata: null,
      audit: { compliance_notes: null, governance_files_consulted: [] },
    },
  };
}
