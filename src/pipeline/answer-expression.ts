/**
 * An agent's `answer: <expression>` (SPEC §23, in §24's language): the text a result gives the
 * person, computed over the final message instead of the default reading of it.
 */
import type { AgentDefinition } from '../governance/agent-definition.js';
import { stringifyJson } from '../message/json-text.js';
import type { SentientMessage } from '../message/sentient-message.js';
import { expressionBindings, lastMessagesByAgent } from './expression-scope.js';
import type { SessionState } from './session-state.js';

/** What the expression gives: `answer` (a string as is, anything else as JSON), or why it gave none. */
export type ExpressionAnswer = { ok: true; answer: string } | { ok: false; error: string };

/**
 * The answer `agent`'s `answer:` expression gives for its message `message` in the session `state`;
 * null when the agent declares none (the default reading applies). An expression that cannot be
 * evaluated is `ok: false`: the caller falls back to the default reading and may note why.
 */
export function answerFromExpression(
  agent: AgentDefinition,
  message: SentientMessage,
  state: SessionState,
): ExpressionAnswer | null {
  if (!agent.answer) return null;
  const result = agent.answer.evaluate(expressionBindings(state, message, lastMessagesByAgent(state, message)));
  if (!result.ok) return { ok: false, error: `answer: ${agent.answer.text}: ${result.error}` };
  const value = result.value;
  return { ok: true, answer: typeof value === 'string' ? value : (stringifyJson(value) ?? 'null') };
}
