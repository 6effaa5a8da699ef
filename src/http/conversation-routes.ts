/**
 * `GET /v1/conversations/:conversation_id` (SPEC §23, docs/http-api.md "Chat"): a chat's turns,
 * oldest first, each with its message and answer; another user's conversation is a 404.
 */
import type { FastifyInstance } from 'fastify';
import { maySee } from './http-auth.js';
import { notFound } from './http-problem.js';
import { callerOf, stringParam, type RouteContext } from './http-routes.js';
import { conversationOf, turnText } from './chat-request.js';

export function registerConversationRoutes(app: FastifyInstance, context: RouteContext): void {
  app.get('/v1/conversations/:conversation_id', async (request) => {
    const conversationId = stringParam(request, 'conversation_id');
    const conversation = await conversationOf(context, conversationId);
    if (conversation === null || !maySee(callerOf(request), conversation.user))
      throw notFound(`conversation "${conversationId.slice(0, 140)}"`);
    const turns = [];
    for (const turn of conversation.turns) {
      const text = await turnText(context, turn);
      turns.push({
        session_id: turn.session_id,
        request_id: turn.request_id,
        status: text.status,
        message: text.message,
        answer: text.answer,
      });
    }
    return { conversation_id: conversationId, user: conversation.user, turns };
  });
}
