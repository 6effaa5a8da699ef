/**
 * Agent keys `tools`, `max_turns`, `approval` and config `tools:` / `mcp.servers` (SPEC §10):
 * deny by default, and `govflow validate` names unknown tools and MCP servers with file and line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { loadGovernance } from '../../src/governance/governance-loader.js';
import { agentMarkdown, minimalRoot, removeTempRoots, runValidate, writeFile } from '../foundation/governance-root.js';
import path from 'node:path';

afterEach(removeTempRoots);

function finishAgent(root: string, extra: string[]): void {
  writeFile(
    root,
    'governance/agents/finish_agent.md',
    agentMarkdown(['name: finish_agent', 'type: operational', 'description: Finishes.', 'next: []', ...extra]),
  );
}

const MCP_CONFIG = [
  'mcp:',
  '  servers:',
  '    files: { command: node, args: [server.js] }',
  '    docs: { url: "http://127.0.0.1:9/mcp", headers_env: { Authorization: DOCS_TOKEN } }',
  '',
].join('\n');

describe('agent tool declarations', () => {
  it('offers nothing by default and takes max_turns 20', () => {
    const root = minimalRoot();
    const { snapshot, errors } = loadGovernance(loadConfig(root, {}));
    expect(errors).toEqual([]);
    const agent = snapshot!.agents.get('finish_agent')!;
    expect(agent.tools).toEqual([]);
    expect(agent.approval).toEqual([]);
    expect(agent.maxTurns).toBe(20);
  });

  it('reads tools, max_turns and approval, MCP names and prefixes included', () => {
    const root = minimalRoot();
    writeFile(root, 'govflow.config.yaml', MCP_CONFIG);
    finishAgent(root, [
      'tools: [read_file, write_file, "mcp:docs/search", "mcp:files/*"]',
      'max_turns: 4',
      'approval: [write_file, "mcp:files/delete_*"]',
    ]);
    const config = loadConfig(root, {});
    const { snapshot, errors } = loadGovernance(config);
    expect(errors.map((error) => error.describe())).toEqual([]);
    const agent = snapshot!.agents.get('finish_agent')!;
    expect(agent.tools).toEqual(['read_file', 'write_file', 'mcp:docs/search', 'mcp:files/*']);
    expect(agent.maxTurns).toBe(4);
    expect(agent.approval).toEqual(['write_file', 'mcp:files/delete_*']);
    expect(config.mcp.servers.docs.headers_env).toEqual({ Authorization: 'DOCS_TOKEN' });
    expect(config.tools.workspace).toBe(path.join(root, 'workspace'));
    expect(config.tools.max_result_bytes).toBe(65536);
    expect(config.tools.http_get).toEqual({ allow_hosts: [], max_bytes: 1048576, timeout_ms: 10000, max_redirects: 5 });
  });

  it('validate names an unknown tool with file and line', async () => {
    const root = minimalRoot();
    finishAgent(root, ['tools:', '  - read_file', '  - delete_everything']);
    const result = await runValidate(['--root', root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /error: governance\/agents\/finish_agent\.md:8: agent "finish_agent": tools: unknown tool "delete_everything"/,
    );
  });

  it('validate names an unknown MCP server, in tools and in approval', async () => {
    const root = minimalRoot();
    writeFile(root, 'govflow.config.yaml', MCP_CONFIG);
    finishAgent(root, ['tools: ["mcp:nowhere/search"]', 'approval: ["mcp:elsewhere/*"]']);
    const result = await runValidate(['--root', root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /finish_agent\.md:6: .*tools: "mcp:nowhere\/search" names MCP server "nowhere", which is not under mcp\.servers.*configured servers: files, docs/,
    );
    expect(result.stderr).toMatch(/finish_agent\.md:7: .*approval: "mcp:elsewhere\/\*" names MCP server "elsewhere"/);
  });

  it('validate refuses unknown agent keys and bad max_turns', async () => {
    const root = minimalRoot();
    finishAgent(root, ['max_turns: 0']);
    const result = await runValidate(['--root', root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/finish_agent\.md:6: frontmatter max_turns/);
  });

  it('config names an MCP server with both command and url, or neither, as an error', () => {
    const root = minimalRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      'mcp:\n  servers:\n    both: { command: node, url: "http://127.0.0.1:1/mcp" }\n',
    );
    expect(() => loadConfig(root, {})).toThrow(/mcp\.servers\.both needs exactly one of `command`/);
    writeFile(root, 'govflow.config.yaml', 'tools:\n  http_get: { allow_hosts: [Example.COM], bogus: 1 }\n');
    expect(() => loadConfig(root, {})).toThrow(/bogus|additional/);
  });

  it('config-declared agents take the same keys', () => {
    const root = minimalRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      'agents:\n  helper_agent:\n    type: executional\n    description: Helps.\n    tools: [list_files, bogus_tool]\n',
    );
    const { errors } = loadGovernance(loadConfig(root, {}));
    expect(errors.map((error) => error.describe()).join('\n')).toMatch(
      /govflow\.config\.yaml:5: agent "helper_agent": tools: unknown tool "bogus_tool"/,
    );
  });

  it('validate refuses an approval entry the agent is not offered', async () => {
    const root = minimalRoot();
    finishAgent(root, ['tools: [read_file]', 'approval: [write_file]']);
    const result = await runValidate(['--root', root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /finish_agent\.md:7: agent "finish_agent": approval: "write_file" is not among its tools/,
    );
  });
});
