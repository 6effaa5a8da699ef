/**
 * What the HTTP API reads about requests and sessions: results and journals through the backend's
 * read seam (folded as the runner folds them), and which session runs which request from the bus.
 */
import { isSessionId } from '../intake/request-ids.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import { foldRecords, type SessionState } from '../pipeline/session-state.js';
import type { SessionReads } from '../store/session-reads.js';

/** Result statuses of a session that waits (SPEC §25): not how it ended. */
const PAUSED_RESULTS = new Set(['pending', 'intervention_required', 'halted_cost', 'halted_time']);
export interface SessionView {
  state: SessionState;
  /** The session's user (`local` for file drops that named none). */
  user: string;
  /** Committed messages in sequence order (voided ones left out). */
  messages: Array<{ sequence: number; agent: string; status: string; outputType: string | null; messageId: string }>;
  /**
   * How the session ended: its `finished` record's status, or its final result's, which the run
   * writes just before that record; null while it runs or waits for a person.
   */
  finishedStatus: string | null;
}

export class SessionLookup {
  /** request id → session id of sessions started in this process (file drops name no session up front). */
  private readonly started = new Map<string, string>();
  /** Sessions submitted over HTTP in this process that have no journal yet: session id → owner. */
  private readonly queued = new Map<string, { requestId: string; user: string }>();
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly reads: SessionReads,
    events: SessionEvents,
  ) {
    this.unsubscribe.push(
      events.on('session_started', (event) => {
        this.started.set(event.requestId, event.sessionId);
        this.queued.delete(event.sessionId);
      }),
      events.on('session_finished', (event) => this.started.delete(event.requestId)),
    );
  }

  close(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /** The §9 result of a request, or null while it has none. */
  result(requestId: string): Record<string, unknown> | null {
    if (!isSessionId(requestId)) return null;
    return this.reads.result(requestId);
  }

  /** Remembers a session id handed out with a 202, so its stream can be opened before it starts. */
  noteQueued(sessionId: string, requestId: string, user: string): void {
    this.queued.set(sessionId, { requestId, user });
  }

  /** The owner of a session that was submitted over HTTP and has not started yet. */
  queuedSession(sessionId: string): { requestId: string; user: string } | null {
    return this.queued.get(sessionId) ?? null;
  }

  /** The session running a request in this process, if one started. */
  runningSessionOf(requestId: string): string | null {
    return this.started.get(requestId) ?? null;
  }

  /** A session as its journal has it; null when it has no journal (yet). */
  session(sessionId: string): SessionView | null {
    if (!isSessionId(sessionId)) return null;
    let state: SessionState;
    let finishedStatus: string | null = null;
    try {
      const records = this.reads.records(sessionId);
      state = foldRecords(records);
      for (const record of records) if (record.type === 'finished') finishedStatus = record.status;
    } catch {
      return null;
    }
    const messages = state.messages
      .map((record) => ({
        sequence: record.message.metadata.sequence_number,
        agent: record.message.agent.name,
        status: record.message.status.code,
        outputType: record.message.output?.content_type ?? null,
        messageId: record.message.message_id,
      }))
      .sort((left, right) => left.sequence - right.sequence);
    return {
      state,
      user: state.session.request.user ?? 'local',
      messages,
      finishedStatus: state.paused ? null : (finishedStatus ?? this.finalResultStatus(state)),
    };
  }

  /** The status of the session's result once it is final (not `pending` or `intervention_required`, a pause's). */
  private finalResultStatus(state: SessionState): string | null {
    const result = this.reads.result(state.session.request_id);
    if (result?.session_id !== state.session.session_id) return null;
    return typeof result.status === 'string' && !PAUSED_RESULTS.has(result.status) ? result.status : null;
  }
}
