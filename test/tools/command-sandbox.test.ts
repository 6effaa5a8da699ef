/**
 * run_command in bubblewrap (SPEC §19 "Commands run in a sandbox"), with real processes: checked
 * from inside a command, the govflow root, the daemon's home, /etc/shadow and the network are out
 * of reach and nothing outside the workspace is written; a process that escaped with `setsid` ends
 * with the command (at its exit, its timeout, an abort) and never holds the call open; without
 * bwrap no sandbox is made and the tool refuses; `sandbox: none` runs and says so on the record.
 */
import { createServer, type Server } from 'node:net';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommandPattern } from '../../src/config/command-patterns.js';
import { commandSandbox, type SandboxSetting } from '../../src/tools/command-sandbox.js';
import { McpProcessRecords } from '../../src/tools/mcp-process-records.js';
import { runCommandTool, type CommandSettings } from '../../src/tools/run-command-tool.js';
import { ToolCallError, type ToolCallContext } from '../../src/tools/tool-contract.js';
import { ensureWorkspace } from '../../src/tools/workspace-paths.js';
import { processStarted, processesGone, processesIn } from '../support/processes.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  removeTempFolders();
});

const NODE = process.execPath;

async function setup(
  allow: string[],
  options: { setting?: SandboxSetting; network?: boolean; timeoutMs?: number; path?: string } = {},
) {
  const base = makeTempFolder('govflow-sandbox-');
  const root = path.join(base, 'root');
  const home = path.join(base, 'home');
  mkdirSync(home, { recursive: true });
  const workspace = await ensureWorkspace(path.join(root, 'workspace'), 'sess-1');
  writeFileSync(path.join(root, 'govflow.config.yaml'), 'secret: root\n');
  writeFileSync(path.join(home, '.npmrc'), '//registry/:_authToken=secret\n');
  const env = { PATH: options.path ?? process.env.PATH, HOME: home, LANG: 'C.UTF-8' };
  const sandbox = commandSandbox({
    setting: options.setting ?? 'bwrap',
    network: options.network ?? false,
    root,
    env,
  });
  const settings: CommandSettings = {
    allow: allow.map(parseCommandPattern),
    autoApprove: [],
    timeoutMs: options.timeoutMs ?? 20_000,
    maxOutputBytes: 65_536,
    records: new McpProcessRecords(path.join(base, 'state', 'commands')),
    env,
    sandbox,
  };
  const controller = new AbortController();
  const context: ToolCallContext = { sessionId: 'sess-1', workspace, signal: controller.signal };
  return { base, root, home, workspace, settings, context, controller, tool: runCommandTool(settings) };
}

