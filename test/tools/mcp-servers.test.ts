/**
 * MCP servers for real: the fixture server (MCP SDK server side) as a stdio child process and
 * over Streamable HTTP on 127.0.0.1:0, reached through @ai-sdk/mcp. Servers that are down, crash,
 * hang or answer garbage fail that call with a clear error; process groups end with the client;
 * orphans of a killed daemon are reaped from their pid records.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../src/config/config-vocabulary.js';
import { McpServers } from '../../src/tools/mcp-servers.js';
import { processStartTicks } from '../../src/tools/mcp-process-records.js';
import { serverEnvironment } from '../../src/tools/mcp-stdio-transport.js';
import { ToolCallError } from '../../src/tools/tool-contract.js';
import { isProcessAlive } from '../../src/store/process-alive.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';
import { waitFor as waitUntil } from '../daemon/daemon-helpers.js';
// @ts-expect-error plain JavaScript fixture
import { startHttpFixture } from './fixtures/mcp-fixture-server.mjs';

export const FIXTURE_SERVER = fileURLToPath(new URL('./fixtures/mcp-fixture-server.mjs', import.meta.url));

const opened: McpServers[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((servers) => servers.close()));
  await Promise.all(closers.splice(0).map((close) => close()));
  removeTempFolders();
});

function servers(config: Record<string, McpServerConfig>, env: NodeJS.ProcessEnv = {}, timeoutMs = 10_000) {
  const root = makeTempFolder('govflow-mcp-');
  const recordsFolder = path.join(root, 'system/state/mcp');
  const manager = new McpServers({ root, servers: config, timeoutMs, recordsFolder, env });
  opened.push(manager);
  return { manager, recordsFolder, root };
}

const stdio = (extra: Partial<McpServerConfig> = {}): McpServerConfig => ({
  command: process.execPath,
  args: [FIXTURE_SERVER],
  ...extra,
});
const signal = () => new AbortController().signal;

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolCallError);
  return (error as Error).message;
}

async function waitFor(check: () => boolean, what: string, ms = 5000): Promise<void> {
  await waitUntil(what, check, { timeoutMs: ms, intervalMs: 25 });
}

describe('MCP over stdio', () => {
  it('lists tools as mcp:<server>/<tool>, calls them, records the pid, and ends the process group on close', async () => {
    const { manager, recordsFolder } = servers({ files: stdio() });
    const tools = await manager.tools('files');
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['mcp:files/echo', 'mcp:files/add', 'mcp:files/delete_file']),
    );
    expect(tools.find((tool) => tool.name === 'mcp:files/add')!.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' } },
    });
    expect(await manager.call('files', 'echo', { text: 'hi' }, 'c1', signal())).toEqual({
      output: 'echo: hi',
      isError: false,
    });
    expect(await manager.call('files', 'add', { a: 2, b: 3 }, 'c2', signal())).toEqual({ output: '5', isError: false });
    expect(await manager.call('files', 'fail', {}, 'c3', signal())).toEqual({ output: 'it went wrong', isError: true });
    const [record] = readdirSync(recordsFolder);
    const { pid } = JSON.parse(readFileSync(path.join(recordsFolder, record), 'utf8')) as { pid: number };
    const grandchild = Number((await manager.call('files', 'spawn_grandchild', {}, 'c4', signal())).output);
    expect(isProcessAlive(pid) && isProcessAlive(grandchild)).toBe(true);
    await manager.close();
    await waitFor(() => !isProcessAlive(pid) && !isProcessAlive(grandchild), 'the server and its grandchild to end');
    expect(readdirSync(recordsFolder)).toEqual([]);
  });

  it('a server that ignores SIGTERM is killed', async () => {
    const { manager, recordsFolder } = servers({ stubborn: stdio({ env: { FIXTURE_IGNORE_SIGTERM: '1' } }) });
    await manager.tools('stubborn');
    const { pid } = JSON.parse(readFileSync(path.join(recordsFolder, readdirSync(recordsFolder)[0]), 'utf8')) as {
      pid: number;
    };
    await manager.close();
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('a crash fails that call; the next call starts the server again', async () => {
    const { manager } = servers({ files: stdio() });
    expect(await failure(manager.call('files', 'crash', {}, 'c1', signal()))).toMatch(
      /MCP server "files": crash failed: .*Connection closed/,
    );
    expect(await manager.call('files', 'echo', { text: 'again' }, 'c2', signal())).toEqual({
      output: 'echo: again',
      isError: false,
    });
  });

  it('a hang fails that call after the timeout; the next call works', async () => {
    const { manager } = servers({ files: stdio({ timeout_ms: 800 }) });
    expect(await failure(manager.call('files', 'hang', {}, 'c1', signal()))).toMatch(
      /MCP server "files": hang gave no answer within 800 ms/,
    );
    expect((await manager.call('files', 'echo', { text: 'x' }, 'c2', signal())).output).toBe('echo: x');
  });

  it('garbage fails that call with a clear error', async () => {
    const { manager } = servers({ files: stdio({ timeout_ms: 3000 }) });
    expect(await failure(manager.call('files', 'garbage', {}, 'c1', signal()))).toMatch(
      /MCP server "files": garbage (failed|gave no answer)/,
    );
    expect((await manager.call('files', 'echo', { text: 'y' }, 'c2', signal())).output).toBe('echo: y');
  });

  it('a command that does not exist, or a tool the server lacks, is a clear error', async () => {
    const { manager } = servers({ missing: { command: '/nonexistent/mcp-server' }, files: stdio() });
    expect(await failure(manager.tools('missing'))).toMatch(
      /MCP server "missing" \(\/nonexistent\/mcp-server\) is not available: cannot start/,
    );
    expect(await failure(manager.call('files', 'nope', {}, 'c1', signal()))).toMatch(
      /MCP server "files" has no tool "nope"; it offers: mcp:files\/echo/,
    );
    expect(await failure(manager.call('ghost', 'x', {}, 'c1', signal()))).toMatch(
      /no MCP server "ghost" is configured/,
    );
  });
});

describe('MCP over Streamable HTTP', () => {
  it('connects with headers from the environment and calls tools', async () => {
    const fixture = await startHttpFixture();
    closers.push(fixture.close);
    const { manager } = servers(
      { docs: { url: fixture.url, headers_env: { Authorization: 'DOCS_MCP_TOKEN' } } },
      { DOCS_MCP_TOKEN: 'Bearer t0ken' },
    );
    expect((await manager.tools('docs')).map((tool) => tool.name)).toContain('mcp:docs/echo');
    expect(await manager.call('docs', 'echo', { text: 'over http' }, 'c1', signal())).toEqual({
      output: 'echo: over http',
      isError: false,
    });
    const whoami = JSON.parse((await manager.call('docs', 'whoami', {}, 'c2', signal())).output) as {
      authorization: string;
    };
    expect(whoami.authorization).toBe('Bearer t0ken');
  });

  it('a missing header variable or a server that is down fails with a clear error', async () => {
    const fixture = await startHttpFixture();
    const url = fixture.url;
    await fixture.close();
    const { manager } = servers(
      { down: { url }, secret: { url, headers_env: { Authorization: 'NOT_SET_VARIABLE' } } },
      {},
      3000,
    );
    expect(await failure(manager.call('down', 'echo', { text: 'x' }, 'c1', signal()))).toMatch(
      /MCP server "down" \(http:\/\/127\.0\.0\.1:\d+\/mcp\) is not available/,
    );
    expect(await failure(manager.tools('secret'))).toMatch(
      /header Authorization comes from the environment variable NOT_SET_VARIABLE, which is not set/,
    );
  });
});

describe('forward_authorization', () => {
  it("sends each session's own header (a delegated child its root's), none without one, and closes on release", async () => {
    const seen: Array<{ method: string; authorization: string | null }> = [];
    const fixture = await startHttpFixture({ onRequest: (request: (typeof seen)[number]) => seen.push(request) });
    closers.push(fixture.close);
    const { manager } = servers(
      { api: { url: fixture.url, forward_authorization: true, headers_env: { Authorization: 'API_TOKEN' } } },
      { API_TOKEN: 'Bearer from-the-environment' },
    );
    /** The header the server saw on this session's call, and what the model reads back. */
    const whoami = async (sessionId: string) => {
      const output = (await manager.call('api', 'whoami', {}, 'c', signal(), sessionId)).output;
      return { sent: seen.filter((request) => request.method === 'tools/call').at(-1)!.authorization, output };
    };
    manager.forwarded.hold('sess-a', 'Bearer alice-jwt-0123456789');
    manager.forwarded.hold('sess-b', 'Bearer bob-jwt-0123456789');
    const alice = await whoami('sess-a');
    expect(alice.sent).toBe('Bearer alice-jwt-0123456789');
    // The server echoes the header: the result the model reads (and the journal keeps) does not hold it.
    expect(JSON.parse(alice.output)).toMatchObject({ authorization: '[forwarded Authorization]' });
    expect((await whoami('sess-b')).sent).toBe('Bearer bob-jwt-0123456789');
    expect((await whoami('sess-a.d0123456789.dabcdefabcd')).sent).toBe('Bearer alice-jwt-0123456789');
    expect((await manager.tools('api', signal(), 'sess-a')).map((tool) => tool.name)).toContain('mcp:api/whoami');
    // The forwarded header replaces the configured one, on the handshake too.
    expect(seen.length).toBeGreaterThan(6);
    expect(seen.every((request) => request.authorization !== 'Bearer from-the-environment')).toBe(true);
    expect(await failure(manager.call('api', 'whoami', {}, 'c', signal(), 'sess-c'))).toMatch(
      /session sess-c has none to forward: the header is held in memory only/,
    );
    expect(await failure(manager.tools('api'))).toMatch(/has none to forward/);
    manager.forwarded.release('sess-a');
    expect(manager.forwarded.of('sess-a')).toBeNull();
    expect(await failure(manager.call('api', 'whoami', {}, 'c', signal(), 'sess-a'))).toMatch(/has none to forward/);
    expect((await whoami('sess-b')).sent).toBe('Bearer bob-jwt-0123456789');
  });
});

