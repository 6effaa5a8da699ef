/**
 * What a chat message asks (SPEC §23, docs/http-api.md "Chat"): seed 003's body checked, its
 * `context_type`'s profile, and the conversation it continues — the turns so far from the session
 * listing (files or Postgres alike), so restarts keep conversations.
 */
import type { GovflowConfig } from '../config/config-loader.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import { isPlainObject } from '../message/json-text.js';
import type { ChatHistoryTurn, ChatOrder } from '../pipeline/chat-turn.js';
import type { SessionSummary } from '../store/session-listing.js';
import { maySee, type Caller } from './http-auth.js';
import { badRequest, conflict, forbidden, HttpProblem, notFound } from './http-problem.js';
import type { RouteContext } from './http-routes.js';

const CHAT_FIELDS = ['message', 'context_type', 'context', 'conversation_id'];
export const CONTEXT_TYPE_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;
export const CONVERSATION_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export interface ChatBody {
  message: string;
  contextType: string | null;
  context: Record<string, unknown> | null;
  conversationId: string | null;
}

/** Seed 003's body, checked: 400 for a field it does not have or a value outside its pattern, 413 for a context over chat.max_context_bytes. */
export function parseChatBody(body: unknown, chat: GovflowConfig['chat']): ChatBody {
  if (!isPlainObject(body))
    throw badRequest('send {"message": "...", "context_type"?: "...", "context"?: {...}, "conversation_id"?: "..."}');
  const unknown = Object.keys(body).find((key) => !CHAT_FIELDS.includes(key));
  if (unknown !== undefined)
    throw badRequest(
      `unknown field "${unknown.slice(0, 64)}": a chat message has only ${CHAT_FIELDS.map((key) => `"${key}"`).join(', ')}`,
    );
  if (typeof body.message !== 'string' || body.message.trim() === '')
    throw badRequest('"message" must be a non-empty string');
  const given = (key: string) => (body[key] === undefined || body[key] === null ? null : body[key]);
  const contextType = given('context_type');
  if (contextType !== null && (typeof contextType !== 'string' || !CONTEXT_TYPE_PATTERN.test(contextType)))
    throw badRequest(`"context_type" must match ${CONTEXT_TYPE_PATTERN.source} (for example "workflow" or "tables")`);
  const conversationId = given('conversation_id');
  if (conversationId !== null && (typeof conversationId !== 'string' || !CONVERSATION_ID_PATTERN.test(conversationId)))
    throw badRequest(
      `"conversation_id" must be 1 to 128 characters from A-Z a-z 0-9 . _ : - (your own id, or the x-conversation-id of an earlier answer)`,
    );
  const context = given('context');
  if (context !== null && !isPlainObject(context))
    throw badRequest('"context" must be a JSON object (the client\'s UI state)');
  if (context !== null) {
    const bytes = Buffer.byteLength(JSON.stringify(context), 'utf8');
    if (bytes > chat.max_context_bytes)
      throw new HttpProblem(
        413,
        'payload_too_large',
        `"context" is ${bytes} bytes of JSON, more than chat.max_context_bytes (${chat.max_context_bytes}): send less UI state`,
      );
  }
  return {
    message: body.message,
    contextType: contextType as string | null,
    context: context as Record<string, unknown> | null,
    conversationId: conversationId as string | null,
  };
}

/** The profile a message's type picks: its entry agent and context file; 400 for a type `chat.contexts` does not know. */
export function chatProfile(
  contextType: string | null,
  chat: GovflowConfig['chat'],
  governance: GovernanceSnapshot | null,
): { agent: string | null; contextFile: string | null } {
  const known = Object.keys(chat.contexts);
  if (contextType !== null && known.length > 0 && !Object.hasOwn(chat.contexts, contextType))
    throw badRequest(
      `context_type "${contextType}" is not one of chat.contexts: ${known.map((type) => `"${type}"`).join(', ')}`,
    );
  const profile = contextType !== null ? chat.contexts[contextType] : chat.contexts.default;
  const agent = profile?.agent ?? null;
  // Checked when the governance loads; an agent removed since is the usual entry's business to refuse.
  if (agent !== null && governance !== null && !governance.agents.has(agent))
    throw badRequest(
      `chat.contexts.${contextType ?? 'default'}.agent "${agent}" is not an agent of the governance now`,
    );
  return { agent, contextFile: profile?.context_file ?? null };
}

