/**
 * `govflow validate` in-process (the validate command from src/ with captured output): every kind of broken
 * agent file must exit 1 with `file:line` pointing at the problem. The key cases also run as a
 * real child process in validate-process.test.ts.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { loadGovernance } from '../../src/governance/governance-loader.js';
import {
  FIXTURES,
  agentMarkdown,
  copyExampleApp,
  governanceHash,
  makeTempRoot,
  minimalRoot,
  removeTempRoots,
  runValidate,
  writeFile,
} from './governance-root.js';

afterEach(removeTempRoots);

async function validate(root: string) {
  return runValidate(['--root', root]);
}

/** Expects exit 1 and an `error: <file>:<line>: ...` line matching `pattern`. */
async function expectError(root: string, file: string, line: number, pattern: RegExp): Promise<string> {
  const result = await validate(root);
  expect(result.code, result.stdout + result.stderr).toBe(1);
  expect(result.stdout).not.toMatch(/OK/);
  const errorLines = result.stderr.split('\n').filter((text) => text.startsWith('error: '));
  const match = errorLines.find((text) => text.startsWith(`error: ${file}:${line}: `) && pattern.test(text));
  expect(match, `no "error: ${file}:${line}: ${pattern}" in:\n${result.stderr}`).toBeDefined();
  return result.stderr;
}

describe('govflow validate on the example application', () => {
  it('passes and prints agents, routing graph and a 64-hex governance hash', async () => {
    const root = copyExampleApp();
    const result = await validate(root);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`govflow validate: OK (${root})`);
    expect(result.stdout).toMatch(/^agents: 6 \(entry: objective_agent\)$/m);
    expect(result.stdout).toMatch(/^routing graph:$/m);
    expect(result.stdout).toMatch(/\* objective_agent \(governance\) → goal_agent$/m);
    expect(result.stdout).toMatch(
      /planning_agent \(operational\) → final_output_agent, plan tasks: action_item_agent \| summarizer_agent$/m,
    );
    expect(result.stdout).toMatch(/final_output_agent \(operational\) → \(end\)$/m);
    expect(governanceHash(result.stdout)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('passes on the minimal tree the other tests break', async () => {
    const result = await validate(minimalRoot());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^agents: 2 \(entry: start_agent\)$/m);
  });

  it('fails with a clear message when there are no agents at all', async () => {
    const result = await validate(makeTempRoot());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no agents found/);
  });

  it('exits 1 (not a crash) for a bad config file, naming file and line', async () => {
    const root = minimalRoot();
    writeFile(root, 'govflow.config.yaml', 'timezone: UTC\nlimits:\n  max_steps: ten\n');
    const result = await validate(root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: govflow\.config\.yaml:3: .*max_steps/m);
  });
});

