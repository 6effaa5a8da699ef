/**
 * Guardrails at a step's doors (README "Privacy and guardrails"): people's input before the
 * prompt, tool results before the model sees them, the validated answer before it is committed.
 * What fired is recorded on the step and written on its audit entry (`[GUARDRAILS]`).
 */
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import type { OrchestratorFailure } from '../message/orchestrator-messages.js';
import type { GuardrailTrigger } from '../privacy/guardrail-evaluator.js';
import type { ActiveSession } from './message-commit.js';
import type { PendingStep } from './session-steps.js';
import type { ToolResultGuard } from './tool-loop.js';

/** The step's input as the model may see it, or the failure an `intervene` rule asks for. */
export function guardStepInput(
  active: ActiveSession,
  step: PendingStep,
  snapshot: GovernanceSnapshot,
): { input: PendingStep['input']; failure: OrchestratorFailure | null } {
  const privacy = active.privacy;
  if (!privacy) return { input: step.input, failure: null };
  // Only what people send: agents' messages were checked as output (and on_failure must read them).
  if (step.input.source !== 'user') return { input: step.input, failure: null };
  privacy.claimUserInput(step);
  const guarded = privacy.guard(snapshot.guardrails, 'input', step, step.input.content);
  if (guarded.intervene) return { input: step.input, failure: interventionFailure(guarded.intervene, 'input') };
  return {
    input: guarded.value === step.input.content ? step.input : { ...step.input, content: guarded.value },
    failure: null,
  };
}

export type GuardedAnswer =
  { kind: 'accept'; candidate: Record<string, unknown>; intervened: boolean } | { kind: 'retry'; problem: string };

/** Runs the output rules over a validated answer's `output.content`. */
export function guardStepOutput(
  active: ActiveSession,
  step: PendingStep,
  snapshot: GovernanceSnapshot,
  candidate: Record<string, unknown>,
  attempt: number,
): GuardedAnswer {
  const privacy = active.privacy;
  if (!privacy) return { kind: 'accept', candidate, intervened: false };
  const output = candidate.output as { content?: unknown } | undefined;
  const guarded = privacy.guard(snapshot.guardrails, 'output', step, output?.content ?? null);
  if (guarded.retry) return { kind: 'retry', problem: `guardrail "${guarded.retry.rule}": ${guarded.retry.message}` };
  let result = candidate;
  if (output && guarded.value !== (output.content ?? null))
    result = { ...result, output: { ...output, content: guarded.value } };
  if (!guarded.intervene) return { kind: 'accept', candidate: result, intervened: false };
  const failure = interventionFailure(guarded.intervene, 'output');
  return {
    kind: 'accept',
    intervened: true,
    candidate: {
      ...result,
      status: { code: 'failed', message: failure.message },
      next_agent: { name: null, reason: `guardrail "${guarded.intervene.rule}" intervened` },
      error: {
        has_error: true,
        error_code: failure.code,
        error_message: failure.message,
        retry_count: attempt,
        recoverable: false,
      },
    },
  };
}

/** Redaction and tool_result rules for the calls of `step`'s tool loop (null: nothing to guard). */
export function toolResultGuard(
  active: ActiveSession,
  step: PendingStep,
  snapshot: GovernanceSnapshot,
): ToolResultGuard | undefined {
  const privacy = active.privacy;
  if (!privacy) return undefined;
  return (output) => {
    const guarded = privacy.guardToolResult(snapshot.guardrails, step, output);
    return {
      value: guarded.value,
      retry: guarded.retry ? `guardrail "${guarded.retry.rule}": ${guarded.retry.message}` : null,
      intervene: guarded.intervene ? interventionFailure(guarded.intervene, 'tool_result') : null,
    };
  };
}

function interventionFailure(
  trigger: GuardrailTrigger,
  stage: 'input' | 'output' | 'tool_result',
): OrchestratorFailure {
  return {
    code: 'OUT_OF_SCOPE',
    message: `guardrail "${trigger.rule}" intervened on the ${stage}: ${trigger.message}`,
    recoverable: false,
    notes: `Guardrail "${trigger.rule}" (intervene, on ${stage}).`,
  };
}
