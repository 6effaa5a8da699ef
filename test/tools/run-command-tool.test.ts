/**
 * run_command (SPEC §19) with real processes: commands in Claude Code's permission syntax, split
 * into argv and run without a shell in the workspace with only PATH, HOME and LANG; anything a
 * shell would interpret refused before it runs; the timeout, the output cap and an abort kill the
 * whole process group (a child it started included); argv, exit code and the sha256 of all its
 * output recorded. A command that would create a marker file shows what ran and what did not.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommandPattern, splitCommand } from '../../src/config/command-patterns.js';
import { commandSandbox } from '../../src/tools/command-sandbox.js';
import { McpProcessRecords } from '../../src/tools/mcp-process-records.js';
import { commandAutoApproved, runCommandTool, type CommandSettings } from '../../src/tools/run-command-tool.js';
import { ToolCallError, type ToolCallContext } from '../../src/tools/tool-contract.js';
import { ensureWorkspace } from '../../src/tools/workspace-paths.js';
import { waitFor } from '../daemon/daemon-helpers.js';
import { processStarted, processesGone } from '../support/processes.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

const NODE = process.execPath;

async function setup(allow: string[], options: Partial<CommandSettings> = {}) {
  const base = makeTempFolder('govflow-run-command-');
  const workspace = await ensureWorkspace(path.join(base, 'workspace'), 'sess-1');
  const settings: CommandSettings = {
    allow: allow.map(parseCommandPattern),
    autoApprove: [],
    timeoutMs: 20_000,
    maxOutputBytes: 65_536,
    records: new McpProcessRecords(path.join(base, 'state', 'commands')),
    env: { PATH: process.env.PATH, HOME: '/home/someone', LANG: 'C.UTF-8', OPENAI_API_KEY: 'sk-secret' },
    sandbox: commandSandbox({ setting: 'bwrap', network: false, root: path.join(base, 'root'), env: process.env }),
    ...options,
  };
  const controller = new AbortController();
  const context: ToolCallContext = { sessionId: 'sess-1', workspace, signal: controller.signal };
  return { base, workspace, settings, context, controller, tool: runCommandTool(settings) };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolCallError);
  return (error as Error).message;
}

/** A node script (written into the workspace) so commands need no shell to do something observable. */
function script(workspace: string, name: string, body: string): string {
  writeFileSync(path.join(workspace, name), body);
  return name;
}

