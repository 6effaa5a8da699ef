import { afterEach, describe, expect, it } from 'vitest';
import { SessionEvents, type SessionEventMap, type SessionEventName } from '../../src/pipeline/session-events.js';
import {
  REQUEST_TEXT,
  auditEntries,
  exampleRoot,
  happyResponses,
  removeTempDirs,
  scripted,
  withRuntime,
} from './pipeline-test-helpers.js';

afterEach(removeTempDirs);

describe('session events', () => {
  it('tell listeners each step, model call and committed message in order, message events carrying the audit entry hash', async () => {
    const root = exampleRoot();
    const provider = scripted(
      happyResponses([
        { id: 't1', agent: 'summarizer_agent' },
        { id: 't2', agent: 'action_item_agent', depends_on: ['t1'] },
      ]),
    );
    const seen: Array<{ name: SessionEventName; payload: SessionEventMap[SessionEventName] }> = [];
    const outcome = await withRuntime(root, provider, async (runtime) => {
      const names: SessionEventName[] = [
        'session_started',
        'step_started',
        'model_call_started',
        'model_call_finished',
        'message',
        'session_finished',
      ];
      for (const name of names) runtime.events.on(name, (payload) => seen.push({ name, payload }));
      // A listener that throws is ignored.
      runtime.events.on('message', () => {
        throw new Error('broken listener');
      });
      return runtime.runner.startSession(
        { requestId: 'req-events-1', text: REQUEST_TEXT, sourceFile: 'request.txt', claimedPath: null },
        new AbortController().signal,
      );
    });
    expect(outcome.status).toBe('success');
    expect(seen[0].name).toBe('session_started');
    expect(seen.at(-1)).toEqual({
      name: 'session_finished',
      payload: { sessionId: outcome.sessionId, requestId: 'req-events-1', status: 'success' },
    });
    const messages = seen
      .filter((event) => event.name === 'message')
      .map((event) => event.payload as SessionEventMap['message']);
    expect(messages.map((message) => message.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    const hashes = (await auditEntries(root))
      .filter((entry) => entry.sessionId === outcome.sessionId)
      .map((entry) => entry.hash);
    expect(messages.map((message) => message.entryHash)).toEqual(hashes);
    expect(seen.filter((event) => event.name === 'step_started')).toHaveLength(6);
    expect(seen.filter((event) => event.name === 'model_call_finished')).toHaveLength(6);
  });

  it("a bus that follows another counts that bus's chunk readers (cluster mode: calls stream only while a stream reads)", () => {
    const runnerBus = new SessionEvents();
    const httpBus = new SessionEvents();
    runnerBus.followChunkReaders(httpBus);
    expect(runnerBus.readsChunks('session-1')).toBe(false);
    const stopReading = httpBus.readChunks('session-1');
    expect(runnerBus.readsChunks('session-1')).toBe(true);
    expect(runnerBus.readsChunks('session-2')).toBe(false);
    const ownReader = runnerBus.readChunks('session-2');
    expect(runnerBus.readsChunks('session-2')).toBe(true);
    expect(httpBus.readsChunks('session-2')).toBe(false);
    stopReading();
    ownReader();
    expect(runnerBus.readsChunks('session-1')).toBe(false);
    expect(runnerBus.readsChunks('session-2')).toBe(false);
  });
});
