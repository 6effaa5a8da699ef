/**
 * A chat conversation in the web view (docs/web-view.md): its turns together, oldest first, each
 * the person's message and the answer, linked to the turn's session page.
 */
import type { RouteContext } from '../http/http-routes.js';
import { conversationOf, turnText } from '../http/chat-request.js';
import { maySee, type Caller } from '../http/http-auth.js';
import { sessionHref } from './audit-pages.js';
import { escapeHtml, statusBadge } from './web-page.js';

export const conversationHref = (conversationId: string) => `/ui/conversations/${encodeURIComponent(conversationId)}`;

/**
 * The turns of `conversationId` as a section, `current` marked; null when the caller may not see
 * it, or when it is a lone session outside a chat (`always` false).
 */
export async function conversationBlock(
  context: RouteContext,
  caller: Caller,
  conversationId: string,
  current: string | null,
  always: boolean,
): Promise<string | null> {
  const conversation = await conversationOf(context, conversationId);
  if (conversation === null || !maySee(caller, conversation.user)) return null;
  if (!always && conversation.turns.length < 2) return null;
  const items: string[] = [];
  for (const turn of conversation.turns) {
    const text = await turnText(context, turn);
    const here = turn.session_id === current;
    items.push(
      `<li class="turn${here ? ' current' : ''}"${here ? ' aria-current="true"' : ''}>
<p><a href="${escapeHtml(sessionHref(turn.session_id))}">Turn ${turn.conversation_turn}</a> ${statusBadge(text.status)}</p>
<p class="said"><strong>${escapeHtml(conversation.user)}:</strong> ${escapeHtml(text.message ?? '')}</p>
<p class="answer"><strong>Answer:</strong> ${text.answer === null ? '<em>not yet</em>' : escapeHtml(text.answer)}</p>
</li>`,
    );
  }
  return `<section aria-labelledby="conversation-title"><h2 id="conversation-title">Conversation <a href="${escapeHtml(
    conversationHref(conversationId),
  )}"><code>${escapeHtml(conversationId)}</code></a> (${conversation.turns.length} turn${
    conversation.turns.length === 1 ? '' : 's'
  })</h2><ol id="conversation-turns">${items.join('\n')}</ol></section>`;
}
