/**
 * Event ids of the session stream (SPEC §11) are a function of the event, not of the connection
 * (govflow issue 32): the same event has the same id live, in a full replay and after a reconnect
 * with any Last-Event-ID, and no two events of a session share one.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../daemon/daemon-helpers.js';
import { agentMessage, scripted, singleAgentRoot } from '../pipeline/pipeline-test-helpers.js';
import {
  GatedProvider,
  SseReader,
  getJson,
  httpTestbed,
  postJson,
  startHttpDaemon,
  type SseEvent,
} from './http-test-helpers.js';

const { start, open, running } = httpTestbed();

/** Events a replay can send again (the journal has them); live-only ones (chunks, steps, tools) it cannot. */
const REPLAYABLE = new Set(['session_started', 'message', 'pending', 'session_finished']);

function expectUniqueIds(events: SseEvent[]): void {
  const ids = events.map((event) => event.id);
  expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
}

/** The event without what only a live `message` carries (its audit entry's hash). */
function comparable(event: SseEvent | undefined): unknown {
  if (!event) return undefined;
  const { entry_hash: _hash, ...data } = event.data as Record<string, unknown>;
  return { ...event, data };
}

/** Every event of `some` is in `reference` with the same id, name and data. */
function expectSameIds(some: SseEvent[], reference: SseEvent[]): void {
  const byId = new Map(reference.map((event) => [event.id, event]));
  for (const event of some)
    expect({ id: event.id, found: comparable(byId.get(event.id)) }).toEqual({ id: event.id, found: comparable(event) });
}

describe('session event ids', () => {
  it('are the same live, in a full replay, and after reconnecting with each id the replay sent', async () => {
    const provider = new GatedProvider({ pendingOnce: 'objective_agent' });
    const { url } = await start(provider);
    const { body } = await postJson(`${url}/v1/requests`, { request: 'Summarize the budget.' });
    const live = await open(`${url}/v1/requests/${body.request_id}/events`);
    await live.until((events) => events.some((event) => event.event === 'pending'));
    await waitFor(
      'the pending result',
      async () => (await getJson(`${url}/v1/requests/${body.request_id}`)).body.status === 'pending' || null,
    );
    // A stream opened during the pause replays it from the journal: same ids as the live one.
    const duringPause = await open(`${url}/v1/sessions/${body.session_id}/events`);
    await duringPause.until((events) => events.some((event) => event.event === 'pending'));
    expectSameIds(duringPause.events, live.events);
    expect((await postJson(`${url}/v1/sessions/${body.session_id}/reply`, { reply: 'The Q3 budget.' })).status).toBe(
      202,
    );
    await live.finished();
    expectUniqueIds(live.events);

    const full = await open(`${url}/v1/sessions/${body.session_id}/events`);
    await full.finished();
    expect(full.names()).toEqual([
      'session_started',
      'message',
      'message',
      'message',
      'message',
      'message',
      'message',
      'message',
      'session_finished',
    ]);
    expectUniqueIds(full.events);
    expectSameIds(full.events, live.events);
    expectSameIds(
      live.events.filter((event) => REPLAYABLE.has(event.event) && event.event !== 'pending'),
      full.events,
    );

    for (const [index, event] of full.events.entries()) {
      const resumed = await open(`${url}/v1/sessions/${body.session_id}/events`, { lastEventId: event.id! });
      await resumed.finished();
      // Everything after the id, and the end again (a reconnect must learn the stream is over).
      const expected = index === full.events.length - 1 ? full.events.slice(-1) : full.events.slice(index + 1);
      expect({ after: event.id, got: resumed.events }).toEqual({ after: event.id, got: expected });
    }
  });

  it('tell two pauses after the same message apart, live and replayed', async () => {
    const root = singleAgentRoot(
      'writer_agent',
      [
        'description: Writes reports.',
        'next: []',
        'content_type: report',
        'tools: [write_file]',
        'approval: [write_file]',
      ],
      'govflow-http-event-ids-',
    );
    const provider = scripted({
      writer_agent: [
        { tool_calls: [{ id: 'c1', name: 'write_file', input: { path: 'a.md', content: 'A' } }] },
        { tool_calls: [{ id: 'c2', name: 'write_file', input: { path: 'b.md', content: 'B' } }] },
        agentMessage({ content: { report: 'done' }, contentType: 'report' }),
      ],
    });
    const started = await startHttpDaemon(root, provider);
    running.push(started);
    const { url } = started;
    const { body } = await postJson(`${url}/v1/requests`, { request: 'Write the reports.', request_id: 'ids-1' });
    const pendingsOf = (reader: SseReader) => reader.events.filter((event) => event.event === 'pending');
    const live = await open(`${url}/v1/requests/ids-1/events`);
    // Each pause is approved once the session recorded it; a stream opened during it replays it.
    const duringPauses: SseReader[] = [];
    for (const pause of [1, 2]) {
      await live.until(() => pendingsOf(live).length === pause);
      const late = await open(`${url}/v1/sessions/${body.session_id}/events`);
      await late.until(() => pendingsOf(late).length === 1);
      duringPauses.push(late);
      await waitFor(
        'the pause recorded',
        async () => (await getJson(`${url}/v1/requests/ids-1`)).body.status === 'pending' || null,
      );
      expect((await postJson(`${url}/v1/sessions/${body.session_id}/reply`, { approve: true })).status).toBe(202);
    }
    await live.finished();
    const [first, second] = pendingsOf(live);
    expect(first.id).not.toBe(second.id);
    expectUniqueIds(live.events);
    for (const late of duringPauses) {
      await late.finished();
      expectSameIds(late.events, live.events);
    }
    expect(pendingsOf(duringPauses[0])[0].id).toBe(first.id);
    expect(pendingsOf(duringPauses[1])[0].id).toBe(second.id);
  });
});
