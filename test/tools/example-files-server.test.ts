/**
 * The example MCP server the README's tools section configures (examples/mcp/files-server.mjs),
 * started by that config as written — `{ command: node, args: [examples/mcp/files-server.mjs],
 * env: { DATA_DIR: data } }` in a root holding the examples and a node_modules with the MCP SDK —
 * and reached through govflow's own MCP client: it lists and reads files under DATA_DIR and
 * refuses every path that leads outside it.
 */
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServers } from '../../src/tools/mcp-servers.js';
import { REPOSITORY_ROOT } from '../support/example-app.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

const opened: McpServers[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((servers) => servers.close()));
  removeTempFolders();
});

const BUDGET = 'Ana sends the budget by Friday.\n';
const VENUE = '# Venue\nRaj books it.\n';

/**
 * A root with examples/, node_modules (what `npm i @modelcontextprotocol/sdk` leaves: here this
 * repository's), data/ (a file, a subfolder, a symlink out) and a secret beside data/.
 */
function rootWithData() {
  const root = makeTempFolder('govflow-example-mcp-');
  cpSync(path.join(REPOSITORY_ROOT, 'examples', 'mcp'), path.join(root, 'examples', 'mcp'), { recursive: true });
  symlinkSync(path.join(REPOSITORY_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  mkdirSync(path.join(root, 'data', 'notes'), { recursive: true });
  writeFileSync(path.join(root, 'data', 'budget.txt'), BUDGET);
  writeFileSync(path.join(root, 'data', 'notes', 'venue.md'), VENUE);
  writeFileSync(path.join(root, 'secret.txt'), 'not for the model');
  symlinkSync(path.join(root, 'secret.txt'), path.join(root, 'data', 'escape.txt'));
  const servers = new McpServers({
    root,
    servers: { files: { command: 'node', args: ['examples/mcp/files-server.mjs'], env: { DATA_DIR: 'data' } } },
    timeoutMs: 10_000,
    recordsFolder: path.join(root, 'system', 'state', 'mcp'),
  });
  opened.push(servers);
  return servers;
}

const call = (servers: McpServers, tool: string, input: Record<string, unknown>) =>
  servers.call('files', tool, input, `call-${tool}`, new AbortController().signal);

describe('examples/mcp/files-server.mjs', () => {
  it('offers list_files and read_file, and answers them from DATA_DIR', async () => {
    const servers = rootWithData();
    expect((await servers.tools('files')).map((tool) => tool.name).sort()).toEqual([
      'mcp:files/list_files',
      'mcp:files/read_file',
    ]);
    const listed = await call(servers, 'list_files', {});
    expect(listed.isError).toBe(false);
    expect(JSON.parse(listed.output)).toEqual([
      { name: 'budget.txt', type: 'file', bytes: Buffer.byteLength(BUDGET) },
      { name: 'escape.txt', type: 'symlink' },
      { name: 'notes', type: 'folder' },
    ]);
    expect(JSON.parse((await call(servers, 'list_files', { path: 'notes' })).output)).toEqual([
      { name: 'venue.md', type: 'file', bytes: Buffer.byteLength(VENUE) },
    ]);
    expect(await call(servers, 'read_file', { path: 'notes/venue.md' })).toEqual({ output: VENUE, isError: false });
  });

  it('refuses absolute paths, .. and symlinks that lead outside DATA_DIR, reading nothing', async () => {
    const servers = rootWithData();
    const refusals = [
      [{ path: '../secret.txt' }, /outside DATA_DIR, refused/],
      [{ path: 'notes/../../secret.txt' }, /outside DATA_DIR, refused/],
      [{ path: '/etc/hostname' }, /absolute paths are refused/],
      [{ path: 'escape.txt' }, /symlink that leads outside DATA_DIR/],
      [{ path: 'missing.txt' }, /no such file/],
      [{ path: 'notes' }, /not a file/],
    ] as const;
    for (const [input, message] of refusals) {
      const outcome = await call(servers, 'read_file', input);
      expect(outcome.isError, JSON.stringify(input)).toBe(true);
      expect(outcome.output).toMatch(message);
      expect(outcome.output).not.toContain('not for the model');
    }
    const listedOutside = await call(servers, 'list_files', { path: '..' });
    expect(listedOutside).toMatchObject({ isError: true, output: expect.stringMatching(/outside DATA_DIR/) });
  });
});
