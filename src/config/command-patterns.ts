/**
 * Commands `run_command` may run (docs/claude-code.md), written in Claude Code's permission syntax:
 * `Bash(npm test)` allows exactly that command, `Bash(npm run lint:*)` (or `Bash(npm run lint *)`)
 * that command followed by any arguments. Commands are split into argv by shell-quote, never run by
 * a shell: anything a shell would interpret (operators, substitutions, variables, wildcards,
 * comments, line breaks) is refused, so what runs is exactly the words that were checked.
 */
import { parse } from 'shell-quote';
import { GovflowError } from '../errors.js';

/** One `Bash(...)` entry of `tools.commands.allow` or `auto_approve`. */
export interface CommandPattern {
  /** As written in the config, e.g. `Bash(npm run lint:*)`. */
  text: string;
  /** The command's words. */
  argv: readonly string[];
  /** True: these words followed by any arguments; false: exactly these words. */
  prefix: boolean;
}

/** A command or pattern that cannot be used, with the reason in words. */
export class CommandRefusedError extends GovflowError {
  override readonly name = 'CommandRefusedError';
  constructor(message: string) {
    super('config', message);
  }
}

/** Characters and sequences a shell would act on, refused anywhere in a command (quoted or not). */
const SHELL_METACHARACTERS: ReadonlyArray<[string, string]> = [
  ['$(', 'command substitution "$("'],
  ['`', 'command substitution "`"'],
  ['|', 'pipe "|"'],
  [';', 'command separator ";"'],
  ['&', 'background or "&&" operator "&"'],
  ['>', 'redirection ">"'],
  ['<', 'redirection "<"'],
];

/** Longest command accepted, in characters. */
const MAX_COMMAND_CHARS = 10_000;

/** A token shell-quote gives for `$NAME`: its env callback returns this marker instead of a value. */
interface VariableToken {
  variable: string;
}

/**
 * The words of `command`, or CommandRefusedError saying which shell feature it uses: govflow runs
 * commands without a shell, so a command that needs one is refused rather than run differently.
 */
export function splitCommand(command: string): string[] {
  if (command.length > MAX_COMMAND_CHARS)
    throw new CommandRefusedError(`the command is ${command.length} characters long; at most ${MAX_COMMAND_CHARS}`);
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(command))
    throw new CommandRefusedError(
      'the command holds a line break or another control character; give one command on one line',
    );
  for (const [sequence, what] of SHELL_METACHARACTERS) {
    if (command.includes(sequence))
      throw new CommandRefusedError(
        `the command uses the shell's ${what}; commands run without a shell, one program with its arguments`,
      );
  }
  const tokens = parse(command, (variable) => ({ variable }) as unknown as string);
  const argv: string[] = [];
  for (const token of tokens) {
    if (typeof token === 'string') {
      argv.push(token);
      continue;
    }
    throw new CommandRefusedError(`the command uses ${describeToken(token)}; commands run without a shell`);
  }
  if (argv.length === 0 || argv[0] === '') throw new CommandRefusedError('the command is empty');
  return argv;
}

function describeToken(token: object): string {
  const fields = token as Partial<VariableToken & { comment: string; op: string; pattern: string }>;
  if (fields.variable !== undefined)
    return `a variable ("$${fields.variable}"), which no shell expands here; write its value out`;
  if (fields.comment !== undefined) return 'a comment ("#"); remove it';
  if (fields.op === 'glob')
    return `a wildcard ("${fields.pattern}"), which no shell expands here; quote it to pass it as it is`;
  if (fields.op !== undefined) return `the shell operator "${fields.op}"`;
  return 'a shell construct';
}

/** Parses one entry of `tools.commands.allow` / `auto_approve`; CommandRefusedError says what is wrong. */
export function parseCommandPattern(text: string): CommandPattern {
  const match = /^Bash\((.*)\)$/s.exec(text.trim());
  if (!match)
    throw new CommandRefusedError(
      `"${text}" is not a command pattern: write Bash(<command>) for exactly that command, or Bash(<command>:*) for it with any arguments`,
    );
  let body = match[1].trim();
  let prefix = false;
  if (body.endsWith(':*') || body.endsWith(' *')) {
    prefix = true;
    body = body.slice(0, -2).trimEnd();
  }
  if (body === '' || body === '*')
    throw new CommandRefusedError(
      `"${text}" would allow every command; name the commands (Bash(npm test), Bash(npm run lint:*))`,
    );
  if (body.includes('*'))
    throw new CommandRefusedError(
      `"${text}": "*" is only understood at the end, as ":*" (that command with any arguments)`,
    );
  let argv: string[];
  try {
    argv = splitCommand(body);
  } catch (error) {
    throw new CommandRefusedError(`"${text}": ${(error as Error).message}`);
  }
  return { text, argv, prefix };
}

/** True when `pattern` allows the command split into `argv`. */
export function commandPatternMatches(pattern: CommandPattern, argv: readonly string[]): boolean {
  if (pattern.prefix ? argv.length < pattern.argv.length : argv.length !== pattern.argv.length) return false;
  return pattern.argv.every((word, index) => argv[index] === word);
}
