/**
 * Retry timing: which statuses retry, the full-jitter bounds and cap, Retry-After parsing in
 * all three forms, and a sleep that wakes on abort.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BACKOFF,
  abortableSleep,
  backoffDelayMs,
  isRetryableStatus,
  parseRetryAfterMs,
  retryDelayMs,
  type BackoffOptions,
} from '../../src/backoff.js';

const options = (random: () => number, overrides: Partial<BackoffOptions> = {}): BackoffOptions => ({
  baseMs: 100,
  maxMs: 1_000,
  retryAfterMaxMs: 10_000,
  random,
  ...overrides,
});

describe('isRetryableStatus', () => {
  it.each([408, 409, 429, 500, 502, 503, 504, 599])('%i is retryable', (status) => {
    expect(isRetryableStatus(status)).toBe(true);
  });
  it.each([200, 400, 401, 403, 404, 422, 600])('%i is not', (status) => {
    expect(isRetryableStatus(status)).toBe(false);
  });
});

describe('backoffDelayMs (full jitter)', () => {
  it('doubles the ceiling per attempt: random ≈ 1 reaches it, random 0 waits nothing', () => {
    const nearlyOne = () => 0.999_999;
    expect([1, 2, 3, 4].map((attempt) => backoffDelayMs(attempt, options(nearlyOne)))).toEqual([99, 199, 399, 799]);
    expect(
      [1, 2, 3, 4].map((attempt) =>
        backoffDelayMs(
          attempt,
          options(() => 0),
        ),
      ),
    ).toEqual([0, 0, 0, 0]);
  });

  it('scales linearly with the random draw', () => {
    expect(
      backoffDelayMs(
        3,
        options(() => 0.25),
      ),
    ).toBe(100);
    expect(
      backoffDelayMs(
        3,
        options(() => 0.5),
      ),
    ).toBe(200);
  });

  it('never exceeds the cap, even for absurd attempt numbers', () => {
    for (const attempt of [5, 10, 100, 5_000]) {
      expect(
        backoffDelayMs(
          attempt,
          options(() => 0.999_999),
        ),
      ).toBeLessThanOrEqual(1_000);
      expect(
        backoffDelayMs(
          attempt,
          options(() => 0.999_999),
        ),
      ).toBeGreaterThan(990);
    }
  });

  it('stays within [0, ceiling] with the real random source', () => {
    for (let index = 0; index < 500; index += 1) {
      const delay = backoffDelayMs(2, { ...DEFAULT_BACKOFF });
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(DEFAULT_BACKOFF.baseMs * 2);
    }
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');

  it('reads delta-seconds, including fractions', () => {
    expect(parseRetryAfterMs({ 'retry-after': '3' }, now)).toBe(3_000);
    expect(parseRetryAfterMs({ 'Retry-After': '1.5' }, now)).toBe(1_500);
    expect(parseRetryAfterMs({ 'retry-after': '0' }, now)).toBe(0);
  });

  it('reads an HTTP date relative to now; a past date means now', () => {
    expect(parseRetryAfterMs({ 'retry-after': 'Sun, 01 Jun 2025 12:00:10 GMT' }, now)).toBe(10_000);
    expect(parseRetryAfterMs({ 'retry-after': 'Sun, 01 Jun 2025 11:59:00 GMT' }, now)).toBe(0);
  });

  it('prefers retry-after-ms', () => {
    expect(parseRetryAfterMs({ 'retry-after': '9', 'retry-after-ms': '250' }, now)).toBe(250);
    expect(parseRetryAfterMs({ 'retry-after': '9', 'retry-after-ms': 'soon' }, now)).toBe(9_000);
  });

  it('ignores missing and unreadable values', () => {
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
    expect(parseRetryAfterMs({}, now)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after': 'later' }, now)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after': '-5' }, now)).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  it('uses the server hint when there is one, capped', () => {
    expect(
      retryDelayMs(
        1,
        2_500,
        options(() => 0.5),
      ),
    ).toBe(2_500);
    expect(
      retryDelayMs(
        1,
        60_000,
        options(() => 0.5),
      ),
    ).toBe(10_000);
    expect(
      retryDelayMs(
        1,
        0,
        options(() => 0.5),
      ),
    ).toBe(0);
  });

  it('falls back to the jittered backoff', () => {
    expect(
      retryDelayMs(
        2,
        undefined,
        options(() => 0.5),
      ),
    ).toBe(100);
  });
});

describe('abortableSleep', () => {
  it('waits about the time asked', async () => {
    const started = Date.now();
    await abortableSleep(60, new AbortController().signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('rejects with the abort reason as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const reason = new Error('shutdown');
    const started = Date.now();
    setTimeout(() => controller.abort(reason), 20);
    await expect(abortableSleep(30_000, controller.signal)).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('rejects at once for an already aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(abortableSleep(30_000, controller.signal)).rejects.toThrow('gone');
  });
});
