import { afterEach, describe, expect, it } from 'vitest';
import { systemPaths } from '../../src/config/system-paths.js';
import { SessionIndex, type SessionChanges } from '../../src/store/session-index.js';
import { querySessions, type SessionQuery } from '../../src/web/session-list.js';
import type { SessionEvents } from '../../src/pipeline/session-events.js';
import {
  TWO_TASKS,
  agentMessage,
  exampleRoot,
  happyResponses,
  removeTempDirs,
  scripted,
  withRuntime,
} from '../pipeline/pipeline-test-helpers.js';

afterEach(removeTempDirs);

/** The changes the index re-reads, from the runtime's event bus (as the HTTP API adapts it). */
function changesOf(events: SessionEvents): SessionChanges {
  return (listener) => {
    const offs = [
      events.on('session_started', (event) => listener(event.sessionId, null)),
      events.on('message', (event) => listener(event.sessionId, event.agent)),
      events.on('session_finished', (event) => listener(event.sessionId, null)),
    ];
    return () => offs.forEach((off) => off());
  };
}

function indexOf(root: string, events: SessionEvents) {
  const listing = new SessionIndex(systemPaths(root), { timezone: 'UTC', changes: changesOf(events) });
  return { listing, query: async (q: typeof query) => querySessions(await listing.orderedRows(), q) };
}

const query: SessionQuery = { status: null, search: null, page: 1, pageSize: 50, user: null };

describe('sessions index', () => {
  it('lists real sessions newest first, filters by status and user, searches text, request id and agents, pages, and follows new sessions', async () => {
    const root = exampleRoot();
    const failedAnswer = agentMessage({
      content: null,
      contentType: 'objectives',
      status: 'failed',
      message: 'out of scope',
      error: { code: 'OUT_OF_SCOPE', message: 'no' },
    });
    await withRuntime(
      root,
      scripted({
        ...happyResponses(TWO_TASKS),
        objective_agent: [
          agentMessage({ content: ['x'], contentType: 'objectives', next: 'goal_agent' }),
          failedAnswer,
        ],
      }),
      async (runtime) => {
        const index = indexOf(root, runtime.events);
        const start = (requestId: string, text: string, user: string | null) =>
          runtime.runner.startSession(
            { requestId, text, user, sourceFile: `${requestId}.txt`, claimedPath: null },
            new AbortController().signal,
          );
        const first = await start('req-venue', 'Book the venue for Friday.', 'alice');
        expect((await index.query(query)).rows.map((row) => row.sessionId)).toEqual([first.sessionId]);
        const second = await start('req-video', 'Edit my video.', 'bob');
        const all = await index.query(query);
        expect(all.total).toBe(2);
        expect(all.byStatus).toEqual({ success: 1, failed: 1 });
        expect((await index.query({ ...query, status: 'failed' })).rows.map((row) => row.requestId)).toEqual([
          'req-video',
        ]);
        expect((await index.query({ ...query, search: 'VENUE' })).rows.map((row) => row.sessionId)).toEqual([
          first.sessionId,
        ]);
        expect((await index.query({ ...query, search: 'req-vid' })).rows.map((row) => row.sessionId)).toEqual([
          second.sessionId,
        ]);
        // summarizer_agent answered only in the first session (seen live, not just the current agent).
        expect((await index.query({ ...query, search: 'summarizer' })).rows.map((row) => row.sessionId)).toEqual([
          first.sessionId,
        ]);
        expect((await index.query({ ...query, user: 'bob' })).rows.map((row) => row.user)).toEqual(['bob']);
        const paged = await index.query({ ...query, pageSize: 1, page: 2 });
        expect({ pages: paged.pages, page: paged.page, total: paged.total }).toEqual({ pages: 2, page: 2, total: 2 });
        expect((await index.query({ ...query, pageSize: 1, page: 99 })).page).toBe(2);
        // A second index built from disk alone sees the same sessions.
        const rebuilt = await indexOf(root, runtime.events).query(query);
        expect(rebuilt.rows.map((row) => [row.sessionId, row.status])).toEqual(
          all.rows.map((row) => [row.sessionId, row.status]),
        );
        index.listing.close();
      },
    );
  });
});
