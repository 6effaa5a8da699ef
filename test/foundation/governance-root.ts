/**
 * Temp governance roots for foundation tests: real files in a temp folder, either a copy of the
 * repository's example application or a minimal tree written by the test.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseCommandArgs, type CommandIo } from '../../src/cli/command-context.js';
import { validateCommand } from '../../src/cli/validate-command.js';
import { REPOSITORY_ROOT, copyExampleAppInto } from '../support/example-app.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

export { REPOSITORY_ROOT };
export const FIXTURES = path.join(REPOSITORY_ROOT, 'test/fixtures/foundation');

/** A new empty temp folder, removed by `removeTempRoots()`. */
export function makeTempRoot(prefix = 'govflow-foundation-'): string {
  return makeTempFolder(prefix);
}

export const removeTempRoots = removeTempFolders;

/** A temp root holding a copy of the repository's example app (governance/, context/, schemas/). */
export function copyExampleApp(): string {
  const root = makeTempRoot();
  copyExampleAppInto(root);
  return root;
}

/** Writes `text` at `relative` under `root`, creating folders. */
export function writeFile(root: string, relative: string, text: string): string {
  const full = path.join(root, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
}

/** Frontmatter + body for an agent file; `lines` are the YAML lines, in order. */
export function agentMarkdown(lines: string[], body = '# Agent\nInstructions.\n'): string {
  return ['---', ...lines, '---', body].join('\n');
}

/**
 * A minimal valid tree: start (entry, governance) → finish (terminal, operational).
 * Tests then overwrite or add files to break it one way at a time.
 */
export function minimalRoot(): string {
  const root = makeTempRoot();
  writeFile(
    root,
    'governance/agents/start_agent.md',
    agentMarkdown([
      'name: start_agent',
      'type: governance',
      'description: Starts.',
      'entry: true',
      'next: [finish_agent]',
    ]),
  );
  writeFile(
    root,
    'governance/agents/finish_agent.md',
    agentMarkdown(['name: finish_agent', 'type: operational', 'description: Finishes.', 'next: []']),
  );
  writeFile(root, 'governance/policy.md', '# Policy\nBe careful.\n');
  writeFile(root, 'context/application.md', '# Application\nA test app.\n');
  return root;
}

export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `govflow validate <args>` in-process (from src/) with captured output and an empty
 * environment. It calls the validate command directly rather than main(), so that commands other
 * engineers are still writing cannot break these tests; validate-process.test.ts covers main().
 */
export async function runValidate(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CapturedRun> {
  let stdout = '';
  let stderr = '';
  const io: CommandIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
    readStdin: async () => {
      throw new Error('this test does not expect standard input to be read');
    },
  };
  const context = parseCommandArgs(validateCommand, args, io);
  if (context === 'help') throw new Error('unexpected --help');
  const code = await validateCommand.run(context);
  return { code, stdout, stderr };
}

/** The 64-hex governance hash printed by `govflow validate`. */
export function governanceHash(stdout: string): string {
  const match = /^governance hash: ([0-9a-f]{64})$/m.exec(stdout);
  if (!match) throw new Error(`no governance hash in output:\n${stdout}`);
  return match[1];
}
