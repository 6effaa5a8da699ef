/**
 * A result's `answer` (SPEC §9, §23): the text meant for the person. One place decides it, for the
 * result and for what the chat streams; the final agent's `answer:` expression (§24's language)
 * overrides the default reading.
 */
import type { AgentDefinition } from '../governance/agent-definition.js';
import type { SentientMessage } from '../message/sentient-message.js';
import { answerFromExpression } from './answer-expression.js';
import type { SessionState } from './session-state.js';

/**
 * The text of `message` meant for the person: what its agent's `answer:` expression gives (with the
 * session's state); else its string output.content, else its string output.content.answer, else its
 * status.message. An expression that cannot be evaluated falls back to that default reading.
 */
export function messageAnswer(message: SentientMessage, agent?: AgentDefinition | null, state?: SessionState): string {
  const expressed = agent && state ? answerFromExpression(agent, message, state) : null;
  if (expressed?.ok) return expressed.answer;
  const content: unknown = message.output?.content;
  if (typeof content === 'string') return content;
  if (typeof content === 'object' && content !== null && !Array.isArray(content)) {
    const answer = (content as Record<string, unknown>).answer;
    if (typeof answer === 'string') return answer;
  }
  return message.status.message;
}

/**
 * A session's answer: a paused session's question; else the decisive message's answer
 * ({@link messageAnswer}); else `fallback` (the result's `message`: a cancel, a session with no message).
 */
export function resultAnswer(
  decisive: SentientMessage | null,
  pausedQuestion: string | null,
  fallback: string,
  agent?: AgentDefinition | null,
  state?: SessionState,
): string {
  if (pausedQuestion !== null) return pausedQuestion;
  return decisive ? messageAnswer(decisive, agent, state) : fallback;
}
