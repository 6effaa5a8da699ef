/**
 * govflow's one backoff: exponential with full jitter, and an abortable sleep, for provider calls,
 * checkpoint witnesses and writes waiting for the disk. Pure arithmetic (bullmq's `backoffs.ts` is the model).
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Delays in plain milliseconds, compiled once from the adapter settings. */
export interface BackoffOptions {
  /** First backoff ceiling; attempt n waits up to `baseMs * 2^(n-1)`. */
  baseMs: number;
  /** Upper bound of the computed backoff, whatever the attempt number. */
  maxMs: number;
  /** Upper bound of a server-requested wait, apart from `maxMs`: a server that asks for 20 s means it, and less earns another 429. */
  retryAfterMaxMs: number;
  /** Source of randomness in [0, 1); injected by tests to check the jitter bounds. */
  random?: () => number;
}

/** Defaults: 500 ms, doubling, capped at 30 s; server hints honoured up to 60 s. */
export const DEFAULT_BACKOFF: Readonly<BackoffOptions> = Object.freeze({
  baseMs: 500,
  maxMs: 30_000,
  retryAfterMaxMs: 60_000,
});

/** Request timeout, conflict (a concurrent request), rate limit, server errors: the rest fail the same way every time. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * A uniform wait in [0, min(maxMs, baseMs * 2^(attempt-1))] after the 1-based `attempt` failed:
 * full jitter spreads a crowd of clients that failed together (AWS, "Exponential Backoff And Jitter").
 */
export function backoffDelayMs(attempt: number, options: Pick<BackoffOptions, 'baseMs' | 'maxMs' | 'random'>): number {
  const exponent = Math.max(0, attempt - 1);
  // 2^exponent overflows to Infinity for absurd attempt numbers; min() keeps the cap.
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  const random = options.random ?? Math.random;
  return Math.floor(random() * ceiling);
}

/** Case-insensitive header lookup over the plain record the AI SDK hands back. */
function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  return Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
}

/**
 * The wait the server asked for, in ms, or undefined when it gave none we can read.
 * `retry-after-ms` (OpenAI, Azure) wins over `Retry-After`, which is either delta-seconds
 * (possibly fractional) or an HTTP date. Dates in the past mean "now" (0).
 */
export function parseRetryAfterMs(
  headers: Record<string, string> | undefined,
  now: number = Date.now(),
): number | undefined {
  const milliseconds = headerValue(headers, 'retry-after-ms');
  if (milliseconds !== undefined && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return Math.ceil(value);
  }
  const retryAfter = headerValue(headers, 'retry-after')?.trim();
  if (!retryAfter) return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.ceil(Number(retryAfter) * 1000);
  // An HTTP date has a month name; without this, Date.parse reads "-5" as the year -5.
  if (!/[a-z]{3}/i.test(retryAfter)) return undefined;
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The server's hint when it gave one (capped at `retryAfterMaxMs`), else the jittered backoff. */
export function retryDelayMs(attempt: number, retryAfterMs: number | undefined, options: BackoffOptions): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, options.retryAfterMaxMs);
  return backoffDelayMs(attempt, options);
}

/** Rejects with the signal's reason as soon as it aborts: a shutdown never sits out a long Retry-After. */
export async function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch((error: unknown) => {
    throw signal.aborted ? signal.reason : error;
  });
}
