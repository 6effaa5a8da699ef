/**
 * Ids of the session event stream (docs/http-api.md, "Event stream"). Each is a function of the event it names, never of
 * what one connection happened to send, so a client sees the same id for the same event live, in
 * a full replay, and after reconnecting with any Last-Event-ID (govflow issue 32):
 *
 * - `message`: its sequence number (`7`).
 * - every other event: `<sequence of the last committed message before it>.<kind>[.<n>]`:
 *   `0.session_started`, `7.session_finished`, `7.pending.2` (the second pause since message 7,
 *   counted in the journal), `7.content_chunk.12` (the twelfth chunk since message 7, counted as
 *   the runner emits them), `7.stopping` (the daemon's notice that it stops).
 *
 * Resuming reads only the leading sequence: a reconnect gets every committed message after it.
 * Steps, chunks and tool calls are live only (the journal does not keep them, so no replay sends
 * them again); the daemon that runs the session numbers them, so every connection agrees. A step
 * run again after a restart emits new events, numbered again from 1.
 */
import type { SessionEventMap, SessionEvents } from '../pipeline/session-events.js';
import { badRequest } from './http-problem.js';

/** Events the runner emits as it works and the journal does not keep. */
export const LIVE_EVENT_KINDS = ['step_started', 'content_chunk', 'tool_call_start', 'tool_call_result', 'error'] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

/** The id of a non-message event that follows message `afterSequence` (0: before any). */
export function eventIdAfter(afterSequence: number, kind: string, ordinal?: number): string {
  return ordinal === undefined ? `${afterSequence}.${kind}` : `${afterSequence}.${kind}.${ordinal}`;
}

/**
 * The message sequence a Last-Event-ID names; null when absent; 400 when it is not one of ours.
 * The older numeric form (`7.3`) still reads as 7: a client from before keeps its place.
 */
export function parseLastEventId(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return null;
  const match = /^\s*(\d{1,9})(?:\.\d{1,12}|\.[a-z_]{1,40}(?:\.\d{1,12})?)?\s*$/.exec(value);
  if (!match) throw badRequest(`Last-Event-ID "${value.slice(0, 40)}" is not an id this stream sent (they look like "7" or "7.content_chunk.3"): reconnect without it to start over`);
  return Number(match[1]);
}

/**
 * Numbers the live events of each session by kind since its last message, as the runner emits
 * them: one count per daemon, not per connection. Listening from the daemon's start means events
 * no client watched are counted too; an event is numbered once (by its payload, which every
 * listener shares), whichever listener asks first.
 */
export class LiveEventOrdinals {
  /** session id → kind → events of that kind since the session's last message. Dropped when it finishes. */
  private readonly counts = new Map<string, Map<LiveEventKind, number>>();
  private readonly numbered = new WeakMap<object, number>();
  private readonly unsubscribe: Array<() => void>;

  constructor(events: SessionEvents) {
    this.unsubscribe = [
      ...LIVE_EVENT_KINDS.map((kind) => events.on(kind, (payload) => this.ordinalOf(kind, payload))),
      events.on('message', (event) => this.counts.delete(event.sessionId)),
      events.on('session_finished', (event) => this.counts.delete(event.sessionId)),
    ];
  }

  ordinalOf<K extends LiveEventKind>(kind: K, payload: SessionEventMap[K]): number {
    const known = this.numbered.get(payload);
    if (known !== undefined) return known;
    const counts = this.counts.get(payload.sessionId) ?? new Map<LiveEventKind, number>();
    const ordinal = (counts.get(kind) ?? 0) + 1;
    this.counts.set(payload.sessionId, counts.set(kind, ordinal));
    this.numbered.set(payload, ordinal);
    return ordinal;
  }

  close(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }
}
