/**
 * The `govflow` command line: dispatches to one command, loaded only when chosen, and maps what
 * it throws to an exit code through one table (src/cli/exit-codes.ts, SPEC §8).
 */
import { parseCommandArgs, type CommandIo } from './command-context.js';
import { COMMAND_LIST } from './command-list.js';
import { describeFailure, exitCodeFor } from './exit-codes.js';

function helpText(): string {
  const width = Math.max(...COMMAND_LIST.map((command) => command.usage.length));
  return [
    'govflow — governed LLM agent pipelines from files',
    '',
    'usage:',
    ...COMMAND_LIST.map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`),
    '',
    'Every command takes --root DIR (else GOVFLOW_ROOT, else the current directory) and --help.',
  ].join('\n');
}

function defaultIo(): CommandIo {
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

export async function main(argv: string[], io: CommandIo = defaultIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${helpText()}\n`);
    return name ? 0 : 2;
  }
  const listed = COMMAND_LIST.find((candidate) => candidate.name === name);
  if (!listed) {
    io.stderr(`govflow: unknown command "${name}"\n\n${helpText()}\n`);
    return 2;
  }
  try {
    const command = await listed.load();
    const context = parseCommandArgs(command, rest, io);
    if (context === 'help') {
      io.stdout(`usage: ${command.usage}\n${command.summary}\n`);
      return 0;
    }
    return await command.run(context);
  } catch (error) {
    io.stderr(`govflow ${name}: ${describeFailure(error)}\n`);
    return exitCodeFor(error);
  }
}
