/**
 * `govflow run` on the example app: dry-run with no config, `--json`, `-` for standard input —
 * in process through main(), and once as a real child process of bin/govflow.js.
 */
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  REPOSITORY_ROOT,
  REQUEST_TEXT,
  RESULT_KEYS,
  auditEntries,
  journalOf,
  makeTempDir,
  messageRecords,
  readResult,
  removeTempDirs,
  runCli,
  verifyRoot,
  writeFile,
} from './pipeline-test-helpers.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { CLI } from '../daemon/daemon-helpers.js';

/** A copy of the example app with no govflow.config.yaml: the dry-run provider. */
function unconfiguredRoot(): string {
  const root = makeTempDir();
  for (const folder of ['governance', 'context', 'schemas'])
    cpSync(path.join(REPOSITORY_ROOT, folder), path.join(root, folder), { recursive: true });
  return root;
}

function expectResultDocument(result: Record<string, unknown>) {
  for (const key of RESULT_KEYS) expect(result).toHaveProperty(key);
  expect(result.status).toBe('success');
  expect(result.messages).toBe(6);
  expect(result.error).toBeNull();
  expect(typeof result.request_id).toBe('string');
  expect(typeof result.session_id).toBe('string');
  expect(result.usage).toEqual({
    input_tokens: expect.any(Number),
    output_tokens: expect.any(Number),
    cost_usd: expect.any(Number),
  });
}

describe('govflow run in process', () => {
  afterEach(removeTempDirs);

  it('runs the example app in dry-run with no config: success, exit 0, --json prints the result', async () => {
    const root = unconfiguredRoot();
    const requestFile = writeFile(root, 'request.txt', REQUEST_TEXT);
    const run = await runCli(['run', requestFile, '--root', root, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expectResultDocument(result);
    expect(result.source_file).toBe('request.txt');
    expect(readResult(root, result.request_id)).toEqual(result);
    const messages = messageRecords(journalOf(root, result.session_id));
    expect(messages.map((record) => record.message.agent.name)).toEqual([
      'objective_agent',
      'goal_agent',
      'planning_agent',
      expect.any(String),
      expect.any(String),
      'final_output_agent',
    ]);
    const entries = await auditEntries(root);
    expect(entries).toHaveLength(6);
    expect(entries.every((entry) => entry.notes.some((note) => /dry-run/i.test(note)))).toBe(true);
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it('reads the request from standard input with -', async () => {
    const root = unconfiguredRoot();
    const run = await runCli(['run', '-', '--root', root, '--json'], {
      stdin: JSON.stringify({ request: REQUEST_TEXT, request_id: 'req-from-stdin' }),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expectResultDocument(result);
    expect(result.request_id).toBe('req-from-stdin');
    expect(messageRecords(journalOf(root, result.session_id))[0].message.input.content).toBe(REQUEST_TEXT);

    const plain = await runCli(['run', '-', '--root', root], { stdin: 'Summarize: the build is green.' });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^status: success\n/);
  });

  it('refuses a request_id that was already processed (a second file with the same id)', async () => {
    const root = unconfiguredRoot();
    const body = JSON.stringify({ request: REQUEST_TEXT, request_id: 'req-once' });
    const first = writeFile(root, 'first.json', body);
    const second = writeFile(root, 'second.json', body);
    expect((await runCli(['run', first, '--root', root])).code).toBe(0);
    const sessionOfFirst = readResult(root, 'req-once').session_id;
    const again = await runCli(['run', second, '--root', root]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/duplicate request_id "req-once"/);
    expect(readResult(root, 'req-once').session_id).toBe(sessionOfFirst);
  });

  it('refuses a request_id already processed when the same request is piped twice to run -', async () => {
    const root = unconfiguredRoot();
    const body = JSON.stringify({ request: REQUEST_TEXT, request_id: 'req-once' });
    expect((await runCli(['run', '-', '--root', root], { stdin: body })).code).toBe(0);
    const again = await runCli(['run', '-', '--root', root], { stdin: body });
    expect(again.code).toBe(2);
  });
});

describe('govflow run as a child process', () => {
  // bin/govflow.js runs dist/, built once per vitest run from the current sources (never stale).
  beforeAll(buildDistOnce, 180_000);
  afterAll(removeTempDirs);

  it('`govflow run - --json` reads stdin and exits 0 with the SPEC §9 object', () => {
    const root = unconfiguredRoot();
    const child = spawnSync(process.execPath, [CLI, 'run', '-', '--root', root, '--json'], {
      input: REQUEST_TEXT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const result = JSON.parse(child.stdout);
    expectResultDocument(result);
    expect(result.source_file).toBe('stdin.txt');
    expect(readResult(root, result.request_id)).toEqual(result);
  });

  it('exits 1 for a failed result and 3 for a pending one', () => {
    const root = unconfiguredRoot();
    const script = {
      responses: {
        objective_agent: [
          'not json',
          'not json',
          'not json',
          JSON.stringify({
            output: { content: null, content_type: 'objectives' },
            next_agent: { name: null, reason: 'need the text' },
            status: { code: 'pending', message: 'Which text?' },
            error: { has_error: false, error_code: null, error_message: null, retry_count: null, recoverable: false },
            audit: { compliance_notes: 'asked', governance_files_consulted: [] },
          }),
        ],
      },
    };
    writeFile(root, 'script.json', JSON.stringify(script));
    writeFile(root, 'govflow.config.yaml', 'timezone: UTC\nprovider:\n  kind: scripted\n  script: script.json\n');
    const run = (text: string) =>
      spawnSync(process.execPath, [CLI, 'run', '-', '--root', root], {
        input: text,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '' },
        timeout: 60_000,
      });
    const failed = run('first request');
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/^status: failed/);
    expect(failed.stdout).toMatch(/VALIDATION_ERROR/);
    // A new session in a new process starts each agent's list again: use a script whose first answer is pending.
    script.responses.objective_agent.splice(0, 3);
    writeFile(root, 'script.json', JSON.stringify(script));
    const pending = run('second request');
    expect(pending.status).toBe(3);
    expect(pending.stdout).toMatch(/^status: pending\n[\s\S]*message: Which text\?/);
  });
});
