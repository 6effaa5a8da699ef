/**
 * Resumes the sessions of killed `govflow run`s (run-claims.ts) from their journals, when a daemon
 * starts and before a run runs its own, so a killed run never stays RUNNING for ever.
 */
import { errorMessage } from '../errors.js';
import { SessionInterruptedError, type SessionOutcome } from '../pipeline/runner-contract.js';
import type { OperationalLog } from '../log-contract.js';
import type { SessionRunner } from '../pipeline/session-runner.js';
import { RunClaims } from './run-claims.js';

/** Resumes every orphaned run session on the root, one after another; returns their outcomes. */
export async function resumeOrphanedRuns(
  stateDir: string,
  runner: Pick<SessionRunner, 'sessionExists' | 'recoverSession'>,
  signal: AbortSignal,
  log: OperationalLog,
): Promise<SessionOutcome[]> {
  const claims = new RunClaims(stateDir);
  const outcomes: SessionOutcome[] = [];
  for (const sessionId of claims.orphans()) {
    if (signal.aborted) break;
    const fields = { session: sessionId };
    if (!runner.sessionExists(sessionId)) {
      // Killed before the journal's first record: nothing was committed, there is nothing to resume.
      log.warn('a killed govflow run left no journal; nothing to resume', fields);
      claims.release(sessionId);
      continue;
    }
    log.warn('resuming a session whose govflow run was killed', fields);
    try {
      const outcome = await runner.recoverSession(sessionId, signal);
      outcomes.push(outcome);
      claims.release(sessionId);
      log.info('resumed session finished', { ...fields, status: outcome.status, request: outcome.requestId });
    } catch (error) {
      // The claim stays: the next owner of the root resumes it again.
      if (error instanceof SessionInterruptedError) return outcomes;
      log.error('resuming a killed run failed; the next start tries again', { ...fields, error: errorMessage(error) });
    }
  }
  return outcomes;
}
