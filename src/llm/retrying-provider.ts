/**
 * Retries around ANY provider (after vercel/ai's retry-with-exponential-backoff), so a hung or
 * failing call is retried whatever the provider: each attempt has its own timeout; retryable
 * failures and timeouts wait a jittered backoff or Retry-After, up to `llm.max_attempts`.
 * The caller's signal (shutdown) and the session deadline are final: never retried.
 */
import { findAnswerTooLarge } from './answer-size-limit.js';
import type { GovflowConfig } from '../config/config-loader.js';
import { ConfigError, ProviderError, errorMessage } from '../errors.js';
import { DEFAULT_BACKOFF, abortableSleep, retryDelayMs } from '../backoff.js';
import { ProviderCallError } from './provider-call-error.js';
import { wrapProvider, type LlmProvider, type LlmRequest, type LlmResponse } from './provider.js';

/** setTimeout's largest delay; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The retry policy as config gives it; `compileRetrySettings` fills the defaults. */
export interface RetrySettings {
  /** Total attempts per call, first included (`llm.max_attempts`). */
  maxAttempts: number;
  /** Per-attempt timeout (`llm.timeout_ms`); a request's own `timeoutMs` wins. */
  timeoutMs: number;
  /** Backoff ceiling of the first retry, in ms (`llm.backoff_base_ms`). */
  backoffBaseMs?: number;
  /** Cap of the computed backoff, in ms (`llm.backoff_max_ms`). */
  backoffMaxMs?: number;
  /** Cap of a server-requested Retry-After wait, in ms. */
  retryAfterMaxMs?: number;
  /** Waits between attempts; tests inject one that records the delay. Must honour `signal`. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1); tests inject a fixed one. */
  random?: () => number;
}

function positiveInteger(value: number, configKey: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`${configKey} must be a whole number of at least 1; got ${value}.`);
  return value;
}

/** The retry policy of `llm:` (README "CLI: killed runs, exit codes, retries"). */
export function retrySettings(config: GovflowConfig): RetrySettings {
  return {
    maxAttempts: config.llm.max_attempts,
    timeoutMs: config.llm.timeout_ms,
    backoffBaseMs: config.llm.backoff_base_ms,
    backoffMaxMs: config.llm.backoff_max_ms,
  };
}

/** The policy after defaults and checks: plain milliseconds, frozen. */
function compileRetrySettings(settings: RetrySettings) {
  return Object.freeze({
    maxAttempts: positiveInteger(settings.maxAttempts, 'llm.max_attempts'),
    timeoutMs: positiveInteger(settings.timeoutMs, 'llm.timeout_ms'),
    backoff: Object.freeze({
      baseMs: settings.backoffBaseMs ?? DEFAULT_BACKOFF.baseMs,
      maxMs: settings.backoffMaxMs ?? DEFAULT_BACKOFF.maxMs,
      retryAfterMaxMs: settings.retryAfterMaxMs ?? DEFAULT_BACKOFF.retryAfterMaxMs,
      random: settings.random,
    }),
    sleep: settings.sleep ?? abortableSleep,
  });
}

/**
 * The caller's signal plus one timer for this attempt's timeout or the deadline, whichever is first.
 * One controller per attempt and no second in the pipeline: each costs ~10 µs per call.
 */
interface AttemptSignal {
  readonly signal: AbortSignal;
  readonly timedOut: boolean;
  readonly deadlinePassed: boolean;
  dispose(): void;
}

function attemptSignal(caller: AbortSignal, timeoutMs: number, deadlineMs: number): AttemptSignal {
  const controller = new AbortController();
  let fired = false;
  const deadlineFirst = deadlineMs <= timeoutMs;
  const forward = () => controller.abort(caller.reason);
  if (caller.aborted) forward();
  else caller.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(
    () => {
      fired = true;
      const why = deadlineFirst ? 'The session deadline passed' : `The attempt took longer than ${timeoutMs} ms`;
      controller.abort(new DOMException(why, 'TimeoutError'));
    },
    Math.max(1, Math.min(timeoutMs, deadlineMs, MAX_TIMER_MS)),
  );
  // Like AbortSignal.timeout: a pending attempt's timer alone does not keep the process alive.
  timer.unref();
  return {
    signal: controller.signal,
    get timedOut() {
      return fired && !deadlineFirst && !caller.aborted;
    },
    get deadlinePassed() {
      return fired && deadlineFirst && !caller.aborted;
    },
    dispose() {
      clearTimeout(timer);
      caller.removeEventListener('abort', forward);
    },
  };
}

