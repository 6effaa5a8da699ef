/**
 * Run control over HTTP (docs/run-control.md, docs/http-api.md): `POST /v1/sessions/:id/cancel|
 * retry|rerun|fork` and the bulk `POST /v1/sessions/cancel` with a dry run; an admin acts on every
 * session, an operator on its own (404 for anyone else's), an auditor on none (403); the event
 * stream ends with `session_finished {status: "cancelled"}`; a fork's 202 names the new session as
 * the daemon assigned it, and the new session is the original's user's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemPaths } from '../../src/config/system-paths.js';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { waitFor } from '../daemon/daemon-helpers.js';
import { GatedProvider, getJson, httpTestbed, postJson } from '../http/http-test-helpers.js';

const { start, open } = httpTestbed();

const TOKENS = { alice: 'alice-token', bob: 'bob-token', audrey: 'audrey-token', root: 'root-token' };
const CONFIG = [
  'http:',
  '  tokens:',
  `    - { user: alice, sha256: "${tokenSha256(TOKENS.alice)}", role: operator }`,
  `    - { user: bob, sha256: "${tokenSha256(TOKENS.bob)}", role: operator }`,
  `    - { user: audrey, sha256: "${tokenSha256(TOKENS.audrey)}", role: auditor }`,
  `    - { user: root, sha256: "${tokenSha256(TOKENS.root)}", role: admin }`,
  '',
].join('\n');

async function submit(url: string, token: string, requestId: string): Promise<string> {
  const submitted = await postJson(
    `${url}/v1/requests`,
    { request: 'Summarize the budget.', request_id: requestId },
    token,
  );
  expect(submitted.status).toBe(202);
  return submitted.body.session_id as string;
}

async function resultOf(url: string, requestId: string, status: string) {
  return waitFor(`${requestId} to be ${status}`, async () => {
    const { body } = await getJson(`${url}/v1/requests/${requestId}`, TOKENS.root);
    return body.status === status ? body : null;
  });
}

describe('run control over HTTP', () => {
  it('cancels: own sessions for operators, every session for admins, none for auditors; a cancelled one answers 202 again', async () => {
    const provider = new GatedProvider({ gated: true });
    const { url } = await start(provider, CONFIG);
    const alices = await submit(url, TOKENS.alice, 'alice-1');
    const bobs = await submit(url, TOKENS.bob, 'bob-1');
    await provider.waitForCalls(2);
    const stream = await open(`${url}/v1/sessions/${alices}/events`, { token: TOKENS.alice });
    await stream.until((events) => events.some((event) => event.event === 'session_started'));

    const auditor = await postJson(`${url}/v1/sessions/${alices}/cancel`, {}, TOKENS.audrey);
    expect(auditor.status).toBe(403);
    expect(auditor.body.error.message).toMatch(/auditor/);
    expect((await postJson(`${url}/v1/sessions/${alices}/cancel`, {}, TOKENS.bob)).status).toBe(404);
    expect((await postJson(`${url}/v1/sessions/sess-nowhere/cancel`, {}, TOKENS.root)).status).toBe(404);
    expect((await postJson(`${url}/v1/sessions/${alices}/cancel`, { reason: 7 }, TOKENS.alice)).status).toBe(400);

    const own = await postJson(`${url}/v1/sessions/${alices}/cancel`, { reason: 'typo in the request' }, TOKENS.alice);
    expect(own).toEqual({ status: 202, body: { session_id: alices, status: 'cancelling' } });
    await stream.finished();
    expect(stream.events.at(-1)).toMatchObject({ event: 'session_finished', data: { status: 'cancelled' } });
    expect(stream.names()).not.toContain('error');
    expect(await resultOf(url, 'alice-1', 'cancelled')).toMatchObject({
      control: { action: 'cancel', by: 'alice', reason: 'typo in the request' },
    });

    const byAdmin = await postJson(`${url}/v1/sessions/${bobs}/cancel`, {}, TOKENS.root);
    expect(byAdmin.status).toBe(202);
    expect((await resultOf(url, 'bob-1', 'cancelled')).control).toMatchObject({ by: 'root', reason: null });

    // A cancel of a session a cancel ended answers 202 too (SPEC §18); one that ended otherwise, 409 (below).
    const again = await postJson(`${url}/v1/sessions/${alices}/cancel`, {}, TOKENS.alice);
    expect(again).toEqual({ status: 202, body: { session_id: alices, status: 'cancelling' } });
  }, 60_000);

  it("retries, forks and re-runs ended sessions: 202 with the daemon's ids; 400 for a bad from, 409 while running", async () => {
    const provider = new GatedProvider({ gated: true });
    const { url } = await start(provider, CONFIG);
    const alices = await submit(url, TOKENS.alice, 'alice-2');
    await provider.waitForCalls(1);
    const running = await postJson(`${url}/v1/sessions/${alices}/retry`, {}, TOKENS.alice);
    expect(running.status).toBe(409);
    expect(running.body.error.message).toMatch(/is running/);
    expect((await postJson(`${url}/v1/sessions/${alices}/cancel`, {}, TOKENS.alice)).status).toBe(202);
    await resultOf(url, 'alice-2', 'cancelled');
    provider.release(1_000);

    expect((await postJson(`${url}/v1/sessions/${alices}/retry`, {}, TOKENS.audrey)).status).toBe(403);
    expect((await postJson(`${url}/v1/sessions/${alices}/retry`, {}, TOKENS.bob)).status).toBe(404);
    const badFrom = await postJson(`${url}/v1/sessions/${alices}/fork`, { from: 9 }, TOKENS.alice);
    expect(badFrom.status).toBe(400);
    expect(badFrom.body.error.message).toMatch(/from 1 to 1/);
    expect((await postJson(`${url}/v1/sessions/${alices}/fork`, { from: 1, colour: 'red' }, TOKENS.alice)).status).toBe(
      400,
    );

    const retried = await postJson(`${url}/v1/sessions/${alices}/retry`, { reason: 'again' }, TOKENS.root);
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ request_id: 'alice-2-retry-1', status: 'queued' });
    expect(retried.body.session_id).toMatch(/^sess-/);
    expect(retried.body.links.events).toBe('/v1/requests/alice-2-retry-1/events');
    const done = await resultOf(url, 'alice-2-retry-1', 'success');
    expect(done).toMatchObject({
      session_id: retried.body.session_id,
      lineage: { action: 'retry', of_session: alices, of_request: 'alice-2', from: 1, by: 'root', reason: 'again' },
    });
    // The new session is the original's user's: alice sees it, bob does not.
    expect((await getJson(`${url}/v1/requests/alice-2-retry-1`, TOKENS.alice)).status).toBe(200);
    expect((await getJson(`${url}/v1/requests/alice-2-retry-1`, TOKENS.bob)).status).toBe(404);

    const forked = await postJson(
      `${url}/v1/sessions/${retried.body.session_id}/fork`,
      { from: 3, request_id: 'alice-fork', request: 'Summarize the other budget.' },
      TOKENS.alice,
    );
    expect(forked.status).toBe(202);
    expect(forked.body.request_id).toBe('alice-fork');
    expect((await resultOf(url, 'alice-fork', 'success')).lineage).toMatchObject({
      action: 'fork',
      from: 3,
      by: 'alice',
    });
    const taken = await postJson(`${url}/v1/sessions/${alices}/rerun`, { request_id: 'alice-fork' }, TOKENS.alice);
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toMatch(/already accepted/);
    const rerun = await postJson(`${url}/v1/sessions/${alices}/rerun`, {}, TOKENS.alice);
    expect(rerun.body.request_id).toBe('alice-2-rerun-1');
  }, 60_000);

  it("counts a session as ended once its final result is written, before the journal's end record", async () => {
    const provider = new GatedProvider();
    const { url, root } = await start(provider, CONFIG);
    const sessionId = await submit(url, TOKENS.alice, 'alice-3');
    await resultOf(url, 'alice-3', 'success');
    // The run writes the result, waits for the outbox folder's fsync, then appends `finished`:
    // the journal as it stands in between.
    const journal = path.join(systemPaths(root).sessions, sessionId, 'journal.jsonl');
    const journalLines = () => readFileSync(journal, 'utf8').trimEnd().split('\n');
    // The result is on disk a moment before the end record: wait for the end record, then cut it.
    const lines = await waitFor('the journal end record', () =>
      (JSON.parse(journalLines().at(-1)!) as { type?: string }).type === 'finished' ? journalLines() : null,
    );
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: 'finished', status: 'success' });
    writeFileSync(journal, `${lines.slice(0, -1).join('\n')}\n`);

    const cancel = await postJson(`${url}/v1/sessions/${sessionId}/cancel`, {}, TOKENS.alice);
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.message).toMatch(/has already ended \(success\)/);
    const badFrom = await postJson(`${url}/v1/sessions/${sessionId}/fork`, { from: 99 }, TOKENS.alice);
    expect(badFrom.status).toBe(400);
    expect(badFrom.body.error.message).toMatch(/"from" 99/);
    const stream = await open(`${url}/v1/sessions/${sessionId}/events`, { token: TOKENS.alice });
    await stream.finished();
    expect(stream.events.at(-1)).toMatchObject({ event: 'session_finished', data: { status: 'success' } });

    // A pause's result (`pending`) is not an end: the session still counts as running.
    const result = path.join(systemPaths(root).outbox, 'alice-3.json');
    writeFileSync(result, JSON.stringify({ ...JSON.parse(readFileSync(result, 'utf8')), status: 'pending' }));
    const pending = await postJson(`${url}/v1/sessions/${sessionId}/retry`, {}, TOKENS.alice);
    expect(pending.status).toBe(409);
    expect(pending.body.error.message).toMatch(/is running/);
  }, 60_000);

  it('bulk-cancels what matches: a dry run lists without cancelling; an operator reaches only its own', async () => {
    const provider = new GatedProvider({ gated: true });
    const { url } = await start(provider, `${CONFIG}intake: { concurrency: 3 }\n`);
    const [a1, a2, b1] = [
      await submit(url, TOKENS.alice, 'bulk-a1'),
      await submit(url, TOKENS.alice, 'bulk-a2'),
      await submit(url, TOKENS.bob, 'bulk-b1'),
    ];
    await provider.waitForCalls(3);
    expect((await postJson(`${url}/v1/sessions/cancel`, { dry_run: true }, TOKENS.audrey)).status).toBe(403);
    expect((await postJson(`${url}/v1/sessions/cancel`, { status: 'done' }, TOKENS.root)).status).toBe(400);

    const dry = await postJson(`${url}/v1/sessions/cancel`, { status: 'running', dry_run: true }, TOKENS.root);
    expect(dry.status).toBe(200);
    expect(dry.body.matched).toBe(3);
    expect(dry.body.cancelled).toEqual([]);
    expect([...dry.body.would_cancel].sort()).toEqual([a1, a2, b1].sort());
    expect((await postJson(`${url}/v1/sessions/cancel`, { dry_run: true, user: 'bob' }, TOKENS.alice)).body).toEqual({
      matched: 0,
      cancelled: [],
      would_cancel: [],
    });

    const own = await postJson(`${url}/v1/sessions/cancel`, { reason: 'cleanup' }, TOKENS.alice);
    expect(own.body.matched).toBe(2);
    expect([...own.body.cancelled].sort()).toEqual([a1, a2].sort());
    await resultOf(url, 'bulk-a1', 'cancelled');
    await resultOf(url, 'bulk-a2', 'cancelled');
    expect((await getJson(`${url}/v1/requests/bulk-b1`, TOKENS.root)).body.status).toBe('running');

    const rest = await postJson(`${url}/v1/sessions/cancel`, { user: 'bob' }, TOKENS.root);
    expect(rest.body).toEqual({ matched: 1, cancelled: [b1] });
    expect((await resultOf(url, 'bulk-b1', 'cancelled')).control).toMatchObject({ by: 'root' });
  }, 60_000);
});
