/**
 * The abort signal of one model call: the session's signal (shutdown) and the session deadline,
 * whichever comes first. Both are final: the retry wrapper around the provider (withRetries,
 * src/llm/retrying-provider.ts) never retries past them. The per-attempt timeout is not here: it
 * lives in that wrapper, so a hung attempt is retried instead of ending the call.
 * One controller and one timer per call, instead of `AbortSignal.timeout` plus `AbortSignal.any`,
 * whose bookkeeping showed in step profiles.
 */

import { setMaxListeners } from 'node:events';

/** setTimeout's largest delay; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface CallSignal {
  readonly signal: AbortSignal;
  /** True once the session deadline aborted the call. */
  readonly deadlinePassed: boolean;
  /** Clears the timer and the listener; call when the model call settled. */
  dispose(): void;
}

/**
 * Outer signals already allowed any number of listeners: the daemon's shutdown signal is shared by
 * every running call (each listener is removed when its call settles), so Node's leak warning at
 * 11 listeners would be a false alarm printed to stderr.
 */
const unlimited = new WeakSet<AbortSignal>();

export function callSignal(outer: AbortSignal, deadlineMs: number): CallSignal {
  if (!unlimited.has(outer)) {
    setMaxListeners(0, outer);
    unlimited.add(outer);
  }
  const controller = new AbortController();
  let deadlinePassed = false;
  const forward = () => controller.abort(outer.reason);
  if (outer.aborted) forward();
  else outer.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(() => {
    deadlinePassed = true;
    controller.abort(new DOMException('The session deadline passed', 'TimeoutError'));
  }, Math.max(1, Math.min(deadlineMs, MAX_TIMER_MS)));
  // Like AbortSignal.timeout: a pending call's timer alone does not keep the process alive.
  timer.unref();
  return {
    signal: controller.signal,
    get deadlinePassed() {
      return deadlinePassed;
    },
    dispose() {
      clearTimeout(timer);
      outer.removeEventListener('abort', forward);
    },
  };
}
