/**
 * A daemon started through npm (`npm start`, `npx govflow start`) runs as npm → sh → node. A
 * SIGTERM to npm — what `kill $!`, a supervisor or Docker sends — reaches the shell, which dies
 * without passing it on, and npm exits: the daemon would be left running with another parent,
 * still holding root.lock and the port (SPEC §21). So under npm the daemon watches its parent and
 * stops gracefully once it is gone. Run directly (`govflow start`, systemd, Docker), the signal
 * reaches the daemon itself and nothing is watched: `nohup govflow start &` outlives its shell on
 * purpose.
 */

import { isProcessAlive } from '../store/process-alive.js';

/** How often the parent is checked: a stop follows the wrapper's within about this long. */
export const WRAPPER_WATCH_INTERVAL_MS = 250;

/** The name of the package manager that started this process, or null when none did. */
export function startingWrapper(env: NodeJS.ProcessEnv): string | null {
  // npm sets both for `npm start` / `npm run` and `npm exec` / `npx`; pnpm and yarn set npm_lifecycle_event for scripts.
  if (env.npm_command === 'exec') return 'npx';
  if (env.npm_lifecycle_event !== undefined) return `npm run ${env.npm_lifecycle_event}`;
  if (env.npm_command !== undefined) return `npm ${env.npm_command}`;
  return null;
}

/**
 * Calls `onGone` once when the process that started this one has exited (or is a zombie: dead, not
 * yet reaped). `process.ppid` is read once at start-up by Node, so the parent is checked by its pid.
 * Returns the function that stops watching. The timer never holds the process open.
 */
export function watchParent(
  onGone: (parentPid: number) => void,
  intervalMs: number = WRAPPER_WATCH_INTERVAL_MS,
): () => void {
  const parent = process.ppid;
  if (parent <= 1) return () => {}; // started by init (or a container's runtime): nothing to outlive
  const timer = setInterval(() => {
    if (isProcessAlive(parent)) return;
    clearInterval(timer);
    onGone(parent);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
