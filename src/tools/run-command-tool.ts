/**
 * run_command (docs/claude-code.md): Claude Code's Bash, governed. Only commands that
 * `tools.commands.allow` lists run; each is split into argv and started without a shell in the
 * session's workspace, with only PATH, HOME and LANG set, inside a sandbox (command-sandbox.ts,
 * docs/tools.md) whose PID namespace is killed whole at the timeout, when its output passes the
 * cap, when the call is aborted, and when the command itself ends: nothing it started outlives the
 * call, however it detached. The call never waits on a pipe something else still holds. What ran is
 * recorded: argv, exit code, duration and the sha256 of all its output.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  CommandRefusedError,
  commandPatternMatches,
  splitCommand,
  type CommandPattern,
} from '../config/command-patterns.js';
import type { CommandSandbox } from './command-sandbox.js';
import { McpProcessRecords } from './mcp-process-records.js';
import { signalProcessGroup } from './mcp-stdio-transport.js';
import type { CommandRun } from '../store/tool-journal-records.js';
import { ToolCallError, stringField, truncateUtf8, type Tool } from './tool-contract.js';

export interface CommandSettings {
  allow: readonly CommandPattern[];
  autoApprove: readonly CommandPattern[];
  timeoutMs: number;
  maxOutputBytes: number;
  /** Where pids are recorded so the next daemon ends a group a `kill -9` left running. */
  records: McpProcessRecords;
  /** The daemon's environment, of which only PATH, HOME and LANG pass. */
  env: NodeJS.ProcessEnv;
  /** Where commands run: bwrap, none (`tools.commands.sandbox: none`), or why no sandbox can be made. */
  sandbox: CommandSandbox;
}

/** How long the output pipes may stay open once the command's process ended (its namespace is gone by then). */
const PIPE_DRAIN_MS = 500;

/** Variables a command inherits from the daemon; nothing else (no API keys, no tokens). */
const INHERITED_VARIABLES = ['PATH', 'HOME', 'LANG'] as const;

/** The command of a run_command input split into argv with the pattern that allows it; CommandRefusedError otherwise. */
export function allowedCommand(
  settings: Pick<CommandSettings, 'allow'>,
  input: unknown,
): { command: string; argv: string[]; pattern: CommandPattern } {
  const command = (input as { command?: unknown } | null)?.command;
  if (typeof command !== 'string') throw new CommandRefusedError('"command" must be a string');
  if (settings.allow.length === 0)
    throw new CommandRefusedError('no command is allowed here (tools.commands.allow is empty)');
  const argv = splitCommand(command);
  const pattern = settings.allow.find((candidate) => commandPatternMatches(candidate, argv));
  if (!pattern) {
    const allowed = settings.allow.map((candidate) => candidate.text).join(', ');
    throw new CommandRefusedError(`"${command}" is not an allowed command (tools.commands.allow: ${allowed})`);
  }
  return { command, argv, pattern };
}

/** True when the call may run without a person's approval: its command matches a `tools.commands.auto_approve` entry. */
export function commandAutoApproved(settings: Pick<CommandSettings, 'allow' | 'autoApprove'>, input: unknown): boolean {
  try {
    const { argv } = allowedCommand(settings, input);
    return settings.autoApprove.some((pattern) => commandPatternMatches(pattern, argv));
  } catch {
    return false;
  }
}

export function runCommandTool(settings: CommandSettings): Tool {
  const allowed = settings.allow.map((pattern) => pattern.text).join(', ') || '(none)';
  return {
    name: 'run_command',
    description:
      `Runs one command in the session workspace, without a shell (no pipes, redirections, variables or wildcards), for at ` +
      `most ${settings.timeoutMs} ms, and answers its exit code and output (stdout and stderr, at most ${settings.maxOutputBytes} bytes). Allowed: ${allowed}.`,
    inputSchema: {
      type: 'object',
      properties: { command: { type: 'string', description: 'The command line, e.g. "npm test".' } },
      required: ['command'],
      additionalProperties: false,
    },
    async call(input, context) {
      stringField(input, 'command', 'run_command');
      let argv: string[];
      try {
        argv = allowedCommand(settings, input).argv;
      } catch (error) {
        if (error instanceof CommandRefusedError) throw new ToolCallError(`run_command: ${error.message}; not run`);
        throw error;
      }
      if (settings.sandbox.kind === 'unavailable')
        throw new ToolCallError(
          `run_command: no sandbox can be made (${settings.sandbox.reason}); set tools.commands.sandbox: none to run commands without one; not run`,
        );
      const run = await runCommand(argv, context.workspace, settings, context.signal);
      const shown = truncateUtf8(run.output, settings.maxOutputBytes).text;
      const how =
        run.stopped === 'timeout'
          ? `killed after ${settings.timeoutMs} ms (tools.commands.timeout_ms) with every process it started`
          : run.stopped === 'output_limit'
            ? `stopped: its output passed ${settings.maxOutputBytes} bytes (tools.commands.max_output_bytes); killed with every process it started`
            : run.exit_code !== null
              ? `exit code ${run.exit_code}`
              : `killed by ${run.signal}`;
      return {
        output: `$ ${argv.join(' ')}\n${how} (${run.ms} ms, ${run.output_bytes} bytes of output)\n${shown}`,
        isError: run.exit_code !== 0,
        command: run.record,
      };
    },
  };
}

