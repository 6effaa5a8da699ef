import { afterEach, describe, expect, it } from 'vitest';
import {
  REQUEST_TEXT,
  TWO_TASKS,
  agentFile,
  agentMessage,
  auditEntries,
  exampleRoot,
  happyResponses,
  journalOf,
  makeTempDir,
  messageRecords,
  readReport,
  readResult,
  removeTempDirs,
  runCli,
  runRequest,
  scripted,
  useScriptFile,
  verifyRoot,
  withRuntime,
  writeFile,
} from './pipeline-test-helpers.js';

afterEach(removeTempDirs);

const QUESTION = 'Which text should I analyse? The request names none.';

function pendingObjective(): string {
  return agentMessage({ content: null, contentType: 'objectives', status: 'pending', message: QUESTION, next: null });
}

/** check_agent (entry, on_failure: error_agent) → done_agent; error_agent is terminal. */
function onFailureRoot(withOnFailure: boolean): string {
  const root = makeTempDir();
  writeFile(root, 'govflow.config.yaml', 'timezone: UTC\n');
  writeFile(root, 'context/application.md', '# Application\nChecks requests.\n');
  writeFile(root, 'governance/policy.md', '# Policy\nFail clearly.\n');
  writeFile(
    root,
    'governance/agents/check_agent.md',
    agentFile([
      'name: check_agent',
      'type: governance',
      'description: Checks a request.',
      'entry: true',
      'next: [done_agent]',
      'content_type: check',
      ...(withOnFailure ? ['on_failure: error_agent'] : []),
    ]),
  );
  writeFile(
    root,
    'governance/agents/done_agent.md',
    agentFile(['name: done_agent', 'type: operational', 'description: Finishes.', 'next: []', 'content_type: done']),
  );
  writeFile(
    root,
    'governance/agents/error_agent.md',
    agentFile([
      'name: error_agent',
      'type: operational',
      'description: Explains failures to the user.',
      'next: []',
      'content_type: error_report',
    ]),
  );
  return root;
}

const checkFailed = agentMessage({
  content: null,
  contentType: 'check',
  status: 'failed',
  message: 'The request is out of scope',
  error: { code: 'OUT_OF_SCOPE', message: 'video editing is not supported' },
});

describe('status failed', () => {
  it('ends the chain and fails the result when the agent declares no on_failure', async () => {
    const root = onFailureRoot(false);
    const provider = scripted({ check_agent: [checkFailed], done_agent: [], error_agent: [] });
    const outcome = await runRequest(root, provider, 'edit my video', { requestId: 'req-failed' });
    provider.assertAllUsed();
    expect(provider.calls.map((call) => call.agent)).toEqual(['check_agent']);
    expect(outcome.status).toBe('failed');
    const result = readResult(root, 'req-failed');
    expect(result).toMatchObject({ status: 'failed', messages: 1, message: 'The request is out of scope' });
    expect(result.error).toMatchObject({ error_code: 'OUT_OF_SCOPE', error_message: 'video editing is not supported' });
    expect((await auditEntries(root)).map((entry) => entry.status.code)).toEqual(['failed']);
  });

  it('sends the failure to the on_failure agent', async () => {
    const root = onFailureRoot(true);
    const explained = agentMessage({
      content: { explanation: 'We analyse text, not video.' },
      contentType: 'error_report',
      next: null,
    });
    const provider = scripted({ check_agent: [checkFailed], error_agent: [explained], done_agent: [] });
    const outcome = await runRequest(root, provider, 'edit my video', { requestId: 'req-on-failure' });
    provider.assertAllUsed();
    expect(provider.calls.map((call) => call.agent)).toEqual(['check_agent', 'error_agent']);
    const [failed, handled] = messageRecords(journalOf(root, outcome.sessionId)).map((record) => record.message);
    expect(failed.status.code).toBe('failed');
    expect(handled.agent.name).toBe('error_agent');
    expect(handled.input.source).toBe('check_agent');
    expect(handled.input.content).toEqual(failed);
    expect(handled.metadata.parent_message_id).toBe(failed.message_id);
    expect(handled.metadata.sequence_number).toBe(2);
    expect(outcome.status).toBe('success');
    expect(readResult(root, 'req-on-failure')).toMatchObject({
      status: 'success',
      messages: 2,
      output: { explanation: 'We analyse text, not video.' },
    });
    expect((await verifyRoot(root)).ok).toBe(true);
  });
});

