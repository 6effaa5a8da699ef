/**
 * Agent files written for Claude Code (SPEC §17, §19) as govflow agents, through the governance
 * loader on real temp roots: what a file becomes (executional, terminal, content_type text, its
 * name with "." and "-" made "_", model aliases meaning the configured model, tools mapped), how
 * a file is recognised as one (no `type`, no key only govflow uses), lenient YAML that keeps the
 * file's line numbers, `agents.claude_code.unknown_tools: error`, and `agents.claude_code_dir`.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { loadGovernance } from '../../src/governance/governance-loader.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, runCli } from '../daemon/daemon-helpers.js';
import { REPOSITORY_ROOT } from '../support/example-app.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const CORPUS = path.join(REPOSITORY_ROOT, 'test', 'fixtures', 'claude-code-agents');

const OFFERING_CONFIG = [
  'timezone: UTC',
  'tools:',
  '  commands: { allow: ["Bash(npm test)"] }',
  'mcp:',
  '  servers:',
  '    github: { url: "http://127.0.0.1:9/mcp" }',
  '    context7: { url: "http://127.0.0.1:9/mcp" }',
  '    sequential-thinking: { url: "http://127.0.0.1:9/mcp" }',
  '',
].join('\n');

function load(root: string) {
  const { snapshot, errors, warnings } = loadGovernance(loadConfig(root, {}));
  return { snapshot, errors: errors.map((error) => error.describe()), warnings };
}

function agentFile(root: string, name: string, lines: string[], body = 'Do the job.\n'): void {
  writeFileSync(path.join(root, 'governance', 'agents', name), ['---', ...lines, '---', body].join('\n'));
}

describe('the corpus files, as govflow agents', () => {
  it('become executional, terminal text agents with their names, models, tools and whole descriptions', () => {
    const root = makeRoot(OFFERING_CONFIG);
    cpSync(CORPUS, path.join(root, 'governance', 'agents'), { recursive: true });
    const { snapshot, errors } = load(root);
    expect(errors).toEqual([]);
    const agent = (name: string) => snapshot!.agents.get(name)!;
    const cases: Array<[string, Record<string, unknown>]> = [
      [
        'dotnet_framework_4_8_expert',
        {
          tools: ['read_file', 'write_file', 'edit_file', 'run_command', 'list_files', 'search_files'],
          model: undefined,
        },
      ],
      ['gdpr_compliance_auditor', { tools: ['read_file', 'search_files', 'list_files', 'http_get'] }],
      ['debugger', { tools: ['read_file', 'edit_file', 'run_command', 'search_files', 'list_files'] }],
      ['api_documenter', { tools: ['read_file', 'write_file', 'edit_file', 'list_files', 'search_files', 'http_get'] }],
      ['docs_researcher', { tools: ['mcp:context7/*', 'http_get', 'read_file'], model: undefined }],
      ['deep_thinker', { tools: ['mcp:sequential-thinking/sequentialthinking', 'read_file'] }],
      ['github_pr_manager', { tools: expect.arrayContaining(['mcp:github/create_pull_request', 'search_files']) }],
      ['issue_triager', { tools: ['mcp:github/*', 'read_file'] }],
      ['rust_pro', { model: 'claude-sonnet-4-5-20250929' }],
      ['python_pro', { model: 'claude-opus-4-1-20250805' }],
      ['ios_swift_expert', { tools: ['read_file', 'write_file', 'edit_file', 'list_files', 'search_files'] }],
      ['graphql_architect', { tools: ['read_file', 'write_file', 'edit_file', 'search_files'] }],
      ['kubernetes_architect', { tools: [] }],
      ['git_workflow_manager', { tools: ['run_command', 'read_file'] }],
      ['product_manager_orchestrator', { tools: ['read_file', 'write_file'] }],
      ['blockchain_developer', { tools: ['read_file', 'write_file', 'edit_file', 'run_command', 'search_files'] }],
    ];
    for (const [name, expected] of cases) {
      expect(agent(name), name).toMatchObject({
        type: 'executional',
        next: [],
        entry: false,
        contentType: 'text',
        ...expected,
      });
    }
    // Descriptions as Claude Code reads them: ": " inside, continuation lines folded, quotes and markup kept.
    expect(agent('gdpr_compliance_auditor').description).toBe(
      "Use when reviewing how an application collects, stores or shares personal data. Triggers on: 'GDPR', 'personal data', 'DPIA', 'data " +
        "subject request', 'lawful basis'.",
    );
    expect(agent('incident_responder').description).toMatch(
      /post-mortems\. Severity guide: SEV1 = customer-facing outage, .* Escalation: page the on-call lead after 15 minutes without a mitigation\.$/,
    );
    expect(agent('accessibility_tester').description).toContain(
      'user: "Can you check the checkout page for accessibility problems?"',
    );
    expect(agent('accessibility_tester').description).toContain(
      'Let me run the accessibility-tester agent on the modal.',
    );
    expect(agent('test_runner').description).toContain(
      'Examples:\\n\\n<example>\\nContext: The user has just refactored',
    );
    expect(agent('prompt_engineer').description).toMatch(/^\*Expert\* prompt engineer\. Optimizes prompts/);
    expect(agent('legacy_modernizer').description).toMatch(/^\[Migration\] Refactor legacy codebases/);
    expect(agent('mobile_developer').description).toMatch(/^@mobile Develop React Native/);
    expect(agent('shell_scripting_pro').description).toMatch(/^`bash` and POSIX sh expert\./);
    expect(agent('technical_writer').description).toContain('"write the release notes"');
    expect(agent('security_auditor').description).toMatch(
      /^Review code for vulnerabilities, .* vulnerability fixes\.$/,
    );
    expect(agent('blockchain_developer').instructions).toContain('checks, effects, interactions');
    expect(agent('code_reviewer').instructions).toContain('You are a senior code reviewer');
  });

  it('name the line of tools: in warnings, counted in the file as written (lenient YAML keeps line numbers)', () => {
    const root = makeRoot('timezone: UTC\n');
    cpSync(CORPUS, path.join(root, 'governance', 'agents'), { recursive: true });
    const { warnings } = load(root);
    // tools: is on line 6 of incident-responder.md, after a description over three lines.
    expect(warnings).toContainEqual(expect.stringMatching(/^governance\/agents\/incident-responder\.md:6: .*Bash/));
    expect(warnings).toContainEqual(expect.stringMatching(/^governance\/agents\/accessibility-tester\.md:17: /));
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^governance\/agents\/research-analyst\.md:4: .*frontmatter keys not read by govflow: permissionMode/,
      ),
    );
  });
});

describe('telling a Claude Code file from a govflow agent file', () => {
  it('keeps govflow files strict: with type, YAML that is not valid stays an error naming file and line', () => {
    const root = makeRoot('timezone: UTC\n');
    agentFile(root, 'checker.md', [
      'name: checker',
      'type: executional',
      'description: Checks. Triggers on: GDPR',
      'content_type: text',
    ]);
    expect(load(root).errors).toEqual([expect.stringMatching(/^governance\/agents\/checker\.md:4: invalid YAML/)]);
  });

  it('a file with a key only govflow uses but no type is a govflow file missing its type', () => {
    const root = makeRoot('timezone: UTC\n');
    agentFile(root, 'reviewer.md', ['name: reviewer', 'description: Reviews.', 'next: []']);
    expect(load(root).errors).toEqual([expect.stringMatching(/^governance\/agents\/reviewer\.md:2: .*type/)]);
  });

  it('a file with only Claude Code keys is a Claude Code agent; no tools: means no tools (deny by default)', () => {
    const root = makeRoot('timezone: UTC\n');
    agentFile(root, 'reviewer.md', ['name: reviewer', 'description: Reviews code.']);
    const { snapshot, errors } = load(root);
    expect(errors).toEqual([]);
    expect(snapshot!.agents.get('reviewer')).toMatchObject({ type: 'executional', tools: [], contentType: 'text' });
  });

  it('refuses a name that cannot become a govflow name, saying what Claude Code names may hold', () => {
    const root = makeRoot('timezone: UTC\n');
    agentFile(root, '3d-artist.md', ['name: 3d-artist', 'description: Models in 3D.']);
    expect(load(root).errors).toEqual([
      expect.stringMatching(/^governance\/agents\/3d-artist\.md:2: frontmatter name: must match .*Claude Code names/),
    ]);
  });
});

describe('agents.claude_code.unknown_tools: error', () => {
  it('makes each left-out tool an error naming the file and the line of its list item', async () => {
    const root = makeRoot('timezone: UTC\nagents:\n  claude_code:\n    unknown_tools: error\n');
    cpSync(path.join(CORPUS, 'debugger.md'), path.join(root, 'governance', 'agents', 'debugger.md'));
    cpSync(path.join(CORPUS, 'content-marketer.md'), path.join(root, 'governance', 'agents', 'content-marketer.md'));
    const checked = await runCli(['validate', '--root', root]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(
      /error: governance\/agents\/debugger\.md:7: Claude Code tool "Bash" cannot be given to this agent \(tools\.commands\.allow/,
    );
    expect(checked.stderr).toMatch(
      /error: governance\/agents\/content-marketer\.md:4: Claude Code tool "WebSearch" cannot be given to this agent \(no govflow counterpart\)/,
    );
  }, 60_000);
});

describe('agents.claude_code_dir', () => {
  it('loads its files in place; a name in both folders is a validate error naming both files', async () => {
    const root = makeRoot('timezone: UTC\nagents:\n  claude_code_dir: .claude/agents\n');
    mkdirSync(path.join(root, '.claude', 'agents', 'review'), { recursive: true });
    cpSync(path.join(CORPUS, 'code-reviewer.md'), path.join(root, '.claude', 'agents', 'review', 'code-reviewer.md'));
    writeFileSync(path.join(root, '.claude', 'agents', 'README.md'), '# Our agents\nA list.\n');
    const loaded = load(root);
    expect(loaded.errors).toEqual([]);
    expect(loaded.snapshot!.agents.get('code_reviewer')!.file).toBe('.claude/agents/review/code-reviewer.md');
    expect(loaded.warnings).toContain('.claude/agents/README.md: no frontmatter, so not an agent file; ignored');
    cpSync(path.join(CORPUS, 'code-reviewer.md'), path.join(root, 'governance', 'agents', 'code-reviewer.md'));
    const checked = await runCli(['validate', '--root', root]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(
      /error: \.claude\/agents\/review\/code-reviewer\.md:2: agent name "code_reviewer" is already used by governance\/agents\/code-reviewer\.md:2/,
    );
  }, 60_000);

  it('must be a folder inside the root', async () => {
    const outside = await runCli(['validate', '--root', makeRoot('timezone: UTC\nagents:\n  claude_code_dir: ../x\n')]);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(
      /govflow\.config\.yaml:3: agents\.claude_code_dir "\.\.\/x" must be a folder inside the root/,
    );
    const missing = await runCli([
      'validate',
      '--root',
      makeRoot('timezone: UTC\nagents:\n  claude_code_dir: .claude/agents\n'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /govflow\.config\.yaml:3: agents\.claude_code_dir: "\.claude\/agents" is not a folder/,
    );
  }, 60_000);
});
