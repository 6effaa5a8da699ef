/**
 * One session's event stream (docs/http-api.md): committed messages replayed from the journal
 * (after Last-Event-ID's sequence; ids: event-ids.ts), then live events from the bus, with no gap
 * and no repeat: live events wait while the journal is read, and those it replayed are dropped.
 */
import type { SessionEventMap, SessionEvents } from '../pipeline/session-events.js';
import { pauseKeyOf } from '../pipeline/session-state.js';
import { eventIdAfter, type LiveEventKind, type LiveEventOrdinals } from './event-ids.js';
import type { SessionLookup } from './session-lookup.js';
import type { SseConnection } from './sse-connection.js';

export interface SessionStreamOptions {
  connection: SseConnection;
  events: SessionEvents;
  lookup: SessionLookup;
  /** The daemon's numbering of live events (steps, chunks, tool calls), shared by every connection. */
  ordinals: LiveEventOrdinals;
  /** The session, or null while its request is queued (it is learned from `session_started`). */
  sessionId: string | null;
  requestId: string | null;
  /** The last message sequence the client has (from Last-Event-ID); null for a first connection. */
  lastSequence: number | null;
}

/** Streams a session until it finishes or the client leaves. */
export function streamSessionEvents(options: SessionStreamOptions): void {
  const { connection, events, lookup, ordinals } = options;
  let sessionId = options.sessionId;
  /** Messages up to this one the client has already: they are not sent again. */
  const clientHas = options.lastSequence ?? 0;
  /** The session's last committed message so far (journal, then live): what every other id follows. */
  let lastMessage = 0;
  let replaying = true;
  let startedSent = options.lastSequence !== null;
  /** The pause the replay announced: the runner's own `pending` for it may still be on its way. */
  let replayedPause: string | null = null;
  const held: Array<() => void> = [];
  const offs: Array<() => void> = [];
  connection.onClose(() => {
    for (const off of offs.splice(0)) off();
  });
  connection.stoppingId = () => eventIdAfter(lastMessage, 'stopping');

  const idAfter = (kind: string, ordinal?: number) => eventIdAfter(lastMessage, kind, ordinal);
  const started = (data: { session_id: string; request_id: string; agent: string }) => {
    startedSent = true;
    connection.send('session_started', eventIdAfter(0, 'session_started'), data);
  };
  const finished = (status: string) => {
    connection.send('session_finished', idAfter('session_finished'), { session_id: sessionId, status });
    connection.end();
  };
  const sendMessage = (
    message: { sequence: number; agent: string; status: string; outputType: string | null; messageId: string },
    entryHash: string | null,
  ) => {
    if (message.sequence <= lastMessage) return;
    lastMessage = message.sequence;
    if (message.sequence <= clientHas) return;
    connection.send('message', String(message.sequence), {
      sequence: message.sequence,
      agent: message.agent,
      status: message.status,
      output_type: message.outputType,
      message_id: message.messageId,
      ...(entryHash ? { entry_hash: entryHash } : {}),
    });
  };
  /** The stream's subscriptions to its session's events, made once the session is known (replay). */
  const subscriptions: Array<(session: string) => void> = [];
  function on<K extends keyof SessionEventMap>(name: K, handle: (payload: SessionEventMap[K]) => void): void {
    subscriptions.push((session) =>
      offs.push(
        events.onSession(session, name, (payload) => {
          if (!connection.isOpen) return;
          if (replaying) held.push(() => handle(payload));
          else handle(payload);
        }),
      ),
    );
  }
  /** A live-only event: numbered by the daemon (the same on every connection). */
  function onLive<K extends LiveEventKind>(name: K, data: (payload: SessionEventMap[K]) => unknown): void {
    on(name, (payload) => connection.send(name, idAfter(name, ordinals.ordinalOf(name, payload)), data(payload)));
  }

  on('session_started', (event) => {
    if (!startedSent) started({ session_id: event.sessionId, request_id: event.requestId, agent: event.entryAgent });
  });
  onLive('step_started', (event) => ({ agent: event.agent, sequence: event.sequence, task_id: event.taskId }));
  onLive('content_chunk', (event) => ({ agent: event.agent, chunk: event.chunk }));
  onLive('tool_call_start', (event) => ({ id: event.id, name: event.name, agent: event.agent }));
  onLive('tool_call_result', (event) => ({ id: event.id, name: event.name, is_error: event.isError, ms: event.ms }));
  onLive('error', (event) => ({ message: event.message }));
  on('message', (event) => sendMessage(event, event.entryHash));
  on('pending', (event) => {
    // A pause for a steward is told live only (docs/run-control.md): `session_paused`, the result has the rest.
    if (event.awaiting === 'intervention' || event.awaiting === 'halt') {
      connection.send('session_paused', idAfter('session_paused', event.ordinal), {
        session_id: event.sessionId,
        status: event.status ?? (event.awaiting === 'halt' ? 'halted_cost' : 'intervention_required'),
      });
      return;
    }
    const repeat = event.pause === replayedPause;
    replayedPause = null;
    if (repeat) return;
    // Another daemon's notice (cluster) does not say which pause: the journal does.
    const ordinal = event.ordinal ?? lookup.session(event.sessionId)?.state.pausesSinceMessage ?? 1;
    connection.send('pending', idAfter('pending', ordinal), { question: event.question, awaiting: event.awaiting });
  });
  on('session_finished', (event) => finished(event.status));

  /** Sends what the journal holds, then lets the held live events through. */
  const replay = () => {
    if (sessionId !== null && connection.isOpen) {
      // Subscribed as the session becomes known: its events before that were not this stream's.
      for (const subscribe of subscriptions.splice(0)) subscribe(sessionId);
      offs.push(events.readChunks(sessionId));
    }
    const view = sessionId === null ? null : lookup.session(sessionId);
    if (view) {
      if (!startedSent)
        started({
          session_id: view.state.session.session_id,
          request_id: view.state.session.request_id,
          agent: view.state.session.entry_agent,
        });
      for (const message of view.messages) sendMessage(message, null);
      if (view.finishedStatus !== null) {
        finished(view.finishedStatus);
        return;
      }
      if (view.state.paused && view.state.paused.awaiting !== 'intervention' && view.state.paused.awaiting !== 'halt') {
        // Journaled before the run is done with it: the run's live `pending` may follow, once.
        replayedPause = pauseKeyOf(view.state.paused);
        connection.send('pending', idAfter('pending', view.state.pausesSinceMessage), {
          question: view.state.paused.question,
          awaiting: view.state.paused.awaiting ?? 'reply',
        });
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
  offs.push(
    events.on('session_started', (event) => {
      if (sessionId === null && event.requestId === options.requestId) {
        sessionId = event.sessionId;
        replay();
      }
    }),
  );
  const already =
    options.requestId === null
      ? null
      : (lookup.runningSessionOf(options.requestId) ??
        (lookup.result(options.requestId)?.session_id as string | undefined) ??
        null);
  if (already !== null && sessionId === null) {
    sessionId = already;
    replay();
  }
}
