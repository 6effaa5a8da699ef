/**
 * Halts instead of failures (SPEC §25, seed 001's HALTED_COST and HALTED_TIME): with
 * `limits.on_budget: halt` a chain step or plan task whose model call could cross the session's cost or token
 * budget (its own, its request's) — the spend so far plus the call's worst case, its prompt's
 * tokens at the input price and its `max_tokens` at the output price — or whose user spent the
 * day's budget, pauses the session before the call; with `limits.on_deadline: halt` a step past
 * the deadline does, and one whose model call is in flight at the deadline is aborted there
 * (step-attempts.ts) and halts without a message, the call made again after `continue`. The halt is an operator-form entry (`[STATUS: pending]`, `[CONTROL]:
 * {"action": "halt", "reason"}`); a steward's `continue` with new limits resumes the same step.
 */
import { randomUUID } from 'node:crypto';
import type { GovflowConfig } from '../config/config-loader.js';
import type { AgentDefinition } from '../governance/agent-definition.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import type { ControlRecord } from '../store/session-journal.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import type { ActiveSession } from './message-commit.js';
import { operatorAuditInput } from './operator-entry.js';
import { buildSystemPrompt } from './prompt-builder.js';
import type { RunnerDependencies } from './runner-contract.js';
import { applyRecord } from './session-state.js';
import type { PendingStep } from './session-steps.js';

/** The output tokens a call is assumed to take at most when its agent sets no `max_tokens`. */
export const DEFAULT_WORST_OUTPUT_TOKENS = 4096;

export interface HaltReason {
  reason: 'cost' | 'time';
  detail: string;
}

/** Why the session halts before `step`, or null (no halt setting on, a delegated child, or within its limits). */
export async function haltBefore(
  active: ActiveSession,
  step: PendingStep,
  agent: AgentDefinition,
  snapshot: GovernanceSnapshot,
  limits: GovflowConfig['limits'],
  deps: RunnerDependencies,
  now: Date,
): Promise<HaltReason | null> {
  const { state } = active;
  if (state.session.delegation) return null;
  if (limits.on_deadline === 'halt' && now.getTime() - Date.parse(state.runStartedAt) > limits.session_timeout_ms)
    return {
      reason: 'time',
      detail: `halted before ${agent.name}'s step: the session deadline (${Math.round(limits.session_timeout_ms / 60_000)} min) passed`,
    };
  if (limits.on_budget !== 'halt') return null;
  const promptTokens = Math.ceil(
    (buildSystemPrompt(snapshot, agent).system.length + JSON.stringify(step.input.content ?? '').length) / 4,
  );
  const outputTokens = agent.maxTokens ?? DEFAULT_WORST_OUTPUT_TOKENS;
  const model = agent.model ?? deps.config.provider.model;
  const worstUsd = deps.costUsd(model, { inputTokens: promptTokens, outputTokens, cachedInputTokens: 0 });
  const spent = state.usage.cost_usd;
  if (limits.max_cost_usd_per_session !== null && spent + worstUsd > limits.max_cost_usd_per_session)
    return {
      reason: 'cost',
      detail:
        `halted before ${agent.name}'s model call: $${spent.toFixed(4)} spent plus its worst case $${worstUsd.toFixed(4)} ` +
        `(${promptTokens} prompt tokens, ${outputTokens} max output tokens) would cross the cost budget of $${limits.max_cost_usd_per_session}`,
    };
  const tokens = state.usage.input_tokens + state.usage.output_tokens;
  if (limits.max_tokens_per_session !== null && tokens + promptTokens + outputTokens > limits.max_tokens_per_session)
    return {
      reason: 'cost',
      detail:
        `halted before ${agent.name}'s model call: ${tokens} tokens used plus its worst case ${promptTokens + outputTokens} would cross ` +
        `limits.max_tokens_per_session = ${limits.max_tokens_per_session}`,
    };
  const daily = await deps.spend?.reached(state.session.request.user ?? 'local', now);
  if (daily)
    return {
      reason: 'cost',
      detail:
        `halted before ${agent.name}'s model call: user "${daily.user}" spent $${daily.spentUsd.toFixed(4)} on ${daily.day}, ` +
        `reaching limits.user_daily_usd.${daily.key} = $${daily.limitUsd}`,
    };
  return null;
}

/** Commits the halt's record and its operator-form entry; the session then waits for a steward at the same step. */
export async function commitHalt(
  active: ActiveSession,
  halt: HaltReason,
  deps: RunnerDependencies,
  now: () => Date,
): Promise<void> {
  const work = active.commitQueue.then(async () => {
    const { state } = active;
    // A sibling plan task halted (or paused) the session first: this task runs again once it resumes.
    if (state.paused) return;
    const at = now().toISOString();
    const record: ControlRecord = {
      v: JOURNAL_FORMAT,
      type: 'control',
      action: 'halt',
      control_id: randomUUID(),
      by: 'govflow',
      claimed_by: null,
      reason: halt.reason,
      at,
      claimed_at: at,
      source_file: '',
      claimed_path: null,
      governance_hash: deps.governance(state.session.session_id).hash,
      detail: halt.detail,
    };
    await active.stored.commitControl(record, operatorAuditInput(record, state.session, deps.config.timezone));
    applyRecord(state, record);
    deps.log?.info('session halted for a steward', { session: state.session.session_id, reason: halt.reason });
  });
  active.commitQueue = work.catch(() => undefined);
  await work;
}