describe('command patterns and splitting', () => {
  it('reads Claude Code permission syntax: exact, ":*" and " *" prefixes; refuses every command and middle wildcards', () => {
    expect(parseCommandPattern('Bash(npm test)')).toEqual({
      text: 'Bash(npm test)',
      argv: ['npm', 'test'],
      prefix: false,
    });
    expect(parseCommandPattern('Bash(npm run lint:*)')).toMatchObject({ argv: ['npm', 'run', 'lint'], prefix: true });
    expect(parseCommandPattern('Bash(git diff *)')).toMatchObject({ argv: ['git', 'diff'], prefix: true });
    expect(() => parseCommandPattern('Bash')).toThrow(/is not a command pattern/);
    expect(() => parseCommandPattern('Bash(*)')).toThrow(/would allow every command/);
    expect(() => parseCommandPattern('Bash(git * main)')).toThrow(/only understood at the end/);
    expect(() => parseCommandPattern('Bash(npm test && rm -rf /)')).toThrow(/"&&" operator "&"/);
  });

  it('refuses what a shell would interpret, anywhere in the command', () => {
    const refused = (command: string) => {
      try {
        splitCommand(command);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refused('npm test | tee out')).toMatch(/pipe "\|"/);
    expect(refused('npm test; rm -rf /')).toMatch(/command separator ";"/);
    expect(refused('npm test && touch x')).toMatch(/"&"/);
    expect(refused('npm test > out.txt')).toMatch(/redirection ">"/);
    expect(refused('npm test < in.txt')).toMatch(/redirection "<"/);
    expect(refused('echo `id`')).toMatch(/command substitution "`"/);
    expect(refused('echo $(id)')).toMatch(/command substitution "\$\("/);
    expect(refused("echo 'a|b'")).toMatch(/pipe/);
    expect(refused('echo $HOME')).toMatch(/a variable \("\$HOME"\)/);
    expect(refused('ls *.txt')).toMatch(/a wildcard/);
    expect(refused('npm test # comment')).toMatch(/a comment/);
    expect(refused('npm test\nrm -rf /')).toMatch(/line break/);
    expect(splitCommand('git commit -m "a message with spaces"')).toEqual([
      'git',
      'commit',
      '-m',
      'a message with spaces',
    ]);
  });
});

describe('run_command', () => {
  it('runs an allowed command without a shell in the workspace, with only PATH, HOME and LANG; records what ran', async () => {
    const { workspace, context, tool } = await setup([`Bash(${NODE} show-env.js:*)`]);
    script(
      workspace,
      'show-env.js',
      'console.log(JSON.stringify({ cwd: process.cwd(), env: process.env, argv: process.argv.slice(2) })); console.error("to stderr");',
    );
    // A variable and a separator inside quotes would mean something to a shell: refused, not run.
    expect(await refusal(tool.call({ command: `${NODE} show-env.js "$HOME"` }, context))).toMatch(/a variable/);
    expect(await refusal(tool.call({ command: `${NODE} show-env.js 'a;b'` }, context))).toMatch(
      /command separator ";"/,
    );
    const result = await tool.call({ command: `${NODE} show-env.js 'two words'` }, context);
    expect(result.isError).toBe(false);
    const printed = JSON.parse(result.output.split('\n')[2]) as {
      cwd: string;
      env: Record<string, string>;
      argv: string[];
    };
    expect(printed.cwd).toBe(workspace);
    expect(printed.argv).toEqual(['two words']);
    expect(Object.keys(printed.env).sort()).toEqual(['HOME', 'LANG', 'PATH']);
    expect(printed.env.HOME).toBe('/home/someone');
    expect(result.output).toMatch(/^\$ .*show-env\.js two words\nexit code 0 \(\d+ ms, \d+ bytes of output\)\n/);
    expect(result.output).toContain('to stderr');
    const whole = result.output.split('\n').slice(2).join('\n');
    expect(result.command).toMatchObject({
      argv: [NODE, 'show-env.js', 'two words'],
      exit_code: 0,
      stopped: null,
      output_bytes: Buffer.byteLength(whole),
      output_sha256: createHash('sha256').update(whole).digest('hex'),
    });
  });

  it('refuses commands not allowed, and allows exactly what the pattern says', async () => {
    const { workspace, context, tool, settings } = await setup([`Bash(${NODE} marker.js ok)`]);
    script(workspace, 'marker.js', 'require("fs").writeFileSync("marker-" + process.argv[2], "ran");');
    expect(await refusal(tool.call({ command: `${NODE} marker.js other` }, context))).toMatch(
      /is not an allowed command \(tools\.commands\.allow: Bash\(.*marker\.js ok\)\); not run/,
    );
    expect(await refusal(tool.call({ command: `${NODE} marker.js ok extra` }, context))).toMatch(
      /not an allowed command/,
    );
    expect(existsSync(path.join(workspace, 'marker-other'))).toBe(false);
    expect(existsSync(path.join(workspace, 'marker-ok'))).toBe(false);
    expect((await tool.call({ command: `${NODE}   marker.js   ok` }, context)).isError).toBe(false);
    expect(readFileSync(path.join(workspace, 'marker-ok'), 'utf8')).toBe('ran');
    expect(commandAutoApproved(settings, { command: `${NODE} marker.js ok` })).toBe(false);
    const none = await setup([]);
    expect(await refusal(none.tool.call({ command: 'true' }, none.context))).toMatch(/tools\.commands\.allow is empty/);
  });

  it('reports a non-zero exit as an error result with its code, and a missing program clearly', async () => {
    const { workspace, context, tool } = await setup([`Bash(${NODE} fail.js)`, 'Bash(no-such-program-here)']);
    script(workspace, 'fail.js', 'console.log("failing"); process.exit(3);');
    const failed = await tool.call({ command: `${NODE} fail.js` }, context);
    expect(failed).toMatchObject({ isError: true, command: { exit_code: 3 } });
    expect(failed.output).toMatch(/exit code 3/);
    expect(await refusal(tool.call({ command: 'no-such-program-here' }, context))).toMatch(
      /cannot start no-such-program-here: "no-such-program-here" was not found/,
    );
  });

  it('kills the whole process group at the timeout: the marker its child would write never appears', async () => {
    const { workspace, context, tool } = await setup([`Bash(${NODE} slow.js)`], { timeoutMs: 1500 });
    // The command starts a child that writes the marker after 30 s, then waits itself: long after the
    // timeout, so only a process the kill missed can write one (processesGone fails first).
    script(
      workspace,
      'slow.js',
      `const { spawn } = require('child_process');
       spawn(process.execPath, ['-e', 'setTimeout(() => require("fs").writeFileSync("marker", "late"), 30000)'], { stdio: 'ignore' });
       setTimeout(() => require('fs').writeFileSync('marker-parent', 'late'), 30000);
       console.log('started');`,
    );
    const outcome = await tool.call({ command: `${NODE} slow.js` }, context);
    expect(outcome).toMatchObject({
      isError: true,
      command: { stopped: 'timeout', exit_code: null, signal: 'SIGKILL' },
    });
    expect(outcome.output).toMatch(
      /killed after 1500 ms \(tools\.commands\.timeout_ms\) with every process it started/,
    );
    // Every process it started is gone, so neither marker can appear later.
    await processesGone(workspace);
    expect(existsSync(path.join(workspace, 'marker'))).toBe(false);
    expect(existsSync(path.join(workspace, 'marker-parent'))).toBe(false);
  }, 20_000);

  it('stops a command whose output passes the cap, before it goes on to write its marker', async () => {
    const { workspace, context, tool } = await setup([`Bash(${NODE} loud.js)`], { maxOutputBytes: 1000 });
    script(
      workspace,
      'loud.js',
      `process.stdout.write('x'.repeat(5000));
       setTimeout(() => require('fs').writeFileSync('marker', 'after the output'), 30000);`,
    );
    const outcome = await tool.call({ command: `${NODE} loud.js` }, context);
    expect(outcome).toMatchObject({ isError: true, command: { stopped: 'output_limit', exit_code: null } });
    expect(outcome.output).toMatch(/its output passed 1000 bytes \(tools\.commands\.max_output_bytes\)/);
    expect(outcome.output.split('\n').slice(2).join('\n')).toBe('x'.repeat(1000));
    expect(outcome.command!.output_bytes).toBeGreaterThan(1000);
    await processesGone(workspace);
    expect(existsSync(path.join(workspace, 'marker'))).toBe(false);
  }, 20_000);

  it('honours the abort signal the tool call gets: the group is killed, the call rejects', async () => {
    const { workspace, context, tool, controller, base } = await setup([`Bash(${NODE} wait.js)`]);
    script(
      workspace,
      'wait.js',
      // Its marker is 30 s away: a loaded machine may stall this test for seconds, and only a process
      // the kill missed can write it (processesGone fails first).
      `setTimeout(() => require('fs').writeFileSync('marker', 'x'), 30000); console.log('waiting');`,
    );
    const running = tool.call({ command: `${NODE} wait.js` }, context);
    await processStarted(workspace, `${NODE} wait.js`);
    controller.abort(new Error('cancelled by the operator'));
    await expect(running).rejects.toThrow('cancelled by the operator');
    await processesGone(workspace);
    expect(existsSync(path.join(workspace, 'marker'))).toBe(false);
    // Its pid record went with it: nothing is left for the next daemon to reap.
    const records = path.join(base, 'state', 'commands');
    await waitFor('the pid record forgotten at the exit', () => readdirSync(records).length === 0);
    expect(readdirSync(path.join(base, 'state', 'commands'))).toEqual([]);
  }, 20_000);
});
