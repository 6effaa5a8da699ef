/**
 * The sandbox run_command's commands run in (docs/tools.md): bubblewrap (`bwrap`) with a PID
 * namespace of its own that dies with the daemon (`--unshare-pid --die-with-parent`), so every
 * process a command starts ends with it; the system's programs and libraries read-only; `/etc`
 * without the files only root may read; the govflow root and the daemon's home not there; the
 * session's workspace the only writable folder on disk; no network unless `tools.commands.network`.
 * Whether a sandbox can be made is found by making one, once per process.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import { ConfigError } from '../errors.js';

/** `tools.commands.sandbox`: `bwrap` (the default) or `none` (commands run without one, recorded on every call). */
export type SandboxSetting = 'bwrap' | 'none';

export interface SandboxOptions {
  setting: SandboxSetting;
  /** `tools.commands.network`: commands may reach the network. */
  network: boolean;
  /** The govflow root, never visible inside. */
  root: string;
  /** The daemon's environment: PATH finds `bwrap`, HOME is hidden (an empty folder inside). */
  env: NodeJS.ProcessEnv;
}

/** How commands run: wrapped by bwrap, or (`sandbox: none`) as they are; `unavailable` says why none can be made. */
export type CommandSandbox =
  | { kind: 'bwrap'; wrap: (argv: readonly string[], workspace: string) => string[] }
  | { kind: 'none' }
  | { kind: 'unavailable'; reason: string };

/** Folders of the system's programs and libraries, bound read-only when present (symlinks kept as symlinks). */
const SYSTEM_FOLDERS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

const probes = new Map<string, string | null>();

/** The sandbox for these settings; with `bwrap`, `unavailable` when bwrap is missing or cannot make one here. */
export function commandSandbox(options: SandboxOptions): CommandSandbox {
  if (options.setting === 'none') return { kind: 'none' };
  const bwrap = findProgram('bwrap', options.env.PATH);
  if (bwrap === null)
    return {
      kind: 'unavailable',
      reason: `bubblewrap ("bwrap") is not installed (not found on PATH=${options.env.PATH ?? ''}; Debian: apt-get install bubblewrap)`,
    };
  const env = findProgram('env', '/usr/bin:/bin');
  if (env === null) return { kind: 'unavailable', reason: 'no /usr/bin/env to start commands with' };
  const hidden = [options.root, options.env.HOME, safeHomedir()].filter(
    (folder): folder is string => typeof folder === 'string' && path.isAbsolute(folder) && folder !== '/',
  );
  const home =
    options.env.HOME && path.isAbsolute(options.env.HOME) && options.env.HOME !== '/' ? options.env.HOME : null;
  const base = sandboxArguments(
    hidden.map((folder) => path.resolve(folder)),
    home,
    options.network,
  );
  const wrap = (argv: readonly string[], workspace: string) => [
    bwrap,
    ...base,
    '--bind',
    workspace,
    workspace,
    // The sandbox's own root (where /etc's entries are mounted) is read-only too.
    '--remount-ro',
    '/',
    '--chdir',
    workspace,
    // bwrap sets PWD; the command gets PATH, HOME and LANG only.
    '--',
    env,
    '-u',
    'PWD',
    '--',
    ...argv,
  ];
  const key = JSON.stringify([bwrap, options.network]);
  if (!probes.has(key)) probes.set(key, probe(wrap(['true'], '/tmp')));
  const failure = probes.get(key)!;
  if (failure !== null) return { kind: 'unavailable', reason: `bwrap cannot make a sandbox here: ${failure}` };
  return { kind: 'bwrap', wrap };
}

/** The sandbox of a root's commands; no probe while `tools.commands.allow` is empty (run_command is off). */
export function commandSandboxFor(config: GovflowConfig, env: NodeJS.ProcessEnv): CommandSandbox {
  if (config.commandPatterns.allow.length === 0)
    return { kind: 'unavailable', reason: 'tools.commands.allow is empty' };
  const commands = config.tools.commands;
  return commandSandbox({ setting: commands.sandbox, network: commands.network, root: config.root, env });
}

/**
 * Programs that run what the workspace holds (a package.json script, .git/config, a Makefile, a
 * script file): allowed, they run the model's code, inside the sandbox.
 */
const INTERPRETERS = new RegExp(
  '^(npm|npx|yarn|pnpm|bun|deno|node|nodejs|tsx|ts-node|python[\\d.]*|pip[\\d.]*|pytest|tox|uv|sh|bash|dash|zsh|fish|ksh|' +
    'make|cmake|git|perl|ruby|php|lua|cargo|go|java|mvn|gradle|env|xargs|find|awk|sed|vitest|jest)$',
);

/**
 * What `govflow validate` says of run_command: an error when commands are allowed and no sandbox
 * can be made (unless `sandbox: none`), a warning per auto-approved command that runs the workspace's code.
 */
export function commandSandboxProblems(
  config: GovflowConfig,
  env: NodeJS.ProcessEnv,
): { errors: ConfigError[]; warnings: string[] } {
  const errors: ConfigError[] = [];
  const sandbox = commandSandboxFor(config, env);
  if (config.commandPatterns.allow.length > 0 && sandbox.kind === 'unavailable')
    errors.push(
      new ConfigError(
        `tools.commands.allow lists commands, but no sandbox can be made for them: ${sandbox.reason}; install bubblewrap, or set ` +
          'tools.commands.sandbox: none to run them without one (recorded on every call)',
        'govflow.config.yaml',
      ),
    );
  const warnings = config.commandPatterns.autoApprove
    .filter((pattern) => INTERPRETERS.test(path.basename(pattern.argv[0])))
    .map(
      (pattern) =>
        `govflow.config.yaml: tools.commands.auto_approve: "${pattern.text}" runs what the workspace holds (scripts, config ` +
        'files the model can write) without a person looking; it stays inside the sandbox, but consider approving it per call',
    );
  return { errors, warnings };
}

