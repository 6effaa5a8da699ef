import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPaths } from '../../src/config/system-paths.js';
import { SessionIndex, readSessionRecord, type ClaimedRequests } from '../../src/store/session-index.js';
import { sessionChanges } from '../../src/http/http-server.js';
import { archiveFinishedSessions } from '../../src/store/session-retention.js';
import type { SessionRow } from '../../src/store/session-listing.js';
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

/** The index as the HTTP API builds it, following the runtime's event bus. */
function indexOf(root: string, events: SessionEvents) {
  const listing = new SessionIndex(systemPaths(root), { timezone: 'UTC', changes: sessionChanges(events) });
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

  it('drops the sessions an hourly retention pass archived while the daemon listed them', async () => {
    const root = exampleRoot();
    await withRuntime(root, scripted(happyResponses(TWO_TASKS)), async (runtime) => {
      const index = indexOf(root, runtime.events);
      const start = (requestId: string) =>
        runtime.runner.startSession(
          { requestId, text: 'Book the venue.', user: null, sourceFile: `${requestId}.txt`, claimedPath: null },
          new AbortController().signal,
        );
      const archived = await start('req-archived');
      expect((await index.query(query)).total).toBe(1);
      // As an hourly pass does once its day is past keep_days (runtime.ts wires filesRetentionPass to the bus).
      const paths = systemPaths(root);
      expect(archiveFinishedSessions({ paths, timezone: 'UTC', before: '99991231' })).toEqual([archived.sessionId]);
      runtime.events.emit('sessions_archived', { sessionIds: [archived.sessionId] });
      const later = await start('req-later');
      expect((await index.query(query)).rows.map((row) => row.sessionId)).toEqual([later.sessionId]);
      index.listing.close();
    });
  });

  it('lists a session whose request is larger than the first read (256 KiB) under its own user, with all its text', async () => {
    const root = exampleRoot();
    await withRuntime(root, scripted(happyResponses(TWO_TASKS)), async (runtime) => {
      const index = indexOf(root, runtime.events);
      const text = `Summarize the notes. ${'The team met and discussed the release plan. '.repeat(7_000)}`;
      expect(text.length).toBeGreaterThan(300_000);
      await runtime.runner.startSession(
        { requestId: 'req-big', text, user: 'alice', sourceFile: 'req-big.json', claimedPath: null },
        new AbortController().signal,
      );
      index.listing.close();
      const fresh = indexOf(root, runtime.events);
      const rows = (await fresh.query({ ...query, user: 'alice' })).rows;
      expect(rows.map((row) => [row.requestId, row.user, row.requestText.length])).toEqual([
        ['req-big', 'alice', text.length],
      ]);
      fresh.listing.close();
    });
  });

  it('reads a first record that ends right at, right after or far past the first read, and a journal with no newline', () => {
    const sessions = mkdtempSync(path.join(os.tmpdir(), 'govflow-first-line-'));
    try {
      const write = (id: string, record: Record<string, unknown>, padTo: number, newline = true) => {
        const bare = JSON.stringify({ ...record, pad: '' });
        const line = JSON.stringify({ ...record, pad: 'x'.repeat(padTo - bare.length) });
        expect(line.length).toBe(padTo);
        mkdirSync(path.join(sessions, id));
        writeFileSync(path.join(sessions, id, 'journal.jsonl'), newline ? `${line}\n{"type":"message"}\n` : line);
      };
      const record = { type: 'session', session_id: 's', request_id: 'r', request: { text: 't', user: 'alice' } };
      for (const [id, length, newline] of [
        ['at', 256 * 1024 - 1, true],
        ['after', 256 * 1024, true],
        ['past', 700_000, true],
        ['bare', 300_000, false],
      ] as const) {
        write(id, record, length, newline);
        expect(readSessionRecord(sessions, id)?.request.user, id).toBe('alice');
      }
      writeFileSync(path.join(sessions, 'at', 'journal.jsonl'), '{"type":"sess');
      expect(readSessionRecord(sessions, 'at')).toBeNull();
    } finally {
      rmSync(sessions, { recursive: true, force: true });
    }
  });

  it('never loses a retry between its claim and its start being heard: queued, then read from its first record', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'govflow-index-'));
    try {
      const paths = systemPaths(root);
      const sessionId = 'sess-20261128-120000-retry001';
      const lineage = {
        action: 'retry',
        of_session: 'sess-original',
        of_request: 'req-1',
        from: 1,
        by: 'ada',
        reason: null,
      };
      const claimed: SessionRow = {
        sessionId,
        requestId: 'req-1-retry-1',
        status: 'queued',
        state: 'queued',
        user: 'alice',
        requestText: 'Book the venue.',
        agents: [],
        searchText: '',
        currentAgent: null,
        messages: 0,
        acceptedAt: '2026-11-28T12:00:00.000Z',
        startedAt: null,
        finishedAt: null,
        updatedAt: '2026-11-28T12:00:00.000Z',
        costUsd: 0,
        lineage: lineage as SessionRow['lineage'],
        conversationId: sessionId,
        conversationTurn: 0,
      };
      // As the intake's claims do: a claim whose session started is not listed from its claim.
      const claims: ClaimedRequests = {
        queued: async (started) => (started(sessionId) ? [] : [{ ...claimed }]),
        acceptedAt: () => null,
      };
      // No change is ever heard: the session's start is not announced to this index.
      const listing = new SessionIndex(paths, { timezone: 'UTC', claims, changes: () => () => {} });
      const derived = async () =>
        (await listing.derivedFrom('sess-original')).map((row) => [row.session_id, row.status]);
      expect(await derived()).toEqual([[sessionId, 'queued']]);
      // Its journal is made but holds no record yet: still the queued claim.
      const folder = path.join(paths.sessions, sessionId);
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'journal.jsonl'), '');
      expect(await derived()).toEqual([[sessionId, 'queued']]);
      // Its first record is written, its start not yet heard: read from the record, not lost.
      const record = {
        v: 1,
        type: 'session',
        session_id: sessionId,
        request_id: 'req-1-retry-1',
        request: { text: 'Book the venue.', user: 'alice', metadata: null },
        source_file: 'retry',
        claimed_path: null,
        created_at: '2026-11-28T12:00:01.000Z',
        entry_agent: 'objective_agent',
        lineage,
      };
      writeFileSync(path.join(folder, 'journal.jsonl'), `${JSON.stringify(record)}\n`);
      expect(await derived()).toEqual([[sessionId, 'running']]);
      listing.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
