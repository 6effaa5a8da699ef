/** Whether a process id on this host is (possibly) alive, for leftovers of processes that died. */

/**
 * False only when the process surely does not exist (ESRCH). EPERM means alive, another user's;
 * anything else is not proof of death either.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