describe('govflow validate reports broken agent files with file:line', () => {
  const startFile = 'governance/agents/start_agent.md';

  it('bad YAML in frontmatter: the line of the YAML error', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      startFile,
      agentMarkdown([
        'name: start_agent',
        'type: governance',
        'description: Starts: now: really',
        'entry: true',
        'next: [finish_agent]',
      ]),
    );
    // line 1 is "---", so the third YAML line is file line 4.
    await expectError(root, startFile, 4, /invalid YAML/);
  });

  it('unknown next target: the line of `next`, naming the unknown agent', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      startFile,
      agentMarkdown([
        'name: start_agent',
        'type: governance',
        'description: Starts.',
        'entry: true',
        'next: [finish_agent, ghost_agent]',
      ]),
    );
    await expectError(root, startFile, 6, /unknown agent "ghost_agent"/);
  });

  it('unknown on_failure target: the line of `on_failure`', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      startFile,
      agentMarkdown([
        'name: start_agent',
        'type: governance',
        'description: Starts.',
        'entry: true',
        'on_failure: ghost_agent',
        'next: [finish_agent]',
      ]),
    );
    await expectError(root, startFile, 6, /on_failure.*"ghost_agent"/);
  });

  it('two entry agents: the `entry` line of the second one', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      'governance/agents/finish_agent.md',
      agentMarkdown(['name: finish_agent', 'type: operational', 'description: Finishes.', 'next: []', 'entry: true']),
    );
    // Agents load in file-name order, so finish_agent is first and start_agent the extra entry.
    await expectError(root, startFile, 5, /more than one entry agent \(finish_agent, start_agent\)/);
  });

  it('no entry agent at all', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      startFile,
      agentMarkdown(['name: start_agent', 'type: governance', 'description: Starts.', 'next: [finish_agent]']),
    );
    const result = await validate(root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no entry agent/);
  });

  it('missing `type`: names the key', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      startFile,
      agentMarkdown(['name: start_agent', 'description: Starts.', 'entry: true', 'next: [finish_agent]']),
    );
    await expectError(root, startFile, 2, /missing required key "type"/);
  });

  it('bad `type` value: the line of `type`', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      startFile,
      agentMarkdown([
        'name: start_agent',
        'description: Starts.',
        'type: manager',
        'entry: true',
        'next: [finish_agent]',
      ]),
    );
    await expectError(root, startFile, 4, /type.*governance.*operational.*executional/);
  });

  it('unknown key: the line of that key', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      startFile,
      agentMarkdown([
        'name: start_agent',
        'type: governance',
        'description: Starts.',
        'entry: true',
        'next: [finish_agent]',
        'skills: [web_search]',
      ]),
    );
    await expectError(root, startFile, 7, /unknown key "skills"/);
  });

  it('no frontmatter: line 1, suggesting frontmatter or config `agents:`', async () => {
    const root = minimalRoot();
    writeFile(root, 'governance/agents/extra_agent.md', '# Extra agent\nNo frontmatter here.\n');
    await expectError(root, 'governance/agents/extra_agent.md', 1, /no YAML frontmatter.*agents:/);
  });

  it('unclosed frontmatter: line 1', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      startFile,
      ['---', 'name: start_agent', 'type: governance', 'description: Starts.', 'entry: true', '# Start', 'text'].join(
        '\n',
      ),
    );
    await expectError(root, startFile, 1, /no closing "---"/);
  });

  it('frontmatter that is not a mapping', async () => {
    const root = minimalRoot();
    writeFile(root, startFile, agentMarkdown(['- name: start_agent']));
    await expectError(root, startFile, 2, /mapping/);
  });

  it('duplicate names: the second file, naming the first', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      'governance/agents/start_agent_copy.md',
      agentMarkdown(['name: start_agent', 'type: governance', 'description: A copy.', 'next: [finish_agent]']),
    );
    const stderr = await expectError(
      root,
      'governance/agents/start_agent_copy.md',
      2,
      /"start_agent" is already used by governance\/agents\/start_agent\.md:2/,
    );
    expect(stderr).toMatch(/warning: .*start_agent_copy\.md.*differs from the file name/);
  });

  it('plan: true without executional agents: the `plan` line', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      startFile,
      agentMarkdown([
        'name: start_agent',
        'type: governance',
        'description: Starts.',
        'entry: true',
        'plan: true',
        'next: [finish_agent]',
      ]),
    );
    await expectError(root, startFile, 6, /plan: true but there is no executional agent/);
  });

  it('plan: true with an executional agent passes and shows the plan targets', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      startFile,
      agentMarkdown([
        'name: start_agent',
        'type: governance',
        'description: Starts.',
        'entry: true',
        'plan: true',
        'next: [finish_agent]',
      ]),
    );
    writeFile(
      root,
      'governance/agents/worker_agent.md',
      agentMarkdown(['name: worker_agent', 'type: executional', 'description: Works.']),
    );
    const result = await validate(root);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/start_agent \(governance\) → finish_agent, plan tasks: worker_agent$/m);
    expect(result.stderr).not.toMatch(/unreachable/);
  });

  it('output_schema file missing: the `output_schema` line', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      'governance/agents/finish_agent.md',
      agentMarkdown([
        'name: finish_agent',
        'type: operational',
        'description: Finishes.',
        'output_schema: schemas/nope.json',
        'next: []',
      ]),
    );
    await expectError(
      root,
      'governance/agents/finish_agent.md',
      5,
      /output_schema.*schemas\/nope\.json.*does not exist/,
    );
  });

  it('output_schema file that is not JSON', async () => {
    const root = minimalRoot();
    writeFile(root, 'schemas/broken.json', '{"type": "object",');
    writeFile(
      root,
      'governance/agents/finish_agent.md',
      agentMarkdown([
        'name: finish_agent',
        'type: operational',
        'description: Finishes.',
        'next: []',
        'output_schema: schemas/broken.json',
      ]),
    );
    await expectError(root, 'governance/agents/finish_agent.md', 6, /output_schema is not a usable JSON Schema/);
  });

  it('output_schema that is JSON but not a valid schema', async () => {
    const root = minimalRoot();
    writeFile(root, 'schemas/bad-type.json', JSON.stringify({ type: 'objekt' }));
    writeFile(
      root,
      'governance/agents/finish_agent.md',
      agentMarkdown([
        'name: finish_agent',
        'type: operational',
        'description: Finishes.',
        'next: []',
        'output_schema: schemas/bad-type.json',
      ]),
    );
    await expectError(root, 'governance/agents/finish_agent.md', 6, /output_schema is not a usable JSON Schema/);
  });

  it('inline output_schema that is not a valid schema', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      'governance/agents/finish_agent.md',
      agentMarkdown([
        'name: finish_agent',
        'type: operational',
        'description: Finishes.',
        'next: []',
        'output_schema:',
        '  type: object',
        '  required: notalist',
      ]),
    );
    await expectError(root, 'governance/agents/finish_agent.md', 6, /output_schema is not a usable JSON Schema/);
  });

  it('a valid output_schema file passes', async () => {
    const root = minimalRoot();
    writeFile(root, 'schemas/answer.json', JSON.stringify({ type: 'object', required: ['answer'] }));
    writeFile(
      root,
      'governance/agents/finish_agent.md',
      agentMarkdown([
        'name: finish_agent',
        'type: operational',
        'description: Finishes.',
        'next: []',
        'output_schema: schemas/answer.json',
      ]),
    );
    expect((await validate(root)).code).toBe(0);
  });

  it('no terminal agent', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      'governance/agents/finish_agent.md',
      agentMarkdown(['name: finish_agent', 'type: operational', 'description: Finishes.', 'next: [start_agent]']),
    );
    const result = await validate(root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: governance\/agents: no terminal agent/m);
  });

  it('invalid agent name pattern: the `name` line', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      'governance/agents/finish_agent.md',
      agentMarkdown(['type: operational', 'name: Finish-Agent', 'description: Finishes.', 'next: []']),
    );
    await expectError(root, 'governance/agents/finish_agent.md', 3, /name.*pattern/);
  });

  it('reports every broken file, not only the first', async () => {
    const root = minimalRoot();
    writeFile(root, 'governance/agents/a_agent.md', '# no frontmatter\n');
    writeFile(
      root,
      'governance/agents/b_agent.md',
      agentMarkdown(['name: b_agent', 'type: executional', 'description: B.', 'colour: red']),
    );
    const result = await validate(root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: governance\/agents\/a_agent\.md:1: /m);
    expect(result.stderr).toMatch(/^error: governance\/agents\/b_agent\.md:5: .*"colour"/m);
    expect(result.stderr).toMatch(/^2 error\(s\)/m);
  });
});

