/** What every CLI command receives: its parsed flags, the root, and where to write. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import path from 'node:path';
import { errorMessage, UsageError } from '../errors.js';

export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Standard input, for `govflow run -`. */
  readStdin: () => Promise<string>;
}

/** A command's flags and what it does; its name, usage and summary are in command-list.ts. */
export interface CommandDefinition {
  /** The command's own flags (besides --root and --help); positionals only where allowed. */
  options?: NonNullable<ParseArgsConfig['options']>;
  allowPositionals?: boolean;
  run: (context: CommandContext) => Promise<number>;
}

export interface CommandContext {
  root: string;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  io: CommandIo;
  /** The command's usage line, for its own usage errors. */
  usage: string;
}

export const COMMON_OPTIONS = {
  root: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Parses a command's arguments; throws UsageError naming the bad flag. */
export function parseCommandArgs(
  definition: CommandDefinition,
  argv: string[],
  io: CommandIo,
  usage = '',
): CommandContext | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...COMMON_OPTIONS, ...definition.options },
      allowPositionals: definition.allowPositionals ?? false,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${errorMessage(error)}\nusage: ${usage}`);
  }
  if (parsed.values.help) return 'help';
  const rootFlag = parsed.values.root as string | undefined;
  const root = path.resolve(rootFlag ?? io.env.GOVFLOW_ROOT ?? process.cwd());
  return { root, values: parsed.values as CommandContext['values'], positionals: parsed.positionals, io, usage };
}
