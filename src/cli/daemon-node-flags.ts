/**
 * The runtime `govflow start` runs on (SPEC §21: no user adds Node flags or NODE_OPTIONS for the
 * documented memory figures). V8 sizes its young generation before any JavaScript runs (on Node 24
 * from the machine's memory: 134 MB of new space on a 24 GB machine), so `v8.setFlagsFromString`
 * cannot cap it; the command line can. `govflow start` therefore replaces its own process, before
 * loading anything else, with the same command under DAEMON_NODE_FLAGS (`process.execve`: the same
 * pid, stdio, parent and signals, so nothing is left to forward and no second process can be
 * orphaned). Where Node has no execve (Node 20, Windows) the daemon runs as started, with the one
 * flag that takes at run time (start-command.ts).
 *
 * This file imports nothing of govflow: bin/govflow.js loads it before the CLI.
 */

/** The one memory flag that also takes at run time (v8.setFlagsFromString). */
const HEAP_GROWING_FLAG = '--heap-growing-percent=25';
/** The memory flags: V8 sizes its heap from them before any JavaScript runs. */
const MEMORY_FLAGS = ['--max-semi-space-size=8', HEAP_GROWING_FLAG] as const;

/**
 * On Node 22 and 23, AsyncLocalStorage (the journal's connection notes, OpenTelemetry's context)
 * turns on V8's promise hooks for the whole process: every promise then carries a hook's work and
 * an object. This flag gives those Nodes what Node 24 does by default (AsyncContextFrame, no hooks);
 * Node 24 refuses it as an unknown option. bench/real-path.mjs, 1,000 in flight on Node 22: the
 * wall 10 % shorter, V8's helper threads 10 % less CPU (bench/RESULTS.md).
 */
const CONTEXT_FRAME_FLAG = '--experimental-async-context-frame';

/**
 * The flags for Node `version` (process.versions.node). Each memory flag's effect, measured by
 * bench/memory-as-typed.mjs (docs/deploy.md): a young generation of 2 × 8 MB semi-spaces instead
 * of up to 2 × 16 MB (Node 20/22) or 2 × 67 MB (Node 24 on 24 GB); the old generation collected
 * once it is 25 % above what was live after the last collection. 8 MB rather than 4: half the
 * scavenges, each copying about what is in flight (11–17 % less CPU per model call,
 * bench/real-path.mjs), within the figures since the bundle is ASCII (rolldown.config.mjs).
 */
export function daemonNodeFlags(version: string): readonly string[] {
  const major = Number(version.split('.')[0]);
  return Object.freeze([...MEMORY_FLAGS, ...(major === 22 || major === 23 ? [CONTEXT_FRAME_FLAG] : [])]);
}

/** The flags `govflow start` runs under on this Node. */
export const DAEMON_NODE_FLAGS: readonly string[] = daemonNodeFlags(process.versions.node);

/** The memory flags' names: a user who sets any of them chooses the runtime, and is not overridden. */
const FLAG_NAMES = MEMORY_FLAGS.map((flag) => flag.split('=')[0]!);

type Execve = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;

export interface DaemonRuntimeProcess {
  execPath: string;
  argv: string[];
  execArgv: string[];
  env: NodeJS.ProcessEnv;
  execve?: Execve;
}

/** The Node flags this process was given, on its command line and in NODE_OPTIONS. */
function givenFlags(current: Pick<DaemonRuntimeProcess, 'execArgv' | 'env'>): string[] {
  return [...current.execArgv, ...(current.env.NODE_OPTIONS ?? '').split(/\s+/)];
}

/**
 * True when Node runs with either memory flag: govflow's own after the restart, or the user's
 * choice of the runtime. Either way nothing is to be set at run time.
 */
export function memoryFlagsGiven(current: Pick<DaemonRuntimeProcess, 'execArgv' | 'env'> = process): boolean {
  return givenFlags(current).some((flag) => FLAG_NAMES.some((name) => flag === name || flag.startsWith(`${name}=`)));
}

/**
 * Where Node could not restart with the memory flags (Node 20, Windows), sets the one that takes at
 * run time: old space grows by a quarter at a time, not V8's default; the young generation's size
 * cannot change once JavaScript runs (bench/RESULTS.md). Nothing when either flag was given.
 */
export function setRunTimeMemoryFlag(setFlags: (flag: string) => void): void {
  if (!memoryFlagsGiven()) setFlags(HEAP_GROWING_FLAG);
}

/**
 * The argument vector that runs this command under DAEMON_NODE_FLAGS, or null when the process
 * already runs under them (or under the user's own choice of any of them) or Node cannot replace a
 * process.
 */
export function daemonExecArguments(current: DaemonRuntimeProcess): string[] | null {
  if (typeof current.execve !== 'function' || memoryFlagsGiven(current)) return null;
  const given = givenFlags(current);
  const [, script, ...args] = current.argv;
  if (script === undefined) return null;
  const added = DAEMON_NODE_FLAGS.filter((flag) => !given.includes(flag));
  return [current.execPath, ...added, ...current.execArgv, script, ...args];
}

/**
 * Replaces this process with `govflow start` under DAEMON_NODE_FLAGS where it can; returns (and the
 * command runs here, as started) where it cannot or need not. Call it before anything is loaded,
 * started or written: execve keeps the pid and open files, and discards everything else.
 */
export function execWithDaemonNodeFlags(
  current: DaemonRuntimeProcess = process as unknown as DaemonRuntimeProcess,
): void {
  const args = daemonExecArguments(current);
  if (args === null) return;
  try {
    current.execve!.call(process, current.execPath, args, current.env);
  } catch (error) {
    // Not fatal: the daemon runs with Node's defaults, and says why.
    process.stderr.write(
      `govflow start: could not restart Node with ${DAEMON_NODE_FLAGS.join(' ')} (${error instanceof Error ? error.message : String(error)}); ` +
        `running with Node's defaults\n`,
    );
  }
}
