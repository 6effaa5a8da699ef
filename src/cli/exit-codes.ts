/** The CLI's exit codes (docs/exit-codes.md) by error kind and by result status, in one place. */
import { GovflowError, errorMessage, type GovflowErrorKind } from '../errors.js';
import type { ResultStatus } from '../pipeline/session-result.js';

/** 0 done, 1 failed (or not intact), 2 bad usage or configuration, 3 waiting for a person. */
export type ExitCode = 0 | 1 | 2 | 3;

/** Exit code per error kind: what the user must fix is 2, what went wrong while working is 1. */
export const EXIT_CODE_BY_KIND: Readonly<Record<GovflowErrorKind, ExitCode>> = Object.freeze({
  usage: 2,
  config: 2,
  request: 2,
  provider: 1,
  interrupted: 1,
  audit: 1,
  internal: 1,
});

/** Exit code of `govflow run` per result status. */
export const EXIT_CODE_BY_STATUS: Readonly<Record<ResultStatus, ExitCode>> = Object.freeze({
  success: 0,
  partial: 0,
  failed: 1,
  pending: 3,
  cancelled: 1,
  intervention_required: 3,
  halted_cost: 3,
  halted_time: 3,
});

/** The exit code for an error a command threw; errors that are not ours are defects (1). */
export function exitCodeFor(error: unknown): ExitCode {
  return error instanceof GovflowError ? EXIT_CODE_BY_KIND[error.kind] : EXIT_CODE_BY_KIND.internal;
}

/** The line printed for an error: configuration errors say so and name file:line. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof GovflowError)) return errorMessage(error);
  if (error.kind === 'config' && error.name === 'ConfigError') return `configuration error: ${error.describe()}`;
  return error.describe();
}