describe('orphaned stdio servers', () => {
  it('a later daemon ends the process groups its killed predecessor recorded', async () => {
    const { manager, recordsFolder } = servers({});
    // A "daemon" that has already died: its pid is free.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    const orphan = spawn(process.execPath, [FIXTURE_SERVER], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, FIXTURE_STAY: '1' },
    });
    await waitFor(() => processStartTicks(orphan.pid!) !== null, 'the orphan to start');
    mkdirSync(recordsFolder, { recursive: true });
    const record = {
      v: 1,
      server: 'files',
      pid: orphan.pid,
      start_ticks: processStartTicks(orphan.pid!),
      daemon_pid: deadPid,
      command: 'node fixture',
      started_at: new Date().toISOString(),
    };
    writeFileSync(path.join(recordsFolder, `files.${orphan.pid}.json`), JSON.stringify(record));
    // A record of a live daemon (this process) is left alone.
    writeFileSync(
      path.join(recordsFolder, 'other.99999999.json'),
      JSON.stringify({ ...record, pid: 99999999, daemon_pid: process.pid }),
    );
    const exited = new Promise((resolve) => orphan.once('exit', resolve));
    manager.reapOrphans();
    await exited;
    expect(existsSync(path.join(recordsFolder, `files.${orphan.pid}.json`))).toBe(false);
    expect(existsSync(path.join(recordsFolder, 'other.99999999.json'))).toBe(true);
  });
});

describe('stdio server environment', () => {
  it("inherits PATH and HOME but never the daemon's secrets; configured variables are added", () => {
    const env = serverEnvironment(
      { DATA_DIR: 'data' },
      { PATH: '/bin', HOME: '/home/x', OPENAI_API_KEY: 'sk-secret', GOVFLOW_API_KEY: 'k' },
    );
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/x', DATA_DIR: 'data' });
  });
});
