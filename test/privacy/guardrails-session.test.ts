/** Guardrail actions through a real session (in process, scripted model, real files). */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { GovernanceSource } from '../../src/daemon/governance-source.js';
import {
  agentMessage,
  auditEntries,
  exampleRoot,
  happyResponses,
  journalOf,
  messageRecords,
  removeTempDirs,
  runRequest,
  scripted,
  writeFile,
} from '../pipeline/pipeline-test-helpers.js';

afterEach(removeTempDirs);

const objectives = (content: unknown) => agentMessage({ content, contentType: 'objectives', next: 'goal_agent' });
const TASKS = [{ id: 't1', agent: 'summarizer_agent' as const }];

function rules(lines: string[]): string {
  return `guardrails:\n${lines.map((line) => `  - ${line}`).join('\n')}\n`;
}

describe('guardrail actions in a session', () => {
  it('retry: the rule message goes back to the model and the answer after it is committed', async () => {
    const root = exampleRoot(
      rules([
        '{ name: english-only, on: output, match: { script: Han }, action: retry, message: "Answer in English." }',
      ]),
    );
    const responses = happyResponses(TASKS);
    responses.objective_agent = [objectives(['总结会议']), objectives(['Summarize the meeting'])];
    const provider = scripted(responses);
    const outcome = await runRequest(root, provider);
    provider.assertAllUsed();
    expect(outcome.status).toBe('success');
    const retried = provider.calls.filter((call) => call.agent === 'objective_agent');
    expect(retried[1].prompt).toContain('guardrail "english-only": Answer in English.');
    const first = messageRecords(journalOf(root, outcome.sessionId))[0];
    expect(first.message.output.content).toEqual(['Summarize the meeting']);
    expect(first.message.error.retry_count).toBe(1);
    const entries = await auditEntries(root);
    expect(entries[0].body).toContain('[GUARDRAILS]: [{"rule":"english-only","action":"retry"}]');
  });

  it('retry counts toward max_retries: past them the step records the VALIDATION_ERROR fallback', async () => {
    const root = exampleRoot(
      `limits: { max_retries: 1 }\n${rules(['{ name: english-only, on: output, match: { script: Han }, action: retry, message: "Answer in English." }'])}`,
    );
    const provider = scripted({ objective_agent: [objectives(['总结']), objectives(['再总结'])] });
    const outcome = await runRequest(root, provider);
    provider.assertAllUsed();
    expect(outcome.status).toBe('failed');
    const [message] = messageRecords(journalOf(root, outcome.sessionId)).map((record) => record.message);
    expect(message.error.error_code).toBe('VALIDATION_ERROR');
    expect(message.status.message).toContain('Answer in English.');
  });

  it('intervene on input: no model call, status failed, on_failure routing', async () => {
    const root = exampleRoot(
      rules([
        '{ name: no-wire, on: input, match: { regex: "(?i)wire .* to account" }, action: intervene, message: "Payment instructions are out of scope." }',
      ]),
    );
    const agentFile = path.join(root, 'governance', 'agents', 'objective_agent.md');
    writeFileSync(
      agentFile,
      readFileSync(agentFile, 'utf8').replace(
        'next: [goal_agent]',
        'next: [goal_agent]\non_failure: final_output_agent',
      ),
    );
    const provider = scripted({
      final_output_agent: [agentMessage({ content: { answer: 'Refused.' }, contentType: 'final_report', next: null })],
    });
    const outcome = await runRequest(root, provider, 'Please WIRE 5000 EUR to account 12345 today.');
    provider.assertAllUsed();
    expect(provider.calls.map((call) => call.agent)).toEqual(['final_output_agent']);
    const messages = messageRecords(journalOf(root, outcome.sessionId)).map((record) => record.message);
    expect(messages[0].status.code).toBe('failed');
    expect(messages[0].error.error_code).toBe('OUT_OF_SCOPE');
    expect(messages[0].status.message).toBe(
      'guardrail "no-wire" intervened on the input: Payment instructions are out of scope.',
    );
    expect(messages[1].agent.name).toBe('final_output_agent');
    expect((await auditEntries(root))[0].body).toContain('[GUARDRAILS]: [{"rule":"no-wire","action":"intervene"}]');
  });

  it('intervene on output: the answer is committed as failed and the chain ends', async () => {
    const root = exampleRoot(rules(['{ name: short, on: output, match: { max_chars: 20 }, action: intervene }']));
    const provider = scripted({ objective_agent: [objectives(['a very long objective that goes on and on'])] });
    const outcome = await runRequest(root, provider);
    expect(outcome.status).toBe('failed');
    const [message] = messageRecords(journalOf(root, outcome.sessionId)).map((record) => record.message);
    expect(message.output.content).toEqual(['a very long objective that goes on and on']);
    expect(message.status.message).toMatch(
      /^guardrail "short" intervened on the output: text is \d+ characters, over max_chars 20$/,
    );
    expect(message.error).toMatchObject({ has_error: true, error_code: 'OUT_OF_SCOPE', recoverable: false });
  });

  it('redact on input changes what the model sees; flag on output becomes a compliance note', async () => {
    const root = exampleRoot(
      rules([
        '{ name: mask-codes, on: input, match: { regex: "CODE-[0-9]+" }, action: redact }',
        '{ name: mentions-budget, on: output, match: { regex: "(?i)budget" }, action: flag }',
      ]),
    );
    const responses = happyResponses(TASKS);
    responses.objective_agent = [objectives(['Plan the budget'])];
    const provider = scripted(responses);
    const outcome = await runRequest(root, provider, 'Summarize the note about CODE-4471 and its budget.');
    expect(outcome.status).toBe('success');
    expect(provider.calls[0].prompt).toContain('[REDACTED:mask-codes]');
    expect(provider.calls[0].prompt).not.toContain('CODE-4471');
    const [first] = messageRecords(journalOf(root, outcome.sessionId)).map((record) => record.message);
    expect(first.audit.compliance_notes).toContain('Guardrail "mentions-budget" flagged: text matched /(?i)budget/');
    expect((await auditEntries(root))[0].body).toContain(
      '[GUARDRAILS]: [{"rule":"mask-codes","action":"redact"},{"rule":"mentions-budget","action":"flag"}]',
    );
  });
});

describe('hot reload of governance/guardrails.md', () => {
  it('a YAML error keeps the last good rules and says why, with file and line', () => {
    const root = exampleRoot();
    const file = writeFile(
      root,
      'governance/guardrails.md',
      '---\nguardrails:\n  - { name: a, on: output, match: { max_chars: 9 }, action: flag }\n---\n# Why\n',
    );
    const { source } = GovernanceSource.load(loadConfig(root, {}));
    expect(source.current().guardrails.map((rule) => rule.name)).toEqual(['a']);
    writeFileSync(file, '---\nguardrails:\n  - { name: b, on: output, match: { max_chars: 9 }, action: flag\n---\n');
    const reload = source.reload();
    expect(reload.changed).toBe(false);
    expect(reload.errors[0].describe()).toMatch(/^governance\/guardrails\.md:\d+: invalid YAML/);
    expect(source.current().guardrails.map((rule) => rule.name)).toEqual(['a']);
    writeFileSync(file, '---\nguardrails:\n  - { name: c, on: input, match: { regex: "x" }, action: flag }\n---\n');
    expect(source.reload().changed).toBe(true);
    expect(source.current().guardrails.map((rule) => rule.name)).toEqual(['c']);
  });
});
