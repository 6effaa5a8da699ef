/**
 * `POST /v1/agent/chat` (SPEC §23, docs/http-api.md "Chat"): one message of a conversation — a new
 * turn (a session whose entry agent sees the turns so far and the client's context), or the answer
 * to its paused last turn — streamed back in seed 003's protocol, with only the answer as text. A
 * client that leaves stops the session only with `?cancel_on_disconnect=true`.
 */
import type { FastifyInstance } from 'fastify';
import type { SessionEventMap } from '../pipeline/session-events.js';
import { requireSubmitter } from './http-auth.js';
import { conflict, stopping } from './http-problem.js';
import { callerOf, openStream, type RouteContext } from './http-routes.js';
import type { SseConnection } from './sse-connection.js';
import { AnswerStream, writesAnswer } from './answer-stream.js';
import { chatOrder, chatProfile, chatTarget, parseChatBody } from './chat-request.js';

export function registerChatRoute(app: FastifyInstance, context: RouteContext): void {
  /** Conversations whose next message is being handed over here: a second one at once is a 409, as while the turn runs. */
  const handingOver = new Set<string>();

  app.post('/v1/agent/chat', async (request, reply) => {
    if (context.isStopping()) throw stopping();
    const caller = callerOf(request);
    requireSubmitter(caller);
    const body = parseChatBody(request.body, context.chat);
    const governance = context.governance();
    const profile = chatProfile(body.contextType, context.chat, governance);
    const cancelOnDisconnect = (request.query as Record<string, unknown>).cancel_on_disconnect === 'true';
    const guard = body.conversationId;
    if (guard !== null) {
      if (handingOver.has(guard))
        throw conflict(
          `conversation "${guard}": a message for it is being handed over; send the next one once it has answered`,
        );
      handingOver.add(guard);
    }
    // A refusal (403, 404, 409) names the conversation it is about too, as every chat answer does.
    if (body.conversationId !== null) void reply.header('x-conversation-id', body.conversationId);
    try {
      const target = await chatTarget(context, caller, body.conversationId);
      const sessionId = target.kind === 'reply' ? target.sessionId : context.intake.newSessionId();
      const conversationId = target.conversationId ?? sessionId;
      const order = target.kind === 'turn' ? await chatOrder(context, body, target, conversationId, profile) : null;
      await streamTurn(context, request, reply, {
        sessionId,
        conversationId,
        requestId: target.kind === 'reply' ? target.requestId : null,
        alreadyCommitted:
          target.kind === 'reply' ? (context.lookup.session(sessionId)?.messages.at(-1)?.sequence ?? 0) : 0,
        cancelOnDisconnect,
        handOver: async () => {
          if (target.kind === 'reply')
            await context.intake.reply(sessionId, { reply: body.message }, caller.user, 'reply');
          else {
            const submitted = await context.intake.submit({ request: body.message }, caller.user, sessionId, {
              authorization: request.headers.authorization,
              chat: order!,
            });
            context.lookup.noteQueued(sessionId, submitted.requestId, caller.user);
            return submitted.requestId;
          }
          return null;
        },
        user: caller.user,
      });
    } finally {
      if (guard !== null) handingOver.delete(guard);
    }
  });
}

interface TurnOptions {
  sessionId: string;
  conversationId: string;
  /** The paused turn's request a reply answers; null: the new turn's, known once handed over. */
  requestId: string | null;
  /** The messages the session had before this message (a reply): their events are not this turn's. */
  alreadyCommitted: number;
  cancelOnDisconnect: boolean;
  /** Hands the message to the intake, durably; resolves with the new request's id (null for a reply). */
  handOver: () => Promise<string | null>;
  user: string;
}

