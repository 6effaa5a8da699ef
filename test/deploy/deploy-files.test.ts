/**
 * A daemon people run as a service (SPEC §21, issue 39), tested as far as this machine allows:
 *
 * - examples/deploy/Dockerfile: its build steps run as a script against the packed package
 *   (dockerfile-steps.ts; no Docker engine here), then its CMD as the container would run it, its
 *   HEALTHCHECK command against that daemon, and its STOPSIGNAL stopping it gracefully;
 * - examples/deploy/govflow.service: `systemd-analyze verify` where it exists, its keys, then its
 *   ExecStartPre and ExecStart run as systemd would, stopped by its KillSignal;
 * - examples/deploy/compose.yaml: parses, with Postgres and daemons whose store settings govflow reads;
 * - SIGTERM (or SIGINT) to what a user or supervisor started — `govflow start`, `npx govflow
 *   start`, `npm start` in a project and in this repository — stops the daemon gracefully and
 *   leaves none running: the process is gone, root.lock released, the port closed, and its log
 *   says it stopped.
 *
 * One install (the Dockerfile's) serves every case.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/store/process-alive.js';
import { packOnce } from '../daemon/build-once.js';
import { waitFor } from '../daemon/daemon-helpers.js';
import { REPOSITORY_ROOT } from '../support/example-app.js';
import { expand, parseDockerfile, runBuildSteps, type BuildOutcome } from './dockerfile-steps.js';

const DEPLOY = path.join(REPOSITORY_ROOT, 'examples', 'deploy');
const made: string[] = [];
const started = new Set<ChildProcess>();
/** Daemon pids seen in a root's lock: under npm a daemon is not our child, and a failing test could leave one. */
const daemons = new Set<number>();
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

/** The image's file system and what its build left: the install in GOVFLOW_HOME, the root in GOVFLOW_ROOT. */
let image: BuildOutcome;
/**
 * The environment of a plain shell on this machine (its CA certificates and proxies included, which
 * npm needs): nothing of govflow's, and none of the npm_* variables vitest inherits from `npm test`
 * (they would tell the daemon npm started it).
 */
const shellEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && !/^(GOVFLOW_|npm_|VITEST|NODE_OPTIONS$)/i.test(name)) env[name] = value;
  return env;
};

beforeAll(async () => {
  const context = tempDir('govflow-deploy-context-');
  const tarball = await packOnce();
  copyFileSync(tarball, path.join(context, path.basename(tarball)));
  const fileSystem = tempDir('govflow-image-');
  image = runBuildSteps(parseDockerfile(readFileSync(path.join(DEPLOY, 'Dockerfile'), 'utf8')), {
    context,
    relocate: {
      GOVFLOW_HOME: path.join(fileSystem, 'opt', 'govflow'),
      GOVFLOW_ROOT: path.join(fileSystem, 'srv', 'govflow'),
    },
    baseEnv: shellEnv(),
    shims: path.join(fileSystem, 'shims'),
  });
}, 400_000);

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of daemons) if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
}, 60_000);

interface Running {
  child: ChildProcess;
  output: () => string;
  url: string;
  exited: Promise<number | null>;
}

/** Starts `command` as a real process (its own process group, as a terminal or supervisor starts it); resolves at its ready line. */
async function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<Running> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await waitFor(
    'the ready line with the HTTP address',
    () => /HTTP API on (http:\/\/\S+)/.exec(output)?.[1],
    {
      timeoutMs: 60_000,
      detail: () => output,
    },
  );
  return { child, output: () => output, url, exited };
}

/** The pid of the daemon that holds `root`'s lock. */
function lockOwner(root: string): number {
  const { pid } = JSON.parse(readFileSync(path.join(root, 'system', 'state', 'root.lock'), 'utf8')) as { pid: number };
  daemons.add(pid);
  return pid;
}

