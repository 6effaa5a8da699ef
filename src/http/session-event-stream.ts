/**
 * The event stream of one session (docs/http-api.md): committed messages replayed from the journal, then
 * live events from the shared bus (runtime.events), in one SSE response.
 *
 * Event ids make reconnection exact across restarts: a `message` has the id of its sequence number
 * (`7`), every other event `<last message sequence sent>.<n>` (`7.3`). A client that reconnects
 * with `Last-Event-ID: 7` or `7.3` gets every committed message after 7 — read from the journal,
 * which outlives the daemon — and then the live events, with no gap and no repeat. While the
 * journal is read, live events are held back, and messages it already replayed are dropped.
 */
import type { SessionEventMap, SessionEvents } from '../pipeline/session-events.js';
import { pauseKeyOf } from '../pipeline/session-state.js';
import { badRequest } from './http-problem.js';
import { SessionLookup } from './session-lookup.js';
import type { SseConnection } from './sse-connection.js';

export interface SessionStreamOptions {
  connection: SseConnection;
  events: SessionEvents;
  lookup: SessionLookup;
  /** The session, or null while its request is queued (it is learned from `session_started`). */
  sessionId: string | null;
  requestId: string | null;
  /** The last message sequence the client has (from Last-Event-ID); null for a first connection. */
  lastSequence: number | null;
}

/** The message sequence a Last-Event-ID names; null when absent; 400 when it is not one of ours. */
export function parseLastEventId(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return null;
  const match = /^\s*(\d{1,9})(?:\.\d{1,12})?\s*$/.exec(value);
  if (!match) throw badRequest(`Last-Event-ID "${value.slice(0, 40)}" is not an id this stream sent (they look like "7" or "7.3"): reconnect without it to start over`);
  return Number(match[1]);
}

/** Streams a session until it finishes or the client leaves. */
export function streamSessionEvents(options: SessionStreamOptions): void {
  const { connection, events, lookup } = options;
  let sessionId = options.sessionId;
  let lastSequence = options.lastSequence ?? 0;
  let counter = 0;
  let replaying = true;
  let startedSent = options.lastSequence !== null;
  /** The pause the replay announced: the runner's own `pending` for it may still be on its way. */
  let replayedPause: string | null = null;
  const held: Array<() => void> = [];
  const offs: Array<() => void> = [];
  connection.onClose(() => {
    for (const off of offs.splice(0)) off();
  });

  const otherId = () => `${lastSequence}.${++counter}`;
  const live = (deliver: () => void) => (replaying ? held.push(deliver) : deliver());
  const finished = (status: string) => {
    connection.send('session_finished', otherId(), { session_id: sessionId, status });
    connection.end();
  };
  const sendMessage = (message: { sequence: number; agent: string; status: string; outputType: string | null; messageId: string }, entryHash: string | null) => {
    if (message.sequence <= lastSequence) return;
    lastSequence = message.sequence;
    connection.send('message', String(message.sequence), {
      sequence: message.sequence,
      agent: message.agent,
      status: message.status,
      output_type: message.outputType,
      message_id: message.messageId,
      ...(entryHash ? { entry_hash: entryHash } : {}),
    });
  };
  function on<K extends keyof SessionEventMap>(name: K, handle: (payload: SessionEventMap[K]) => void): void {
    offs.push(events.on(name, (payload) => {
      if (sessionId !== null && (payload as { sessionId: string }).sessionId === sessionId && connection.isOpen) live(() => handle(payload));
    }));
  }

  on('session_started', (event) => {
    if (startedSent) return;
    startedSent = true;
    connection.send('session_started', otherId(), { session_id: event.sessionId, request_id: event.requestId, agent: event.entryAgent });
  });
  on('step_started', (event) => connection.send('step_started', otherId(), { agent: event.agent, sequence: event.sequence, task_id: event.taskId }));
  on('content_chunk', (event) => connection.send('content_chunk', otherId(), { agent: event.agent, chunk: event.chunk }));
  on('tool_call_start', (event) => connection.send('tool_call_start', otherId(), { id: event.id, name: event.name, agent: event.agent }));
  on('tool_call_result', (event) => connection.send('tool_call_result', otherId(), { id: event.id, name: event.name, is_error: event.isError, ms: event.ms }));
  on('message', (event) => sendMessage(event, event.entryHash));
  on('pending', (event) => {
    const repeat = event.pause === replayedPause;
    replayedPause = null;
    if (!repeat) connection.send('pending', otherId(), { question: event.question, awaiting: event.awaiting });
  });
  on('error', (event) => connection.send('error', otherId(), { message: event.message }));
  on('session_finished', (event) => finished(event.status));

  /** Sends what the journal holds, then lets the held live events through. */
  const replay = () => {
    const view = sessionId === null ? null : lookup.session(sessionId);
    if (view) {
      if (!startedSent) {
        startedSent = true;
        connection.send('session_started', `0.${++counter}`, {
          session_id: view.state.session.session_id,
          request_id: view.state.session.request_id,
          agent: view.state.session.entry_agent,
        });
      }
      for (const message of view.messages) sendMessage(message, null);
      if (view.finishedStatus !== null) {
        finished(view.finishedStatus);
        return;
      }
      if (view.state.paused) {
        // Journaled before the run is done with it: the run's live `pending` may follow, once.
        replayedPause = pauseKeyOf(view.state.paused);
        connection.send('pending', otherId(), { question: view.state.paused.question, awaiting: SessionLookup.awaitingOf(view.state) });
      }
    }
    replaying = false;
    for (const deliver of held.splice(0)) if (connection.isOpen) deliver();
  };

  if (sessionId !== null) {
    replay();
    return;
  }
  // Queued: wait for the session that takes this request, then replay it from its journal.
  offs.push(events.on('session_started', (event) => {
    if (sessionId === null && event.requestId === options.requestId) {
      sessionId = event.sessionId;
      replay();
    }
  }));
  const already = options.requestId === null ? null : (lookup.runningSessionOf(options.requestId) ?? (lookup.result(options.requestId)?.session_id as string | undefined) ?? null);
  if (already !== null && sessionId === null) {
    sessionId = already;
    replay();
  }
}
