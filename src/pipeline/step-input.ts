/**
 * An agent's `input:` template (SPEC §24 data mapping) rendered into its step's input, before any
 * model call; an expression that fails ends the step with INVALID_INPUT naming it.
 */
import type { InputTemplate } from '../governance/input-template.js';
import { renderTemplate } from '../governance/input-template.js';
import type { OrchestratorFailure } from '../message/orchestrator-messages.js';
import type { SentientMessage } from '../message/sentient-message.js';
import { expressionBindings } from './expression-scope.js';
import type { SessionState } from './session-state.js';
import type { PendingStep } from './session-steps.js';

export type RenderedStep = { ok: true; step: PendingStep } | { ok: false; failure: OrchestratorFailure };

function isMessage(value: unknown): value is SentientMessage {
  return typeof value === 'object' && value !== null && 'output' in value && 'agent' in value && 'status' in value;
}

/** The step with its input rendered from `template`; `message` is the message it answers (null: the request, a reply or a task). */
export function renderStepInput(template: InputTemplate, step: PendingStep, state: SessionState): RenderedStep {
  const answered = isMessage(step.input.content) ? step.input.content : null;
  const result = renderTemplate(template, expressionBindings(state, answered));
  if (result.ok) return { ok: true, step: { ...step, input: { source: step.input.source, content: result.value } } };
  return {
    ok: false,
    failure: {
      code: 'INVALID_INPUT',
      message: `input template: {{ ${result.expression} }} cannot be evaluated: ${result.error}`,
      recoverable: false,
      notes: "Orchestrator: the agent's input template failed before any model call.",
    },
  };
}
