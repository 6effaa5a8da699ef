/**
 * The limits the orchestrator enforces before each step (docs/configuration.md): steps, routing loops, the
 * session deadline, token and cost budgets. Each one that trips ends the session with a message
 * that says which limit, its value, and what to change.
 */
import type { GovflowConfig } from '../config/config-loader.js';
import type { OrchestratorFailure } from '../message/orchestrator-messages.js';
import type { SessionStateName } from '../store/session-journal.js';
import type { SessionState } from './session-state.js';

export interface LimitReached {
  failure: OrchestratorFailure;
  /** The session state it leaves (seed 001: HALTED_COST, HALTED_TIME). */
  halt: SessionStateName;
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
    return {
      halt: 'HALTED_COST',
      failure: { code: 'BUDGET_EXCEEDED', message: `session stopped: max_steps (${limits.max_steps} messages) reached before ${agent} could run; raise limits.max_steps if this chain is legitimately longer`, recoverable: false, notes: 'Orchestrator limit: max_steps.' },
    };
  }
  if (state.loopKeys.has(loopKey)) {
    return {
      halt: 'FAILED',
      failure: { code: 'LOOP_DETECTED', message: `session stopped: ${agent} would receive the same input a second time (routing loop)`, recoverable: false, notes: 'Orchestrator limit: the same agent with the same input twice.' },
    };
  }
  if (now.getTime() - Date.parse(state.runStartedAt) > limits.session_timeout_ms) {
    return {
      halt: 'HALTED_TIME',
      failure: { code: 'TIMEOUT', message: `session stopped: the session deadline (limits.session_timeout_ms = ${limits.session_timeout_ms} ms) passed before ${agent} could run`, recoverable: true, notes: 'Orchestrator limit: session deadline.' },
    };
  }
  const tokens = state.usage.input_tokens + state.usage.output_tokens;
  const delegated = state.session.delegation;
  if (delegated && now.getTime() >= Date.parse(delegated.deadline_at)) {
    return {
      halt: 'HALTED_TIME',
      failure: { code: 'TIMEOUT', message: `delegated session stopped: its deadline (limits.delegation_deadline_ms, until ${delegated.deadline_at}) passed before ${agent} could finish; raise limits.delegation_deadline_ms or delegate a smaller objective`, recoverable: false, notes: 'Orchestrator limit: delegation deadline.' },
    };
  }
  if (delegated && delegated.max_tokens !== null && tokens >= delegated.max_tokens) {
    return {
      halt: 'HALTED_COST',
      failure: { code: 'BUDGET_EXCEEDED', message: `delegated session stopped: token budget used up (${tokens} of limits.max_tokens_per_delegation = ${delegated.max_tokens}) before ${agent} could run; raise limits.max_tokens_per_delegation or delegate a smaller objective`, recoverable: false, notes: 'Orchestrator limit: delegation token budget.' },
    };
  }
  if (limits.max_tokens_per_session !== null && tokens >= limits.max_tokens_per_session) {
    return {
      halt: 'HALTED_COST',
      failure: { code: 'BUDGET_EXCEEDED', message: `session stopped: token budget used up (${tokens} of limits.max_tokens_per_session = ${limits.max_tokens_per_session}) before ${agent} could run`, recoverable: false, notes: 'Orchestrator limit: token budget.' },
    };
  }
  if (limits.max_cost_usd_per_session !== null && state.usage.cost_usd >= limits.max_cost_usd_per_session) {
    return {
      halt: 'HALTED_COST',
      failure: { code: 'BUDGET_EXCEEDED', message: `session stopped: cost budget used up ($${state.usage.cost_usd.toFixed(4)} of limits.max_cost_usd_per_session = $${limits.max_cost_usd_per_session}) before ${agent} could run`, recoverable: false, notes: 'Orchestrator limit: cost budget.' },
    };
  }
  return null;
}
