/**
 * The repository's example app with tools: summarizer_agent is offered write_file and list_files.
 * The shipped script (examples/scripted-tools.yaml) makes it save summary.md and list it as
 * evidence; dry-run makes no tool call and still succeeds.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  auditEntries,
  exampleRoot,
  journalOf,
  removeTempDirs,
  runCli,
  verifyRoot,
} from '../pipeline/pipeline-test-helpers.js';
import { REPOSITORY_ROOT } from '../support/example-app.js';

afterEach(removeTempDirs);

const NOTE = 'Summarize this meeting note: Ana will send the budget by Friday; Raj books the venue.';

describe('example app with tools', () => {
  it('the scripted run writes the summary in the workspace and records it as evidence', async () => {
    const root = exampleRoot(
      `provider: { kind: scripted, script: ${JSON.stringify(path.join(REPOSITORY_ROOT, 'examples/scripted-tools.yaml'))} }\n`,
    );
    const run = await runCli(['run', '-', '--root', root, '--json'], { stdin: NOTE, env: {} });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { session_id: string; status: string };
    expect(result.status).toBe('success');
    const summary = readFileSync(path.join(root, 'workspace', result.session_id, 'summary.md'), 'utf8');
    expect(summary).toMatch(/^# Summary\n/);
    const entry = (await auditEntries(root)).find((candidate) => candidate.agent === 'summarizer_agent')!;
    expect(entry.tools?.toolCalls?.map((call) => call.name)).toEqual(['write_file', 'list_files']);
    expect(entry.tools?.evidence).toEqual([
      { path: 'summary.md', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), bytes: Buffer.byteLength(summary) },
    ]);
    expect(journalOf(root, result.session_id).filter((record) => record.type === 'tool_result')).toHaveLength(2);
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it('dry-run offers the tools but calls none', async () => {
    const root = exampleRoot();
    const run = await runCli(['run', '-', '--root', root, '--json'], { stdin: NOTE, env: {} });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { session_id: string };
    expect(journalOf(root, result.session_id).some((record) => record.type === 'tool_turn')).toBe(false);
    expect(readdirSync(root)).not.toContain('workspace');
  });
});