describe('agents declared in govflow.config.yaml', () => {
  function configAgentsRoot(): string {
    const root = makeTempRoot();
    // An existing governance tree whose markdown has no frontmatter at all.
    writeFile(root, 'governance/agents/intake.md', '# Intake\nRead the request.\n');
    writeFile(root, 'governance/agents/reply.md', '# Reply\nWrite the answer.\n');
    writeFile(root, 'context/app.md', '# App\n');
    writeFile(
      root,
      'govflow.config.yaml',
      [
        'timezone: UTC',
        'agents:',
        '  intake_agent:',
        '    type: governance',
        '    description: Reads the request.',
        '    entry: true',
        '    next: [reply_agent]',
        '    file: governance/agents/intake.md',
        '  reply_agent:',
        '    type: operational',
        '    description: Writes the answer.',
        '    file: governance/agents/reply.md',
        '',
      ].join('\n'),
    );
    return root;
  }

  it('run over markdown files without frontmatter: exit 0', async () => {
    const root = configAgentsRoot();
    const result = await validate(root);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^agents: 2 \(entry: intake_agent\)$/m);
    expect(result.stdout).toMatch(/\* intake_agent \(governance\) → reply_agent$/m);
    const governance = loadGovernance(loadConfig(root, {}));
    expect(governance.snapshot!.agents.get('reply_agent')!.instructions).toContain('Write the answer.');
  });

  it('ignore, with a warning, other markdown without frontmatter beside config-declared agents', async () => {
    const root = configAgentsRoot();
    writeFile(root, 'governance/agents/NOTES.md', '# Notes for authors\n');
    const result = await validate(root);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /warning: governance\/agents\/NOTES\.md: no frontmatter and not named by any `agents:` entry/,
    );
    expect(result.stdout).toMatch(/^agents: 2 /m);
  });

  it('do not need a governance/ folder when prompt.include is configured', async () => {
    const root = makeTempRoot();
    writeFile(root, 'prompts/only.md', '# Only agent\n');
    writeFile(root, 'docs/policy.md', '# Policy\n');
    writeFile(
      root,
      'govflow.config.yaml',
      [
        'prompt:',
        '  include: ["docs/*.md"]',
        'agents:',
        '  only_agent:',
        '    type: operational',
        '    description: Does it all.',
        '    entry: true',
        '    file: prompts/only.md',
        '',
      ].join('\n'),
    );
    const result = await validate(root);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^prompt files: docs\/policy\.md$/m);
  });

  it('report an unknown key in a config agent at its line in the config file', async () => {
    const root = configAgentsRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      [
        'agents:',
        '  intake_agent:',
        '    type: governance',
        '    description: x',
        '    entry: true',
        '    nxt: []',
        '',
      ].join('\n'),
    );
    await expectError(root, 'govflow.config.yaml', 6, /nxt/);
  });

  it('report a missing agent file at the `file:` line', async () => {
    const root = configAgentsRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      [
        'agents:',
        '  intake_agent:',
        '    type: governance',
        '    description: x',
        '    entry: true',
        '    file: governance/agents/missing.md',
        '',
      ].join('\n'),
    );
    await expectError(root, 'govflow.config.yaml', 6, /missing\.md.*does not exist/);
  });

  it('report an invalid config agent name at its line', async () => {
    const root = configAgentsRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      ['agents:', '  Intake-Agent:', '    type: governance', '    description: x', '    entry: true', ''].join('\n'),
    );
    await expectError(root, 'govflow.config.yaml', 2, /Intake-Agent/);
  });

  it('report an unknown next target of a config agent at its `next` line', async () => {
    const root = configAgentsRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      [
        'agents:',
        '  intake_agent:',
        '    type: governance',
        '    description: x',
        '    entry: true',
        '    next: [ghost_agent]',
        '  end_agent:',
        '    type: operational',
        '    description: y',
        '',
      ].join('\n'),
    );
    await expectError(root, 'govflow.config.yaml', 6, /unknown agent "ghost_agent"/);
  });
});

