/**
 * A daemon killed with `kill -9` in the middle of a tool loop: the restarted daemon resumes the
 * step without running again a tool call whose result is journaled (SPEC §10), and stdio MCP
 * servers the killed daemon left running are ended by the next one.
 */
import { userInfo } from 'node:os';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/store/process-alive.js';
import { buildDistOnce } from './build-once.js';
import {
  answer,
  cleanupAll,
  dropFile,
  makeRoot,
  readAuditEntries,
  readResult,
  readSessions,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
} from './daemon-helpers.js';

const FIXTURE_SERVER = fileURLToPath(new URL('../tools/fixtures/mcp-fixture-server.mjs', import.meta.url));

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

/** A root whose only agent is `worker_agent`, with `agentLines` added to its frontmatter. */
function toolRoot(config: string, agentLines: string[]): string {
  const root = makeRoot(scriptedConfig(config));
  const agents = path.join(root, 'governance', 'agents');
  for (const file of readdirSync(agents)) rmSync(path.join(agents, file));
  writeFileSync(
    path.join(agents, 'worker_agent.md'),
    [
      '---',
      'name: worker_agent',
      'type: executional',
      'description: Works with tools.',
      'entry: true',
      'next: []',
      'content_type: report',
      ...agentLines,
      '---',
      '# Worker\nUse the tools.\n',
    ].join('\n'),
  );
  return root;
}

const DONE = answer({ content: { report: 'done' }, contentType: 'report' });

