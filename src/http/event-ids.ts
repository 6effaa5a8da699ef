/**
 * Ids of the session event stream (docs/http-api.md "Event stream"), each a function of its event,
 * so it is the same live, in a replay and after any reconnect (issue 32): a `message` its sequence
 * (`7`), any other `<last message's sequence>.<kind>[.<n>]` (`7.pending.2`, `7.content_chunk.12`).
 * Resuming reads only the leading sequence; the daemon running a session numbers its live events.
 */
import type { SessionEventMap, SessionEvents } from '../pipeline/session-events.js';
import { badRequest } from './http-problem.js';

/** Events the runner emits as it works and the journal does not keep. */
export const LIVE_EVENT_KINDS = [
  'step_started',
  'content_chunk',
  'tool_call_start',
  'tool_call_result',
  'error',
] as const;
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
  if (!match)
    throw badRequest(
      `Last-Event-ID "${value.slice(0, 40)}" is not an id this stream sent (they look like "7" or "7.content_chunk.3"): reconnect without it to start over`,
    );
  return Number(match[1]);
}

/**
 * Numbers each session's live events by kind since its last message: one count per daemon, from
 * its start (unwatched events count too), each event once by its shared payload.
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
