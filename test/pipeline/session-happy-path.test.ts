import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PromptStore } from '../../src/store/prompt-store.js';
import { buildUserPrompt } from '../../src/pipeline/prompt-builder.js';
import {
  ConcurrencyProbe,
  RESULT_KEYS,
  REQUEST_TEXT,
  SUMMARY_CONTENT,
  TWO_TASKS,
  auditEntries,
  exampleRoot,
  exchangeRecords,
  happyResponses,
  journalOf,
  messageRecords,
  readReport,
  readResult,
  removeTempDirs,
  runRequest,
  scripted,
  verifyRoot,
} from './pipeline-test-helpers.js';

afterEach(removeTempDirs);

describe('happy path with a two-task plan', () => {
  it('commits six messages with gapless sequence numbers, right parents, a result, an audit chain and exact prompts', async () => {
    const root = exampleRoot();
    const provider = scripted(
      happyResponses([
        { id: 't1', agent: 'summarizer_agent' },
        { id: 't2', agent: 'action_item_agent', depends_on: ['t1'] },
      ]),
    );
    const outcome = await runRequest(root, provider, REQUEST_TEXT, { requestId: 'req-happy-1' });
    provider.assertAllUsed();
    expect(outcome.status).toBe('success');

    const records = journalOf(root, outcome.sessionId);
    const messages = messageRecords(records).map((record) => record.message);
    expect(messages.map((message) => message.agent.name)).toEqual([
      'objective_agent',
      'goal_agent',
      'planning_agent',
      'summarizer_agent',
      'action_item_agent',
      'final_output_agent',
    ]);
    // Commit order = journal order; sequence numbers 1..6 with no gap.
    expect(messages.map((message) => message.metadata.sequence_number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(messages.map((message) => message.message_id)).size).toBe(6);
    for (const message of messages) {
      expect(message.metadata.session_id).toBe(outcome.sessionId);
      expect(message.metadata.request_id).toBe('req-happy-1');
      expect(message.error.retry_count).toBe(0);
      expect(message.timestamp.timezone).toBe('UTC');
    }
    const [objective, goal, planning, summary, actions, final] = messages;
    expect(objective.metadata.parent_message_id).toBeNull();
    expect(objective.input).toEqual({ source: 'user', content: REQUEST_TEXT });
    expect(goal.metadata.parent_message_id).toBe(objective.message_id);
    expect(planning.metadata.parent_message_id).toBe(goal.message_id);
    expect(summary.metadata.parent_message_id).toBe(planning.message_id);
    expect(actions.metadata.parent_message_id).toBe(planning.message_id);
    expect(final.metadata.parent_message_id).toBe(planning.message_id);

    // t2 depends on t1: its input carries t1's output; t1's carries none.
    expect(summary.input.content).toEqual({
      task_id: 't1',
      instruction: `summarizer_agent: ${REQUEST_TEXT}`,
      dependencies: {},
    });
    expect(actions.input.content).toEqual({
      task_id: 't2',
      instruction: `action_item_agent: ${REQUEST_TEXT}`,
      dependencies: { t1: SUMMARY_CONTENT },
    });
    // The final agent receives all task results.
    const finalInput = final.input.content as { results: Array<{ task_id: string; status: string; output: unknown }> };
    expect(finalInput.results.map((result) => [result.task_id, result.status])).toEqual([
      ['t1', 'success'],
      ['t2', 'success'],
    ]);

    // Outbox: every SPEC §9 key, and a report with a mermaid diagram.
    const result = readResult(root, 'req-happy-1');
    for (const key of RESULT_KEYS) expect(result).toHaveProperty(key);
    expect(result).toMatchObject({
      request_id: 'req-happy-1',
      session_id: outcome.sessionId,
      source_file: 'request.txt',
      status: 'success',
      output: final.output.content,
      message: final.status.message,
      error: null,
      messages: 6,
    });
    expect(Object.keys(result.usage).sort()).toEqual(['cost_usd', 'input_tokens', 'output_tokens']);
    expect(Date.parse(result.started_at)).not.toBeNaN();
    expect(Date.parse(result.finished_at)).toBeGreaterThanOrEqual(Date.parse(result.started_at));
    const report = readReport(root, 'req-happy-1');
    expect(report).toMatch(/```mermaid\nflowchart TD\n[\s\S]*```/);
    expect(report).toContain('final_output_agent');

    // Audit: one entry per message, in commit order, chain intact.
    const entries = await auditEntries(root);
    expect(entries.map((entry) => entry.messageId)).toEqual(messages.map((message) => message.message_id));
    expect(entries.map((entry) => entry.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    const verified = await verifyRoot(root);
    expect(verified.ok, JSON.stringify(verified.firstProblem)).toBe(true);
    expect(verified.entries).toBe(6);

    // Journal exchanges hold the exact prompts the provider received.
    const exchanges = exchangeRecords(records);
    expect(exchanges).toHaveLength(6);
    const systemByHash = new Map<string, string>();
    // Exact system prompts are stored once per root, named by their hash.
    for (const exchange of exchanges)
      systemByHash.set(
        exchange.system_sha256,
        PromptStore.read(path.join(root, 'system', 'snapshots'), exchange.system_sha256),
      );
    exchanges.forEach((exchange, index) => {
      const call = provider.calls.find((candidate) => candidate.agent === exchange.agent)!;
      expect(exchange.prompt).toBe(call.prompt);
      expect(systemByHash.get(exchange.system_sha256)).toBe(call.system);
      expect(exchange.attempt).toBe(0);
      expect(exchange.history).toEqual([]);
      expect(exchange.agent).toBe(messages[index].agent.name);
    });
    expect(exchanges[0].prompt).toBe(`User request:\n${REQUEST_TEXT}`);
    expect(exchanges[1].prompt).toBe(buildUserPrompt({ source: 'objective_agent', content: objective }));
    // The objective message answered the user's text, so the goal agent sees it whole.
    expect(exchanges[1].prompt).toBe(`Input from "objective_agent" (JSON):\n${JSON.stringify(objective)}`);
    // The planning agent sees the goal message with its own input (the objective message) elided.
    const planningPrompt = exchanges.find((exchange) => exchange.agent === 'planning_agent')!.prompt;
    const seen = JSON.parse(planningPrompt.slice(planningPrompt.indexOf('\n') + 1));
    expect(seen.message_id).toBe(messages[1].message_id);
    expect(seen.output).toEqual(messages[1].output);
    expect(seen.input.source).toBe('objective_agent');
    expect(seen.input.content).toContain(`message ${objective.message_id} from objective_agent, omitted`);
    const t2Exchange = exchanges.find((exchange) => exchange.step === 'task:t2')!;
    expect(JSON.parse(t2Exchange.prompt.slice(t2Exchange.prompt.indexOf('\n') + 1))).toEqual({
      task_id: 't2',
      instruction: `action_item_agent: ${REQUEST_TEXT}`,
      dependencies: { t1: SUMMARY_CONTENT },
    });

    // System prompt: prompt.include files in order, then the agent's file, then the protocol block.
    const system = systemByHash.get(exchanges[0].system_sha256)!;
    const markers = [...system.matchAll(/^\[FILE: (.+)\]$/gm)].map((match) => match[1]);
    expect(markers).toEqual([
      'context/application.md',
      'governance/audit.md',
      'governance/message_format.md',
      'governance/agents/objective_agent.md',
    ]);
    const protocolAt = system.indexOf('[SYSTEM PROTOCOL: RESPONSE FORMAT]');
    expect(protocolAt).toBeGreaterThan(system.indexOf('[FILE: governance/agents/objective_agent.md]'));
    expect(system.slice(protocolAt)).not.toMatch(/^\[FILE: /m);
    const application = readFileSync(path.join(root, 'context/application.md'), 'utf8').trimEnd();
    expect(system).toContain(`[FILE: context/application.md]\n${'='.repeat(72)}\n${application}\n`);
    expect(system).toContain('You are "objective_agent" (governance)');
  });

  it('runs independent tasks in parallel by default, and one at a time with max_fan_out: 1', async () => {
    const independent = [
      { id: 't1', agent: 'summarizer_agent' as const },
      { id: 't2', agent: 'action_item_agent' as const },
    ];
    const slow = (responses: ReturnType<typeof happyResponses>) => {
      for (const agent of ['summarizer_agent', 'action_item_agent']) {
        responses[agent] = responses[agent].map((text) => ({ text: text as string, delay_ms: 40 }));
      }
      return responses;
    };

    const parallelRoot = exampleRoot();
    const parallel = new ConcurrencyProbe(scripted(slow(happyResponses(independent))));
    const parallelOutcome = await runRequest(parallelRoot, parallel);
    expect(parallelOutcome.status).toBe('success');
    expect(parallel.maxInFlight).toBe(2);

    const serialRoot = exampleRoot('limits:\n  max_fan_out: 1\n');
    const inner = scripted(slow(happyResponses(independent)));
    const serial = new ConcurrencyProbe(inner);
    const serialOutcome = await runRequest(serialRoot, serial);
    expect(serialOutcome.status).toBe('success');
    expect(serial.maxInFlight).toBe(1);
    inner.assertAllUsed();

    for (const [root, outcome] of [
      [parallelRoot, parallelOutcome],
      [serialRoot, serialOutcome],
    ] as const) {
      const messages = messageRecords(journalOf(root, outcome.sessionId)).map((record) => record.message);
      expect(messages.map((message) => message.metadata.sequence_number)).toEqual([1, 2, 3, 4, 5, 6]);
      const plan = messages[2];
      for (const task of messages.slice(3, 5)) {
        expect(task.metadata.parent_message_id).toBe(plan.message_id);
        // Independent tasks get no dependency outputs.
        expect((task.input.content as { dependencies: unknown }).dependencies).toEqual({});
      }
      expect(messages[5].metadata.parent_message_id).toBe(plan.message_id);
      expect((await verifyRoot(root)).ok).toBe(true);
    }
  });
});

describe('orchestrator-owned fields', () => {
  it('overwrites what the model wrote there and the audit entry says what was corrected', async () => {
    const root = exampleRoot();
    const responses = happyResponses(TWO_TASKS);
    const forged = JSON.parse(responses.objective_agent[0] as string);
    forged.metadata = {
      session_id: 'sess-forged',
      request_id: 'req-forged',
      sequence_number: 99,
      parent_message_id: 'x',
    };
    forged.message_id = 'my-own-id';
    forged.agent = { name: 'final_output_agent', type: 'operational' };
    forged.error.retry_count = 7;
    forged.audit.governance_files_consulted = ['context/application.md', 'governance/secret.md'];
    responses.objective_agent = [JSON.stringify(forged)];
    const provider = scripted(responses);
    const outcome = await runRequest(root, provider, REQUEST_TEXT, { requestId: 'req-owned' });
    provider.assertAllUsed();
    expect(outcome.status).toBe('success');
    const [record] = messageRecords(journalOf(root, outcome.sessionId));
    expect(record.message.metadata).toEqual({
      session_id: outcome.sessionId,
      request_id: 'req-owned',
      sequence_number: 1,
      parent_message_id: null,
    });
    expect(record.message.message_id).not.toBe('my-own-id');
    expect(record.message.agent).toEqual({ name: 'objective_agent', type: 'governance' });
    expect(record.message.error.retry_count).toBe(0);
    const [entry] = await auditEntries(root);
    for (const field of [
      'message_id',
      'agent.name',
      'metadata.session_id',
      'metadata.request_id',
      'metadata.sequence_number',
      'metadata.parent_message_id',
      'error.retry_count',
    ]) {
      expect(
        entry.corrections.some((correction) => correction.startsWith(`${field}:`)),
        field,
      ).toBe(true);
    }
    expect(entry.complianceViolations.join(' ')).toContain('governance/secret.md');
    expect(entry.complianceViolations.join(' ')).not.toContain('context/application.md');
  });
});
