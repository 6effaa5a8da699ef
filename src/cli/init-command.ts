/**
 * `govflow init [DIR] [--force]` (README "Start a project of your own"): a root made from the
 * example application this repository runs as its own root (one example, not two), with a
 * dry-run config and a `.gitignore` for `system/`. A folder that is not empty needs `--force`.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';
import type { CommandDefinition } from './command-context.js';

/** The installed package's root (dist/cli/ → ../../). */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What init copies from the package, as shipped. */
export const INIT_FOLDERS = ['governance', 'context', 'schemas', 'tests'] as const;

const CONFIG_TEMPLATE = `# govflow configuration: every key is optional (see docs/configuration.md in the govflow package).
# With no provider, govflow runs in dry-run mode: every agent answers with a minimal valid
# placeholder message, so the whole pipeline runs with no LLM and no network.
#
# To use a real model, uncomment one provider (the API key is read from the environment only):
# provider: { kind: openai, model: gpt-4.1-mini }                # OPENAI_API_KEY
# provider: { kind: anthropic, model: claude-sonnet-4-20250514 }  # ANTHROPIC_API_KEY
# provider: { kind: ollama, model: llama3.1:8b, base_url: http://127.0.0.1:11434/v1 }
#
# timezone: Europe/Berlin          # the audit log's days and times (default: the system's zone)
# intake: { concurrency: 2 }       # sessions running at once
# http: { listen: 127.0.0.1:7070 } # the HTTP API and the web view at /ui
`;

const GITIGNORE = `# govflow's runtime state: inbox, outbox, logs, journals (start creates it)
/system/
/workspace/
`;

/** What an "empty" folder may hold: what `npm i govflow` and `git init` leave (installing comes first). */
const ALLOWED_BEFORE_INIT = /^(node_modules|package\.json|package-lock\.json|\.git|\.npmrc|.*\.tgz)$/;

/** A path as a shell word: quoted when it holds anything a shell would read otherwise. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * What to run next, from where the user is: `cd DIR && npx …` would leave the folder npx finds
 * govflow installed in (and reach the registry), so a root elsewhere is named with --root.
 */
function nextSteps(target: string): string {
  const relative = path.relative(process.cwd(), target);
  const request = 'echo "Summarize: Ana sends the budget by Friday." >';
  if (relative === '')
    return (
      'next: npx govflow validate && npx govflow test && npx govflow start\n' +
      `then drop a request: ${request} system/inbox/note.txt\n`
    );
  const shown = relative.startsWith('..') || path.isAbsolute(relative) ? target : relative;
  const root = `--root ${shellWord(shown)}`;
  return (
    `next: npx govflow validate ${root} && npx govflow test ${root} && npx govflow start ${root}\n` +
    `then drop a request: ${request} ${shellWord(path.join(shown, 'system', 'inbox', 'note.txt'))}\n`
  );
}

export const initCommand: CommandDefinition = {
  options: { force: { type: 'boolean' } },
  allowPositionals: true,
  async run({ io, values, positionals }) {
    if (positionals.length > 1) throw new UsageError('name at most one folder: govflow init [DIR] [--force]');
    // `--root DIR`, as every other command takes its root, names the same folder as DIR.
    const named = [positionals[0], values.root as string | undefined].filter((name) => name !== undefined);
    if (named.length === 2 && path.resolve(named[0]) !== path.resolve(named[1]))
      throw new UsageError(`name one folder: govflow init ${named[0]} or govflow init --root ${named[1]}, not both`);
    const target = path.resolve(named[0] ?? '.');
    const present = existsSync(target) ? readdirSync(target).filter((name) => !ALLOWED_BEFORE_INIT.test(name)) : [];
    if (present.length > 0 && values.force !== true) {
      throw new UsageError(
        `${target} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}): run govflow init in an empty folder, ` +
          `name a new one (govflow init my-project), or pass --force to add the files (existing ones are overwritten)`,
      );
    }
    mkdirSync(target, { recursive: true });
    for (const folder of INIT_FOLDERS)
      cpSync(path.join(PACKAGE_ROOT, folder), path.join(target, folder), { recursive: true, force: true });
    writeFileSync(path.join(target, 'govflow.config.yaml'), CONFIG_TEMPLATE);
    writeFileSync(path.join(target, '.gitignore'), GITIGNORE);
    io.stderr(`created a govflow root in ${target}\n${nextSteps(target)}`);
    return 0;
  },
};