/** Null when bwrap ran `true` in a sandbox like the commands' own, else what went wrong (user namespaces off, …). */
function probe(command: string[]): string | null {
  const run = spawnSync(command[0], command.slice(1), { timeout: 15_000, encoding: 'utf8', stdio: 'pipe' });
  if (run.error) return run.error.message;
  if (run.status === 0) return null;
  const said = `${run.stderr ?? ''}`.trim().split('\n')[0];
  const hint = 'unprivileged user namespaces may be off: kernel.unprivileged_userns_clone, user.max_user_namespaces';
  return `${said || `exit code ${run.status ?? run.signal}`} (${hint})`;
}

/** bwrap's options up to the workspace: namespaces, the read-only system, /etc without secrets, scratch folders. */
function sandboxArguments(hidden: string[], home: string | null, network: boolean): string[] {
  // No capabilities, even when the daemon runs as root: nothing inside may remount what is read-only.
  const args = [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--new-session',
    '--cap-drop',
    'ALL',
  ];
  if (!network) args.push('--unshare-net');
  const bound: string[] = [];
  const bind = (source: string, target = source) => {
    args.push('--ro-bind', source, target);
    bound.push(target);
  };
  for (const folder of SYSTEM_FOLDERS) {
    const stat = lstatOrNull(folder);
    if (stat?.isSymbolicLink()) args.push('--symlink', readlinkSync(folder), folder);
    else if (stat?.isDirectory()) bind(folder);
  }
  for (const entry of readableEtc()) {
    if (entry.link !== undefined) args.push('--symlink', entry.link, entry.path);
    else if (entry.folder) args.push('--dir', entry.path);
    else bind(entry.path);
  }
  // With a network, names resolve through /etc/resolv.conf, which may point into /run.
  if (network) {
    const resolv = realpathOrNull('/etc/resolv.conf');
    if (resolv !== null && !resolv.startsWith('/etc/')) bind(resolv);
  }
  // The daemon's own Node, wherever it is installed (commands such as `node` or `npm` may be it).
  const runtime = path.dirname(path.dirname(realpathOrNull(process.execPath) ?? process.execPath));
  const covered = bound.some((folder) => within(runtime, folder));
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  // A hidden folder that lies inside one bound above is covered by an empty one.
  for (const folder of hidden) if (bound.some((outer) => within(folder, outer))) args.push('--tmpfs', folder);
  // HOME exists, empty and writable, and goes with the command (npm, git write there).
  if (home !== null) args.push('--tmpfs', home);
  if (!covered && runtime !== '/' && !hidden.some((folder) => within(folder, runtime)))
    args.push('--ro-bind', runtime, runtime);
  return args;
}

interface EtcEntry {
  path: string;
  /** A folder holding something only root may read: created empty, its readable entries bound one by one. */
  folder?: boolean;
  link?: string;
}

let etcEntries: EtcEntry[] | null = null;

/** `/etc` as commands see it: every entry others may read, folders holding one they may not rebuilt around it. */
function readableEtc(): EtcEntry[] {
  etcEntries ??= walkReadable('/etc').entries;
  return etcEntries;
}

/** The entries of `folder` others may read; `complete` when none was left out, at any depth. */
function walkReadable(folder: string): { entries: EtcEntry[]; complete: boolean } {
  const entries: EtcEntry[] = [];
  let complete = true;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return { entries, complete: false };
  }
  for (const name of names.sort()) {
    const entryPath = path.join(folder, name);
    const stat = lstatOrNull(entryPath);
    if (stat === null) continue;
    if (stat.isSymbolicLink()) {
      entries.push({ path: entryPath, link: readlinkSync(entryPath) });
      continue;
    }
    // Files only root (or its group) may read, folders others may not enter, sockets and devices stay out.
    const readable =
      (stat.isFile() || stat.isDirectory()) &&
      (stat.mode & 0o004) !== 0 &&
      (!stat.isDirectory() || (stat.mode & 0o001) !== 0);
    if (!readable) {
      complete = false;
      continue;
    }
    if (stat.isFile()) {
      entries.push({ path: entryPath });
      continue;
    }
    const inside = walkReadable(entryPath);
    if (inside.complete) entries.push({ path: entryPath });
    else {
      complete = false;
      entries.push({ path: entryPath, folder: true }, ...inside.entries);
    }
  }
  return { entries, complete };
}

/** The first executable `name` on `PATH` (unset: /usr/bin:/bin, as execvp); null when there is none. */
function findProgram(name: string, searchPath: string | undefined): string | null {
  for (const folder of (searchPath ?? '/usr/bin:/bin').split(':').filter((entry) => path.isAbsolute(entry))) {
    const candidate = path.join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** True when `inner` is `outer` or inside it. */
function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith('/') ? outer : `${outer}/`);
}

function lstatOrNull(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

function realpathOrNull(file: string): string | null {
  try {
    return realpathSync(file);
  } catch {
    return null;
  }
}

function safeHomedir(): string | undefined {
  try {
    return userInfo().homedir;
  } catch {
    return undefined;
  }
}