/** What one failed attempt means: the caller's abort is final, our own timeout retryable whatever the provider made of it. */
function classify(
  error: unknown,
  attempt: AttemptSignal,
  caller: AbortSignal,
  provider: string,
  model: string,
  timeoutMs: number,
): ProviderError {
  if (caller.aborted) {
    if (error instanceof ProviderError && !error.retryable) return error;
    return new ProviderError(`The call to ${provider} model ${model} was cancelled by the caller.`, {
      provider,
      model,
      retryable: false,
      cause: error,
    });
  }
  if (attempt.deadlinePassed) {
    return new ProviderError(`The session deadline passed during the call to ${provider} model ${model}.`, {
      provider,
      model,
      retryable: false,
      timedOut: true,
      cause: error,
    });
  }
  if (attempt.timedOut) {
    return new ProviderError(
      `The call to ${provider} model ${model} timed out after ${timeoutMs} ms (llm.timeout_ms, or the agent's timeout_ms); ` +
        'raise it for slow models, or check the provider is reachable.',
      { provider, model, retryable: true, timedOut: true, cause: error },
    );
  }
  if (error instanceof ProviderError) return error;
  return new ProviderError(`${provider} model ${model} failed: ${errorMessage(error)}`, {
    provider,
    model,
    retryable: false,
    cause: error,
  });
}

/** Wraps `provider` so each call is retried per `settings`; failures reject with `ProviderCallError`. */
export function withRetries(provider: LlmProvider, settings: RetrySettings): LlmProvider {
  const compiled = compileRetrySettings(settings);

  async function generate(request: LlmRequest): Promise<LlmResponse> {
    const timeoutMs = request.timeoutMs ?? compiled.timeoutMs;
    const deadlineAt = performance.now() + (request.deadlineMs ?? Number.POSITIVE_INFINITY);
    for (let attempt = 1; ; attempt += 1) {
      const caller = request.signal;
      const current = attemptSignal(caller, timeoutMs, deadlineAt - performance.now());
      try {
        // Checked here too: a signal aborted before the call never reaches the provider.
        caller.throwIfAborted();
        const response = await provider.generate({ ...request, signal: current.signal });
        return { ...response, attempts: attempt };
      } catch (error) {
        // An answer over llm.max_output_bytes is invalid output for the repair loop: never retried.
        const tooLarge = findAnswerTooLarge(error);
        if (tooLarge) throw tooLarge;
        // A provider's defect (not a ProviderError, abort or timeout) is a crash for the runner to count.
        if (!(error instanceof ProviderError) && !caller.aborted && !current.deadlinePassed && !current.timedOut)
          throw error;
        const failure = classify(error, current, caller, provider.kind, request.model, timeoutMs);
        if (caller.aborted || current.deadlinePassed || !failure.retryable || attempt >= compiled.maxAttempts) {
          throw new ProviderCallError(failure, attempt, current.deadlinePassed);
        }
        const delay = retryDelayMs(attempt, failure.retryAfterMs, compiled.backoff);
        // No attempt can start after the session deadline: give up with this failure now.
        if (performance.now() + delay >= deadlineAt) throw new ProviderCallError(failure, attempt);
        try {
          await compiled.sleep(delay, caller);
        } catch (sleepError) {
          throw new ProviderCallError(
            classify(sleepError, current, caller, provider.kind, request.model, timeoutMs),
            attempt,
          );
        }
      } finally {
        current.dispose();
      }
    }
  }

  // `inner`: the provider under the retries (tests read a scripted provider's calls through it).
  return wrapProvider(provider, generate, { inner: provider, retrying: true });
}

/** True for a provider `withRetries` made (wrapping it again would multiply the attempts). */
export function isRetrying(provider: LlmProvider): boolean {
  return (provider as { retrying?: unknown }).retrying === true;
}

/** The provider under any retry wrapper (the wrapped one itself when there is none). */
export function innermostProvider(provider: LlmProvider): LlmProvider {
  let current = provider as LlmProvider & { inner?: LlmProvider };
  while (current.inner) current = current.inner as LlmProvider & { inner?: LlmProvider };
  return current;
}
