/**
 * Delegation's declarations and audit lines (SPEC §12): `delegates:` in frontmatter and config
 * `agents:`, unknown names named with file and line by `govflow validate`, the limits' defaults,
 * and `[PARENT_SESSION_ID]`, `[DEPTH]`, `[DELEGATIONS]` written and read back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatEntry, GENESIS_HASH } from '../../src/audit/audit-entry-format.js';
import { parseEntries } from '../../src/audit/audit-entry-parse.js';
import { loadConfig } from '../../src/config/config-loader.js';
import { loadGovernance } from '../../src/governance/governance-loader.js';
import { agentMarkdown, minimalRoot, removeTempRoots, runValidate, writeFile } from '../foundation/governance-root.js';
import { entryInput, makeMessage } from '../audit/audit-test-helpers.js';

afterEach(removeTempRoots);

describe('delegation declarations', () => {
  it('reads delegates: from frontmatter; agents without it delegate to nobody; limits have their defaults', () => {
    const root = minimalRoot();
    writeFile(
      root,
      'governance/agents/finish_agent.md',
      agentMarkdown([
        'name: finish_agent',
        'type: operational',
        'description: Finishes.',
        'next: []',
        'delegates: [start_agent]',
      ]),
    );
    const config = loadConfig(root, {});
    const { snapshot, errors } = loadGovernance(config);
    expect(errors.map((error) => error.describe())).toEqual([]);
    expect(snapshot!.agents.get('finish_agent')!.delegates).toEqual(['start_agent']);
    expect(snapshot!.agents.get('start_agent')!.delegates).toEqual([]);
    expect(config.limits).toMatchObject({
      max_depth: 2,
      max_fan_out: 3,
      delegation_deadline_ms: 300000,
      max_tokens_per_delegation: null,
    });
  });

  it('reads delegates: from config agents: and the delegation limits from config', () => {
    const root = minimalRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      [
        'limits: { max_depth: 1, max_fan_out: 2, delegation_deadline_ms: 1000, max_tokens_per_delegation: 500 }',
        'agents:',
        '  helper_agent:',
        '    type: executional',
        '    description: Helps.',
        '    next: []',
        '    delegates: [finish_agent]',
        '',
      ].join('\n'),
    );
    const config = loadConfig(root, {});
    const { snapshot, errors } = loadGovernance(config);
    expect(errors.map((error) => error.describe())).toEqual([]);
    expect(snapshot!.agents.get('helper_agent')!.delegates).toEqual(['finish_agent']);
    expect(config.limits).toMatchObject({
      max_depth: 1,
      max_fan_out: 2,
      delegation_deadline_ms: 1000,
      max_tokens_per_delegation: 500,
    });
  });

  it('validate names an unknown delegate target with file and line', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      'governance/agents/finish_agent.md',
      agentMarkdown([
        'name: finish_agent',
        'type: operational',
        'description: Finishes.',
        'next: []',
        'delegates: [ghost_agent]',
      ]),
    );
    const result = await runValidate(['--root', root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /error: governance\/agents\/finish_agent\.md:\d+: agent "finish_agent": delegates names unknown agent "ghost_agent"/,
    );
    const line = Number(/finish_agent\.md:(\d+)/.exec(result.stderr)![1]);
    const text = (await import('node:fs'))
      .readFileSync(`${root}/governance/agents/finish_agent.md`, 'utf8')
      .split('\n');
    expect(text[line - 1]).toMatch(/^delegates:/);
  });

  it('rejects a bad delegation limit in config, naming the key', async () => {
    const root = minimalRoot();
    writeFile(root, 'govflow.config.yaml', 'limits: { max_depth: -1 }\n');
    const result = await runValidate(['--root', root]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/max_depth/);
  });
});

describe('delegation audit lines', () => {
  it('writes [PARENT_SESSION_ID] and [DEPTH] after [SESSION_ID], [DELEGATIONS] before [ENTRY_HASH], and reads them back', () => {
    const message = makeMessage({ session: 'sess-parent.dabc' });
    const delegations = [
      {
        child_session: 'sess-parent.dabc.d123',
        agent: 'research_agent',
        objective_sha256: 'a'.repeat(64),
        status: 'success',
        ms: 12,
      },
    ];
    const input = {
      ...entryInput(message),
      delegation: { parentSessionId: 'sess-parent', depth: 1 },
      tools: { delegations },
    };
    const { text } = formatEntry(input, 'UTC', GENESIS_HASH);
    const lines = text.split('\n');
    const at = (prefix: string) => lines.findIndex((line) => line.startsWith(prefix));
    expect(at('[PARENT_SESSION_ID: sess-parent]')).toBeGreaterThan(at('[SESSION_ID: '));
    expect(at('[DEPTH: 1]')).toBe(at('[PARENT_SESSION_ID: ') + 1);
    expect(at('[DELEGATIONS]: ')).toBeGreaterThan(at('[DEPTH: '));
    expect(at('[ENTRY_HASH: ')).toBeGreaterThan(at('[DELEGATIONS]: '));
    const [parsed] = parseEntries(text).entries;
    expect(parsed.delegation).toEqual({ parentSessionId: 'sess-parent', depth: 1 });
    expect(parsed.tools?.delegations).toEqual(delegations);

    const plain = parseEntries(formatEntry(entryInput(message), 'UTC', GENESIS_HASH).text).entries[0];
    expect(plain.delegation).toBeNull();
  });

  it('a DEPTH line without PARENT_SESSION_ID is a malformed entry', () => {
    const { text } = formatEntry(
      { ...entryInput(makeMessage({})), delegation: { parentSessionId: 'p', depth: 2 } },
      'UTC',
      GENESIS_HASH,
    );
    const broken = text.replace(/\[PARENT_SESSION_ID: p\]\n/, '');
    expect(() => parseEntries(broken)).toThrow(/PARENT_SESSION_ID and DEPTH appear only together/);
  });
});
