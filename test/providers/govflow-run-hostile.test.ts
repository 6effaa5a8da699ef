/**
 * `govflow run --json` against a hostile model (openai-compatible, loopback server): a
 * 100,000-deep answer, a 50 MB answer — and internal failures. Every case
 * prints a result document; none crashes the command.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLoopbackLlmServer, type LoopbackLlmServer } from '../llm/loopback-llm-server.js';
import {
  RESULT_KEYS,
  exampleRoot,
  journalOf,
  removeTempDirs,
  runCli,
  writeFile,
} from '../pipeline/pipeline-test-helpers.js';

let server: LoopbackLlmServer;

beforeEach(async () => {
  server = await startLoopbackLlmServer();
});

afterEach(async () => {
  await server.close();
  removeTempDirs();
});

const FIFTY_MB = 50 * 1024 * 1024;

function hostileRoot(extra = ''): string {
  return exampleRoot(
    `provider:\n  kind: openai-compatible\n  model: hostile-model\n  base_url: ${server.url}/v1\n${extra}`,
  );
}

async function runJson(root: string, text = 'Summarize: Ana sends the budget by Friday.') {
  const file = writeFile(root, 'request.txt', text);
  const run = await runCli(['run', file, '--root', root, '--json']);
  let result: Record<string, unknown> = {};
  try {
    result = JSON.parse(run.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(
      `stdout is not a result document (exit ${run.code}): ${run.stdout.slice(0, 300)}\nstderr: ${run.stderr.slice(0, 500)}`,
    );
  }
  return { ...run, result };
}

describe('govflow run --json with a hostile model', () => {
  it('a 100,000-deep answer: a failed VALIDATION_ERROR result after the repairs, not a stack overflow', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    server.reply({ kind: 'text', text: deep }, { kind: 'text', text: deep }, { kind: 'text', text: deep });
    const run = await runJson(hostileRoot());
    expect(run.code).toBe(1);
    for (const key of RESULT_KEYS) expect(run.result).toHaveProperty(key);
    expect(run.result).toMatchObject({ status: 'failed', error: { error_code: 'VALIDATION_ERROR' } });
    expect(String(run.result.message)).toContain('nests deeper than message.max_depth (64)');
    expect(server.requests).toHaveLength(3);
  });

  for (const stream of [true, false]) {
    // `govflow run` reads no chunks, so both settings ask plainly; a streamed flood is cut in
    // test/providers/real-path-bad-input.test.ts (10 MB of chunks to a chat stream).
    it(`a 50 MB answer with provider.stream ${stream}: cut at llm.max_output_bytes, a failed VALIDATION_ERROR result`, async () => {
      server.reply(
        { kind: 'flood', bytes: FIFTY_MB },
        { kind: 'flood', bytes: FIFTY_MB },
        { kind: 'flood', bytes: FIFTY_MB },
      );
      const testRoot = hostileRoot(`  stream: ${stream}\nllm: { timeout_ms: 600000 }\n`);
      const run = await runJson(testRoot);
      expect(run.code).toBe(1);
      expect(run.result).toMatchObject({ status: 'failed', error: { error_code: 'VALIDATION_ERROR' } });
      expect(String(run.result.message)).toContain('answer exceeded llm.max_output_bytes (1048576)');
      expect(server.requests).toHaveLength(3);
      await expect.poll(() => server.flood.cutByClient).toBe(3);
      expect(server.flood.finished).toBe(0);
      // The journal keeps the start of each cut answer, never megabytes of it.
      const sessionId = String(run.result.session_id);
      const journalBytes = JSON.stringify(journalOf(testRoot, sessionId)).length;
      expect(journalBytes).toBeLessThan(200_000);
    });
  }
});

describe('govflow run --json when something inside fails', () => {
  it('a provider adapter that returns no text: crash retries, then a failed PROCESSING_ERROR result', async () => {
    const scriptRoot = exampleRoot('provider:\n  kind: scripted\n  script: script.yaml\n');
    writeFile(
      scriptRoot,
      'script.yaml',
      'responses:\n  objective_agent:\n    - text: 42\n    - text: 42\n    - text: 42\n',
    );
    const run = await runJson(scriptRoot);
    expect(run.code).toBe(1);
    expect(run.result).toMatchObject({ status: 'failed', messages: 1, error: { error_code: 'PROCESSING_ERROR' } });
    expect(String(run.result.message)).toContain('(limits.max_crash_retries = 2)');
  });

  it('a result that cannot be written: the command still prints a failed result document', async () => {
    const scriptRoot = exampleRoot();
    // A folder where the result file must go makes the final rename fail, every time.
    mkdirSync(path.join(scriptRoot, 'system', 'outbox', 'blocked.json'), { recursive: true });
    const file = writeFile(
      scriptRoot,
      'request.json',
      JSON.stringify({ request: 'Summarize: Ana sends the budget.', request_id: 'blocked' }),
    );
    const run = await runCli(['run', file, '--root', scriptRoot, '--json']);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    for (const key of RESULT_KEYS) expect(result).toHaveProperty(key);
    expect(result).toMatchObject({
      request_id: 'blocked',
      status: 'failed',
      error: { error_code: 'PROCESSING_ERROR' },
    });
    expect(String(result.session_id)).toMatch(/^sess-/);
    expect(run.stderr).toContain('internal error');
  });
});
