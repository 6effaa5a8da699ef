/**
 * A provider's failure as the retry wrapper ends it: what went wrong and after how many attempts.
 * Kept apart from the AI SDK's error translation (provider-error-translation.ts), so every
 * provider kind can throw and catch it without loading the SDK.
 */
import { ProviderError } from '../errors.js';

/** A `ProviderError` that also says how many attempts were made (for the audit entry). */
export class ProviderCallError extends ProviderError {
  readonly attempts: number;
  /** The session deadline (`LlmRequest.deadlineMs`) ended the call. */
  readonly deadlinePassed: boolean;
  constructor(error: ProviderError, attempts: number, deadlinePassed = false) {
    const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
    // A self-contained message (a replay miss, never retried) ends with its diff: nothing after it.
    super(error.selfContained && attempts === 1 ? error.message : `${error.message} (after ${tries})`, {
      ...error,
      cause: error.cause,
    });
    this.attempts = attempts;
    this.deadlinePassed = deadlinePassed;
  }
}
