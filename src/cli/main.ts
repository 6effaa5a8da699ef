/**
 * The `govflow` command line: dispatches to one command, loaded only when chosen, and maps what
 * it throws to an exit code through one table (src/cli/exit-codes.ts, docs/exit-codes.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';
import { parseCommandArgs, type CommandIo } from './command-context.js';
import { COMMAND_LIST } from './command-list.js';
import { describeFailure, exitCodeFor } from './exit-codes.js';

/** `text` in lines of at most `width` columns, each starting with `indent`. */
export function wrap(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

function helpText(): string {
  return [
    'govflow — governed LLM agent pipelines from files',
    '',
    'usage:',
    ...COMMAND_LIST.flatMap((command) => [...wrap(command.usage, 80, '  '), ...wrap(command.summary, 80, '      ')]),
    '',
    ...wrap(
      'Every command takes --root DIR (else GOVFLOW_ROOT, else the current directory) and --help; govflow --version prints the version.',
      80,
      '',
    ),
    '',
    'examples:',
    '  govflow init my-pipeline && cd my-pipeline',
    '  govflow start --http 127.0.0.1:7070',
    '  echo "Summarize: Ana sends the budget." > system/inbox/note.txt',
    '  govflow logs --session sess-... | head',
    '  govflow verify',
  ].join('\n');
}

/** The package's version, from its package.json (dist/cli/ → ../../package.json). */
function version(): string {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function defaultIo(): CommandIo {
  // A reader that stops early (`govflow logs | head`) closes the pipe: end quietly, as git log does.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/** Commands that make their folder or need none: a missing root is not an error for them. */
const ROOTLESS_COMMANDS = new Set(['init', 'keygen']);

export async function main(argv: string[], io: CommandIo = defaultIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${helpText()}\n`);
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout(`govflow ${version()}\n`);
    return 0;
  }
  const listed = COMMAND_LIST.find((candidate) => candidate.name === name);
  if (!listed) {
    io.stderr(`govflow: unknown command "${name}"\n\n${helpText()}\n`);
    return 2;
  }
  try {
    const command = await listed.load();
    const context = parseCommandArgs(command, rest, io, listed.usage);
    if (context === 'help') {
      io.stdout(`usage:\n${[...wrap(listed.usage, 80, '  '), ...wrap(listed.summary, 80, '  ')].join('\n')}\n`);
      return 0;
    }
    if (!ROOTLESS_COMMANDS.has(name) && !existsSync(context.root)) {
      throw new UsageError(
        `the root folder ${context.root} does not exist, so it is not a govflow root: pass --root DIR naming one (or make one with govflow init DIR)`,
      );
    }
    return await command.run(context);
  } catch (error) {
    io.stderr(`govflow ${name}: ${describeFailure(error)}\n`);
    return exitCodeFor(error);
  }
}