describe('pending and reply', () => {
  it('pauses with the question, then a reply resumes at the same agent with input.source "user"', async () => {
    const root = exampleRoot();
    const first = scripted({ objective_agent: [pendingObjective()] });
    const paused = await runRequest(root, first, 'Summarize it.', { requestId: 'req-pending' });
    first.assertAllUsed();
    expect(paused.status).toBe('pending');
    const pendingResult = readResult(root, 'req-pending');
    expect(pendingResult).toMatchObject({ status: 'pending', message: QUESTION, messages: 1 });
    expect(readReport(root, 'req-pending')).toContain('pending');

    // One script for the session: the new runtime goes on after the question the journal shows.
    const happy = happyResponses(TWO_TASKS);
    const rest = scripted({ ...happy, objective_agent: [pendingObjective(), ...happy.objective_agent] });
    const resumed = await withRuntime(root, rest, (runtime) =>
      runtime.runner.replyToSession(
        paused.sessionId,
        { text: REQUEST_TEXT, sourceFile: 'reply.json', claimedPath: null },
        new AbortController().signal,
      ),
    );
    rest.assertAllUsed();
    expect(resumed.status).toBe('success');
    expect(resumed.sessionId).toBe(paused.sessionId);
    expect(rest.calls[0].agent).toBe('objective_agent');

    const messages = messageRecords(journalOf(root, paused.sessionId)).map((record) => record.message);
    expect(messages.map((message) => message.metadata.sequence_number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const [question, answer] = messages;
    expect(answer.agent.name).toBe('objective_agent');
    expect(answer.input.source).toBe('user');
    expect(answer.input.content).toMatchObject({ reply: REQUEST_TEXT, question: QUESTION });
    expect(answer.metadata.parent_message_id).toBe(question.message_id);
    expect(new Set(messages.map((message) => message.metadata.session_id))).toEqual(new Set([paused.sessionId]));

    // The pending result is replaced by the final one.
    const finalResult = readResult(root, 'req-pending');
    expect(finalResult).toMatchObject({ status: 'success', messages: 7, session_id: paused.sessionId });
    expect(finalResult.message).not.toBe(QUESTION);
    expect(readReport(root, 'req-pending')).toMatch(/^# Result req-pending: success/);
    expect(await auditEntries(root)).toHaveLength(7);
    expect((await verifyRoot(root)).ok).toBe(true);

    // A second reply to a finished session is refused.
    await expect(
      withRuntime(root, scripted({}), (runtime) =>
        runtime.runner.replyToSession(
          paused.sessionId,
          { text: 'again', sourceFile: 'reply2.json', claimedPath: null },
          new AbortController().signal,
        ),
      ),
    ).rejects.toThrow(/already finished/);
  });

  it('exits 3 through the CLI, and `govflow run reply.json` resumes the session to success', async () => {
    const root = exampleRoot();
    // One script for both runs: the reply's process goes on after the question the journal shows.
    const happy = happyResponses(TWO_TASKS);
    useScriptFile(root, { ...happy, objective_agent: [pendingObjective(), ...happy.objective_agent] });
    const requestFile = writeFile(
      root,
      'request.json',
      JSON.stringify({ request: 'Summarize it.', request_id: 'req-cli-pending' }),
    );
    const first = await runCli(['run', requestFile, '--root', root, '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(3);
    const pending = JSON.parse(first.stdout);
    expect(pending).toMatchObject({ status: 'pending', message: QUESTION, request_id: 'req-cli-pending' });
    expect(readResult(root, 'req-cli-pending').status).toBe('pending');

    const replyFile = writeFile(
      root,
      'reply.json',
      JSON.stringify({ session_id: pending.session_id, reply: REQUEST_TEXT }),
    );
    const second = await runCli(['run', replyFile, '--root', root]);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^status: success/);
    const final = readResult(root, 'req-cli-pending');
    expect(final).toMatchObject({ status: 'success', messages: 7, session_id: pending.session_id });
    const messages = messageRecords(journalOf(root, pending.session_id)).map((record) => record.message);
    expect(messages[1].input.source).toBe('user');
    expect(messages[1].agent.name).toBe('objective_agent');

    // Replying again (the session has finished) or to an unknown session is bad input: exit 2.
    const again = await runCli(['run', replyFile, '--root', root]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already finished/);
    const unknown = await runCli([
      'run',
      writeFile(root, 'reply-unknown.json', JSON.stringify({ session_id: 'sess-none', reply: 'x' })),
      '--root',
      root,
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no session "sess-none"/);
  });
});
