/** The limits enforced before each step; one that trips ends the session saying which limit, its value, what to change. */
import type { GovflowConfig } from '../config/config-loader.js';
import type { OrchestratorFailure } from '../message/orchestrator-messages.js';
import type { SessionStateName } from '../store/session-journal.js';
import type { UserSpend } from '../store/user-spend.js';
import type { ActiveSession, StepOutcome } from './message-commit.js';
import type { SessionState } from './session-state.js';

/** The `halt` outcome a tripped limit commits; `halt` is the state it leaves (seed 001: HALTED_COST, HALTED_TIME). */
export type LimitReached = Extract<StepOutcome, { kind: 'halt' }>;

/** A limit that tripped: the state it leaves, and the failure message's code, text and note. */
export function limitHalt(
  halt: SessionStateName,
  code: OrchestratorFailure['code'],
  message: string,
  recoverable: boolean,
  limit: string,
): LimitReached {
  return { kind: 'halt', halt, failure: { code, message, recoverable, notes: `Orchestrator limit: ${limit}.` } };
}

/** The first limit that stops `agent` from running next, or null. */
export function limitReached(
  limits: GovflowConfig['limits'],
  state: SessionState,
  agent: string,
  loopKey: string,
  now: Date,
): LimitReached | null {
  if (state.messages.length >= limits.max_steps) {
    return limitHalt(
      'HALTED_COST',
      'BUDGET_EXCEEDED',
      `session stopped: max_steps (${limits.max_steps} messages) reached before ${agent} could run; raise limits.max_steps if this chain is ` +
        `legitimately longer`,
      false,
      'max_steps',
    );
  }
  if (state.loopKeys.has(loopKey)) {
    return limitHalt(
      'FAILED',
      'LOOP_DETECTED',
      `session stopped: ${agent} would receive the same input a second time (routing loop)`,
      false,
      'the same agent with the same input twice',
    );
  }
  if (now.getTime() - Date.parse(state.runStartedAt) > limits.session_timeout_ms) {
    return limitHalt(
      'HALTED_TIME',
      'TIMEOUT',
      `session stopped: the session deadline (limits.session_timeout_ms = ${limits.session_timeout_ms} ms) passed before ${agent} could run`,
      true,
      'session deadline',
    );
  }
  const tokens = state.usage.input_tokens + state.usage.output_tokens;
  const delegated = state.session.delegation;
  if (delegated && now.getTime() >= Date.parse(delegated.deadline_at)) {
    return limitHalt(
      'HALTED_TIME',
      'TIMEOUT',
      delegated.constraints?.deadline_ms !== undefined
        ? `delegated session stopped: its deadline (constraints.deadline_ms = ${delegated.constraints.deadline_ms} ms of the delegate call, ` +
            `until ${delegated.deadline_at}) passed before ${agent} could finish; give it more time or a smaller objective`
        : `delegated session stopped: its deadline (limits.delegation_deadline_ms, until ${delegated.deadline_at}) passed before ${agent} ` +
            `could finish; raise limits.delegation_deadline_ms or delegate a smaller objective`,
      false,
      'delegation deadline',
    );
  }
  if (delegated && delegated.max_tokens !== null && tokens >= delegated.max_tokens) {
    return limitHalt(
      'HALTED_COST',
      'BUDGET_EXCEEDED',
      `delegated session stopped: token budget used up (${tokens} of ${
        delegated.constraints?.max_tokens !== undefined
          ? 'constraints.max_tokens of the delegate call'
          : 'limits.max_tokens_per_delegation'
      } = ${delegated.max_tokens}) before ${agent} could run; give it a larger budget or delegate a smaller objective`,
      false,
      'delegation token budget',
    );
  }
  if (limits.max_tokens_per_session !== null && tokens >= limits.max_tokens_per_session) {
    return limitHalt(
      'HALTED_COST',
      'BUDGET_EXCEEDED',
      `session stopped: token budget used up (${tokens} of limits.max_tokens_per_session = ${limits.max_tokens_per_session}) before ${agent} could run`,
      false,
      'token budget',
    );
  }
  if (limits.max_cost_usd_per_session !== null && state.usage.cost_usd >= limits.max_cost_usd_per_session) {
    return limitHalt(
      'HALTED_COST',
      'BUDGET_EXCEEDED',
      `session stopped: cost budget used up ($${state.usage.cost_usd.toFixed(4)} of limits.max_cost_usd_per_session = ` +
        `$${limits.max_cost_usd_per_session}) before ${agent} could run`,
      false,
      'cost budget',
    );
  }
  return null;
}

/** Whose budget a session's calls count against: its request's user (`local` when none). */
export function budgetUserOf(active: ActiveSession): string {
  return active.state.session.request.user ?? 'local';
}

/** The halt of a session whose user spent the day's `limits.user_daily_usd`, or null. */
export async function dailyBudgetReached(
  spend: UserSpend | undefined,
  active: ActiveSession,
  now: Date,
  timezone: string,
): Promise<LimitReached | null> {
  const reached = await spend?.reached(budgetUserOf(active), now);
  if (!reached) return null;
  const { user, day, spentUsd, limitUsd, key } = reached;
  return limitHalt(
    'HALTED_COST',
    'BUDGET_EXCEEDED',
    `user "${user}" has spent $${spentUsd.toFixed(4)} on model calls on ${day} (${timezone}), reaching ` +
      `limits.user_daily_usd.${key} = $${limitUsd}: the session stopped before its next model call; this user's requests fail the same way ` +
      `until the day turns, unless limits.user_daily_usd is raised`,
    true,
    'daily budget per user',
  );
}
