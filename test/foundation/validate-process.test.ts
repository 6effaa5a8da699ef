/**
 * `govflow validate` as a real child process: `node bin/govflow.js validate --root <tmp>` after one
 * build of the project, so the shipped entry point, exit codes and output streams are what is tested.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  REPOSITORY_ROOT,
  agentMarkdown,
  copyExampleApp,
  governanceHash,
  minimalRoot,
  removeTempRoots,
  writeFile,
} from './governance-root.js';

beforeAll(async () => {
  // The one build of this vitest run, shared with every suite that runs the CLI (a second tsc
  // writing dist/ would hand their daemons half a module).
  await buildDistOnce();
  expect(existsSync(path.join(REPOSITORY_ROOT, 'dist/bundle/main.js'))).toBe(true);
}, 240_000);

afterAll(removeTempRoots);

function govflow(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [path.join(REPOSITORY_ROOT, 'bin/govflow.js'), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('govflow validate (child process)', () => {
  it('exits 0 on a copy of the example app with agents, routing graph and governance hash', () => {
    const root = copyExampleApp();
    const result = govflow(['validate', '--root', root]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^agents: 6 \(entry: objective_agent\)$/m);
    expect(result.stdout).toMatch(/^routing graph:$/m);
    expect(result.stdout).toMatch(/^ {2}\* objective_agent \(governance\) → goal_agent$/m);
    expect(result.stdout).toMatch(/^ {4}goal_agent \(governance\) → planning_agent$/m);
    expect(governanceHash(result.stdout)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('takes the root from GOVFLOW_ROOT, and the same tree gives the same hash', () => {
    const root = copyExampleApp();
    const byFlag = govflow(['validate', '--root', root]);
    const byEnv = govflow(['validate'], { GOVFLOW_ROOT: root });
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(governanceHash(byEnv.stdout)).toBe(governanceHash(byFlag.stdout));
  });

  it('the hash changes when an included file changes', () => {
    const root = copyExampleApp();
    const before = governanceHash(govflow(['validate', '--root', root]).stdout);
    const file = path.join(root, 'governance/message_format.md');
    writeFile(root, 'governance/message_format.md', `${readFileSync(file, 'utf8')}\nOne more rule.\n`);
    expect(governanceHash(govflow(['validate', '--root', root]).stdout)).not.toBe(before);
  });

  it('unknown key: exit 1, file:line of the key on stderr', () => {
    const root = minimalRoot();
    writeFile(
      root,
      'governance/agents/start_agent.md',
      agentMarkdown([
        'name: start_agent',
        'type: governance',
        'description: Starts.',
        'entry: true',
        'next: [finish_agent]',
        'delegate_to: [x]',
      ]),
    );
    const result = govflow(['validate', '--root', root]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: governance\/agents\/start_agent\.md:7: .*unknown key "delegate_to"/m);
  });

  it('bad frontmatter YAML: exit 1, file:line of the YAML error', () => {
    const root = minimalRoot();
    writeFile(
      root,
      'governance/agents/finish_agent.md',
      agentMarkdown(['name: finish_agent', 'type: operational', 'next: []', 'description: "unterminated']),
    );
    const result = govflow(['validate', '--root', root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: governance\/agents\/finish_agent\.md:5: invalid YAML/m);
  });

  it('unknown next target: exit 1, file:line of `next`', () => {
    const root = minimalRoot();
    writeFile(
      root,
      'governance/agents/start_agent.md',
      agentMarkdown([
        'name: start_agent',
        'type: governance',
        'next: [finsh_agent]',
        'description: Starts.',
        'entry: true',
      ]),
    );
    const result = govflow(['validate', '--root', root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: governance\/agents\/start_agent\.md:4: .*unknown agent "finsh_agent"/m);
  });

  it('no frontmatter: exit 1, file:1', () => {
    const root = minimalRoot();
    writeFile(root, 'governance/agents/finish_agent.md', '# Finish agent\n\nJust prose.\n');
    const result = govflow(['validate', '--root', root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: governance\/agents\/finish_agent\.md:1: no YAML frontmatter/m);
  });

  it('config agents over markdown without frontmatter: exit 0', () => {
    const root = minimalRoot();
    writeFile(root, 'governance/agents/start_agent.md', '# Start\nNo frontmatter.\n');
    writeFile(root, 'governance/agents/finish_agent.md', '# Finish\nNo frontmatter.\n');
    writeFile(
      root,
      'govflow.config.yaml',
      [
        'agents:',
        '  start_agent: { type: governance, description: Starts., entry: true, next: [finish_agent], file: governance/agents/start_agent.md }',
        '  finish_agent: { type: operational, description: Finishes., file: governance/agents/finish_agent.md }',
        '',
      ].join('\n'),
    );
    const result = govflow(['validate', '--root', root]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^agents: 2 \(entry: start_agent\)$/m);
  });

  it('bad config value: exit 1, config file:line', () => {
    const root = minimalRoot();
    writeFile(root, 'govflow.config.yaml', 'timezone: Mars/Olympus\n');
    const result = govflow(['validate', '--root', root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/govflow\.config\.yaml:1: .*Mars\/Olympus/);
  });

  it('bad usage exits 2; --help exits 0', () => {
    expect(govflow(['validate', '--bogus']).code).toBe(2);
    const help = govflow(['validate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('govflow validate');
  });
});