/** No govflow daemon left on `root`: its process gone, the lock released, the port closed, the log saying so. */
async function expectGracefulStop(root: string, daemonPid: number, running: Running): Promise<void> {
  await waitFor(
    'the daemon gone and root.lock released',
    () => !isProcessAlive(daemonPid) && !existsSync(path.join(root, 'system', 'state', 'root.lock')),
    { timeoutMs: 30_000, detail: running.output },
  );
  await waitFor('its last words', () => running.output().includes('govflow stopped'), {
    timeoutMs: 5_000,
    detail: running.output,
  });
  expect(running.output()).toContain('daemon draining → stopped');
  await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
}

/** A fresh root made by the installed package's `govflow init`. */
function newRoot(): string {
  const root = path.join(tempDir('govflow-service-root-'), 'root');
  const init = spawnSync('govflow', ['init', root], { env: image.env, encoding: 'utf8' });
  expect(init.status, init.stderr).toBe(0);
  return root;
}

describe('examples/deploy/Dockerfile, its steps run as a script', () => {
  it('installs the package and makes the root as a non-root user; CMD serves, HEALTHCHECK passes, SIGTERM stops it', async () => {
    const { env, settings, recorded, workdir } = image;
    // Who runs it, where the root is, how it stops.
    expect(settings.USER).toMatch(/^[a-z][a-z0-9_-]*$/);
    expect(settings.USER).not.toBe('root');
    expect(recorded).toContainEqual(expect.stringMatching(new RegExp(`^useradd .*--system .* ${settings.USER}$`)));
    expect(recorded).toContain(`chown -R ${settings.USER}:${settings.USER} ${env.GOVFLOW_ROOT}`);
    expect(expand(settings.VOLUME!, env)).toBe(env.GOVFLOW_ROOT);
    expect(workdir).toBe(env.GOVFLOW_ROOT);
    expect(settings.STOPSIGNAL).toBe('SIGTERM');
    expect(settings.EXPOSE).toBe('7070');
    const cmd = JSON.parse(settings.CMD!) as string[];
    expect(cmd).toEqual(['govflow', 'start', '--http', '0.0.0.0:7070']);
    const healthcheck = /^(?:--\S+\s+)*CMD\s+(.*)$/.exec(settings.HEALTHCHECK!)![1]!;
    expect(healthcheck).toContain('/healthz');

    // The root the image ships (a new named volume starts as a copy of it) is a valid root.
    expect(readdirSync(env.GOVFLOW_ROOT!)).toEqual(expect.arrayContaining(['governance', 'govflow.config.yaml']));
    const validated = spawnSync('govflow', ['validate'], { cwd: workdir, env, encoding: 'utf8' });
    expect(validated.status, validated.stdout + validated.stderr).toBe(0);

    // Port 0 for the test's 7070 (the machine may be running something there); the host is the CMD's.
    const args = cmd.slice(1).map((arg) => arg.replace(':7070', ':0'));
    // Listening beyond loopback needs a token first, as the README's `token add` step says.
    const refused = spawnSync(cmd[0]!, args, { cwd: workdir, env, encoding: 'utf8', timeout: 60_000 });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('http.tokens is empty');
    const token = spawnSync('govflow', ['token', 'add', 'ops'], { cwd: workdir, env, encoding: 'utf8' });
    expect(token.status, token.stderr).toBe(0);

    const running = await startProcess(cmd[0]!, args, { cwd: workdir, env });
    const port = new URL(running.url).port;
    const health = (): number | null =>
      spawnSync('/bin/sh', ['-c', healthcheck.replaceAll(':7070', `:${port}`)], { env, timeout: 30_000 }).status;
    expect(health()).toBe(0);
    const daemonPid = lockOwner(env.GOVFLOW_ROOT!);
    expect(daemonPid).toBe(running.child.pid); // the container's main process is the daemon itself
    running.child.kill(settings.STOPSIGNAL as NodeJS.Signals);
    expect(await running.exited).toBe(0);
    await expectGracefulStop(env.GOVFLOW_ROOT!, daemonPid, running);
    expect(health()).not.toBe(0);
  }, 120_000);
});