/**
 * Runs argv in `cwd` (in the sandbox); resolves once its process ended and its namespace (or group)
 * was killed; rejects with the signal's reason as soon as the call is aborted.
 */
export function runCommand(
  argv: string[],
  cwd: string,
  settings: CommandSettings,
  signal: AbortSignal,
): Promise<{ output: string; record: CommandRun } & CommandRun> {
  if (signal.aborted) return Promise.reject(signal.reason);
  const env: Record<string, string> = {};
  for (const name of INHERITED_VARIABLES) if (settings.env[name] !== undefined) env[name] = settings.env[name]!;
  const sandboxed = settings.sandbox.kind === 'bwrap';
  const command = settings.sandbox.kind === 'bwrap' ? settings.sandbox.wrap(argv, cwd) : argv;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), {
      cwd,
      env,
      shell: false,
      // Its own process group: killing -pid ends bwrap (and with it the namespace) or, unsandboxed, what did not detach.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const hash = createHash('sha256');
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let outputBytes = 0;
    let stopped: CommandRun['stopped'] = null;
    let exit: { code: number | null; signal: string | null } | null = null;
    let settled = false;
    const pid = child.pid;
    if (pid !== undefined) settings.records.record('command', pid, argv[0]);
    const killGroup = () => {
      if (pid !== undefined && exit === null) signalProcessGroup(pid, 'SIGKILL');
    };
    const timer = setTimeout(() => {
      stopped ??= 'timeout';
      killGroup();
    }, settings.timeoutMs);
    let drain: NodeJS.Timeout | undefined;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      signal.removeEventListener('abort', onAbort);
      // A process that escaped an unsandboxed command may hold the pipes: never wait for it.
      child.stdout!.destroy();
      child.stderr!.destroy();
    };
    const onAbort = () => {
      killGroup();
      if (settled) return;
      settle();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const receive = (chunk: Buffer) => {
      hash.update(chunk);
      outputBytes += chunk.length;
      if (keptBytes <= settings.maxOutputBytes) {
        kept.push(chunk);
        keptBytes += chunk.length;
      }
      if (outputBytes > settings.maxOutputBytes && stopped === null) {
        stopped = 'output_limit';
        killGroup();
      }
    };
    child.stdout!.on('data', receive);
    child.stderr!.on('data', receive);
    const done = () => {
      if (settled) return;
      settle();
      const output = Buffer.concat(kept).toString('utf8');
      // env(1) starts the command inside: 127 with its message when there is no such program.
      const said = output.split('\n', 1)[0];
      const notFound = sandboxed && exit?.code === 127 && said.includes('env: ') && said.includes(argv[0]);
      if (notFound) return reject(notFoundError(argv, env));
      const record: CommandRun = {
        argv,
        exit_code: stopped === null ? (exit?.code ?? null) : null,
        signal: exit?.signal ?? null,
        ms: Math.round(performance.now() - started),
        output_sha256: hash.digest('hex'),
        output_bytes: outputBytes,
        stopped,
        ...(settings.sandbox.kind === 'none' ? { sandbox: 'none' as const } : {}),
      };
      resolve({ ...record, output, record });
    };
    // The command's main process ended: whatever it left running goes with it (the namespace, or
    // its group); the pipes get a moment to give what is still buffered, then the call ends.
    child.once('exit', (code, exitSignal) => {
      killGroup();
      exit = { code, signal: exitSignal };
      if (pid !== undefined) settings.records.forget('command', pid);
      drain = setTimeout(done, PIPE_DRAIN_MS);
    });
    child.once('close', done);
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (pid !== undefined) settings.records.forget('command', pid);
      if (settled) return;
      settle();
      if (signal.aborted) return reject(signal.reason);
      // Sandboxed, what could not start is bwrap itself (removed since the start?).
      reject(
        error.code === 'ENOENT' && !sandboxed
          ? notFoundError(argv, env)
          : new ToolCallError(`run_command: cannot start ${sandboxed ? command[0] : argv[0]}: ${error.message}`),
      );
    });
  });
}

function notFoundError(argv: string[], env: Record<string, string>): ToolCallError {
  return new ToolCallError(
    `run_command: cannot start ${argv[0]}: "${argv[0]}" was not found (PATH=${env.PATH ?? ''}; relative to the workspace when it holds a "/")`,
  );
}
