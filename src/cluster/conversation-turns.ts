/**
 * A chat conversation's turns in the store (SPEC §23, docs/http-api.md "Chat"): which sessions
 * belong to a conversation, and whether a new turn is already taken by another daemon.
 */
import type pg from 'pg';

/** A session's chat conversation as its request names it (src/pipeline/chat-turn.ts); else its own id. */
export const CONVERSATION_OF_REQUEST = `coalesce(request->'chat'->>'conversation_id', session_id)`;

export interface ChatTurn {
  conversationId: string;
  turn: number;
}

/** The conversation and turn of a chat message's claim (src/pipeline/chat-turn.ts), or null. */
export function chatTurnOf(chat: Record<string, unknown> | undefined): ChatTurn | null {
  if (!chat || typeof chat.conversation_id !== 'string' || !Number.isInteger(chat.turn)) return null;
  return { conversationId: chat.conversation_id, turn: chat.turn as number };
}

/**
 * True when a chat message's new turn is taken: another session of its conversation is at that
 * turn or past it, or has not finished (two daemons took a conversation's next message at once,
 * each seeing the same last turn). The lock, held to the transaction's end, puts the daemons'
 * turns of one conversation one after the other; the index of migration 12 finds its sessions.
 */
export async function turnTaken(
  client: pg.PoolClient,
  sessions: string,
  sessionId: string,
  turn: ChatTurn,
): Promise<boolean> {
  await client.query('select pg_advisory_xact_lock(hashtext($1))', [`${sessions} conversation ${turn.conversationId}`]);
  const found = await client.query(
    `select 1 from ${sessions} where ${CONVERSATION_OF_REQUEST} = $1 and session_id <> $2 ` +
      `and (coalesce((request->'chat'->>'turn')::int, 0) >= $3 or state <> 'finished') limit 1`,
    [turn.conversationId, sessionId, turn.turn],
  );
  return (found.rowCount ?? 0) > 0;
}
