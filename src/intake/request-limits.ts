/**
 * A request's own limits (SPEC §25, seed 001's `cost_threshold` and `time_threshold_minutes`):
 * `"limits": {"cost_usd"?, "time_minutes"?, "max_steps"?}` on a JSON request, each above 0 and at
 * most the configured value (`limits.max_cost_usd_per_session`, `limits.session_timeout_ms`,
 * `limits.max_steps`; a null setting caps nothing). They tighten the configured limits for that
 * session only (session-limits.ts). No I/O.
 */
import type { GovflowConfig } from '../config/config-loader.js';
import { describeType, isPlainObject } from '../message/json-text.js';

export interface RequestLimits {
  cost_usd?: number;
  time_minutes?: number;
  max_steps?: number;
}

const KEYS = ['cost_usd', 'time_minutes', 'max_steps'] as const;

/** The request's `limits` as given (absent or null: none), or what to fix. */
export function parseRequestLimits(value: unknown): RequestLimits | null | { invalid: string } {
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value))
    return {
      invalid: `"limits" must be an object such as {"cost_usd": 0.5, "time_minutes": 10}, but it is ${describeType(value)}`,
    };
  const limits: RequestLimits = {};
  for (const [key, given] of Object.entries(value)) {
    if (!(KEYS as readonly string[]).includes(key))
      return {
        invalid: `"limits" has an unknown key ${JSON.stringify(key.slice(0, 40))}: use "cost_usd", "time_minutes" or "max_steps"`,
      };
    if (typeof given !== 'number' || !Number.isFinite(given) || given <= 0)
      return { invalid: `"limits.${key}" must be a number above 0, but it is ${JSON.stringify(given)?.slice(0, 40)}` };
    if (key === 'max_steps' && !Number.isInteger(given))
      return { invalid: `"limits.max_steps" must be a whole number of messages, but it is ${given}` };
    limits[key as keyof RequestLimits] = given;
  }
  return limits;
}

/** Why a request's limits cannot be taken (one above its configured cap), naming the setting and its value; null when they can. */
export function requestLimitsRefusal(
  limits: RequestLimits | null | undefined,
  configured: GovflowConfig['limits'],
): string | null {
  if (!limits) return null;
  const over = (key: string, given: number, setting: string, value: number, unit = '') =>
    `"limits.${key}" ${given} is above limits.${setting} = ${value}${unit}: a request may only tighten the configured limits`;
  if (
    limits.cost_usd !== undefined &&
    configured.max_cost_usd_per_session !== null &&
    limits.cost_usd > configured.max_cost_usd_per_session
  )
    return over('cost_usd', limits.cost_usd, 'max_cost_usd_per_session', configured.max_cost_usd_per_session);
  if (limits.time_minutes !== undefined && limits.time_minutes * 60_000 > configured.session_timeout_ms)
    return over('time_minutes', limits.time_minutes, 'session_timeout_ms', configured.session_timeout_ms, ' ms');
  if (limits.max_steps !== undefined && limits.max_steps > configured.max_steps)
    return over('max_steps', limits.max_steps, 'max_steps', configured.max_steps);
  return null;
}

/** The limits a session runs under: the configured ones, tightened by its request's own, then a steward's new totals. */
export function effectiveLimits(
  configured: GovflowConfig['limits'],
  own: RequestLimits | null | undefined,
  raised: { cost_usd?: number; time_minutes?: number } = {},
): GovflowConfig['limits'] {
  const tightened = tighten(configured, own);
  // A steward's continue sets new totals for the session, over both (docs/run-control.md).
  return {
    ...tightened,
    ...(raised.cost_usd !== undefined ? { max_cost_usd_per_session: raised.cost_usd } : {}),
    ...(raised.time_minutes !== undefined ? { session_timeout_ms: raised.time_minutes * 60_000 } : {}),
  };
}

function tighten(configured: GovflowConfig['limits'], own: RequestLimits | null | undefined): GovflowConfig['limits'] {
  if (!own) return configured;
  return {
    ...configured,
    ...(own.max_steps !== undefined ? { max_steps: Math.min(own.max_steps, configured.max_steps) } : {}),
    ...(own.time_minutes !== undefined
      ? { session_timeout_ms: Math.min(own.time_minutes * 60_000, configured.session_timeout_ms) }
      : {}),
    ...(own.cost_usd !== undefined
      ? {
          max_cost_usd_per_session:
            configured.max_cost_usd_per_session === null
              ? own.cost_usd
              : Math.min(own.cost_usd, configured.max_cost_usd_per_session),
        }
      : {}),
  };
}
