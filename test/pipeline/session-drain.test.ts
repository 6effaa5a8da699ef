/**
 * Graceful shutdown: `runner.drain()` lets the step in flight finish and commit, starts no new
 * step, and the session resumes from its journal to the same end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openRuntime } from '../../src/daemon/runtime.js';
import { SessionInterruptedError } from '../../src/pipeline/runner-contract.js';
import {
  REQUEST_TEXT,
  TWO_TASKS,
  auditEntries,
  exampleRoot,
  happyResponses,
  journalOf,
  messageRecords,
  readResult,
  removeTempDirs,
  scripted,
  verifyRoot,
} from './pipeline-test-helpers.js';

afterEach(removeTempDirs);

describe('drain', () => {
  it('finishes the running step, starts no other, and the session resumes to success', async () => {
    const root = exampleRoot();
    const responses = happyResponses(TWO_TASKS);
    const first = scripted(responses);
    // The first model call waits until the test has asked for the drain: no timer decides the order.
    const releaseFirstCall = first.hold(1);
    const runtime = await openRuntime(root, { provider: first, env: {} });
    let sessionId = '';
    const running = runtime.runner.startSession(
      { requestId: 'req-drain', text: REQUEST_TEXT, sourceFile: 'request.txt', claimedPath: null },
      new AbortController().signal,
      (id) => {
        sessionId = id;
      },
    );
    await first.callStarted(1);
    runtime.runner.drain();
    releaseFirstCall();
    await expect(running).rejects.toBeInstanceOf(SessionInterruptedError);
    await runtime.close();
    expect(first.calls.map((call) => call.agent)).toEqual(['objective_agent']);
    expect(messageRecords(journalOf(root, sessionId)).map((record) => record.message.agent.name)).toEqual([
      'objective_agent',
    ]);
    expect((await auditEntries(root)).map((entry) => entry.agent)).toEqual(['objective_agent']);

    const rest = { ...responses, objective_agent: [] };
    const second = scripted(rest);
    const again = await openRuntime(root, { provider: second, env: {} });
    try {
      const outcome = await again.runner.recoverSession(sessionId, new AbortController().signal);
      expect(outcome.status).toBe('success');
    } finally {
      await again.close();
    }
    second.assertAllUsed();
    expect(second.calls.map((call) => call.agent)).not.toContain('objective_agent');
    expect(readResult(root, 'req-drain').messages).toBe(6);
    const sequences = (await auditEntries(root)).map((entry) => entry.sequence);
    expect(sequences).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await verifyRoot(root)).ok).toBe(true);
  });
});