describe('governance hash', () => {
  async function hashOf(root: string): Promise<string> {
    const result = await validate(root);
    expect(result.code, result.stderr).toBe(0);
    return governanceHash(result.stdout);
  }

  it('is stable when nothing changes, and ignores files outside the governance tree', async () => {
    const root = copyExampleApp();
    const before = await hashOf(root);
    expect(await hashOf(root)).toBe(before);
    writeFile(root, 'README.md', '# not governance\n');
    writeFile(root, 'context/notes.txt', 'not markdown, not included\n');
    writeFile(root, 'governance/agents/notes.txt', 'not an agent\n');
    writeFile(root, 'system/inbox/request.md', 'a request is not governance\n');
    writeFile(root, 'schemas/unused.json', '{}');
    expect(await hashOf(root)).toBe(before);
    // Rewriting a file with the same bytes (new mtime) changes nothing either.
    writeFile(
      root,
      'context/application.md',
      (await import('node:fs')).readFileSync(path.join(root, 'context/application.md'), 'utf8'),
    );
    expect(await hashOf(root)).toBe(before);
  });

  it.each([
    ['an agent file', 'governance/agents/summarizer_agent.md'],
    ['a governance policy', 'governance/audit.md'],
    ['a context file', 'context/application.md'],
    ['an output schema', 'schemas/action-items.json'],
  ])('changes when %s changes by one byte', async (_label, relative) => {
    const root = copyExampleApp();
    const before = await hashOf(root);
    const full = path.join(root, relative);
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(full, 'utf8');
    writeFileSync(full, relative.endsWith('.json') ? text.replace('"minLength": 1', '"minLength": 2') : `${text} `);
    expect(readFileSync(full, 'utf8')).not.toBe(text);
    expect(await hashOf(root)).not.toBe(before);
  });

  it('ignores a policy that prompt.include leaves out', async () => {
    const root = copyExampleApp();
    writeFile(root, 'govflow.config.yaml', 'prompt:\n  include: ["context/**/*.md"]\n');
    const before = await hashOf(root);
    writeFile(root, 'governance/audit.md', '# Audit\nA different policy that no prompt includes.\n');
    expect(await hashOf(root)).toBe(before);
  });

  it('changes when a context file is added, removed, or the config changes', async () => {
    const root = copyExampleApp();
    const before = await hashOf(root);
    writeFile(root, 'context/deep/extra.md', '# Extra context\n');
    const added = await hashOf(root);
    expect(added).not.toBe(before);
    rmSync(path.join(root, 'context/deep'), { recursive: true });
    expect(await hashOf(root)).toBe(before);
    writeFile(root, 'govflow.config.yaml', 'timezone: UTC\n');
    expect(await hashOf(root)).not.toBe(before);
  });

  it('ignores operational config (http tokens, daemon, intake, telemetry, cluster, audit) and comments', async () => {
    const root = copyExampleApp();
    writeFile(root, 'govflow.config.yaml', 'timezone: UTC\n');
    const before = await hashOf(root);
    const token = `{ user: ana, sha256: "${'a'.repeat(64)}" }`;
    writeFile(
      root,
      'govflow.config.yaml',
      `# operators' settings\nhttp: { listen: "127.0.0.1:7070", tokens: [${token}] }\ntimezone: UTC\ndaemon: { shutdown_grace_ms: 5000 ` +
        `}\nintake: { concurrency: 2 }\ntelemetry: { service_name: other }\ncluster: { lease_ms: 20000 }\naudit: { checkpoint_ms: 1000 }\n`,
    );
    expect(await hashOf(root)).toBe(before);
    writeFile(root, 'govflow.config.yaml', 'timezone: UTC\nlimits: { max_steps: 7 }\n');
    expect(await hashOf(root)).not.toBe(before);
  });

  it('changes when a file is renamed with the same content', async () => {
    const root = copyExampleApp();
    const before = await hashOf(root);
    const { renameSync } = await import('node:fs');
    renameSync(path.join(root, 'context/application.md'), path.join(root, 'context/app.md'));
    expect(await hashOf(root)).not.toBe(before);
  });

  it('changes when a custom message schema changes', async () => {
    const root = copyExampleApp();
    writeFile(root, 'govflow.config.yaml', 'message:\n  schema: schemas/message.json\n');
    const { readFileSync } = await import('node:fs');
    const schema = readFileSync(path.join(FIXTURES, 'message-schema-draft07.json'), 'utf8');
    writeFile(root, 'schemas/message.json', schema);
    const before = await hashOf(root);
    writeFile(root, 'schemas/message.json', schema.replace('"minItems": 1', '"minItems": 2'));
    expect(await hashOf(root)).not.toBe(before);
  });
});

