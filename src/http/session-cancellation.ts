/**
 * Cancelling one session from outside (POST /v1/agent/chat?cancel_on_disconnect=true): its model
 * call in flight is aborted, and any later call of that session fails at once, so the session
 * ends failed through the runner's ordinary failure path, with the reason in its error message and
 * audit entry. Nothing else changes: other sessions and shutdown work as before.
 *
 * The runner announces each model call on the bus (`model_call_started`) synchronously right before
 * it calls the provider, so the provider's `generate` is wrapped on the instance and learns, from
 * that announcement, which session each call belongs to. Only the calls of watched sessions (a chat
 * with cancel_on_disconnect=true) get an abort controller; every other call goes straight through.
 */
import type { LlmProvider, LlmRequest, LlmResponse } from '../llm/provider.js';
import type { SessionEvents } from '../pipeline/session-events.js';

export class SessionCancellation {
  /** The session whose call the runner announced and is about to make. */
  private announced: string | null = null;
  private readonly inFlight = new Map<string, Set<AbortController>>();
  private readonly cancelled = new Map<string, string>();
  /** Sessions that may be cancelled: their calls can be aborted. */
  private readonly watched = new Set<string>();
  private readonly restore: () => void;
  private readonly off: () => void;

  constructor(provider: LlmProvider, events: SessionEvents) {
    this.off = events.on('model_call_started', (event) => {
      this.announced = event.sessionId;
    });
    const writable = provider as { generate: (request: LlmRequest) => Promise<LlmResponse> };
    const original = writable.generate;
    writable.generate = (request: LlmRequest) => {
      const sessionId = this.announced;
      this.announced = null;
      if (sessionId === null || !this.watched.has(sessionId)) return original.call(provider, request);
      const reason = this.cancelled.get(sessionId);
      if (reason !== undefined) return Promise.reject(new Error(reason));
      const controller = new AbortController();
      const forward = () => controller.abort(request.signal.reason);
      if (request.signal.aborted) forward();
      else request.signal.addEventListener('abort', forward, { once: true });
      const calls = this.inFlight.get(sessionId) ?? new Set<AbortController>();
      calls.add(controller);
      this.inFlight.set(sessionId, calls);
      const aborted = new Promise<never>((_resolve, reject) => {
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason instanceof Error ? controller.signal.reason : new Error(String(controller.signal.reason))), { once: true });
      });
      aborted.catch(() => undefined);
      // Racing the abort makes the cancellation take effect even for providers that ignore the signal.
      return Promise.race([original.call(provider, { ...request, signal: controller.signal }), aborted]).finally(() => {
        request.signal.removeEventListener('abort', forward);
        calls.delete(controller);
        if (calls.size === 0) this.inFlight.delete(sessionId);
      });
    };
    this.restore = () => {
      writable.generate = original;
    };
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

  close(): void {
    this.off();
    this.restore();
  }
}