/** Streams one turn: listening starts before the message is handed over, so not even the first step is missed. */
async function streamTurn(
  context: RouteContext,
  request: Parameters<typeof openStream>[1],
  reply: Parameters<typeof openStream>[2],
  options: TurnOptions,
): Promise<void> {
  const { sessionId, alreadyCommitted } = options;
  let requestId = options.requestId;
  // Events wait in `early` until the stream is open (a 400 or 409 can still be answered as JSON).
  let connection: SseConnection | null = null;
  const early: Array<() => void> = [];
  const send = (event: string, data: unknown) => {
    if (connection === null) early.push(() => send(event, data));
    else connection.send(event, null, data);
  };
  const offs: Array<() => void> = [];
  const on = <K extends keyof SessionEventMap>(name: K, handle: (payload: SessionEventMap[K]) => void) => {
    offs.push(
      context.events.onSession(sessionId, name, (payload) => {
        if (connection === null || connection.isOpen) handle(payload);
      }),
    );
  };
  let completed = false;
  const complete = () => {
    if (completed) return;
    send('message_complete', {});
    completed = true;
    if (connection !== null) connection.end();
  };
  const agentOf = (name: string) => context.governance()?.agents.get(name);
  // Seed 003's names and payloads, key for key. A `message_start` per LLM call (a tool-loop turn or
  // a repair; a provider retry is the same call), counted from 0 in this turn.
  const answer = new AnswerStream((frame) => send(frame.event, frame.data));
  // An output guardrail that can change or withhold the answer (redact, retry, intervene) decides before the
  // person reads it, and an agent's `answer:` expression makes the answer from the whole message: the chat
  // then sends the answer once committed, not as the model writes it.
  const held = (agent: string) =>
    Boolean(agentOf(agent)?.answer) ||
    (context.governance()?.guardrails.some((rule) => rule.on === 'output' && rule.action !== 'flag') ?? false);
  on('model_call_started', (event) =>
    answer.modelCall(event.agent, agentOf(event.agent), (event.taskId ?? null) !== null || held(event.agent)),
  );
  on('content_chunk', (event) => answer.modelText(event.agent, event.chunk));
  on('tool_call_start', (event) => send('tool_call_start', { tool_use_id: event.id, name: event.name }));
  on('tool_call_result', (event) =>
    send('tool_call_result', { tool_use_id: event.id, name: event.name, is_error: event.isError }),
  );
  on('session_started', (event) => {
    requestId = event.requestId;
  });
  // chat.progress: each committed message of the agents before the final one, as one line of text.
  on('message', (event) => {
    const final = writesAnswer(agentOf(event.agent)) && (event.taskId ?? null) === null;
    if (!context.chat.progress || event.sequence <= alreadyCommitted || final) return;
    const committed = context.lookup
      .session(sessionId)
      ?.state.messages.find((record) => record.message.metadata.sequence_number === event.sequence);
    if (committed) answer.text(`${committed.message.status.message}\n\n`);
  });
  // A question for the person is the turn's answer: its text, then the end of the turn.
  on('pending', (event) => {
    answer.finish(event.question);
    complete();
  });
  const finished = async (event: SessionEventMap['session_finished']) => {
    requestId = event.requestId;
    // The result is written before the event; a shared store's (cluster) is fetched first.
    await context.reads.prefetch({ requestId: event.requestId }).catch(() => undefined);
    const result = context.lookup.result(event.requestId);
    const status = typeof result?.status === 'string' ? result.status : event.status;
    if (status === 'failed' || status === 'cancelled') {
      const message = typeof result?.message === 'string' ? result.message : `the session ended ${status}`;
      send('error', { message });
    } else answer.finish(typeof result?.answer === 'string' ? result.answer : '');
    complete();
  };
  on('session_finished', (event) => void finished(event));
  offs.push(context.events.readChunks(sessionId));
  try {
    requestId = (await options.handOver()) ?? requestId;
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
  // Seed 003's frames carry no ids: the conversation and the turn's request are named in headers,
  // so a client that wants the §9 result or the conversation can GET them.
  const open = openStream(context, request, reply, {
    'x-conversation-id': options.conversationId,
    ...(requestId !== null ? { 'x-request-id': requestId } : {}),
  });
  connection = open;
  for (const deliver of early.splice(0)) deliver();
  if (completed) open.end();
  open.onClose(() => {
    for (const off of offs.splice(0)) off();
    // The client asked for it: a cancel like any other (docs/run-control.md), by the client's user.
    if (options.cancelOnDisconnect && !finishedOrPaused()) {
      void context.intake
        .control(
          sessionId,
          'cancel',
          { reason: 'the chat client disconnected and asked cancel_on_disconnect=true' },
          options.user,
          null,
        )
        .catch(() => undefined);
    }
  });
}
