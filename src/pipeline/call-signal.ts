/**
 * The abort signal of one model call: the session's signal (shutdown), the call's own timeout and
 * the session deadline, whichever comes first. One controller and one timer per call, instead of
 * two `AbortSignal.timeout` plus an `AbortSignal.any`, whose bookkeeping showed in step profiles.
 */

import { setMaxListeners } from 'node:events';

/** setTimeout's largest delay; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface CallSignal {
  readonly signal: AbortSignal;
  /** True once the session deadline (not just the call's timeout) aborted the call. */
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

export function callSignal(outer: AbortSignal, callTimeoutMs: number, deadlineMs: number): CallSignal {
  if (!unlimited.has(outer)) {
    setMaxListeners(0, outer);
    unlimited.add(outer);
  }
  const controller = new AbortController();
  let deadlinePassed = false;
  const forward = () => controller.abort(outer.reason);
  if (outer.aborted) forward();
  else outer.addEventListener('abort', forward, { once: true });
  const delay = Math.min(callTimeoutMs, deadlineMs, MAX_TIMER_MS);
  const timer = setTimeout(() => {
    deadlinePassed = deadlineMs <= callTimeoutMs;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, Math.max(1, delay));
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