/** A loopback TCP server on the host: reachable from a command only when it has the network. */
async function hostServer(): Promise<number> {
  const server = createServer((socket) => socket.end('hello'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

const CHECK = `
const fs = require('fs');
const [root, home, outside, port] = process.argv.slice(2);
const seen = (file) => { try { fs.statSync(file); return true; } catch { return false; } };
const wrote = (file) => { try { fs.writeFileSync(file, 'x'); return true; } catch { return false; } };
const result = {
  root: seen(root + '/govflow.config.yaml'),
  home: seen(home + '/.npmrc'),
  shadow: seen('/etc/shadow'),
  gshadow: seen('/etc/gshadow'),
  sudoers: seen('/etc/sudoers'),
  passwd: seen('/etc/passwd'),
  wroteOutside: wrote(outside),
  wroteInside: wrote('inside.txt'),
  wroteSystem: wrote('/usr/govflow-sandbox-test') || wrote('/etc/govflow-sandbox-test'),
  // No capabilities, even for a daemon run as root (nothing inside may remount what is read-only).
  noCapabilities: /^CapEff:\\s*0+$/m.test(fs.readFileSync('/proc/self/status', 'utf8')),
  pid: process.pid,
};
const socket = require('net').connect(Number(port), '127.0.0.1');
socket.on('data', () => { result.network = true; finish(); });
socket.on('error', (error) => { result.network = error.code; finish(); });
function finish() { console.log(JSON.stringify(result)); process.exit(0); }
`;

function escapeScript(exitAtOnce: boolean): string {
  // setsid (a new session and group) detaches the child from the command; it writes its marker after
  // 30 s, so only a process the sandbox failed to end can write it, however loaded the machine.
  return `
const { spawn } = require('child_process');
const late = 'setTimeout(() => require("fs").writeFileSync("escaped-marker", "x"), 30000)';
const child = spawn('/usr/bin/setsid', [process.execPath, '-e', late], { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
child.unref();
console.log('started');
${exitAtOnce ? '' : 'setInterval(() => {}, 1000);'}
`;
}

describe('run_command in bubblewrap', () => {
  it('a command sees neither the root, the home, /etc/shadow nor the network, and writes only the workspace', async () => {
    const { tool, context, workspace, root, home, base } = await setup([`Bash(${NODE} check.js:*)`]);
    writeFileSync(path.join(workspace, 'check.js'), CHECK);
    const port = await hostServer();
    const outside = path.join(base, 'outside.txt');
    const run = await tool.call({ command: `${NODE} check.js ${root} ${home} ${outside} ${port}` }, context);
    expect(run.isError).toBe(false);
    const seen = JSON.parse(run.output.split('\n')[2]) as Record<string, unknown>;
    expect(seen).toMatchObject({
      root: false,
      home: false,
      shadow: false,
      gshadow: false,
      sudoers: false,
      passwd: true,
      wroteInside: true,
      wroteSystem: false,
      noCapabilities: true,
    });
    expect(seen.network).not.toBe(true);
    // Its own PID namespace: the command is not the host's process of that number.
    expect(seen.pid).toBeLessThan(10);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(path.join(workspace, 'inside.txt'))).toBe(true);
    expect(run.command).not.toHaveProperty('sandbox');

    const networked = await setup([`Bash(${NODE} check.js:*)`], { network: true });
    writeFileSync(path.join(networked.workspace, 'check.js'), CHECK);
    const open = await networked.tool.call(
      { command: `${NODE} check.js ${networked.root} ${networked.home} ${outside} ${port}` },
      networked.context,
    );
    expect(JSON.parse(open.output.split('\n')[2])).toMatchObject({ network: true, root: false, home: false });
  }, 30_000);

  it('a process the command detached with setsid ends when the command exits; the call does not wait for it', async () => {
    const { tool, context, workspace } = await setup([`Bash(${NODE} escape.js)`]);
    writeFileSync(path.join(workspace, 'escape.js'), escapeScript(true));
    const started = performance.now();
    const run = await tool.call({ command: `${NODE} escape.js` }, context);
    // Not the 30 s of the detached process (the bound leaves room for a loaded machine).
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(run).toMatchObject({ isError: false, command: { exit_code: 0 } });
    // Every process of the command, the detached one included, is gone: no marker can appear later.
    await processesGone(workspace);
    expect(existsSync(path.join(workspace, 'escaped-marker'))).toBe(false);
  }, 20_000);

  it('the timeout and an abort end the command with the process it detached, at once', async () => {
    const timed = await setup([`Bash(${NODE} escape.js)`], { timeoutMs: 1000 });
    writeFileSync(path.join(timed.workspace, 'escape.js'), escapeScript(false));
    const started = performance.now();
    const run = await timed.tool.call({ command: `${NODE} escape.js` }, timed.context);
    // At the 1 s timeout: the command itself would run for ever, the process it detached for 30 s.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(run).toMatchObject({ isError: true, command: { stopped: 'timeout', exit_code: null } });

    const aborted = await setup([`Bash(${NODE} escape.js)`]);
    writeFileSync(path.join(aborted.workspace, 'escape.js'), escapeScript(false));
    const running = aborted.tool.call({ command: `${NODE} escape.js` }, aborted.context);
    await processStarted(aborted.workspace, `${NODE} -e`); // the process it detached runs
    const abortedAt = performance.now();
    aborted.controller.abort(new Error('cancelled by the operator'));
    await expect(running).rejects.toThrow('cancelled by the operator');
    expect(performance.now() - abortedAt).toBeLessThan(5_000);
    await processesGone(timed.workspace);
    await processesGone(aborted.workspace);
    expect(existsSync(path.join(timed.workspace, 'escaped-marker'))).toBe(false);
    expect(existsSync(path.join(aborted.workspace, 'escaped-marker'))).toBe(false);
  }, 30_000);

  it('a missing program is named; without bwrap no sandbox is made and nothing runs; sandbox: none runs and says so', async () => {
    const { tool, context } = await setup(['Bash(no-such-program-here)']);
    const missing = await tool.call({ command: 'no-such-program-here' }, context).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ToolCallError);
    expect((missing as Error).message).toMatch(
      /cannot start no-such-program-here: "no-such-program-here" was not found/,
    );

    const bare = path.dirname(NODE) === '/usr/bin' ? makeTempFolder('govflow-no-bwrap-') : path.dirname(NODE);
    const without = await setup([`Bash(${NODE} marker.js)`], { path: bare });
    expect(without.settings.sandbox).toMatchObject({
      kind: 'unavailable',
      reason: expect.stringMatching(/bubblewrap \("bwrap"\) is not installed/),
    });
    writeFileSync(path.join(without.workspace, 'marker.js'), 'require("fs").writeFileSync("marker", "ran")');
    const refused = await without.tool.call({ command: `${NODE} marker.js` }, without.context).catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/no sandbox can be made .*tools\.commands\.sandbox: none.*not run/);
    expect(existsSync(path.join(without.workspace, 'marker'))).toBe(false);

    const none = await setup([`Bash(${NODE} escape.js)`], { setting: 'none', path: bare });
    writeFileSync(path.join(none.workspace, 'escape.js'), escapeScript(true));
    const started = performance.now();
    const run = await none.tool.call({ command: `${NODE} escape.js` }, none.context);
    // Unsandboxed, the detached process outlives the command, but the call does not wait on its pipes.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(run.command).toMatchObject({ exit_code: 0, sandbox: 'none' });
    for (const left of processesIn(none.workspace)) process.kill(left.pid, 'SIGKILL');
  }, 30_000);
});
