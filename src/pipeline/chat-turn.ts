/**
 * A chat message's turn (SPEC §23, docs/http-api.md "Chat"): what the HTTP API writes into the
 * request's claim (`chat`, the daemon's own field like `fork`), what the session record keeps of it
 * after PII redaction, and the block the entry agent's prompt gets from it.
 */
import { describeType, isPlainObject } from '../message/json-text.js';
import { sha256Hex } from '../sha256-hex.js';
import type { SessionPrivacy } from '../privacy/session-privacy.js';

/** One earlier turn as a follow-up's entry agent sees it. */
export interface ChatHistoryTurn {
  message: string;
  answer: string;
}

/** The `chat` field of a chat request's claim, written by the HTTP API. */
export interface ChatOrder {
  conversation_id: string;
  /** 0 for the conversation's first turn. */
  turn: number;
  context_type: string | null;
  /** The profile's file inside context/ (root-relative), added to the entry agent's prompt. */
  context_file: string | null;
  /** The profile's entry agent; null: the usual one. */
  entry_agent: string | null;
  /** The client's UI state as sent. */
  context: Record<string, unknown> | null;
  /** The earlier turns, oldest first (at most chat.history_turns). */
  history: ChatHistoryTurn[];
  /**
   * The conversation's previous turn (null for its first): the new turn's PII vault starts from a
   * copy of its vault, so a placeholder in the history keeps its meaning (docs/privacy.md).
   */
  previous_session_id: string | null;
}

/** What the session record keeps of a chat turn: the context and history after PII redaction. */
export interface SessionChat {
  conversation_id: string;
  turn: number;
  context_type: string | null;
  context_file: string | null;
  /** The exact JSON text of the context placed in the prompt; null: none was sent. */
  context_json: string | null;
  history: ChatHistoryTurn[];
}

/** The `chat` of a claim, checked; a string says what is wrong with it. */
export function chatOrderOf(value: unknown): ChatOrder | string {
  if (!isPlainObject(value)) return `it is ${describeType(value)}, not an object`;
  const text = (key: string) => value[key] === null || typeof value[key] === 'string';
  if (typeof value.conversation_id !== 'string' || value.conversation_id === '') return 'no conversation_id';
  if (typeof value.turn !== 'number' || !Number.isInteger(value.turn) || value.turn < 0) return 'no turn';
  if (!text('context_type') || !text('context_file') || !text('entry_agent')) return 'a name is not a string';
  if (value.context !== null && !isPlainObject(value.context)) return 'context is not an object';
  // A claim written before turns carried it (a daemon upgraded with it in the inbox) has none: the turn starts empty.
  const previous = value.previous_session_id ?? null;
  if (typeof previous !== 'string' && previous !== null) return 'previous_session_id is not a string';
  const history = value.history;
  if (
    !Array.isArray(history) ||
    !history.every((turn) => isPlainObject(turn) && typeof turn.message === 'string' && typeof turn.answer === 'string')
  )
    return 'history is not a list of {message, answer}';
  return { ...(value as unknown as ChatOrder), previous_session_id: previous };
}

/**
 * An order's context and history with PII replaced by placeholders (counted as user input): for
 * the session record, and for cluster mode's intake before the store keeps the request.
 */
export function redactChatOrder(order: ChatOrder, privacy: SessionPrivacy): ChatOrder {
  return {
    ...order,
    context: order.context === null ? null : privacy.redactUserValue(order.context),
    history: order.history.map((turn) => ({
      message: privacy.redactUserText(turn.message),
      answer: privacy.redactUserText(turn.answer),
    })),
  };
}

/** The session record's chat of an order: context and history with PII replaced by placeholders. */
export function sessionChatOf(order: ChatOrder, privacy: SessionPrivacy): SessionChat {
  const redacted = redactChatOrder(order, privacy);
  return {
    conversation_id: order.conversation_id,
    turn: order.turn,
    context_type: order.context_type,
    context_file: order.context_file,
    context_json: redacted.context === null ? null : JSON.stringify(redacted.context),
    history: redacted.history,
  };
}

export interface ChatContextLine {
  type: string | null;
  sha256: string;
  bytes: number;
}

/** The `[CHAT_CONTEXT]` of the session's first audit entry: over the exact JSON text in the prompt. */
export function chatContextLine(chat: SessionChat): ChatContextLine | null {
  if (chat.context_json === null) return null;
  return {
    type: chat.context_type,
    sha256: sha256Hex(chat.context_json),
    bytes: Buffer.byteLength(chat.context_json, 'utf8'),
  };
}

/**
 * What the entry agent's first prompt gets after the request: the conversation so far, the
 * profile's context file, and the client's context as a block titled with its type.
 */
export function chatPromptBlock(chat: SessionChat, files: Readonly<Record<string, string>>): string {
  const parts: string[] = [];
  if (chat.history.length > 0) {
    parts.push(
      `[CONVERSATION SO FAR: ${chat.history.length} earlier turn${chat.history.length === 1 ? '' : 's'} of conversation ${chat.conversation_id}, oldest first]`,
    );
    for (const turn of chat.history) parts.push(`User: ${turn.message}`, `Assistant: ${turn.answer}`);
    parts.push('[END OF CONVERSATION SO FAR]');
  }
  if (chat.context_file !== null) {
    const content = files[chat.context_file];
    if (content !== undefined)
      parts.push(
        `[CONTEXT FILE: ${chat.context_file}]`,
        content.trimEnd(),
        `[END OF CONTEXT FILE: ${chat.context_file}]`,
      );
  }
  if (chat.context_json !== null) {
    const title = chat.context_type ?? 'context';
    parts.push(
      `[CHAT CONTEXT: ${title}] (the client's current UI state, JSON)`,
      chat.context_json,
      `[END OF CHAT CONTEXT: ${title}]`,
    );
  }
  return parts.length === 0 ? '' : `\n\n${parts.join('\n')}`;
}
