/**
 * Cancelling one session from outside (POST /v1/agent/chat?cancel_on_disconnect=true): its model
 * call in flight is aborted and later ones fail at once, so it ends failed the ordinary way. A
 * layer of the provider pipeline (the AI SDK adapters are frozen); only watched sessions' calls
 * get an abort controller.
 */
import { raceAbort } from '../abort-race.js';
import { wrapProvider, type LlmProvider, type LlmRequest, type LlmResponse } from './provider.js';

export class SessionCancellation {
  private readonly inFlight = new Map<string, Set<AbortController>>();
  private readonly cancelled = new Map<string, string>();
  /** Sessions that may be cancelled: their calls can be aborted. */
  private readonly watched = new Set<string>();

  /** `inner` with this cancellation around each call. */
  layer(inner: LlmProvider): LlmProvider {
    return wrapProvider(inner, (request) => this.generate(inner, request));
  }

  /** Makes the session cancellable (before its first model call; until it finishes). */
  watch(sessionId: string): void {
    this.watched.add(sessionId);
  }

  /** Cancels a watched session: its running model call is aborted and later ones fail with `reason`. */
  cancel(sessionId: string, reason: string): void {
    this.cancelled.set(sessionId, reason);
    for (const controller of this.inFlight.get(sessionId) ?? []) controller.abort(new Error(reason));
  }

  /** Forgets a session that ended (its calls can no longer come). */
  forget(sessionId: string): void {
    this.watched.delete(sessionId);
    this.cancelled.delete(sessionId);
  }

  private generate(inner: LlmProvider, request: LlmRequest): Promise<LlmResponse> {
    const sessionId = request.sessionId;
    if (sessionId === undefined || !this.watched.has(sessionId)) return inner.generate(request);
    const reason = this.cancelled.get(sessionId);
    if (reason !== undefined) return Promise.reject(new Error(reason));
    const controller = new AbortController();
    const forward = () => controller.abort(asError(request.signal.reason));
    if (request.signal.aborted) forward();
    else request.signal.addEventListener('abort', forward, { once: true });
    const calls = this.inFlight.get(sessionId) ?? new Set<AbortController>();
    calls.add(controller);
    this.inFlight.set(sessionId, calls);
    // Racing the abort makes the cancellation take effect even for providers that ignore the signal.
    return raceAbort(inner.generate({ ...request, signal: controller.signal }), controller.signal).finally(() => {
      request.signal.removeEventListener('abort', forward);
      calls.delete(controller);
      if (calls.size === 0) this.inFlight.delete(sessionId);
    });
  }
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
