import { afterEach, describe, expect, it } from 'vitest';
import { buildRepairPrompt } from '../../src/pipeline/prompt-builder.js';
import {
  REQUEST_TEXT,
  RecordingProvider,
  agentMessage,
  auditEntries,
  exampleRoot,
  happyResponses,
  journalOf,
  messageRecords,
  readResult,
  removeTempDirs,
  runRequest,
  scripted,
  verifyRoot,
  type PlanTaskSpec,
} from './pipeline-test-helpers.js';

afterEach(removeTempDirs);

const DEPENDENT: PlanTaskSpec[] = [
  { id: 't1', agent: 'summarizer_agent' },
  { id: 't2', agent: 'action_item_agent', depends_on: ['t1'] },
];

describe('plans', () => {
  it('skips tasks whose dependency failed and still hands every result to the next agent', async () => {
    const root = exampleRoot();
    const responses = happyResponses(DEPENDENT);
    responses.summarizer_agent = [
      agentMessage({
        content: null,
        contentType: 'summary',
        status: 'failed',
        message: 'The text is empty',
        error: { code: 'PROCESSING_ERROR', message: 'nothing to summarise' },
      }),
    ];
    responses.action_item_agent = [];
    const provider = scripted(responses);
    const outcome = await runRequest(root, provider, REQUEST_TEXT, { requestId: 'req-plan-fail' });
    provider.assertAllUsed();
    expect(provider.calls.map((call) => call.agent)).toEqual([
      'objective_agent',
      'goal_agent',
      'planning_agent',
      'summarizer_agent',
      'final_output_agent',
    ]);
    const messages = messageRecords(journalOf(root, outcome.sessionId)).map((record) => record.message);
    expect(messages.map((message) => message.metadata.sequence_number)).toEqual([1, 2, 3, 4, 5]);
    const final = messages[4];
    expect(final.metadata.parent_message_id).toBe(messages[2].message_id);
    const results = (final.input.content as { results: Array<{ task_id: string; status: string }> }).results;
    expect(results.map((result) => [result.task_id, result.status])).toEqual([
      ['t1', 'failed'],
      ['t2', 'skipped'],
    ]);
    expect(outcome.status).toBe('success');
    expect(readResult(root, 'req-plan-fail').messages).toBe(5);
  });

  it('sends an invalid plan back for repair (unknown agent, cycle)', async () => {
    const root = exampleRoot();
    const responses = happyResponses(DEPENDENT);
    const badPlan = agentMessage({
      content: {
        tasks: [
          { id: 'a', agent: 'goal_agent', instruction: 'x', depends_on: [] },
          { id: 'b', agent: 'summarizer_agent', instruction: 'y', depends_on: ['c'] },
          { id: 'c', agent: 'summarizer_agent', instruction: 'z', depends_on: ['b'] },
        ],
      },
      contentType: 'plan',
      next: 'final_output_agent',
    });
    responses.planning_agent.unshift(badPlan);
    const inner = scripted(responses);
    const provider = new RecordingProvider(inner);
    const outcome = await runRequest(root, provider);
    inner.assertAllUsed();
    expect(outcome.status).toBe('success');
    const repair = provider.requests.filter((request) => request.agent === 'planning_agent')[1];
    expect(repair.prompt).toBe(
      buildRepairPrompt([
        '/output/content/tasks/0/agent: "goal_agent" is not an executional agent; use one of action_item_agent, summarizer_agent',
      ]),
    );
    const planMessage = messageRecords(journalOf(root, outcome.sessionId))[2];
    expect(planMessage.plan?.tasks.map((task) => task.id)).toEqual(['t1', 't2']);
    expect(planMessage.message.error.retry_count).toBe(1);
  });

  it('a task that times out in a parallel plan fails its own result only', async () => {
    const root = exampleRoot('llm:\n  timeout_ms: 100\n  max_attempts: 1\n');
    const tasks: PlanTaskSpec[] = [
      { id: 't1', agent: 'summarizer_agent' },
      { id: 't2', agent: 'action_item_agent' },
    ];
    const responses = happyResponses(tasks);
    responses.summarizer_agent = [{ text: responses.summarizer_agent[0] as string, delay_ms: 1000 }];
    const provider = scripted(responses);
    const outcome = await runRequest(root, provider, REQUEST_TEXT);
    provider.assertAllUsed();
    const messages = messageRecords(journalOf(root, outcome.sessionId)).map((record) => record.message);
    // The two tasks commit in whichever order they finish (under load the timeout may come first).
    expect(messages.map((message) => message.agent.name).slice(0, 3)).toEqual([
      'objective_agent',
      'goal_agent',
      'planning_agent',
    ]);
    expect(
      messages
        .slice(3, 5)
        .map((message) => message.agent.name)
        .sort(),
    ).toEqual(['action_item_agent', 'summarizer_agent']);
    expect(messages[5].agent.name).toBe('final_output_agent');
    const summarizer = messages.find((message) => message.agent.name === 'summarizer_agent')!;
    const actionItems = messages.find((message) => message.agent.name === 'action_item_agent')!;
    expect(summarizer.error).toMatchObject({ error_code: 'TIMEOUT', recoverable: true });
    expect(actionItems.status.code).toBe('success');
    expect(messages.map((message) => message.metadata.sequence_number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await auditEntries(root)).map((entry) => entry.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await verifyRoot(root)).ok).toBe(true);
  });
});
