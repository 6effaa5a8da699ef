/**
 * Silent failure #4 (issue 11): files outside the root must not reach prompts. `../*.md`
 * includes, a symlink in context/ pointing out, a config-declared agent file and a schema outside
 * the root are refused by `govflow validate` (exit 1, naming the path and saying it is outside
 * the root) and by the daemon's loader — unless `allow_outside_root: true` (SPEC §7).
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { GovernanceInvalidError, GovernanceSource } from '../../src/daemon/governance-source.js';
import { loadGovernance } from '../../src/governance/governance-loader.js';
import { agentMarkdown, minimalRoot, removeTempRoots, runValidate, writeFile } from './governance-root.js';

const outsideFolders: string[] = [];
afterEach(() => {
  removeTempRoots();
  for (const folder of outsideFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A folder beside the root holding one secret markdown file. */
function outsideFile(name = 'secret.md', text = '# Secret\nNot for the model.\n'): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'govflow-outside-'));
  outsideFolders.push(folder);
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
}

async function expectOutside(root: string, pattern: RegExp): Promise<string> {
  const result = await runValidate(['--root', root]);
  expect(result.code, result.stdout + result.stderr).toBe(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).toMatch(/outside the root/);
  expect(result.stderr).toMatch(/allow_outside_root: true/);
  return result.stderr;
}

describe('the root is the boundary', () => {
  it('refuses a prompt.include of ../*.md, naming the file', async () => {
    const root = minimalRoot();
    const secret = outsideFile();
    const relative = path.relative(root, secret);
    writeFile(
      root,
      'govflow.config.yaml',
      `prompt:\n  include: ["context/**/*.md", "${path.dirname(relative)}/*.md"]\n`,
    );
    await expectOutside(
      root,
      new RegExp(
        `error: ${relative.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: prompt.include .* matches a file outside the root`,
      ),
    );
    const { snapshot } = loadGovernance(loadConfig(root, {}));
    expect(snapshot).toBeNull();
  });

  it('refuses a symlink in context/ that points outside the root, naming where it resolves', async () => {
    const root = minimalRoot();
    const secret = outsideFile();
    symlinkSync(secret, path.join(root, 'context', 'linked.md'));
    await expectOutside(
      root,
      new RegExp(
        `error: context/linked\\.md: .*context/linked\\.md is outside the root .*resolves to ${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
      ),
    );
    // The daemon does not load it either.
    expect(() => GovernanceSource.load(loadConfig(root, {}))).toThrow(GovernanceInvalidError);
  });

  it('refuses a config-declared agent file and an output_schema outside the root', async () => {
    const root = minimalRoot();
    const agentFile = outsideFile('agent.md', '# Finish\nDo it.\n');
    const schemaFile = outsideFile('schema.json', '{"type": "object"}');
    writeFile(
      root,
      'govflow.config.yaml',
      [
        'agents:',
        '  finish_agent:',
        '    type: operational',
        '    description: Finishes.',
        `    file: ${path.relative(root, agentFile)}`,
        `    output_schema: ${path.relative(root, schemaFile)}`,
        '',
      ].join('\n'),
    );
    rmSync(path.join(root, 'governance/agents/finish_agent.md'));
    await expectOutside(root, /agent\.md is outside the root/);
  });

  it('refuses an output_schema symlinked out of schemas/', async () => {
    const root = minimalRoot();
    const schemaFile = outsideFile('schema.json', '{"type": "object"}');
    writeFile(root, 'schemas/.keep', '');
    symlinkSync(schemaFile, path.join(root, 'schemas', 'finish.json'));
    writeFile(
      root,
      'governance/agents/finish_agent.md',
      agentMarkdown([
        'name: finish_agent',
        'type: operational',
        'description: Finishes.',
        'next: []',
        'output_schema: schemas/finish.json',
      ]),
    );
    await expectOutside(
      root,
      /error: governance\/agents\/finish_agent\.md:\d+: agent "finish_agent": output_schema file schemas\/finish\.json is outside the root/,
    );
  });

  it('refuses a govflow.config.yaml that is a symlink out of the root: validate lists it (exit 1), the loader does not throw', async () => {
    const root = minimalRoot();
    const outside = outsideFile('govflow.config.yaml', 'timezone: UTC\n');
    rmSync(path.join(root, 'govflow.config.yaml'), { force: true });
    symlinkSync(outside, path.join(root, 'govflow.config.yaml'));
    await expectOutside(root, /error: govflow\.config\.yaml is outside the root/);
    const { snapshot, errors } = loadGovernance(loadConfig(root, {}));
    expect(snapshot).toBeNull();
    expect(errors.map((error) => error.describe())).toEqual([
      expect.stringMatching(/^govflow\.config\.yaml is outside the root/),
    ]);
  });

  it('allows all of it with allow_outside_root: true, and symlinks that stay inside the root always', async () => {
    const root = minimalRoot();
    const secret = outsideFile();
    symlinkSync(secret, path.join(root, 'context', 'linked.md'));
    writeFile(root, 'docs/inside.md', '# Inside\n');
    symlinkSync(path.join(root, 'docs', 'inside.md'), path.join(root, 'context', 'inside-link.md'));
    writeFile(root, 'govflow.config.yaml', 'allow_outside_root: true\n');
    const result = await runValidate(['--root', root]);
    expect(result.code, result.stderr).toBe(0);
    const { snapshot } = loadGovernance(loadConfig(root, {}));
    expect(snapshot!.promptFiles.map((file) => file.path)).toEqual(
      expect.arrayContaining(['context/linked.md', 'context/inside-link.md']),
    );

    writeFile(root, 'govflow.config.yaml', '');
    rmSync(path.join(root, 'context', 'linked.md'));
    expect((await runValidate(['--root', root])).code).toBe(0);
  });
});
