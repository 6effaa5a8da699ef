/**
 * SPEC §23 "Forwarding", against `govflow start` as a child process and a loopback MCP server over
 * Streamable HTTP: a server with `forward_authorization: true` gets the caller's Authorization
 * header verbatim on the tool calls of the sessions its HTTP request started (POST /v1/requests and
 * the chat), another server does not; the header is found in no file under system/ nor in the
 * daemon's log; after a kill -9 and a restart, the resumed session has none to forward and its tool
 * call is a tool error saying so.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  answer,
  cleanupAll,
  readResult,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';
import { singleAgentRoot, WORKER_DONE } from '../support/single-agent-root.js';
// @ts-expect-error plain JavaScript fixture
import { startHttpFixture } from '../tools/fixtures/mcp-fixture-server.mjs';

beforeAll(buildDistOnce, 180_000);
afterAll(cleanupAll);

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

interface Seen {
  method: string;
  authorization: string | null;
}

async function mcpFixture(): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const fixture = await startHttpFixture({ onRequest: (request: Seen) => seen.push(request) });
  closers.push(fixture.close);
  return { url: fixture.url, seen };
}

function post(url: string, route: string, token: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${url}${route}`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (incoming) => {
        let text = '';
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        incoming.on('end', () => resolve({ status: incoming.statusCode!, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(body));
  });
}

/** Every file under `folder`, recursively. */
function filesUnder(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(full));
    else if (entry.isFile() || statSync(full).isFile()) files.push(full);
  }
  return files;
}

/** The files under system/ that contain `secret` (as text, or its base64). */
function filesHolding(root: string, secret: string): string[] {
  const base64 = Buffer.from(secret).toString('base64');
  return filesUnder(path.join(root, 'system')).filter((file) => {
    const content = readFileSync(file).toString('latin1');
    return content.includes(secret) || content.includes(base64);
  });
}

function urlOf(daemon: DaemonProcess): string {
  return /HTTP API on (http:\/\/[^\s,)]+)/.exec(daemon.readyLine)![1];
}

// whoami answers with the Authorization header it got: what comes back must not reach a file either.
const TOOL_TURN = { tool_calls: [{ name: 'mcp:fwd/whoami', input: {} }] };
const PLAIN_TURN = { tool_calls: [{ name: 'mcp:plain/echo', input: { text: 'hello' } }] };

/** A root whose worker may call `echo` on two servers at the same fixture, one forwarding. */
function forwardingRoot(fixtureUrl: string, token: string): string {
  return singleAgentRoot(
    scriptedConfig(
      [
        'http:',
        '  listen: "127.0.0.1:0"',
        `  tokens: [{ user: ana, sha256: "${tokenSha256(token)}" }]`,
        'mcp:',
        '  servers:',
        `    fwd: { url: "${fixtureUrl}", forward_authorization: true }`,
        `    plain: { url: "${fixtureUrl}" }`,
        '',
      ].join('\n'),
    ),
    ['tools: ["mcp:fwd/whoami", "mcp:plain/echo"]'],
  );
}

describe('forward_authorization (SPEC §23)', () => {
  it('sends the caller’s header verbatim to that server only, and writes it to no file', async () => {
    const fixture = await mcpFixture();
    const token = `gf_${randomBytes(24).toString('base64url')}`;
    const root = forwardingRoot(fixture.url, token);
    writeScript(
      root,
      JSON.stringify({
        loop: true,
        responses: { worker_agent: [TOOL_TURN, PLAIN_TURN, { json: WORKER_DONE }] },
      }),
    );
    const daemon = await startDaemon(root);
    const url = urlOf(daemon);

    expect((await post(url, '/v1/requests', token, { request: 'Echo hello.', request_id: 'fwd-1' })).status).toBe(202);
    await waitFor('fwd-1 done', () => readResult(root, 'fwd-1') !== null, {
      timeoutMs: 30_000,
      detail: () => daemon.stderrTail(),
    });
    expect(readResult(root, 'fwd-1')!.status).toBe('success');
    const calls = fixture.seen.filter((request) => request.method === 'tools/call');
    expect(calls).toHaveLength(2);
    // The forwarding server's call carried the header as sent; the other server's carried none.
    expect(calls.map((request) => request.authorization)).toEqual([`Bearer ${token}`, null]);

    // The chat route starts its session the same way.
    const chat = await post(url, '/v1/agent/chat', token, { message: 'Echo hello again.' });
    expect(chat.status).toBe(200);
    expect(chat.text).toContain('event: message_complete');
    const chatCalls = fixture.seen.filter((request) => request.method === 'tools/call').slice(2);
    expect(chatCalls.map((request) => request.authorization)).toEqual([`Bearer ${token}`, null]);

    await daemon.stop();
    expect(filesUnder(path.join(root, 'system')).length).toBeGreaterThan(5);
    expect(filesHolding(root, token)).toEqual([]);
    expect(daemon.stderr + daemon.stdout).not.toContain(token);
  }, 90_000);

  it('after a kill -9 and a restart, the resumed session has no header: its tool call is a tool error saying so', async () => {
    const fixture = await mcpFixture();
    const token = `gf_${randomBytes(24).toString('base64url')}`;
    const root = forwardingRoot(fixture.url, token);
    const question = answer({
      content: null,
      contentType: 'report',
      status: 'pending',
      message: 'Which text shall I echo?',
    });
    writeScript(
      root,
      JSON.stringify({ responses: { worker_agent: [{ json: question }, TOOL_TURN, { json: WORKER_DONE }] } }),
    );
    const first = await startDaemon(root);
    const posted = await post(urlOf(first), '/v1/requests', token, { request: 'Echo something.', request_id: 'fwd-2' });
    expect(posted.status).toBe(202);
    const sessionId = (JSON.parse(posted.text) as { session_id: string }).session_id;
    await waitFor('the session paused on its question', () => readResult(root, 'fwd-2')?.status === 'pending', {
      timeoutMs: 30_000,
      detail: () => first.stderrTail(),
    });
    await first.kill9();

    const second = await startDaemon(root);
    const replied = await post(urlOf(second), `/v1/sessions/${sessionId}/reply`, token, { reply: 'hello' });
    expect(replied.status).toBe(202);
    await waitFor('fwd-2 done', () => (readResult(root, 'fwd-2')?.status ?? 'pending') !== 'pending', {
      timeoutMs: 30_000,
      detail: () => second.stderrTail(),
    });
    // The server was never called with a tool call; the model read the tool error.
    expect(fixture.seen.filter((request) => request.method === 'tools/call')).toEqual([]);
    const journal = filesUnder(path.join(root, 'system'))
      .filter((file) => file.includes(sessionId))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    expect(journal).toMatch(/has none to forward: the header is held in memory only/);
    await second.stop();
    expect(filesHolding(root, token)).toEqual([]);
  }, 120_000);
});
