/**
 * `govflow test` (SPEC §13) on copies of the example app with its shipped tests/: passing cases,
 * governance edits named by agent and file, YAML typos with file and line, --update, diffs of
 * failed expectations, and bad usage.
 */
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTestCaseFile } from '../../src/testing/test-case-file.js';
import { runCli } from '../pipeline/pipeline-test-helpers.js';
import { REPOSITORY_ROOT, copyExampleAppInto } from '../support/example-app.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(() => removeTempFolders());

/** The example app with the repository's tests/ (cases and cassettes). */
function exampleRoot(): string {
  const root = makeTempFolder('govflow-test-cmd-');
  copyExampleAppInto(root);
  cpSync(path.join(REPOSITORY_ROOT, 'tests'), path.join(root, 'tests'), { recursive: true });
  return root;
}

const SHIPPED_CASE = readFileSync(path.join(REPOSITORY_ROOT, 'tests', 'meeting-note.yaml'), 'utf8');

describe('govflow test', () => {
  it("passes the shipped example case without touching the root's system/", async () => {
    const root = exampleRoot();
    const run = await runCli(['test', '--root', root]);
    expect(run.stdout).toMatch(/^PASS meeting-note \(\d+ ms\)$/m);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed');
    expect(run.code).toBe(0);
    expect(existsSync(path.join(root, 'system'))).toBe(false);
  });

  it('names the agents and governance files whose text changed since the recording', async () => {
    const root = exampleRoot();
    appendFileSync(path.join(root, 'governance', 'agents', 'summarizer_agent.md'), '\nAlways answer in haiku.\n');
    const run = await runCli(['test', '--root', root]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('FAIL meeting-note (tests/meeting-note.yaml:');
    expect(run.stdout).toContain(
      'prompt of agent summarizer_agent changed since the recording — governance files whose text changed: governance/agents/summarizer_agent.md',
    );
    expect(run.stdout).toContain('+ Always answer in haiku.');
    expect(run.stdout).toContain('govflow test --update meeting-note');
    expect(run.stdout).not.toMatch(/prompt of agent objective_agent/);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed');

    // A shared policy changes every agent's prompt, also those the session never reached.
    appendFileSync(path.join(root, 'governance', 'audit.md'), '\nCite every source.\n');
    const again = await runCli(['test', '--root', root]);
    for (const agent of ['objective_agent', 'goal_agent', 'planning_agent', 'final_output_agent']) {
      expect(again.stdout).toMatch(
        new RegExp(
          `prompt of agent ${agent} changed since the recording — governance files whose text changed: [^\\n]*governance/audit\\.md`,
        ),
      );
    }
  });

  it("leads with the replay miss that caused the others, and shows no agent's escaped input", async () => {
    const root = exampleRoot();
    appendFileSync(path.join(root, 'governance', 'agents', 'summarizer_agent.md'), '\nAlways answer in haiku.\n');
    const run = await runCli(['test', '--root', root]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines[1]).toBe(
      '  prompt of agent summarizer_agent changed since the recording — governance files whose text changed: governance/agents/summarizer_agent.md',
    );
    expect(run.stdout).toContain(
      '  prompt of agent final_output_agent changed since the recording — its input changed: it carries the failed answer of agent ' +
        '"summarizer_agent" (the replay miss above)',
    );
    expect(run.stdout).not.toContain('\\"');
  });

  it("names a governance file added or removed since the recording (an agent file changes the planner's prompt, not its files)", async () => {
    const root = exampleRoot();
    writeFileSync(
      path.join(root, 'governance', 'agents', 'risk_agent.md'),
      '---\nname: risk_agent\ntype: executional\ndescription: Lists the risks a text names.\ncontent_type: risks\nnext: []\n---\n# Risk ' +
        'Agent\nList the risks.\n',
    );
    const added = await runCli(['test', '--root', root]);
    expect(added.code).toBe(1);
    expect(added.stdout).toContain(
      'prompt of agent planning_agent changed since the recording — no file in its prompt changed; governance files added since the ' +
        'recording: governance/agents/risk_agent.md',
    );
    expect(added.stdout).not.toContain('no governance file changed');

    rmSync(path.join(root, 'governance', 'agents', 'risk_agent.md'));
    rmSync(path.join(root, 'governance', 'agents', 'summarizer_agent.md'));
    const removed = await runCli(['test', '--root', root]);
    expect(removed.code).toBe(1);
    expect(removed.stdout).toContain(
      'prompt of agent planning_agent changed since the recording — no file in its prompt changed; governance files removed since the ' +
        'recording: governance/agents/summarizer_agent.md',
    );
    expect(removed.stdout).not.toContain('no governance file changed');
  });

  it('reports a YAML case with a typo by file and line, and still runs the others', async () => {
    const root = exampleRoot();
    writeFileSync(
      path.join(root, 'tests', 'typo.yaml'),
      'name: typo\nrequest: hello\ncassette: cassettes/x.json\nexpect:\n  status: success\n  stauts: failed\n',
    );
    const run = await runCli(['test', '--root', root]);
    expect(run.stdout).toContain('FAIL tests/typo.yaml:6: expect: unknown key "stauts"');
    expect(run.stdout).toMatch(/^PASS meeting-note/m);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed');
    expect(run.code).toBe(1);
  });

  it('records a new case with --update, then replays it', async () => {
    const root = exampleRoot();
    const text = SHIPPED_CASE.replace('name: meeting-note', 'name: second-note')
      .replace('cassettes/meeting-note.cassette.json', 'cassettes/second.cassette.json')
      .replace(/request: .*/, 'request: "Raj books the venue by Monday."');
    writeFileSync(path.join(root, 'tests', 'second.yaml'), text);
    const missing = await runCli(['test', '--root', root, 'second-note']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('does not exist');
    expect(missing.stdout).toContain('record it with: govflow test --update second-note');
    expect(missing.stdout).not.toContain('meeting-note');

    const update = await runCli(['test', '--root', root, '--update', 'second-note']);
    expect(update.stdout).toMatch(/^PASS second-note \(\d+ ms, recorded tests\/cassettes\/second\.cassette\.json\)$/m);
    expect(update.code).toBe(0);
    const cassette = JSON.parse(readFileSync(path.join(root, 'tests', 'cassettes', 'second.cassette.json'), 'utf8'));
    expect(cassette.calls.map((call: { agent: string }) => call.agent)).toContain('objective_agent');
    expect(cassette.calls[0].prompt).toContain('Raj books the venue by Monday.');

    const replayed = await runCli(['test', '--root', root]);
    expect(replayed.stdout.trimEnd().split('\n').at(-1)).toBe('2 passed, 0 failed');
    expect(replayed.code).toBe(0);
  });

  it('shows a readable diff for each expectation that fails', async () => {
    const root = exampleRoot();
    const wrong = SHIPPED_CASE.replace('status: success', 'status: partial')
      .replace('/dry_run: true', '/dry_run: false\n    /missing: 3')
      .replace('entries: 6', 'entries: 7')
      .replace('"[STATUS: success]"', '"[STATUS: nope]"');
    writeFileSync(path.join(root, 'tests', 'meeting-note.yaml'), wrong);
    const run = await runCli(['test', '--root', root]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('  status:\n    expected "partial"\n      actual "success"');
    expect(run.stdout).toContain('  output /dry_run:\n    expected false\n      actual true');
    expect(run.stdout).toContain('  output /missing:\n    expected 3\n      actual (nothing there)');
    expect(run.stdout).toContain('  audit entries of the session:\n    expected 7\n      actual 6');
    expect(run.stdout).toContain('no audit entry of the session contains "[STATUS: nope]"');
  });

  it('checks audit entries one by one and counts violations', async () => {
    const root = exampleRoot();
    const entries = [
      '    entries:',
      '      - { agent: objective_agent, status: success, contains: ["[INPUT SOURCE: user]"] }',
      '      - { agent: goal_agent }',
      '      - { agent: planning_agent, output_type: plan }',
      '      - { agent: action_item_agent }',
      '      - { agent: summarizer_agent }',
      '      - { agent: final_output_agent, status: failed, contains: ["[AGENT: nobody]"] }',
      '    violations: 1',
    ].join('\n');
    writeFileSync(path.join(root, 'tests', 'meeting-note.yaml'), SHIPPED_CASE.replace('    entries: 6', entries));
    const run = await runCli(['test', '--root', root]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('  audit entry 6:\n    --- expected\n    +++ actual');
    expect(run.stdout).toContain('-   "status": "failed"\n    +   "status": "success"');
    expect(run.stdout).toContain('  audit entry 6:\n    does not contain "[AGENT: nobody]"');
    expect(run.stdout).toContain('  audit entries with [VIOLATIONS]:\n    expected 1\n      actual 0');
    expect(run.stdout).not.toMatch(/audit entry [1-5]:/);
  });

  it('exits 2 for bad usage: no tests/ folder, an unknown case name, an unknown flag', async () => {
    const bare = makeTempFolder('govflow-test-bare-');
    copyExampleAppInto(bare);
    const noTests = await runCli(['test', '--root', bare]);
    expect(noTests.code).toBe(2);
    expect(noTests.stderr).toContain('has no tests/ folder');
    const root = exampleRoot();
    const unknown = await runCli(['test', '--root', root, 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no test case named "nope"; the cases are: meeting-note');
    expect((await runCli(['test', '--root', root, '--updat'])).code).toBe(2);
    mkdirSync(path.join(bare, 'tests'));
    expect((await runCli(['test', '--root', bare])).stderr).toContain('holds no *.yaml case');
  });
});

describe('test case files', () => {
  it('accept a list of cases and give each its own line; errors point at the key', () => {
    const text = [
      '- name: one',
      '  request: hi',
      '  cassette: c/one.json',
      '  expect: { status: success }',
      '- name: two',
      '  request: { request: hello, user: ana, request_id: case-two }',
      '  cassette: c/two.json',
      '  expect:',
      '    output: { /a/0: 1 }',
    ].join('\n');
    const cases = parseTestCaseFile(text, 'tests/list.yaml', '/root/tests');
    expect(cases.map((testCase) => [testCase.name, testCase.line, testCase.cassette])).toEqual([
      ['one', 1, '/root/tests/c/one.json'],
      ['two', 5, '/root/tests/c/two.json'],
    ]);
    expect(cases[1].request).toEqual({ request: 'hello', user: 'ana', request_id: 'case-two' });
    const defaulted = parseTestCaseFile(text.replace('  cassette: c/two.json\n', ''), 'tests/list.yaml', '/root/tests');
    expect(defaulted[1].cassette).toBe('/root/tests/cassettes/two.cassette.json');
    expect(() =>
      parseTestCaseFile(text.replace('  expect:\n', '  expected:\n'), 'tests/list.yaml', '/root/tests'),
    ).toThrow(/unknown key "expected"/);
    expect(() => parseTestCaseFile('name: x\nrequest: hi\n', 'tests/x.yaml', '/root/tests')).toThrow(
      /missing required key "expect"/,
    );
    try {
      parseTestCaseFile(text.replace('status: success', 'status: great'), 'tests/list.yaml', '/root/tests');
      expect.unreachable();
    } catch (error) {
      expect((error as { describe(): string }).describe()).toMatch(
        /^tests\/list\.yaml:4: expect\.status: must be one of "success"/,
      );
    }
    expect(() => parseTestCaseFile('name: [unclosed', 'tests/bad.yaml', '/root/tests')).toThrow(/invalid YAML/);
    expect(readdirSync(path.join(REPOSITORY_ROOT, 'tests', 'cassettes')).length).toBeGreaterThan(0);
  });
});
