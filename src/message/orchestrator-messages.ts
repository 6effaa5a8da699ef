/** Messages the orchestrator writes in an agent's place, shaped like any other so routing, journal and audit treat them alike. */
import type { ErrorCode, SentientMessage } from './sentient-message.js';
import { stampMessage, type StampContext } from './message-stamping.js';

export interface OrchestratorFailure {
  code: ErrorCode;
  message: string;
  recoverable: boolean;
  /** Written to audit.compliance_notes. */
  notes: string;
}

export function orchestratorFailureMessage(context: StampContext, failure: OrchestratorFailure): SentientMessage {
  const body = {
    output: { content: null, content_type: 'error' },
    next_agent: { name: null, reason: 'the orchestrator ended this chain' },
    status: { code: 'failed', message: failure.message },
    error: {
      has_error: true,
      error_code: failure.code,
      error_message: failure.message,
      retry_count: context.retryCount,
      recoverable: failure.recoverable,
    },
    audit: { compliance_notes: failure.notes, governance_files_consulted: [] },
  };
  return stampMessage(body, context).message;
}

/** The VALIDATION_ERROR fallback recorded for an agent whose output could not be repaired. */
export function validationFallbackMessage(
  context: StampContext,
  problems: string[],
  attempts: number,
): SentientMessage {
  const summary = problems.slice(0, 5).join('; ');
  return orchestratorFailureMessage(context, {
    code: 'VALIDATION_ERROR',
    message: `${context.agent.name} did not produce a valid message after ${attempts} attempt(s): ${summary}`,
    recoverable: false,
    notes:
      'Orchestrator fallback: the model output failed validation after all repair attempts; the raw output is kept in the session journal.',
  });
}