describe('examples/deploy/govflow.service', () => {
  it('verifies, and runs as systemd would: the root made once, the daemon started, KillSignal stopping it gracefully', async () => {
    const stateDirectory = path.join(tempDir('govflow-systemd-'), 'govflow');
    mkdirSync(stateDirectory);
    const written = readFileSync(path.join(DEPLOY, 'govflow.service'), 'utf8');
    const unit = written
      .replaceAll('/opt/govflow', image.env.GOVFLOW_HOME!)
      .replaceAll('/var/lib/govflow', stateDirectory)
      .replaceAll('127.0.0.1:7070', '127.0.0.1:0');
    const unitFile = path.join(path.dirname(stateDirectory), 'govflow.service');
    writeFileSync(unitFile, unit);
    const analyze = spawnSync('systemd-analyze', ['verify', unitFile], { encoding: 'utf8' });
    if (analyze.error === undefined) {
      expect(analyze.status, analyze.stderr).toBe(0);
      // verify passes with warnings (an unknown key is "ignoring"): none may name this unit.
      expect(analyze.stderr.split('\n').filter((line) => line.includes(unitFile))).toEqual([]);
    }

    const keys = new Map<string, string[]>();
    for (const line of unit.split('\n')) {
      const match = /^(\w+)=(.*)$/.exec(line);
      if (match) keys.set(match[1]!, [...(keys.get(match[1]!) ?? []), match[2]!]);
    }
    const key = (name: string) => keys.get(name)?.at(-1);
    expect(key('User')).toMatch(/^[a-z][a-z0-9_-]*$/);
    expect(key('User')).not.toBe('root');
    expect(key('StateDirectory')).toBe('govflow');
    expect(written).toContain('WorkingDirectory=/var/lib/govflow'); // = /var/lib/ + StateDirectory
    expect(key('Environment')).toBe(`GOVFLOW_ROOT=${stateDirectory}`);
    expect(key('KillSignal')).toBe('SIGTERM');
    expect(key('Restart')).toBe('on-failure');
    expect(key('RestartPreventExitStatus')).toBe('2');

    // systemd starts the commands with its own environment: PATH, the unit's Environment=.
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', GOVFLOW_ROOT: stateDirectory };
    const cwd = key('WorkingDirectory')!;
    const prepare = () =>
      spawnSync('/bin/sh', ['-c', key('ExecStartPre')!.replace(/^\/bin\/sh -c '(.*)'$/, '$1')], {
        cwd,
        env,
        encoding: 'utf8',
      });
    expect(prepare().status).toBe(0);
    expect(existsSync(path.join(stateDirectory, 'governance'))).toBe(true);
    writeFileSync(path.join(stateDirectory, 'govflow.config.yaml'), '# edited by its operator\n');
    expect(prepare().status).toBe(0); // a root that exists is left as it is
    expect(readFileSync(path.join(stateDirectory, 'govflow.config.yaml'), 'utf8')).toBe('# edited by its operator\n');

    const [command, ...args] = key('ExecStart')!.split(' ');
    const running = await startProcess(command!, args, { cwd, env });
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    const daemonPid = lockOwner(stateDirectory);
    expect(daemonPid).toBe(running.child.pid); // systemd's main PID is the daemon
    running.child.kill(key('KillSignal') as NodeJS.Signals);
    expect(await running.exited).toBe(0);
    await expectGracefulStop(stateDirectory, daemonPid, running);
  }, 120_000);
});