/** A conversation as the listing has it: its owner and turns, oldest first; null when no turn has its id. */
export async function conversationOf(
  context: RouteContext,
  conversationId: string,
): Promise<{ user: string; turns: SessionSummary[] } | null> {
  const turns = await context.listing.conversation(conversationId);
  if (turns.length === 0) return null;
  const user = turns[0].user;
  return { user, turns: turns.filter((turn) => turn.user === user) };
}

/** What a message does to its conversation: answer its paused last turn, or start the next turn. */
export type ChatTarget =
  | { kind: 'reply'; sessionId: string; requestId: string; conversationId: string }
  | { kind: 'turn'; conversationId: string | null; turn: number; earlier: SessionSummary[] };

/** Where `conversationId`'s next message goes: 404 (another user's), 403 (an admin continuing another's), 409 (its last turn runs). */
export async function chatTarget(
  context: RouteContext,
  caller: Caller,
  conversationId: string | null,
): Promise<ChatTarget> {
  if (conversationId === null) return { kind: 'turn', conversationId: null, turn: 0, earlier: [] };
  const conversation = await conversationOf(context, conversationId);
  if (conversation === null) return { kind: 'turn', conversationId, turn: 0, earlier: [] };
  if (!maySee(caller, conversation.user)) throw notFound(`conversation "${conversationId}"`);
  if (caller.role !== 'local' && caller.user !== conversation.user)
    throw forbidden(`conversation "${conversationId}" is ${conversation.user}'s: you may read it, not continue it`);
  // The last turn's journal, not its listed state (a manifest is written off the hot path): paused, ended or still going.
  const last = conversation.turns.at(-1)!;
  await context.reads.prefetch({ sessionId: last.session_id, requestId: last.request_id });
  const view = context.lookup.session(last.session_id);
  const paused = view?.state.paused ?? null;
  if (paused?.awaiting === 'approval')
    throw conflict(
      `conversation "${conversationId}" waits for an approval: POST /v1/sessions/${last.session_id}/reply {"approve": true|false}`,
    );
  if (paused) return { kind: 'reply', sessionId: last.session_id, requestId: last.request_id, conversationId };
  if (view?.finishedStatus === null || view === null)
    throw conflict(
      `conversation "${conversationId}": its last turn (session ${last.session_id}) is still ${view === null ? 'queued' : 'running'}; send the ` +
        `next message once it has answered`,
    );
  return { kind: 'turn', conversationId, turn: last.conversation_turn + 1, earlier: conversation.turns };
}

/** A turn's message (its request as the journal keeps it) and answer (its result's); null parts while it has none. */
export async function turnText(
  context: RouteContext,
  turn: SessionSummary,
): Promise<{ message: string | null; answer: string | null; status: string }> {
  await context.reads.prefetch({ sessionId: turn.session_id, requestId: turn.request_id });
  const view = context.lookup.session(turn.session_id);
  const result = context.lookup.result(turn.request_id);
  const answer = result !== null && typeof result.answer === 'string' ? result.answer : null;
  const status = result !== null && typeof result.status === 'string' ? result.status : turn.status;
  return { message: view?.state.session.request.text ?? null, answer, status };
}

/** The `chat` a new turn's request carries: conversation, turn, profile, context and the last `history_turns` turns. */
export async function chatOrder(
  context: RouteContext,
  body: ChatBody,
  target: Extract<ChatTarget, { kind: 'turn' }>,
  conversationId: string,
  profile: { agent: string | null; contextFile: string | null },
): Promise<ChatOrder> {
  const history: ChatHistoryTurn[] = [];
  const kept = context.chat.history_turns === 0 ? [] : target.earlier.slice(-context.chat.history_turns);
  for (const turn of kept) {
    const text = await turnText(context, turn);
    if (text.message !== null) history.push({ message: text.message, answer: text.answer ?? '' });
  }
  return {
    conversation_id: conversationId,
    turn: target.turn,
    context_type: body.contextType,
    context_file: profile.contextFile,
    entry_agent: profile.agent,
    context: body.context,
    history,
    previous_session_id: target.earlier.at(-1)?.session_id ?? null,
  };
}
