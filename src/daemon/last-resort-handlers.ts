/**
 * The daemon's last line of defence: an error that escapes every session's own handling (a
 * rejected promise nobody awaited, a throw inside a timer callback) is logged and the daemon
 * keeps serving the other sessions. Sessions themselves never rely on this: their crashes are
 * journaled and retried (`limits.max_crash_retries`), and end with a result.
 */
import { errorMessage } from '../errors.js';
import type { OperationalLog } from '../log-contract.js';

/** Installs the handlers; returns the function that removes them (for a clean stop). */
export function installLastResortHandlers(log: OperationalLog): () => void {
  const onRejection = (reason: unknown) => {
    log.error('unexpected error outside any session (a promise rejected unhandled); the daemon keeps running', { error: errorMessage(reason) });
  };
  const onException = (error: unknown) => {
    log.error('unexpected error outside any session (thrown in a callback); the daemon keeps running', { error: errorMessage(error) });
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