describe('examples/deploy/compose.yaml', () => {
  it('runs Postgres and daemons in cluster mode on the image, each daemon with its own root', () => {
    const source = readFileSync(path.join(DEPLOY, 'compose.yaml'), 'utf8');
    const password = 'compose-test-secret';
    const compose = parse(source.replace(/\$\{POSTGRES_PASSWORD:\?[^}]*\}/g, password), { merge: true }) as {
      services: Record<string, Record<string, any>>;
    };
    expect(Object.keys(compose.services).sort()).toEqual(['govflow', 'postgres', 'worker']);
    const postgres = compose.services.postgres!;
    expect(postgres.image).toMatch(/^postgres:\d+$/);
    expect(postgres.environment).toMatchObject({ POSTGRES_USER: 'govflow', POSTGRES_DB: 'govflow' });
    expect(postgres.healthcheck.test.join(' ')).toContain('pg_isready');
    for (const name of ['govflow', 'worker']) {
      const daemon = compose.services[name]!;
      expect(daemon.build, name).toBe('.');
      expect(existsSync(path.join(DEPLOY, daemon.build, 'Dockerfile'))).toBe(true);
      expect(daemon.init, name).toBe(true);
      expect(daemon.depends_on.postgres.condition, name).toBe('service_healthy');
      expect(daemon.environment.GOVFLOW_STORE, name).toBe('postgres');
      const url = new URL(daemon.environment.GOVFLOW_STORE_URL);
      expect(`${url.username}:${url.password}@${url.hostname}:${url.port}${url.pathname}`).toBe(
        `govflow:${password}@postgres:5432/govflow`,
      );
    }
    expect(compose.services.govflow!.volumes).toEqual([`govflow-root:${'/srv/govflow'}`]);
    expect(readFileSync(path.join(DEPLOY, 'Dockerfile'), 'utf8')).toContain('ENV GOVFLOW_ROOT=/srv/govflow');
    expect(compose.services.govflow!.ports).toEqual(['7070:7070']);
    expect(compose.services.worker!.command.slice(0, 2)).toEqual(['govflow', 'start']);

    // govflow reads the daemons' store settings from that environment (cluster mode, Postgres URL):
    // its config loader (the package ships it bundled; this is the same module as tsc built it).
    const root = newRoot();
    const configured = spawnSync(
      'node',
      [
        '--input-type=module',
        '-e',
        `const { loadConfig } = await import(` +
          `${JSON.stringify(path.join(REPOSITORY_ROOT, 'dist', 'config', 'config-loader.js'))});
         const { store } = loadConfig(${JSON.stringify(root)}, process.env);
         console.log(JSON.stringify({ kind: store.kind, url: store.url }));`,
      ],
      { env: { ...image.env, ...compose.services.govflow!.environment }, encoding: 'utf8' },
    );
    expect(configured.status, configured.stderr).toBe(0);
    expect(JSON.parse(configured.stdout)).toEqual({
      kind: 'postgres',
      url: `postgres://govflow:${password}@postgres:5432/govflow`,
    });
  }, 60_000);
});

describe('a stop signal to what a user or supervisor started leaves no daemon (SPEC §21)', () => {
  const ways: Array<{ name: string; signal: NodeJS.Signals; start: (root: string) => [string, string[], string] }> = [
    {
      name: 'govflow start',
      signal: 'SIGINT',
      start: (root) => ['govflow', ['start', '--root', root, '--http', '127.0.0.1:0'], path.dirname(root)],
    },
    {
      name: 'npx govflow start',
      signal: 'SIGTERM',
      start: (root) => ['npx', ['govflow', 'start', '--root', root, '--http', '127.0.0.1:0'], image.env.GOVFLOW_HOME!],
    },
    {
      name: 'npm start in a project ("start": "govflow start")',
      signal: 'SIGTERM',
      start: (root) => ['npm', ['start', '--', '--root', root, '--http', '127.0.0.1:0'], image.env.GOVFLOW_HOME!],
    },
    {
      name: "npm start in govflow's own repository",
      signal: 'SIGTERM',
      // --ignore-scripts skips prestart's build (dist/ is this run's one build), not start itself.
      start: (root) => [
        'npm',
        ['start', '--ignore-scripts', '--', '--root', root, '--http', '127.0.0.1:0'],
        REPOSITORY_ROOT,
      ],
    },
  ];

  it.each(ways)(
    '$name, then $signal to it',
    async ({ start, signal }) => {
      const project = path.join(image.env.GOVFLOW_HOME!, 'package.json');
      writeFileSync(project, JSON.stringify({ private: true, scripts: { start: 'govflow start' } }));
      const root = newRoot();
      const [command, args, cwd] = start(root);
      const running = await startProcess(command, args, { cwd, env: image.env });
      const daemonPid = lockOwner(root);
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
      running.child.kill(signal);
      await running.exited;
      await expectGracefulStop(root, daemonPid, running);
    },
    90_000,
  );
});
