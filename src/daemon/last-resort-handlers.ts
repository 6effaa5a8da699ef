/**
 * The last line of defence: an error no session handled (an unawaited rejection, a throw in a
 * timer) is logged and the daemon serves on. Sessions never rely on it: theirs are journaled and retried.
 */
import { errorMessage } from '../errors.js';
import type { OperationalLog } from '../log-contract.js';

/** Installs the handlers; returns the function that removes them (for a clean stop). */
export function installLastResortHandlers(log: OperationalLog): () => void {
  const onRejection = (reason: unknown) => {
    log.error('unexpected error outside any session (a promise rejected unhandled); the daemon keeps running', {
      error: errorMessage(reason),
    });
  };
  const onException = (error: unknown) => {
    log.error('unexpected error outside any session (thrown in a callback); the daemon keeps running', {
      error: errorMessage(error),
    });
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
