/**
 * Live events of running sessions for in-process listeners (event streams, web view, tracing,
 * metrics), told after the fact; a listener that throws is ignored. `message` is emitted only
 * after the message's audit entry is durable (docs/http-api.md).
 */
import { EventEmitter } from 'node:events';
import type { RequestFileRef } from '../intake/claimed-file.js';
import type { ControlOutcome } from '../intake/control-outcome.js';

/** What both ends of one model call attempt say about it. */
interface ModelCall {
  sessionId: string;
  agent: string;
  model: string;
  provider: string;
  attempt: number;
  /** The plan task this step runs, when it runs one (tells parallel steps of one agent apart). */
  taskId?: string | null;
}

export interface SessionEventMap {
  session_started: { sessionId: string; requestId: string; user: string | null; entryAgent: string };
  step_started: { sessionId: string; agent: string; sequence: number; taskId: string | null };
  model_call_started: ModelCall & {
    /** What the model is sent, after PII redaction (tracing with capture_content records it). */
    system?: string;
    prompt?: string;
    history?: ReadonlyArray<{ role: 'user' | 'assistant'; content: string }>;
  };
  content_chunk: { sessionId: string; agent: string; chunk: string };
  model_call_finished: ModelCall & {
    inputTokens: number;
    outputTokens: number;
    ms: number;
    error: string | null;
    /** The model's raw answer (null when the call failed). */
    response?: string | null;
  };
  tool_call_start: {
    sessionId: string;
    agent: string;
    id: string;
    name: string;
    input: unknown;
    taskId?: string | null;
  };
  tool_call_result: {
    sessionId: string;
    agent: string;
    id: string;
    name: string;
    isError: boolean;
    ms: number;
    taskId?: string | null;
    /** The tool's result as the model sees it, after PII redaction. */
    output?: string;
  };
  message: {
    sessionId: string;
    sequence: number;
    agent: string;
    status: string;
    outputType: string | null;
    messageId: string;
    entryHash: string | null;
    taskId?: string | null;
  };
  /** `pause` names the pause (pauseKeyOf): a stream that replayed it from the journal skips its live announcement. */
  pending: {
    sessionId: string;
    question: string;
    awaiting: 'reply' | 'approval' | 'intervention' | 'halt';
    pause: string;
    /** The result's status of this pause (pending, intervention_required, halted_cost, halted_time). */
    status?: string;
    /** Which pause since the last message (SessionState.pausesSinceMessage); other daemons' notices (cluster) lack it. */
    ordinal?: number;
  };
  session_finished: { sessionId: string; requestId: string; status: string };
  /** Ended sessions a retention pass moved to the archive: their folders are gone from system/sessions/. */
  sessions_archived: { sessionIds: string[] };
  /** Claimed request files whose work is over, for the intake to archive; before `pending` / `session_finished`. */
  request_files_done: { sessionId: string; files: RequestFileRef[] };
  error: { sessionId: string; message: string };
  /** A control (docs/run-control.md) was applied, accepted or refused; the HTTP API answers with it. */
  control_settled: ControlOutcome;
}

export type SessionEventName = keyof SessionEventMap;

/** A typed, failure-isolated event bus shared by the runner and its listeners. */
export class SessionEvents {
  // Many SSE clients may listen at once; the default of 10 would print a false leak warning.
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  /**
   * Listeners of one session's events (its event streams, its chat turns), told after the bus's
   * own listeners: an event costs the same however many other sessions have a stream open.
   */
  private readonly sessionEmitters = new Map<string, EventEmitter>();

  emit<K extends SessionEventName>(name: K, payload: SessionEventMap[K]): void {
    // Who listens is decided before anyone is told: a listener subscribed meanwhile hears the next event.
    const sessionId = (payload as { sessionId?: unknown }).sessionId;
    const ofSession = typeof sessionId === 'string' ? this.sessionEmitters.get(sessionId)?.listeners(name) : undefined;
    deliver(this.emitter.listeners(name), payload);
    if (ofSession !== undefined) deliver(ofSession, payload);
  }

  /** Subscribes; returns the function that unsubscribes. */
  on<K extends SessionEventName>(name: K, listener: (payload: SessionEventMap[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  /** Subscribes to `sessionId`'s events named `name` only; returns the function that unsubscribes. */
  onSession<K extends SessionEventName>(
    sessionId: string,
    name: K,
    listener: (payload: SessionEventMap[K]) => void,
  ): () => void {
    const emitter = this.sessionEmitters.get(sessionId) ?? new EventEmitter().setMaxListeners(0);
    this.sessionEmitters.set(sessionId, emitter.on(name, listener));
    return () => {
      emitter.off(name, listener);
      if (emitter.eventNames().length === 0 && this.sessionEmitters.get(sessionId) === emitter)
        this.sessionEmitters.delete(sessionId);
    };
  }

  /** Sessions with a listener of their own (onSession) now. */
  get sessionsListenedTo(): number {
    return this.sessionEmitters.size;
  }

  /** Someone reads `sessionId`'s live chunks (null: every session's) until the returned function is called; only then do calls stream. */
  readChunks(sessionId: string | null): () => void {
    const key = sessionId ?? EVERY_SESSION;
    this.chunkReaders.set(key, (this.chunkReaders.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.chunkReaders.get(key) ?? 1) - 1;
      if (left <= 0) this.chunkReaders.delete(key);
      else this.chunkReaders.set(key, left);
    };
  }

  /** True while someone reads this session's live chunks (see readChunks), here or on the bus followed. */
  readsChunks(sessionId: string): boolean {
    return (
      this.chunkReaders.has(sessionId) ||
      this.chunkReaders.has(EVERY_SESSION) ||
      (this.followed?.readsChunks(sessionId) ?? false)
    );
  }

  /**
   * Counts the chunk readers of `other` as this bus's own (cluster mode: the HTTP streams listen on
   * a bus of their own that this one feeds), so a call streams exactly when a stream reads it.
   */
  followChunkReaders(other: SessionEvents): void {
    if (other !== this) this.followed = other;
  }

  private readonly chunkReaders = new Map<string | symbol, number>();
  private followed: SessionEvents | null = null;
}

const EVERY_SESSION = Symbol('every session');

/** Tells each listener; one that throws is ignored. */
function deliver(listeners: ReturnType<EventEmitter['listeners']>, payload: unknown): void {
  for (const listener of listeners) {
    try {
      (listener as (value: unknown) => void)(payload);
    } catch {
      // A broken listener must never break a session.
    }
  }
}
