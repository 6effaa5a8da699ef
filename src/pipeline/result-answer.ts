/**
 * A result's `answer` (SPEC §9, §23): the text meant for the person. One place decides it, for the
 * result and for what the chat streams; the final agent's definition is passed so that an agent's
 * own say over its answer can be added here.
 */
import type { AgentDefinition } from '../governance/agent-definition.js';
import type { SentientMessage } from '../message/sentient-message.js';

/** The text of `message` meant for the person: its string output.content, else its string output.content.answer, else its status.message. */
export function messageAnswer(message: SentientMessage, agent?: AgentDefinition | null): string {
  void agent;
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
): string {
  if (pausedQuestion !== null) return pausedQuestion;
  return decisive ? messageAnswer(decisive, agent) : fallback;
}