describe('prompt include order', () => {
  it('follows config prompt.include, pattern by pattern', async () => {
    const root = copyExampleApp();
    writeFile(root, 'context/zeta.md', '# Zeta\n');
    writeFile(
      root,
      'govflow.config.yaml',
      'prompt:\n  include: ["governance/message_format.md", "governance/*.md", "context/**/*.md"]\n',
    );
    const result = await validate(root);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^prompt files: governance\/message_format\.md, governance\/audit\.md, context\/application\.md, context\/zeta\.md$/m,
    );
    const snapshot = loadGovernance(loadConfig(root, {})).snapshot!;
    expect(snapshot.promptFiles.map((file) => file.path)).toEqual([
      'governance/message_format.md',
      'governance/audit.md',
      'context/application.md',
      'context/zeta.md',
    ]);
  });

  it('defaults to context first, then governance policies (not agent files)', async () => {
    const root = copyExampleApp();
    const snapshot = loadGovernance(loadConfig(root, {})).snapshot!;
    expect(snapshot.promptFiles.map((file) => file.path)).toEqual([
      'context/application.md',
      'governance/audit.md',
      'governance/message_format.md',
    ]);
  });

  it('is hashed through the config: reordering prompt.include changes the governance hash', async () => {
    const root = copyExampleApp();
    writeFile(root, 'govflow.config.yaml', 'prompt:\n  include: ["context/**/*.md", "governance/*.md"]\n');
    const first = governanceHash((await validate(root)).stdout);
    writeFile(root, 'govflow.config.yaml', 'prompt:\n  include: ["governance/*.md", "context/**/*.md"]\n');
    expect(governanceHash((await validate(root)).stdout)).not.toBe(first);
  });
});

