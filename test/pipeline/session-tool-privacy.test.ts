/**
 * Tool results go through the session's privacy rules (SPEC §12) before they are journaled or
 * shown to the model: PII becomes placeholders, `tool_result` guardrails redact, retry or intervene.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VAULT_FILE_NAME } from '../../src/privacy/pii-vault.js';
import type { ScriptedResponse } from '../../src/llm/scripted-provider.js';
import { openRuntime } from '../../src/daemon/runtime.js';
import {
  agentFile,
  agentMessage,
  auditEntries,
  journalOf,
  makeTempDir,
  removeTempDirs,
  scripted,
  verifyRoot,
  writeFile,
} from './pipeline-test-helpers.js';

afterEach(removeTempDirs);

const filesUnder = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((item) =>
    item.isDirectory() ? filesUnder(path.join(folder, item.name)) : [path.join(folder, item.name)],
  );

function toolRoot(config: string): string {
  const root = makeTempDir('govflow-tool-privacy-');
  writeFile(root, 'govflow.config.yaml', `timezone: UTC\n${config}`);
  writeFile(root, 'context/application.md', '# App\nWrites reports.\n');
  writeFile(
    root,
    'governance/agents/writer_agent.md',
    agentFile([
      'name: writer_agent',
      'type: executional',
      'description: Writes reports.',
      'entry: true',
      'next: []',
      'content_type: report',
      'tools: [write_file, read_file]',
    ]),
  );
  return root;
}

const calls = (...entries: Array<{ name: string; input: unknown; id: string }>): ScriptedResponse => ({
  tool_calls: entries,
});
const answer = agentMessage({ content: { report: 'done' }, contentType: 'report' });

async function run(root: string, responses: Array<string | ScriptedResponse>) {
  const runtime = await openRuntime(root, { provider: scripted({ writer_agent: responses }), env: {} });
  try {
    return await runtime.runner.startSession(
      { requestId: 'req-tp', text: 'Write the report.', sourceFile: 'request.txt', claimedPath: null },
      new AbortController().signal,
    );
  } finally {
    await runtime.close();
  }
}

const toolResults = (root: string, sessionId: string) =>
  journalOf(root, sessionId).filter((record) => record.type === 'tool_result') as unknown as Array<{
    id: string;
    output: string;
    is_error: boolean;
  }>;

describe('tool results and privacy', () => {
  it('PII in a tool result is replaced by its placeholder before the journal and the model see it', async () => {
    const root = toolRoot('pii: { redact: [email] }\n');
    const outcome = await run(root, [
      calls({
        name: 'write_file',
        input: { path: 'contacts.txt', content: 'Write to ana.lopez@example.org today.' },
        id: 'w1',
      }),
      calls({ name: 'read_file', input: { path: 'contacts.txt' }, id: 'r1' }),
      answer,
    ]);
    expect(outcome.status).toBe('success');
    const read = toolResults(root, outcome.sessionId).find((record) => record.id === 'r1')!;
    expect(read.output).toContain('[EMAIL_1]');
    expect(read.output).not.toContain('ana.lopez@example.org');
    const [entry] = await auditEntries(root);
    expect(entry.body).toContain('[PII_REDACTED]: {"email":1}');
    expect(entry.body).not.toContain('ana.lopez@example.org');
  });

  it("PII in a tool call's arguments is redacted before the call is journaled or run: the original is only in the vault", async () => {
    const root = toolRoot('pii: { redact: [email] }\n');
    const outcome = await run(root, [
      calls({
        name: 'write_file',
        input: { path: 'contacts.txt', content: 'Write to ana.lopez@example.org today.' },
        id: 'w1',
      }),
      answer,
    ]);
    expect(outcome.status).toBe('success');
    const turn = journalOf(root, outcome.sessionId).find((record) => record.type === 'tool_turn') as unknown as {
      calls: Array<{ input: { content: string } }>;
    };
    expect(turn.calls[0].input.content).toBe('Write to [EMAIL_1] today.');
    const [entry] = await auditEntries(root);
    expect(entry.body).toContain('[PII_REDACTED]: {"email":1}');
    // SPEC §12: never in any file under system/ but the vault (journal, logs, workspace, result).
    const holders = filesUnder(path.join(root, 'system')).filter((file) =>
      readFileSync(file, 'utf8').includes('ana.lopez@example.org'),
    );
    expect(holders.map((file) => path.basename(file))).toEqual([VAULT_FILE_NAME]);
  });

  it('an intervene rule on tool_result fails the step with OUT_OF_SCOPE and is on the audit entry', async () => {
    const root = toolRoot(
      'guardrails:\n  - { name: no-secrets, on: tool_result, match: { regex: "TOP SECRET" }, action: intervene, message: "Classified material." }\n',
    );
    const outcome = await run(root, [
      calls({ name: 'write_file', input: { path: 'memo.txt', content: 'TOP SECRET: launch codes' }, id: 'w1' }),
      calls({ name: 'read_file', input: { path: 'memo.txt' }, id: 'r1' }),
    ]);
    expect(outcome.status).toBe('failed');
    expect(outcome.result.error).toMatchObject({ error_code: 'OUT_OF_SCOPE' });
    expect(outcome.result.message).toContain('guardrail "no-secrets" intervened on the tool_result');
    expect(toolResults(root, outcome.sessionId).find((record) => record.id === 'r1')!.is_error).toBe(true);
    const [entry] = await auditEntries(root);
    expect(entry.body).toContain('[GUARDRAILS]: [{"rule":"no-secrets","action":"intervene"}]');
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it('a retry rule on tool_result gives the model an error result with the rule message instead', async () => {
    const root = toolRoot(
      'guardrails:\n  - { name: no-internal, on: tool_result, match: { regex: "INTERNAL" }, action: retry, message: "Do not use internal files." }\n',
    );
    const outcome = await run(root, [
      calls({ name: 'write_file', input: { path: 'memo.txt', content: 'INTERNAL numbers' }, id: 'w1' }),
      calls({ name: 'read_file', input: { path: 'memo.txt' }, id: 'r1' }),
      answer,
    ]);
    expect(outcome.status).toBe('success');
    const read = toolResults(root, outcome.sessionId).find((record) => record.id === 'r1')!;
    expect(read).toMatchObject({ is_error: true, output: 'guardrail "no-internal": Do not use internal files.' });
  });
});

describe('a tool that throws', () => {
  it('is a crash of the step: retried up to limits.max_crash_retries, then a failed result with PROCESSING_ERROR, never a dead process', async () => {
    const root = toolRoot('limits: { max_crash_retries: 1 }\n');
    const responses = [
      calls({ name: 'write_file', input: { path: 'a.txt', content: 'x' }, id: 'w1' }),
      calls({ name: 'write_file', input: { path: 'a.txt', content: 'x' }, id: 'w1' }),
    ];
    const runtime = await openRuntime(root, { provider: scripted({ writer_agent: responses }), env: {} });
    let thrown = 0;
    // A defect inside a tool (not an error result): the call throws.
    runtime.tools.call = async () => {
      thrown += 1;
      throw new TypeError('tool exploded');
    };
    try {
      const outcome = await runtime.runner.startSession(
        { requestId: 'req-throw', text: 'Write it.', sourceFile: 'request.txt', claimedPath: null },
        new AbortController().signal,
      );
      expect(outcome.status).toBe('failed');
      expect(outcome.result.error).toMatchObject({ error_code: 'PROCESSING_ERROR' });
      expect(outcome.result.message).toContain('TypeError: tool exploded');
      expect(thrown).toBe(2);
      const crashes = journalOf(root, outcome.sessionId).filter((record) => record.type === 'crash');
      expect(crashes).toHaveLength(2);
    } finally {
      await runtime.close();
    }
    expect((await verifyRoot(root)).ok).toBe(true);
  });
});
