import { afterEach, describe, expect, it } from 'vitest';
import { wrapProvider, type LlmProvider } from '../../src/llm/provider.js';
import { batchedChunks } from '../../src/pipeline/chunk-batches.js';
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

  it("sends a turn's many deltas as at most two content_chunks, in order, before the step's message", async () => {
    const root = exampleRoot();
    const inner = scripted(happyResponses([{ id: 't1', agent: 'summarizer_agent' }]));
    // As an SDK does with one network read: many small deltas at once, then the answer.
    const deltas: string[][] = [];
    const provider: LlmProvider = wrapProvider(inner, async (request) => {
      const response = await inner.generate({ ...request, onChunk: undefined });
      const pieces = response.text.match(/[\s\S]{1,10}/g) ?? [];
      deltas.push(pieces);
      for (const piece of pieces) request.onChunk?.(piece);
      return response;
    });
    const seen: Array<{ name: string; agent: string; chunk?: string }> = [];
    const sessionId = 'sess-chunk-batches';
    const outcome = await withRuntime(root, provider, async (runtime) => {
      runtime.events.readChunks(sessionId);
      runtime.events.on('content_chunk', (event) =>
        seen.push({ name: 'chunk', agent: event.agent, chunk: event.chunk }),
      );
      runtime.events.on('message', (event) => seen.push({ name: 'message', agent: event.agent }));
      return runtime.runner.startSession(
        { requestId: 'req-chunks-1', sessionId, text: REQUEST_TEXT, sourceFile: 'request.txt', claimedPath: null },
        new AbortController().signal,
      );
    });
    expect(outcome.status).toBe('success');
    expect(deltas.every((pieces) => pieces.length > 5)).toBe(true);
    // Each step: its answer's first delta, then the rest in one chunk (and a third where the PII
    // guard holds back a tail it cannot yet tell is safe, sent when the call ends), then its message.
    const steps: Array<{ chunks: string[]; agent: string }> = [];
    let pending: string[] = [];
    for (const event of seen) {
      if (event.name === 'chunk') pending.push(event.chunk!);
      else {
        steps.push({ chunks: pending, agent: event.agent });
        pending = [];
      }
    }
    expect(pending).toEqual([]);
    expect(steps.map((step) => step.chunks.join(''))).toEqual(deltas.map((pieces) => pieces.join('')));
    for (const step of steps) expect(step.chunks.length, step.agent).toBeLessThanOrEqual(3);
  });

  it('sends the first chunk of a turn at once and the rest at its end; flush sends what is held, once', async () => {
    const sent: string[] = [];
    const chunks = batchedChunks((chunk) => sent.push(chunk));
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    chunks.push('a');
    chunks.push('b');
    chunks.push('c');
    expect(sent).toEqual(['a']);
    await nextTurn();
    expect(sent).toEqual(['a', 'bc']);
    chunks.push('d');
    expect(sent).toEqual(['a', 'bc', 'd']);
    chunks.push('e');
    chunks.push('f');
    chunks.flush();
    expect(sent).toEqual(['a', 'bc', 'd', 'ef']);
    await nextTurn();
    chunks.flush();
    expect(sent).toEqual(['a', 'bc', 'd', 'ef']);
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

  it("tells a session's own listeners only its events, after the bus's, and forgets the session with its last listener", () => {
    const bus = new SessionEvents();
    const heard: string[] = [];
    bus.on('message', (event) => heard.push(`bus ${event.sessionId} ${event.sequence}`));
    const offs = [
      bus.onSession('s1', 'message', (event) => heard.push(`s1 ${event.sequence}`)),
      bus.onSession('s1', 'session_finished', (event) => heard.push(`s1 ${event.status}`)),
      bus.onSession('s2', 'message', () => {
        throw new Error('broken listener');
      }),
      bus.onSession('s2', 'message', (event) => heard.push(`s2 ${event.sequence}`)),
    ];
    const message = (sessionId: string, sequence: number) =>
      bus.emit('message', {
        sessionId,
        sequence,
        agent: 'a',
        status: 'ok',
        outputType: null,
        messageId: 'm',
        entryHash: null,
      });
    message('s1', 1);
    message('s2', 1);
    message('s3', 1);
    bus.emit('session_finished', { sessionId: 's1', requestId: 'r1', status: 'success' });
    expect(heard).toEqual(['bus s1 1', 's1 1', 'bus s2 1', 's2 1', 'bus s3 1', 's1 success']);
    // A listener subscribed while an event is told hears the next one, not that one.
    heard.length = 0;
    const late: Array<() => void> = [];
    const offEarly = bus.onSession('s3', 'message', () =>
      late.push(bus.onSession('s3', 'message', () => heard.push('late'))),
    );
    message('s3', 2);
    expect(heard).toEqual(['bus s3 2']);
    offEarly();
    message('s3', 3);
    expect(heard).toEqual(['bus s3 2', 'bus s3 3', 'late']);
    expect(bus.sessionsListenedTo).toBe(3);
    for (const off of [...offs, ...late]) off();
    expect(bus.sessionsListenedTo).toBe(0);
  });
});
