/** The `govflow` command line: dispatches to one command, maps errors to exit codes (SPEC §8). */
import { GovernanceInvalidError } from '../daemon/governance-source.js';
import { ConfigError, UsageError, errorMessage } from '../errors.js';
import { parseCommandArgs, type CommandDefinition, type CommandIo } from './command-context.js';
import { logsCliCommand, verifyCliCommand } from './audit-commands.js';
import { reportCommand } from './report-command.js';
import { runCommand } from './run-command.js';
import { startCommand } from './start-command.js';
import { statusCommand } from './status-command.js';
import { validateCommand } from './validate-command.js';
import { tokenCommand } from './token-command.js';

const COMMANDS: CommandDefinition[] = [startCommand, runCommand, validateCommand, logsCliCommand, verifyCliCommand, statusCommand, tokenCommand, reportCommand];

function helpText(): string {
  const width = Math.max(...COMMANDS.map((command) => command.usage.length));
  return [
    'govflow — governed LLM agent pipelines from files',
    '',
    'usage:',
    ...COMMANDS.map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`),
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
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr(`govflow: unknown command "${name}"\n\n${helpText()}\n`);
    return 2;
  }
  try {
    const context = parseCommandArgs(command, rest, io);
    if (context === 'help') {
      io.stdout(`usage: ${command.usage}\n${command.summary}\n`);
      return 0;
    }
    return await command.run(context);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`govflow ${name}: ${error.message}\n`);
      return 2;
    }
    if (error instanceof GovernanceInvalidError) {
      io.stderr(`govflow ${name}: ${error.message}\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.stderr(`govflow ${name}: configuration error: ${error.describe()}\n`);
      return 2;
    }
    io.stderr(`govflow ${name}: ${errorMessage(error)}\n`);
    return 1;
  }
}
