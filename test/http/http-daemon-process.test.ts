/**
 * The HTTP API of the real `govflow start` child process: a kill -9 right after the 202s loses no
 * request, event streams resume with Last-Event-ID after a restart (ids come from the journal),
 * `govflow token add` creates a token the daemon accepts, with the user on every audit entry, and
 * the listener keeps a backlog for a burst of clients.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, readResults, runCli, startDaemon, waitFor } from '../daemon/daemon-helpers.js';
import { SseReader, getJson, httpUrlOf, postJson } from './http-test-helpers.js';
import { skipsFor } from '../support/machine-requirement.js';

const hasSs = spawnSync('ss', ['-V']).error === undefined;

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const HTTP_CONFIG = 'timezone: UTC\nhttp: { listen: "127.0.0.1:0" }\n';

const messageSequences = (reader: SseReader) =>
  reader.events
    .filter((event) => event.event === 'message')
    .map((event) => (event.data as { sequence: number }).sequence);

describe('govflow start with the HTTP API', () => {
  it('loses no request acknowledged with 202 when killed -9 right after, and runs each exactly once', async () => {
    const root = makeRoot(HTTP_CONFIG);
    const first = await startDaemon(root);
    const url = httpUrlOf(first.readyLine);
    const ids = Array.from({ length: 24 }, (_unused, index) => `kill-${index}`);
    const answers = await Promise.all(
      ids.map((id) => postJson(`${url}/v1/requests`, { request: `Summarize note ${id}.`, request_id: id })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 202));
    await first.kill9();

    const second = await startDaemon(root);
    await waitFor('a result for every acknowledged request', () => readResults(root).length === ids.length, {
      timeoutMs: 60_000,
      detail: () => second.stderrTail(),
    });
    const results = readResults(root);
    expect(results.map((result) => result.request_id).sort()).toEqual([...ids].sort());
    expect(results.every((result) => result.status === 'success')).toBe(true);
    // Each request ran once: one session per request id in the audit log, six entries each.
    const url2 = httpUrlOf(second.readyLine);
    const entries = (await getJson(`${url2}/v1/logs`)).body.entries as Array<{ requestId: string; sessionId: string }>;
    for (const id of ids)
      expect(new Set(entries.filter((entry) => entry.requestId === id).map((entry) => entry.sessionId)).size).toBe(1);
    expect((await postJson(`${url2}/v1/requests`, { request: 'again', request_id: ids[0] })).status).toBe(409);
    expect((await getJson(`${url2}/v1/verify`)).body.ok).toBe(true);
    await second.stop();
  }, 120_000);

  it.skipIf(skipsFor('the listen backlog test', hasSs ? null : 'ss (Debian package iproute2) is missing'))(
    "listens with a backlog for a burst of clients, not Node's 511 (past it the kernel drops their SYNs)",
    async () => {
      const root = makeRoot(HTTP_CONFIG);
      const daemon = await startDaemon(root);
      const { port } = new URL(httpUrlOf(daemon.readyLine));
      // A listening socket's Send-Q is its backlog; the kernel caps it at net.core.somaxconn.
      const [state, , backlog] = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' })
        .trim()
        .split(/\s+/);
      const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
      expect(state).toBe('LISTEN');
      expect(Number(backlog)).toBe(Math.min(4096, somaxconn));
      await daemon.stop();
    },
    60_000,
  );

  it('resumes an event stream with Last-Event-ID after a restart, from the journal', async () => {
    const root = makeRoot(HTTP_CONFIG);
    const first = await startDaemon(root);
    const url = httpUrlOf(first.readyLine);
    const { body } = await postJson(`${url}/v1/requests`, {
      request: 'Summarize the meeting.',
      request_id: 'restart-1',
    });
    const stream = await SseReader.open(`${url}/v1/requests/restart-1/events`);
    await stream.finished();
    const third = stream.events.find(
      (event) => event.event === 'message' && (event.data as { sequence: number }).sequence === 3,
    )!;
    expect((await first.stop()).code).toBe(0);

    const second = await startDaemon(root);
    const url2 = httpUrlOf(second.readyLine);
    const resumed = await SseReader.open(`${url2}/v1/sessions/${body.session_id}/events`, { lastEventId: third.id! });
    await resumed.finished();
    expect(messageSequences(resumed)).toEqual([4, 5, 6]);
    expect(resumed.names().at(-1)).toBe('session_finished');
    expect(resumed.names()).not.toContain('session_started');
    await second.stop();
  }, 60_000);

  it('accepts a token made by govflow token add, and writes its user on every audit entry', async () => {
    const root = makeRoot(HTTP_CONFIG);
    const added = await runCli(['token', 'add', 'alice', '--root', root]);
    expect(added.code).toBe(0);
    const token = added.stdout.trim();
    expect(token).toMatch(/^gf_[A-Za-z0-9_-]{40,}$/);
    const config = readFileSync(path.join(root, 'govflow.config.yaml'), 'utf8');
    expect(config).not.toContain(token);
    expect(config).toContain('listen: "127.0.0.1:0"');
    expect((await runCli(['token', 'add', 'bob', '--role', 'boss', '--root', root])).code).toBe(2);

    const daemon = await startDaemon(root);
    const url = httpUrlOf(daemon.readyLine);
    expect((await postJson(`${url}/v1/requests`, { request: 'x' })).status).toBe(401);
    expect((await postJson(`${url}/v1/requests`, { request: 'Summarize.', request_id: 'tok-1' }, token)).status).toBe(
      202,
    );
    await waitFor('the result', () => readResults(root).length === 1, { timeoutMs: 20_000 });
    const logs = path.join(root, 'system', 'logs');
    const text = readdirSync(logs)
      .filter((name) => name.endsWith('.log'))
      .map((name) => readFileSync(path.join(logs, name), 'utf8'))
      .join('');
    expect(text.match(/\[USER: alice\]/g)).toHaveLength(6);
    expect((await runCli(['verify', '--root', root])).code).toBe(0);
    await daemon.stop();
  }, 60_000);
});
