/** Whether a process id on this host is (possibly) alive, for leftovers of processes that died. */
import { readFileSync } from 'node:fs';
import { errorCode } from '../errors.js';

/**
 * False when the process surely does not exist (ESRCH) or is a zombie: killed, but not yet reaped
 * by its parent (a killed daemon whose parent is a busy or absent init stays one for a while, and
 * must not keep its successor from recovering its work). EPERM means alive, another user's;
 * anything else is not proof of death either.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return errorCode(error) !== 'ESRCH';
  }
  return !isZombie(pid);
}

/** Linux: the state field of /proc/<pid>/stat is Z (or X, dead). Elsewhere: never known. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (command name, which may hold spaces or parentheses) state ..."
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}
