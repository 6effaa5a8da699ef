/**
 * `POST /v1/agent/chat` (docs/http-api.md): a request or a conversation's next turn (the
 * conversation id is the session id), streamed back in seed 003's protocol. A client that leaves
 * stops the session only with `?cancel_on_disconnect=true`.
 */
import type { FastifyInstance } from 'fastify';
import type { SessionEventMap } from '../pipeline/session-events.js';
import { maySee, requireSubmitter } from './http-auth.js';
import { badRequest, conflict, notFound, stopping } from './http-problem.js';
import { callerOf, openStream, type RouteContext } from './http-routes.js';
import type { SseConnection } from './sse-connection.js';
import { isPlainObject } from '../message/json-text.js';

const CHAT_FIELDS = ['message', 'conversation_id'];

export function registerChatRoute(app: FastifyInstance, context: RouteContext): void {
  app.post('/v1/agent/chat', async (request, reply) => {
    if (context.isStopping()) throw stopping();
    const caller = callerOf(request);
    requireSubmitter(caller);
    const fields = request.body;
    if (!isPlainObject(fields)) throw badRequest('send {"message": "...", "conversation_id"?: "..."}');
    const unknown = Object.keys(fields).find((key) => !CHAT_FIELDS.includes(key));
    if (unknown !== undefined)
      throw badRequest(`unknown field "${unknown.slice(0, 64)}": send only "message" and "conversation_id"`);
    if (typeof fields.message !== 'string' || fields.message.trim() === '')
      throw badRequest('"message" must be a non-empty string');
    const cancelOnDisconnect = (request.query as Record<string, unknown>).cancel_on_disconnect === 'true';

    let sessionId: string;
    let requestId: string | null = null;
    let alreadyCommitted = 0;
    let resuming = false;
    if (fields.conversation_id !== undefined && fields.conversation_id !== null) {
      if (typeof fields.conversation_id !== 'string')
        throw badRequest('"conversation_id" must be a string (the session id a previous chat returned)');
      sessionId = fields.conversation_id;
      const view = context.lookup.session(sessionId);
      if (!view || !maySee(caller, view.user)) throw notFound(`conversation "${sessionId.slice(0, 140)}"`);
      if (!view.state.paused)
        throw conflict(
          `conversation "${sessionId}" is not waiting for a message (${view.finishedStatus ?? 'running'}); start a new one without conversation_id`,
        );
      if (view.state.paused.awaiting === 'approval')
        throw conflict(
          `conversation "${sessionId}" waits for an approval: POST /v1/sessions/${sessionId}/reply {"approve": true|false}`,
        );
      alreadyCommitted = view.messages.at(-1)?.sequence ?? 0;
      requestId = view.state.session.request_id;
      resuming = true;
    } else {
      sessionId = context.intake.newSessionId();
    }

    // Listening starts before the request is written, so not even the first step is missed; events
    // wait in `early` until the stream is open (a 400 or 409 can still be answered as JSON).
    let connection: SseConnection | null = null;
    const early: Array<() => void> = [];
    const send = (event: string, data: unknown) => {
      if (connection === null) early.push(() => send(event, data));
      else connection.send(event, null, data);
    };
    const offs: Array<() => void> = [];
    const on = <K extends keyof SessionEventMap>(name: K, handle: (payload: SessionEventMap[K]) => void) => {
      offs.push(
        context.events.on(name, (payload) => {
          if ((payload as { sessionId: string }).sessionId === sessionId && (connection === null || connection.isOpen))
            handle(payload);
        }),
      );
    };
    let completed = false;
    const complete = () => {
      send('message_complete', {});
      completed = true;
      if (connection !== null) connection.end();
    };
    // Seed 003's names and payloads, key for key. A turn is one LLM call (a tool-loop turn or a
    // repair; a provider retry is the same turn), counted from 0 across the conversation.
    let turn = 0;
    on('session_started', (event) => {
      requestId = event.requestId;
    });
    on('model_call_started', () => send('message_start', { turn: turn++ }));
    on('content_chunk', (event) => send('content_chunk', { chunk: event.chunk }));
    on('tool_call_start', (event) => send('tool_call_start', { tool_use_id: event.id, name: event.name }));
    on('tool_call_result', (event) =>
      send('tool_call_result', { tool_use_id: event.id, name: event.name, is_error: event.isError }),
    );
    let errorSent = false;
    on('error', (event) => {
      errorSent = true;
      send('error', { message: event.message });
    });
    on('message', (event) => {
      if (event.sequence <= alreadyCommitted) return;
      if (event.status === 'failed' && !errorSent)
        send('error', {
          message: `${event.agent} failed; the result has the details (GET /v1/requests/${requestId ?? sessionId})`,
        });
    });
    // A question for the person is what the assistant says last: it reaches the client as text.
    on('pending', (event) => {
      send('content_chunk', { chunk: event.question });
      complete();
    });
    on('session_finished', (event) => {
      requestId = event.requestId;
      complete();
    });
    offs.push(context.events.readChunks(sessionId));
    try {
      if (resuming) await context.intake.reply(sessionId, { reply: fields.message }, caller.user, 'reply');
      else {
        const submitted = await context.intake.submit(
          { request: fields.message },
          caller.user,
          sessionId,
          request.headers.authorization,
        );
        requestId = submitted.requestId;
        context.lookup.noteQueued(sessionId, submitted.requestId, caller.user);
      }
    } catch (error) {
      for (const off of offs.splice(0)) off();
      throw error;
    }
    const finishedOrPaused = () => {
      const view = context.lookup.session(sessionId);
      return (
        view !== null &&
        (view.finishedStatus !== null ||
          (view.state.paused !== null && (view.messages.at(-1)?.sequence ?? 0) > alreadyCommitted))
      );
    };
    // Seed 003's frames carry no ids; the conversation (the session) and its request are named in
    // headers, so a client that wants the §9 result can GET it.
    const open = openStream(context, request, reply, {
      'x-conversation-id': sessionId,
      ...(requestId !== null ? { 'x-request-id': requestId } : {}),
    });
    connection = open;
    for (const deliver of early.splice(0)) deliver();
    if (completed) open.end();
    open.onClose(() => {
      for (const off of offs.splice(0)) off();
      // The client asked for it: a cancel like any other (docs/run-control.md), by the client's user.
      if (cancelOnDisconnect && !finishedOrPaused()) {
        void context.intake
          .control(
            sessionId,
            'cancel',
            { reason: 'the chat client disconnected and asked cancel_on_disconnect=true' },
            caller.user,
            null,
          )
          .catch(() => undefined);
      }
    });
  });
}
