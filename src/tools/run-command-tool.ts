/**
 * run_command (docs/claude-code.md): Claude Code's Bash, governed. Only commands that
 * `tools.commands.allow` lists run; each is split into argv and started without a shell in the
 * session's workspace, with only PATH, HOME and LANG set, in a process group of its own that is
 * killed whole at the timeout, when its output passes the cap, when the call is aborted, and when
 * the command itself ends (nothing it started outlives the call). What ran is recorded: argv, exit
 * code, duration and the sha256 of all its output.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  CommandRefusedError,
  commandPatternMatches,
  splitCommand,
  type CommandPattern,
} from '../config/command-patterns.js';
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
}

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

/** Runs argv in `cwd`; resolves once the process group is gone (rejects with the signal's reason on abort). */
export function runCommand(
  argv: string[],
  cwd: string,
  settings: CommandSettings,
  signal: AbortSignal,
): Promise<{ output: string; record: CommandRun } & CommandRun> {
  if (signal.aborted) return Promise.reject(signal.reason);
  const env: Record<string, string> = {};
  for (const name of INHERITED_VARIABLES) if (settings.env[name] !== undefined) env[name] = settings.env[name]!;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env,
      shell: false,
      // Its own process group: killing -pid ends everything it started.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const hash = createHash('sha256');
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let outputBytes = 0;
    let stopped: CommandRun['stopped'] = null;
    let exit: { code: number | null; signal: string | null } | null = null;
    const pid = child.pid;
    if (pid !== undefined) settings.records.record('command', pid, argv[0]);
    const killGroup = () => {
      if (pid !== undefined) signalProcessGroup(pid, 'SIGKILL');
    };
    const timer = setTimeout(() => {
      stopped ??= 'timeout';
      killGroup();
    }, settings.timeoutMs);
    const onAbort = () => killGroup();
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
    // Whatever the command left running goes with it: its group is killed when it exits.
    child.once('exit', (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      killGroup();
    });
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (pid !== undefined) settings.records.forget('command', pid);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      finish();
      if (signal.aborted) return reject(signal.reason);
      const why =
        error.code === 'ENOENT'
          ? `"${argv[0]}" was not found (PATH=${env.PATH ?? ''}; relative to the workspace when it holds a "/")`
          : error.message;
      reject(new ToolCallError(`run_command: cannot start ${argv[0]}: ${why}`));
    });
    child.once('close', (code, closeSignal) => {
      finish();
      if (signal.aborted) return reject(signal.reason);
      const record: CommandRun = {
        argv,
        exit_code: stopped === null ? (exit?.code ?? code) : null,
        signal: exit?.signal ?? closeSignal ?? null,
        ms: Math.round(performance.now() - started),
        output_sha256: hash.digest('hex'),
        output_bytes: outputBytes,
        stopped,
      };
      resolve({ ...record, output: Buffer.concat(kept).toString('utf8'), record });
    });
  });
}
