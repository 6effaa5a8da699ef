/**
 * The HTTP API against a real listener on 127.0.0.1:0 with fetch and a streaming SSE reader:
 * submission, status, event streams (live, replayed, reconnected), errors, replies, many clients.
 */
import { linkSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemPaths } from '../../src/config/system-paths.js';
import { RequestIdRegistry } from '../../src/intake/request-id-registry.js';
import { waitFor } from '../daemon/daemon-helpers.js';
import { exampleRoot } from '../pipeline/pipeline-test-helpers.js';
import { GatedProvider, SseReader, getJson, httpTestbed, postJson, startHttpDaemon } from './http-test-helpers.js';

const { start, open, running } = httpTestbed();

const messageSequences = (reader: SseReader) =>
  reader.events
    .filter((event) => event.event === 'message')
    .map((event) => (event.data as { sequence: number }).sequence);

describe('HTTP API', () => {
  it('runs a posted request and streams every event live, each with an id, then closes', async () => {
    const provider = new GatedProvider({ gated: true });
    const { url, root, readyLine } = await start(provider);
    expect(readyLine).toMatch(/ready/);
    const submitted = await postJson(`${url}/v1/requests`, {
      request: 'Summarize: Ana sends the budget by Friday.',
      metadata: { ticket: 7 },
    });
    expect(submitted.status).toBe(202);
    expect(submitted.body).toMatchObject({
      status: 'queued',
      links: { events: `/v1/requests/${submitted.body.request_id}/events` },
    });
    const requestId = submitted.body.request_id as string;

    const stream = await open(`${url}/v1/requests/${requestId}/events`);
    expect(stream.status).toBe(200);
    provider.release(100);
    const events = await stream.finished();
    const names = events.map((event) => event.event);
    expect(names[0]).toBe('session_started');
    expect(names.at(-1)).toBe('session_finished');
    expect(names).toContain('step_started');
    expect(names).toContain('content_chunk');
    expect(messageSequences(stream)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(events.every((event) => typeof event.id === 'string' && event.id.length > 0)).toBe(true);
    for (const event of events.filter((candidate) => candidate.event === 'message'))
      expect(event.id).toBe(String((event.data as { sequence: number }).sequence));
    // The first step started before the client connected; the next ones stream live.
    expect(events.filter((event) => event.event === 'step_started').map((event) => event.data)).toContainEqual({
      agent: 'goal_agent',
      sequence: 2,
      task_id: null,
    });
    const chunks = events
      .filter((event) => event.event === 'content_chunk')
      .map((event) => event.data as { agent: string; chunk: string });
    expect(
      chunks
        .filter((chunk) => chunk.agent === 'goal_agent')
        .map((chunk) => chunk.chunk)
        .join(''),
    ).toMatch(/^\{.*\}$/s);
    expect(events.find((event) => event.event === 'message')!.data).toMatchObject({
      sequence: 1,
      agent: 'objective_agent',
      status: 'success',
      output_type: 'objectives',
    });
    expect(events.at(-1)!.data).toMatchObject({ status: 'success' });

    const result = await getJson(`${url}/v1/requests/${requestId}`);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      request_id: requestId,
      session_id: submitted.body.session_id,
      status: 'success',
      messages: 6,
    });
    const logs = path.join(root, 'system', 'logs');
    const text = readdirSync(logs)
      .filter((name) => name.endsWith('.log'))
      .map((name) => readFileSync(path.join(logs, name), 'utf8'))
      .join('');
    expect(text.match(/\[USER: local\]/g)).toHaveLength(6);
    // A late client gets the whole finished session replayed from the journal, then the end.
    const late = await open(`${url}/v1/sessions/${submitted.body.session_id}/events`);
    await late.finished();
    expect(late.names()).toEqual([
      'session_started',
      'message',
      'message',
      'message',
      'message',
      'message',
      'message',
      'session_finished',
    ]);
  });

  it('answers 409 for a request id already accepted, also while it runs, and 400/413/404 with the reason', async () => {
    const provider = new GatedProvider({ gated: true });
    const { url } = await start(provider, 'http: { max_body_bytes: 2048 }\n');
    expect((await postJson(`${url}/v1/requests`, { request: 'first', request_id: 'dup-1' })).status).toBe(202);
    await provider.waitForCalls(1);
    const again = await postJson(`${url}/v1/requests`, { request: 'second', request_id: 'dup-1' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'conflict', message: expect.stringContaining('dup-1') });
    expect((await getJson(`${url}/v1/requests/dup-1`)).body).toMatchObject({ request_id: 'dup-1', status: 'running' });

    const cases: Array<[string, RequestInit, number, RegExp]> = [
      ['bad JSON', { body: '{"request": ', headers: { 'content-type': 'application/json' } }, 400, /not valid JSON/],
      [
        'unknown field',
        { body: '{"request": "x", "user": "mallory"}', headers: { 'content-type': 'application/json' } },
        400,
        /unknown field "user"/,
      ],
      ['wrong content type', { body: 'hello', headers: { 'content-type': 'text/plain' } }, 400, /application\/json/],
      [
        'missing request',
        { body: '{"metadata": {}}', headers: { 'content-type': 'application/json' } },
        400,
        /"request" must be a string/,
      ],
      [
        'bad request id',
        { body: '{"request": "x", "request_id": "../etc"}', headers: { 'content-type': 'application/json' } },
        400,
        /request_id/,
      ],
      [
        'oversized',
        { body: JSON.stringify({ request: 'x'.repeat(4096) }), headers: { 'content-type': 'application/json' } },
        413,
        /max_body_bytes/,
      ],
    ];
    for (const [name, init, status, reason] of cases) {
      const response = await fetch(`${url}/v1/requests`, { method: 'POST', ...init });
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect({ name, status: response.status }).toEqual({ name, status });
      expect(body.error.message, name).toMatch(reason);
    }
    expect((await getJson(`${url}/v1/requests/never-seen`)).status).toBe(404);
    expect((await getJson(`${url}/v1/nothing-here`)).body.error.code).toBe('not_found');
    expect((await getJson(`${url}/v1/requests/%zz`)).body.error).toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/URL/),
    });
    expect((await getJson(`${url}/v1/requests/${'a'.repeat(3000)}`)).status).toBe(400);
    provider.release(100);
  });

  it('frees the request id of a submission a power loss cut before its 202 (its claim holds no data), so the retry is accepted', async () => {
    // What a power loss leaves when the claim's rename reached the disk and its data did not: an
    // empty claim that owns its id's marker. The 202 waits for the data, so it was never accepted.
    const root = exampleRoot();
    const paths = systemPaths(root);
    mkdirSync(paths.processing, { recursive: true });
    const torn = path.join(paths.processing, '1700000000000-abcdef-http-torn-1.json');
    writeFileSync(torn, '');
    const marker = new RequestIdRegistry(paths).markerPathOf('torn-1');
    mkdirSync(path.dirname(marker), { recursive: true });
    linkSync(torn, marker);
    const provider = new GatedProvider();
    const started = await startHttpDaemon(root, provider);
    running.push(started);
    await waitFor(
      'the torn claim in system/failed/',
      () => readdirSync(paths.failed).includes('http-torn-1.json.error.json') || null,
    );
    const record = JSON.parse(readFileSync(path.join(paths.failed, 'http-torn-1.json.error.json'), 'utf8'));
    expect(record.reason).toMatch(
      /power loss cut before it was acknowledged: request_id "torn-1" may be submitted again/,
    );
    const retried = await postJson(`${started.url}/v1/requests`, {
      request: 'Summarize: the retry.',
      request_id: 'torn-1',
    });
    expect(retried.status).toBe(202);
    await waitFor(
      'the retried request to succeed',
      async () => (await getJson(`${started.url}/v1/requests/torn-1`)).body?.status === 'success' || null,
    );
  });

  it('resumes a cut stream with Last-Event-ID: every committed message after it, no gap, no repeat', async () => {
    const provider = new GatedProvider({ gated: true });
    const { url } = await start(provider);
    const { body } = await postJson(`${url}/v1/requests`, { request: 'Summarize the meeting.' });
    const first = await open(`${url}/v1/requests/${body.request_id}/events`);
    provider.release(2);
    await first.until(() => messageSequences(first).includes(2));
    const lastId = first.events.at(-1)!.id!;
    await first.close();
    provider.release(2); // planning and the first task commit while nobody listens
    await provider.waitForCalls(5);
    const second = await open(`${url}/v1/requests/${body.request_id}/events`, { lastEventId: lastId });
    await second.until(() => messageSequences(second).length >= 2);
    provider.release(100);
    await second.finished();
    expect(second.names()).not.toContain('session_started');
    const all = [...messageSequences(first), ...messageSequences(second)];
    expect(all).toEqual([1, 2, 3, 4, 5, 6]);
    expect(second.names().at(-1)).toBe('session_finished');
    const bad = await fetch(`${url}/v1/requests/${body.request_id}/events`, { headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
  });

  it('gives many clients the full stream each', async () => {
    const provider = new GatedProvider({ gated: true });
    const { url } = await start(provider);
    const { body } = await postJson(`${url}/v1/requests`, { request: 'Summarize the meeting.' });
    // Half follow the request's link, half the session's (both handed out with the 202).
    const clients = await Promise.all(
      Array.from({ length: 8 }, (_unused, index) =>
        open(`${url}${index % 2 === 0 ? body.links.events : body.links.session_events}`),
      ),
    );
    provider.release(100);
    for (const client of clients) {
      await client.finished();
      expect(messageSequences(client)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(client.names().at(-1)).toBe('session_finished');
    }
  });

  it('pauses for a question, takes the reply over HTTP and runs on', async () => {
    const provider = new GatedProvider({ pendingOnce: 'objective_agent' });
    const { url } = await start(provider, 'http: { heartbeat_ms: 100 }\n');
    const { body } = await postJson(`${url}/v1/requests`, { request: 'Summarize the budget.' });
    const stream = await open(`${url}/v1/requests/${body.request_id}/events`);
    await stream.until((events) => events.some((event) => event.event === 'pending'));
    // A paused session's stream stays open, kept alive by comment heartbeats.
    await stream.until(() => stream.comments >= 2);
    expect(stream.ended).toBe(false);
    expect(stream.events.find((event) => event.event === 'pending')!.data).toEqual({
      question: 'Which budget do you mean?',
      awaiting: 'reply',
    });
    await waitFor(
      'the pending result',
      async () => (await getJson(`${url}/v1/requests/${body.request_id}`)).body.status === 'pending',
    );
    expect((await getJson(`${url}/v1/requests/${body.request_id}`)).body).toMatchObject({
      status: 'pending',
      message: 'Which budget do you mean?',
    });
    const replyUrl = `${url}/v1/sessions/${body.session_id}/reply`;
    expect((await postJson(replyUrl, { approve: true })).status).toBe(409);
    expect((await postJson(replyUrl, { reply: '' })).status).toBe(400);
    expect((await postJson(`${url}/v1/sessions/sess-unknown/reply`, { reply: 'x' })).status).toBe(404);
    const accepted = await postJson(replyUrl, { reply: 'The Q3 budget.' });
    expect(accepted.status).toBe(202);
    await stream.finished();
    expect(stream.names().at(-1)).toBe('session_finished');
    expect(stream.events.at(-1)!.data).toMatchObject({ status: 'success' });
    expect((await postJson(replyUrl, { reply: 'again' })).status).toBe(409);
  });

  it('shows the disk alarm in /metrics while free space is below intake.min_free_bytes', async () => {
    // A floor no disk here can meet: the alarm rises at start and the daemon claims nothing.
    const { url } = await start(new GatedProvider(), 'intake: { min_free_bytes: 1000000000000000 }\n');
    await waitFor('the disk alarm in /metrics', async () =>
      /^govflow_disk_alarm 1$/m.test(await (await fetch(`${url}/metrics`)).text()),
    );
  });

  it('serves health, readiness, metrics, logs and verify', async () => {
    const provider = new GatedProvider();
    const { url } = await start(provider);
    const { body } = await postJson(`${url}/v1/requests`, { request: 'Summarize.', request_id: 'obs-1' });
    await (await open(`${url}/v1/requests/obs-1/events`)).finished();
    expect((await getJson(`${url}/healthz`)).body).toEqual({ status: 'ok' });
    expect((await getJson(`${url}/readyz`)).body).toEqual({ status: 'ready' });
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/govflow_sessions_total\{status="success"\} 1/);
    expect(metrics).toMatch(/^govflow_disk_alarm 0$/m);
    expect(metrics).toMatch(/^govflow_disk_free_bytes [1-9]\d*$/m);
    expect(metrics).toMatch(/^govflow_disk_waiting_writes 0$/m);
    expect(metrics).toMatch(
      /govflow_model_call_duration_seconds_count\{agent="objective_agent",model="dry-run",outcome="ok"\} 1/,
    );
    expect(metrics).toMatch(/govflow_tokens_total\{agent="objective_agent",model="dry-run",direction="input"\} [1-9]/);
    expect(metrics).toMatch(/govflow_audit_append_seconds_count 6/);
    // One step timed per message, each against its own agent's start (the plan's two tasks run together).
    const stepCounts = Object.fromEntries(
      [...metrics.matchAll(/^govflow_step_duration_seconds_count\{agent="([^"]+)"\} (\d+)$/gm)].map((match) => [
        match[1],
        Number(match[2]),
      ]),
    );
    expect(stepCounts).toEqual({
      objective_agent: 1,
      goal_agent: 1,
      planning_agent: 1,
      action_item_agent: 1,
      summarizer_agent: 1,
      final_output_agent: 1,
    });
    expect(metrics).toMatch(/govflow_queue_depth 0/);
    const logs = await getJson(`${url}/v1/logs?session=${body.session_id}&agent=goal_agent`);
    expect(logs.body.entries).toHaveLength(1);
    expect(logs.body.entries[0]).toMatchObject({ agent: 'goal_agent', user: 'local', requestId: 'obs-1' });
    expect((await getJson(`${url}/v1/logs?date=2026`)).status).toBe(400);
    expect((await getJson(`${url}/v1/verify`)).body).toMatchObject({ ok: true, entries: 6, first_problem: null });
  });
});
