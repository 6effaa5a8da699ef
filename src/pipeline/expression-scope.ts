/**
 * What governance expressions see (SPEC §24): the message's top-level fields by name, `message`
 * (all of it), `request` ({text, user, metadata}) and `agents` (each agent's last committed
 * message in the session). Plain JSON, built per evaluation.
 */
import { SENTIENT_MESSAGE_SCHEMA, type SentientMessage } from '../message/sentient-message.js';
import type { SessionState } from './session-state.js';

/** Each agent's last committed message in the session, plus `current` (the message being committed) when given. */
export function lastMessagesByAgent(state: SessionState, current?: SentientMessage): Record<string, SentientMessage> {
  const agents: Record<string, SentientMessage> = {};
  for (const record of state.messages) agents[record.message.agent.name] = record.message;
  if (current) agents[current.agent.name] = current;
  return agents;
}

/** The bindings of an expression over `message` (null: no message, its fields are null) in this session. */
export function expressionBindings(
  state: SessionState,
  message: SentientMessage | null,
  agents: Record<string, SentientMessage> = lastMessagesByAgent(state),
): Record<string, unknown> {
  const { text, user, metadata } = state.session.request;
  const fields: Record<string, unknown> = message
    ? { ...(message as unknown as Record<string, unknown>) }
    : Object.fromEntries(MESSAGE_FIELDS.map((field) => [field, null]));
  return { ...fields, message, request: { text, user, metadata }, agents };
}

/** The top-level fields of a Sentient message (its schema's required keys), bound to null when an expression has no message. */
const MESSAGE_FIELDS = SENTIENT_MESSAGE_SCHEMA.required;
