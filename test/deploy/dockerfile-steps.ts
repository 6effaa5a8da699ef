/**
 * examples/deploy/Dockerfile's steps, run here as a script (no Docker engine runs on the test
 * machines): its instructions parsed, then ENV, WORKDIR, COPY and RUN executed in order in a temp
 * folder that stands for the image's file system, so the image's commands are known to work
 * against the packed package. Absolute paths come only from the ENV lines the test relocates
 * (GOVFLOW_HOME, GOVFLOW_ROOT); `useradd` and `chown` (which would change this machine's users)
 * are recorded by shims instead of run; a RUN's BuildKit options (`--mount=…`) are dropped.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Instruction {
  keyword: string;
  /** What follows the keyword, continuation lines joined. */
  text: string;
  line: number;
}

/** The instructions of a Dockerfile, comments dropped and `\` continuations joined. */
export function parseDockerfile(source: string): Instruction[] {
  const instructions: Instruction[] = [];
  const lines = source.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const start = index;
    let text = lines[index]!.trim();
    if (text === '' || text.startsWith('#')) continue;
    while (text.endsWith('\\') && index + 1 < lines.length) {
      index++;
      const next = lines[index]!.trim();
      if (next.startsWith('#')) continue;
      text = `${text.slice(0, -1).trimEnd()} ${next}`;
    }
    const match = /^([A-Z]+)\s+(.*)$/.exec(text);
    if (!match) throw new Error(`Dockerfile:${start + 1}: not an instruction: ${text}`);
    instructions.push({ keyword: match[1]!, text: match[2]!, line: start + 1 });
  }
  return instructions;
}

/** `$NAME` and `${NAME}` replaced from `env`, as Docker does in ENV, WORKDIR, COPY, VOLUME. */
export function expand(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    return env[name] ?? '';
  });
}

export interface BuildOutcome {
  /** The image's environment after the last ENV (relocated). */
  env: Record<string, string>;
  /** The working directory the container starts in. */
  workdir: string;
  /** USER, VOLUME, EXPOSE, STOPSIGNAL, HEALTHCHECK, CMD as written (the last of each). */
  settings: Record<string, string>;
  /** What `useradd` and `chown` were asked to do, one line each. */
  recorded: string[];
}

/**
 * Runs the build steps of `instructions` with `context` as the build context. `relocate` gives
 * the value of each ENV name that holds an absolute path (GOVFLOW_HOME, GOVFLOW_ROOT) in the
 * temp folder; `baseEnv` is the environment of the base image (PATH, HOME, the npm cache).
 */
export function runBuildSteps(
  instructions: Instruction[],
  options: { context: string; relocate: Record<string, string>; baseEnv: Record<string, string>; shims: string },
): BuildOutcome {
  const env: Record<string, string> = { ...options.baseEnv };
  const settings: Record<string, string> = {};
  const recorded = path.join(options.shims, 'recorded.txt');
  mkdirSync(options.shims, { recursive: true });
  writeFileSync(recorded, '');
  for (const command of ['useradd', 'chown']) {
    const shim = path.join(options.shims, command);
    writeFileSync(shim, `#!/bin/sh\necho "${command} $*" >> "${recorded}"\n`);
    chmodSync(shim, 0o755);
  }
  let workdir = '/';
  for (const instruction of instructions) {
    const where = `Dockerfile:${instruction.line}`;
    switch (instruction.keyword) {
      case 'FROM':
        break;
      case 'ENV': {
        const match = /^(\w+)=(\S+)$/.exec(instruction.text);
        if (!match) throw new Error(`${where}: write ENV as one NAME=value per line: ${instruction.text}`);
        const name = match[1]!;
        if (match[2]!.startsWith('/') && !(name in options.relocate))
          throw new Error(`${where}: ${name} is an absolute path the test does not relocate`);
        env[name] = options.relocate[name] ?? expand(match[2]!, env);
        break;
      }
      case 'WORKDIR':
        workdir = path.resolve(workdir, expand(instruction.text, env));
        mkdirSync(workdir, { recursive: true });
        break;
      case 'COPY': {
        const [source, target] = instruction.text.split(/\s+/);
        const pattern = new RegExp(`^${source!.replaceAll('.', '\\.').replaceAll('*', '.*')}$`);
        const matched = readdirSync(options.context).filter((name) => pattern.test(name));
        if (matched.length === 0) throw new Error(`${where}: nothing in the build context matches ${source}`);
        const into = path.resolve(workdir, expand(target!, env));
        for (const name of matched) copyFileSync(path.join(options.context, name), path.join(into, name));
        break;
      }
      case 'RUN': {
        const script = instruction.text.replace(/^(--\S+\s+)+/, '');
        const ran = spawnSync('/bin/sh', ['-e', '-c', script], {
          cwd: workdir,
          env: { ...env, PATH: `${options.shims}:${env.PATH}` },
          encoding: 'utf8',
          timeout: 300_000,
        });
        if (ran.status !== 0)
          throw new Error(`${where}: RUN exited ${ran.status}: ${script}\n${ran.stdout}\n${ran.stderr}`);
        break;
      }
      case 'USER':
      case 'VOLUME':
      case 'EXPOSE':
      case 'STOPSIGNAL':
      case 'HEALTHCHECK':
      case 'CMD':
        settings[instruction.keyword] = instruction.text;
        break;
      default:
        throw new Error(`${where}: ${instruction.keyword} is not run by this test: teach it the instruction`);
    }
  }
  return {
    env,
    workdir,
    settings,
    recorded: readFileSync(recorded, 'utf8').split('\n').filter(Boolean),
  };
}
