/**
 * Who may do what over HTTP (tokens, operators, auditors), the seed-003 chat stream with and
 * without cancel_on_disconnect, shutdown, and clients that misbehave at the socket level.
 */
import { readFileSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { dropFile, dropJson, waitFor } from '../daemon/daemon-helpers.js';
import { exampleRoot } from '../pipeline/pipeline-test-helpers.js';

import { GatedProvider, getJson, httpTestbed, postJson } from './http-test-helpers.js';

const { running, start, open } = httpTestbed();

function auditText(root: string): string {
  const logs = path.join(root, 'system', 'logs');
  return readdirSync(logs)
    .filter((name) => name.endsWith('.log'))
    .map((name) => readFileSync(path.join(logs, name), 'utf8'))
    .join('');
}

const TOKENS = {
  alice: 'alice-secret-token',
  bob: 'bob-secret-token',
  audrey: 'audrey-secret-token',
  root: 'root-secret-token',
};
const TOKEN_CONFIG = [
  'http:',
  '  tokens:',
  `    - { user: alice, sha256: "${tokenSha256(TOKENS.alice)}", role: operator }`,
  `    - { user: bob, sha256: "${tokenSha256(TOKENS.bob).toUpperCase()}" }`,
  `    - { user: audrey, sha256: "${tokenSha256(TOKENS.audrey)}", role: auditor }`,
  `    - { user: root, sha256: "${tokenSha256(TOKENS.root)}", role: admin }`,
  '',
].join('\n');

describe('HTTP access control', () => {
  it('needs a valid token, shows operators only their own work, lets auditors read all but submit nothing', async () => {
    const { url, root } = await start(new GatedProvider(), TOKEN_CONFIG);
    expect((await postJson(`${url}/v1/requests`, { request: 'x' })).status).toBe(401);
    expect((await postJson(`${url}/v1/requests`, { request: 'x' }, 'wrong-token')).body.error.code).toBe(
      'unauthorized',
    );
    expect((await getJson(`${url}/healthz`)).status).toBe(200);
    expect((await getJson(`${url}/metrics`)).status).toBe(401);

    const submitted = await postJson(
      `${url}/v1/requests`,
      { request: 'Summarize the budget.', request_id: 'alice-1' },
      TOKENS.alice,
    );
    expect(submitted.status).toBe(202);
    await (await open(`${url}/v1/requests/alice-1/events`, { token: TOKENS.alice })).finished();

    expect((await getJson(`${url}/v1/requests/alice-1`, TOKENS.alice)).body.status).toBe('success');
    expect((await getJson(`${url}/v1/requests/alice-1`, TOKENS.bob)).status).toBe(404);
    expect(
      (await fetch(`${url}/v1/requests/alice-1/events`, { headers: { authorization: `Bearer ${TOKENS.bob}` } })).status,
    ).toBe(404);
    expect(
      (
        await fetch(`${url}/v1/sessions/${submitted.body.session_id}/events`, {
          headers: { authorization: `Bearer ${TOKENS.bob}` },
        })
      ).status,
    ).toBe(404);
    expect(
      (await postJson(`${url}/v1/sessions/${submitted.body.session_id}/reply`, { reply: 'x' }, TOKENS.bob)).status,
    ).toBe(404);
    expect((await getJson(`${url}/v1/logs`, TOKENS.bob)).body.entries).toEqual([]);
    expect((await getJson(`${url}/v1/logs`, TOKENS.alice)).body.entries).toHaveLength(6);

    expect((await getJson(`${url}/v1/requests/alice-1`, TOKENS.audrey)).body.status).toBe('success');
    expect((await getJson(`${url}/v1/logs`, TOKENS.audrey)).body.entries).toHaveLength(6);
    const denied = await postJson(`${url}/v1/requests`, { request: 'x' }, TOKENS.audrey);
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toMatch(/auditor/);

    // An admin reads everyone's work and may act on it; what it submits is its own.
    expect((await getJson(`${url}/v1/requests/alice-1`, TOKENS.root)).body.status).toBe('success');
    expect((await getJson(`${url}/v1/logs`, TOKENS.root)).body.entries).toHaveLength(6);
    const byAdmin = await postJson(`${url}/v1/requests`, { request: 'x', request_id: 'root-1' }, TOKENS.root);
    expect(byAdmin.status).toBe(202);
    await (await open(`${url}/v1/requests/root-1/events`, { token: TOKENS.root })).finished();
    expect((await getJson(`${url}/v1/requests/root-1`, TOKENS.alice)).status).toBe(404);

    expect(auditText(root).match(/\[USER: alice\]/g)).toHaveLength(6);
    expect(auditText(root).match(/\[USER: root\]/g)).toHaveLength(6);
  });

  it('treats a file-drop request as its JSON user (else local): visible to that user only, [USER] on its entries', async () => {
    const { url, root } = await start(new GatedProvider(), TOKEN_CONFIG);
    dropJson(root, 'from-bob.json', { request: 'Summarize the budget.', request_id: 'bob-file-1', user: 'bob' });
    dropFile(root, 'plain.txt', 'Summarize the plain note.');
    await waitFor(
      'both results',
      () => readdirSync(path.join(root, 'system', 'outbox')).filter((name) => name.endsWith('.json')).length === 2,
    );
    expect((await getJson(`${url}/v1/requests/bob-file-1`, TOKENS.bob)).body.status).toBe('success');
    expect((await getJson(`${url}/v1/requests/bob-file-1`, TOKENS.alice)).status).toBe(404);
    const text = auditText(root);
    expect(text.match(/\[USER: bob\]/g)).toHaveLength(6);
    expect(text.match(/\[USER: local\]/g)).toHaveLength(6);
    expect((await getJson(`${url}/v1/logs`, TOKENS.bob)).body.entries).toHaveLength(6);
  });

  it('refuses to listen beyond loopback without tokens', async () => {
    const root = exampleRoot('http: { listen: "0.0.0.0:0" }\n');
    const { GovflowDaemon } = await import('../../src/daemon/daemon.js');
    const silent = { info() {}, warn() {}, error() {} };
    await expect(
      GovflowDaemon.start(root, { env: {}, log: silent, provider: new GatedProvider(), announce: () => {} }),
    ).rejects.toThrow(/http\.tokens is empty/);
  });
});

describe('chat stream', () => {
  it('streams seed 003 events for one request and closes with message_complete', async () => {
    const { url } = await start(new GatedProvider());
    const chat = await open(`${url}/v1/agent/chat`, {
      method: 'POST',
      body: { message: 'Summarize: Ana sends the budget.' },
    });
    const events = await chat.finished();
    const names = events.map((event) => event.event);
    expect(names[0]).toBe('message_start');
    expect(events[0].data).toEqual({ turn: 0 });
    expect(names).toContain('content_chunk');
    expect(names.at(-1)).toBe('message_complete');
    expect(events.at(-1)!.data).toEqual({});
    expect(chat.headers.get('x-conversation-id')).toMatch(/^sess-/);
    // One LLM turn per agent of the example chain, counted from 0.
    expect(
      events.filter((event) => event.event === 'message_start').map((event) => (event.data as { turn: number }).turn),
    ).toEqual([0, 1, 2, 3, 4, 5]);
    const requestId = chat.headers.get('x-request-id')!;
    expect((await getJson(`${url}/v1/requests/${requestId}`)).body.status).toBe('success');
  });

  it('continues a paused conversation by its conversation_id', async () => {
    const { url } = await start(new GatedProvider({ pendingOnce: 'objective_agent' }));
    const first = await open(`${url}/v1/agent/chat`, { method: 'POST', body: { message: 'Summarize the budget.' } });
    await first.finished();
    // The question is the last thing the assistant says before message_complete.
    expect(first.names().slice(-2)).toEqual(['content_chunk', 'message_complete']);
    expect(first.events.at(-2)!.data).toEqual({ chunk: 'Which budget do you mean?' });
    const conversationId = first.headers.get('x-conversation-id')!;
    const requestId = first.headers.get('x-request-id')!;
    await waitFor(
      'the pending result',
      async () => (await getJson(`${url}/v1/requests/${requestId}`)).body.status === 'pending',
    );
    const second = await open(`${url}/v1/agent/chat`, {
      method: 'POST',
      body: { message: 'The Q3 one.', conversation_id: conversationId },
    });
    await second.finished();
    expect(second.headers.get('x-conversation-id')).toBe(conversationId);
    expect(second.names().at(-1)).toBe('message_complete');
    expect((await getJson(`${url}/v1/requests/${requestId}`)).body.status).toBe('success');
  });

  it('keeps the session running when the client leaves, unless it asked cancel_on_disconnect=true', async () => {
    const provider = new GatedProvider({ gated: true });
    const { url } = await start(provider);
    const kept = await open(`${url}/v1/agent/chat`, { method: 'POST', body: { message: 'Keep going.' } });
    await provider.waitForCalls(1);
    await kept.close();
    provider.release(100);
    await waitFor('the kept session to succeed', () => {
      const results = readdirSync(path.join(running[0].daemon['runtime'].config.paths.outbox)).filter((name) =>
        name.endsWith('.json'),
      );
      return results.length === 1;
    });

    const cancelled = await open(`${url}/v1/agent/chat?cancel_on_disconnect=true`, {
      method: 'POST',
      body: { message: 'Stop when I leave.' },
    });
    await cancelled.until((events) => events.some((event) => event.event === 'message_start'));
    const calls = provider.calls;
    await provider.waitForCalls(calls);
    await cancelled.close();
    const outbox = running[0].daemon['runtime'].config.paths.outbox as string;
    // One mechanism for every cancel (docs/run-control.md): the session ends cancelled, by the chat's user.
    const ended = await waitFor('the session to be cancelled', () => {
      for (const name of readdirSync(outbox).filter((candidate) => candidate.endsWith('.json'))) {
        const result = JSON.parse(readFileSync(path.join(outbox, name), 'utf8')) as {
          status: string;
          control?: { by: string; reason: string };
        };
        if (result.status === 'cancelled') return result;
      }
      return null;
    });
    expect(ended.control).toMatchObject({
      by: 'local',
      reason: expect.stringMatching(/cancel_on_disconnect=true/),
    });
  });
});

describe('shutdown and misbehaving clients', () => {
  it('ends streams with a final event and answers 503 to new work while running steps finish', async () => {
    const provider = new GatedProvider({ gated: true });
    const { url, daemon } = await start(provider);
    const { body } = await postJson(`${url}/v1/requests`, { request: 'Summarize.' });
    const stream = await open(`${url}/v1/requests/${body.request_id}/events`);
    const chat = await open(`${url}/v1/agent/chat`, { method: 'POST', body: { message: 'Summarize too.' } });
    await provider.waitForCalls(2);
    const stopped = daemon.stop();
    await stream.finished();
    expect(stream.names().at(-1)).toBe('error');
    expect(stream.events.at(-1)!.data).toMatchObject({ message: expect.stringMatching(/stopping/) });
    expect(stream.events.at(-1)!.id).toMatch(/^\d+\.stopping$/);
    // Seed 003's chat frames carry no ids, its final error neither.
    await chat.finished();
    expect(chat.names().at(-1)).toBe('error');
    expect(chat.events.at(-1)!.id ?? null).toBeNull();
    expect((await postJson(`${url}/v1/requests`, { request: 'late' })).status).toBe(503);
    expect((await getJson(`${url}/readyz`)).status).toBe(503);
    // A client reconnecting to its ended stream is refused, not kept open while the server closes.
    const reconnect = await fetch(`${url}/v1/requests/${body.request_id}/events`);
    expect(reconnect.status).toBe(503);
    await reconnect.body?.cancel();
    provider.release(2);
    await stopped;
    running.splice(0);
  });

  it('survives slow, truncated and abruptly closed requests without losing or crashing anything', async () => {
    const { url, root } = await start(new GatedProvider(), 'http: { request_timeout_ms: 1000 }\n');
    const { port } = new URL(url);
    const talk = (text: string, endAfter: boolean) =>
      new Promise<{ closedMs: number; received: string }>((resolve) => {
        const started = Date.now();
        let received = '';
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          socket.write(text);
          if (endAfter) socket.end();
        });
        socket.on('data', (chunk) => (received += chunk.toString()));
        socket.on('close', () => resolve({ closedMs: Date.now() - started, received }));
        socket.on('error', () => undefined);
      });
    // Slowloris: headers never finish; the server hangs up after request_timeout_ms.
    const slow = await talk('POST /v1/requests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n', false);
    expect(slow.closedMs).toBeLessThan(5000);
    // Truncated body: fewer bytes than Content-Length, then the client leaves.
    await talk(
      'POST /v1/requests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"request": "cut',
      true,
    );
    // Body that never completes: the server answers 408 or closes within the timeout.
    const stalled = await talk(
      'POST /v1/requests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"request": ',
      false,
    );
    expect(stalled.closedMs).toBeLessThan(5000);
    expect(readdirSync(path.join(root, 'system', 'inbox')).filter((name) => !name.startsWith('.'))).toEqual([]);
    // Still serving.
    expect(
      (await postJson(`${url}/v1/requests`, { request: 'after the bad clients', request_id: 'still-ok' })).status,
    ).toBe(202);
    await (await open(`${url}/v1/requests/still-ok/events`)).finished();
    expect((await getJson(`${url}/v1/requests/still-ok`)).body.status).toBe('success');
  });
});