describe('kill -9 in a tool loop', () => {
  it('resumes without re-running a call whose result is journaled', async () => {
    let hits = 0;
    const server = http.createServer((_request, response) => {
      hits += 1;
      response.end('counted');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/count`;
    const root = toolRoot('tools: { http_get: { allow_hosts: ["127.0.0.1"] } }\n', ['tools: [http_get]']);
    // The second model turn takes a minute: the daemon is killed while it waits.
    const turn = { tool_calls: [{ id: 'c1', name: 'http_get', input: { url } }] };
    writeScript(root, JSON.stringify({ responses: { worker_agent: [turn, { json: DONE, delay_ms: 60_000 }] } }));
    const first = await startDaemon(root);
    dropFile(root, 'job.json', JSON.stringify({ request: 'Count once.', request_id: 'job-1' }));
    await waitFor(
      'the tool result in the journal',
      () =>
        readSessions(root)[0]?.records.some((record) => record.type === 'tool_result' && record.id === 'c1') || null,
    );
    expect(hits).toBe(1);
    await first.kill9();

    // The restarted daemon's model answers at once. It goes on after the turn the journal shows: the
    // same script, were it not for the delay, would do.
    writeScript(root, JSON.stringify({ responses: { worker_agent: [turn, { json: DONE }] } }));
    const second = await startDaemon(root);
    const result = await waitFor('the result', () => readResult(root, 'job-1'), { timeoutMs: 20_000 });
    expect(result.status, second.stderrTail()).toBe('success');
    expect(hits).toBe(1);
    const [session] = readSessions(root);
    expect(session.records.filter((record) => record.type === 'tool_result')).toHaveLength(1);
    expect(session.records.filter((record) => record.type === 'tool_turn')).toHaveLength(1);
    const entries = await readAuditEntries(root);
    expect(entries).toHaveLength(1);
    await second.stop();
    const logs = path.join(root, 'system', 'logs');
    const log = readFileSync(
      path.join(
        logs,
        readdirSync(logs).find((name) => name.endsWith('.log'))!,
      ),
      'utf8',
    );
    expect(log).toMatch(/\[TOOL_CALLS\]: \[\{"id":"c1","name":"http_get","is_error":false,"ms":\d+\}\]/);
  });

  it('an http_get a kill -9 cut off is not run again: its result says it may or may not have run (SPEC §15)', async () => {
    let hits = 0;
    // Counts the request and never answers: the daemon is killed while the call is in flight.
    const server = http.createServer(() => {
      hits += 1;
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/count`;
    const root = toolRoot('tools: { http_get: { allow_hosts: ["127.0.0.1"], timeout_ms: 120000 } }\n', [
      'tools: [http_get]',
    ]);
    const turn = { tool_calls: [{ id: 'c1', name: 'http_get', input: { url } }] };
    writeScript(root, JSON.stringify({ responses: { worker_agent: [turn, { json: DONE }] } }));
    const first = await startDaemon(root);
    dropFile(root, 'job.json', JSON.stringify({ request: 'Count once.', request_id: 'job-1' }));
    await waitFor('the request in flight', () => hits === 1 || null, { timeoutMs: 30_000 });
    expect(readSessions(root)[0].records.filter((record) => record.type === 'tool_start')).toHaveLength(1);
    await first.kill9();
    const second = await startDaemon(root);
    const result = await waitFor('the result', () => readResult(root, 'job-1'), { timeoutMs: 30_000 });
    expect(result.status, second.stderrTail()).toBe('success');
    expect(hits).toBe(1);
    const [cut] = readSessions(root)[0].records.filter((record) => record.type === 'tool_result');
    expect(cut).toMatchObject({ id: 'c1', is_error: true });
    expect(cut.output).toMatch(/may or may not have run, and it is not run again/);
    await second.stop();
  });

  it('a restarted daemon ends the stdio MCP servers its killed predecessor left running', async () => {
    const pidFile = path.join(makeRoot(), 'server.pid');
    const config =
      `mcp:\n  servers:\n    fixture: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE_SERVER)}], ` +
      `env: { FIXTURE_STAY: "1", FIXTURE_PID_FILE: ${JSON.stringify(pidFile)} } }\n`;
    const root = toolRoot(config, ['tools: ["mcp:fixture/*"]']);
    const turn = { tool_calls: [{ id: 'm1', name: 'mcp:fixture/echo', input: { text: 'hi' } }] };
    writeScript(root, JSON.stringify({ responses: { worker_agent: [turn, { json: DONE, delay_ms: 60_000 }] } }));
    const first = await startDaemon(root);
    dropFile(root, 'job.json', JSON.stringify({ request: 'Echo.', request_id: 'job-1' }));
    await waitFor(
      'the MCP tool result',
      () =>
        readSessions(root)[0]?.records.some((record) => record.type === 'tool_result' && record.id === 'm1') || null,
    );
    const serverPid = Number(readFileSync(pidFile, 'utf8'));
    await first.kill9();
    // FIXTURE_STAY: the server outlives its killed daemon.
    expect(isProcessAlive(serverPid)).toBe(true);
    writeScript(root, JSON.stringify({ responses: { worker_agent: [turn, { json: DONE }] } }));
    const second = await startDaemon(root);
    await waitFor('the orphaned MCP server to end', () => !isProcessAlive(serverPid) || null, { timeoutMs: 10_000 });
    const result = await waitFor('the result', () => readResult(root, 'job-1'), { timeoutMs: 20_000 });
    expect(result.status).toBe('success');
    await second.stop();
  });

  it('an approval waits across a restart and is given by a reply file in the inbox', async () => {
    const root = toolRoot('', ['tools: [write_file]', 'approval: [write_file]']);
    // One script for both daemons: the second goes on after the turn the journal shows.
    writeScript(
      root,
      JSON.stringify({
        responses: {
          worker_agent: [
            { tool_calls: [{ id: 'w1', name: 'write_file', input: { path: 'out.md', content: 'approved text' } }] },
            { json: DONE },
          ],
        },
      }),
    );
    const first = await startDaemon(root);
    dropFile(root, 'job.json', JSON.stringify({ request: 'Write out.md.', request_id: 'job-1' }));
    const pending = await waitFor('the pending result', () => readResult(root, 'job-1'), { timeoutMs: 20_000 });
    expect(pending).toMatchObject({ status: 'pending', awaiting: 'approval' });
    expect(pending.message).toMatch(/worker_agent wants to call write_file with input/);
    await first.stop();

    const second = await startDaemon(root);
    dropFile(
      root,
      'approve.json',
      JSON.stringify({ session_id: pending.session_id, approve: true, user: 'ana', reason: 'fine' }),
    );
    const result = await waitFor(
      'the final result',
      () => (readResult(root, 'job-1')?.status === 'success' ? readResult(root, 'job-1') : null),
      { timeoutMs: 20_000, detail: () => second.stderrTail() },
    );
    expect(result.status).toBe('success');
    expect(readFileSync(path.join(root, 'workspace', pending.session_id, 'out.md'), 'utf8')).toBe('approved text');
    await second.stop();
    const logs = path.join(root, 'system', 'logs');
    const log = readFileSync(
      path.join(
        logs,
        readdirSync(logs).find((name) => name.endsWith('.log'))!,
      ),
      'utf8',
    );
    // The reply file's owner approved; the "user" it claims is kept as claimed_user (SPEC §16).
    expect(log).toMatch(
      new RegExp(
        `\\[APPROVALS\\]: \\[\\{"call_id":"w1","tool":"write_file","approve":true,"user":"${userInfo().username}","claimed_user":"ana"`,
      ),
    );
  });
});