describe('custom message schema in config', () => {
  it('is loaded in place of the built-in one', async () => {
    const root = copyExampleApp();
    const { readFileSync } = await import('node:fs');
    writeFile(root, 'schemas/message.json', readFileSync(path.join(FIXTURES, 'message-schema-2020-12.json'), 'utf8'));
    writeFile(root, 'govflow.config.yaml', 'message:\n  schema: schemas/message.json\n');
    const result = await validate(root);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^message schema: schemas\/message\.json$/m);
    const snapshot = loadGovernance(loadConfig(root, {})).snapshot!;
    expect(snapshot.messageSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('that is missing or invalid is an error at the config line', async () => {
    const root = copyExampleApp();
    writeFile(root, 'govflow.config.yaml', 'timezone: UTC\nmessage:\n  schema: schemas/nope.json\n');
    await expectError(root, 'govflow.config.yaml', 3, /message\.schema.*does not exist/);
    writeFile(root, 'schemas/bad.json', JSON.stringify({ type: 'object', properties: { a: { type: 12 } } }));
    writeFile(root, 'govflow.config.yaml', 'timezone: UTC\nmessage:\n  schema: schemas/bad.json\n');
    await expectError(root, 'govflow.config.yaml', 3, /message\.schema/);
  });
});

describe("govflow validate and run_command's sandbox (SPEC §19)", () => {
  const commandsRoot = (commands: string) => {
    const root = minimalRoot();
    writeFile(root, 'govflow.config.yaml', `tools:\n  commands: ${commands}\n`);
    return root;
  };

  it('an error naming the reason when no sandbox can be made, unless sandbox: none', async () => {
    const noBwrap = {
      PATH: '/nonexistent',
    };
    const root = commandsRoot('{ allow: ["Bash(make build)"] }');
    const refused = await runValidate(['--root', root], noBwrap);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /error: govflow\.config\.yaml: tools\.commands\.allow lists commands, but no sandbox can be made for them: /,
    );
    expect(refused.stderr).toMatch(/bubblewrap \("bwrap"\) is not installed.*tools\.commands\.sandbox: none/);
    const unsandboxed = await runValidate(
      ['--root', commandsRoot('{ allow: ["Bash(make build)"], sandbox: none }')],
      noBwrap,
    );
    expect(unsandboxed.code, unsandboxed.stderr).toBe(0);
    // Where bwrap works (as on CI), the same root validates.
    expect((await runValidate(['--root', root], { PATH: process.env.PATH })).code).toBe(0);
  });

  it('warns for commands that run what the workspace holds in auto_approve', async () => {
    const root = commandsRoot(
      '{ allow: ["Bash(npm test)", "Bash(git status)", "Bash(ls)"], auto_approve: ["Bash(npm test)", "Bash(git status)", "Bash(ls)"] }',
    );
    const result = await runValidate(['--root', root], { PATH: process.env.PATH });
    expect(result.code, result.stderr).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    expect(warnings.filter((line) => line.includes('runs what the workspace holds'))).toEqual([
      expect.stringContaining('"Bash(npm test)"'),
      expect.stringContaining('"Bash(git status)"'),
    ]);
  });
});
