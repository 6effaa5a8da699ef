/**
 * SPEC §23's `answer: <expression>` (in §24's language): evaluated over a session's final message
 * as the runner committed it (a real run with the scripted provider, its journal folded), with
 * `request` and `agents`; a failing expression is reported so the caller can fall back; `govflow
 * validate` checks the expression with its line; the result's `answer` is what it gives
 * (src/pipeline/result-answer.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { loadGovernance } from '../../src/governance/governance-loader.js';
import { answerFromExpression } from '../../src/pipeline/answer-expression.js';
import { foldRecords } from '../../src/pipeline/session-state.js';
import {
  agentFile,
  agentMessage,
  journalOf,
  makeTempDir,
  removeTempDirs,
  runRequest,
  scripted,
  writeFile,
} from '../pipeline/pipeline-test-helpers.js';
import { runValidate } from '../foundation/governance-root.js';

afterEach(removeTempDirs);

function root(answer: string): string {
  const folder = makeTempDir('govflow-answer-');
  writeFile(folder, 'govflow.config.yaml', 'timezone: UTC\n');
  writeFile(folder, 'context/application.md', '# Application\nWrites reports.\n');
  writeFile(
    folder,
    'governance/agents/reader_agent.md',
    agentFile(['name: reader_agent', 'type: governance', 'description: Reads.', 'entry: true', 'next: [report_agent]']),
  );
  writeFile(
    folder,
    'governance/agents/report_agent.md',
    agentFile([
      'name: report_agent',
      'type: operational',
      'description: Reports.',
      'next: []',
      'content_type: report',
      `answer: '${answer}'`,
    ]),
  );
  return folder;
}

async function finalAnswer(answer: string) {
  const folder = root(answer);
  const provider = scripted({
    reader_agent: [agentMessage({ content: { pages: 12 }, contentType: 'text', next: 'report_agent' })],
    report_agent: [
      agentMessage({ content: { summary: 'All good.', score: 0.9, tags: ['a', 'b'] }, contentType: 'report' }),
    ],
  });
  const outcome = await runRequest(folder, provider, 'Report on the file', { requestId: 'req-answer' });
  expect(outcome.status).toBe('success');
  const state = foldRecords(journalOf(folder, outcome.sessionId));
  const { snapshot } = loadGovernance(loadConfig(folder, {}));
  const final = state.messages.at(-1)!.message;
  return answerFromExpression(snapshot!.agents.get('report_agent')!, final, state);
}

describe('answer: <expression>', () => {
  it('gives a string as is, from the message, the request and earlier agents', async () => {
    expect(
      await finalAnswer(
        'output.content.summary + " (" + string(agents.reader_agent.output.content.pages) + " pages, for: " + request.text + ")"',
      ),
    ).toEqual({ ok: true, answer: 'All good. (12 pages, for: Report on the file)' });
  });

  it('gives anything else as JSON', async () => {
    expect(await finalAnswer('output.content.tags')).toEqual({ ok: true, answer: '["a","b"]' });
    expect(await finalAnswer('output.content.score > 0.5')).toEqual({ ok: true, answer: 'true' });
  });

  it('reports an expression that cannot be evaluated, so the default answer applies', async () => {
    const result = await finalAnswer('output.content.missing');
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^answer: output\.content\.missing: .*missing/),
    });
  });

  it("decides the result's answer; one that cannot be evaluated leaves the default reading", async () => {
    const resultOf = async (answer: string, requestId: string) => {
      const folder = root(answer);
      const provider = scripted({
        reader_agent: [agentMessage({ content: { pages: 12 }, contentType: 'text', next: 'report_agent' })],
        report_agent: [agentMessage({ content: { summary: 'All good.', score: 0.9 }, contentType: 'report' })],
      });
      expect((await runRequest(folder, provider, 'Report on the file', { requestId })).status).toBe('success');
      return JSON.parse(readFileSync(path.join(folder, 'system', 'outbox', `${requestId}.json`), 'utf8'));
    };
    const decided = await resultOf('output.content.summary + " (" + string(output.content.score) + ")"', 'req-a1');
    expect(decided.answer).toBe('All good. (0.9)');
    const fallback = await resultOf('output.content.missing', 'req-a2');
    expect(fallback.answer).toBe(fallback.message);
  });

  it('is checked by govflow validate with its line', async () => {
    const folder = root('outpt.content.summary');
    const run = await runValidate(['--root', folder]);
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toMatch(
      /governance\/agents\/report_agent\.md:7\b.*answer "outpt\.content\.summary" names unknown variable "outpt"/,
    );
  });
});
