/**
 * Agent files written for Claude Code (SPEC §17) dropped into governance/agents/ load as govflow
 * agents: name, description, a tools string mapped to govflow's tools, model aliases meaning the
 * configured model. A Claude Code tool govflow does not have is a validate error naming the file
 * and the line of `tools:`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { loadGovernance } from '../../src/governance/governance-loader.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, runCli } from '../daemon/daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const REVIEWER = [
  '---',
  'name: code-reviewer',
  'description: Reviews a change for correctness and style. Use after code is written.',
  'tools: Read, Glob, WebFetch, mcp__docs__search',
  'model: sonnet',
  'color: blue',
  '---',
  'You are a senior reviewer. Read the files named in the task and list the problems you find.',
  '',
].join('\n');

describe('Claude Code agent files in governance/agents/', () => {
  it('load as executional govflow agents with their tools mapped and the configured model', () => {
    const root = makeRoot('timezone: UTC\nmcp: { servers: { docs: { url: "http://127.0.0.1:9/mcp" } } }\n');
    writeFileSync(path.join(root, 'governance', 'agents', 'code-reviewer.md'), REVIEWER);
    const { snapshot, errors } = loadGovernance(loadConfig(root, {}));
    expect(errors.map((error) => error.describe())).toEqual([]);
    const agent = snapshot!.agents.get('code_reviewer')!;
    expect(agent).toMatchObject({
      type: 'executional',
      description: 'Reviews a change for correctness and style. Use after code is written.',
    });
    expect(agent.tools).toEqual(['read_file', 'list_files', 'http_get', 'mcp:docs/search']);
    expect(agent.model).toBeUndefined();
    expect(agent.instructions).toContain('You are a senior reviewer.');
  });

  it('refuse a Claude Code tool govflow does not have, naming the file and the line of tools:', async () => {
    const root = makeRoot('timezone: UTC\n');
    writeFileSync(
      path.join(root, 'governance', 'agents', 'fixer.md'),
      ['---', 'name: fixer', 'description: Fixes failing tests.', 'tools: Read, Bash, Edit', '---', 'Fix it.', ''].join(
        '\n',
      ),
    );
    const checked = await runCli(['validate', '--root', root]);
    expect(checked.code).toBe(1);
    expect(checked.stdout + checked.stderr).toMatch(
      /governance\/agents\/fixer\.md:4: Claude Code tool "Bash" has no govflow counterpart/,
    );
    expect(checked.stdout + checked.stderr).toMatch(
      /governance\/agents\/fixer\.md:4: Claude Code tool "Edit" has no govflow counterpart/,
    );
  }, 60_000);
});
