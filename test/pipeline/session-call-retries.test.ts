/**
 * SPEC §5: a model call that hangs is timed out per attempt (`llm.timeout_ms`) and retried up to
 * `llm.max_attempts`; then the message fails with TIMEOUT, recoverable. Real HTTP: the OpenAI wire
 * of a loopback server, through `govflow run` in process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { agentOf, exampleAppReply } from '../providers/example-app-responder.js';
import { startResponderLlmServer, systemPromptOf, type ResponderLlmServer } from '../providers/responder-llm-server.js';
import { auditEntries, exampleRoot, removeTempDirs, runCli, writeFile } from './pipeline-test-helpers.js';

let server: ResponderLlmServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  removeTempDirs();
});

function rootFor(url: string): string {
  return exampleRoot(
    [
      'provider: { kind: openai-compatible, model: local-model, base_url: ' + url + '/v1, stream: false }',
      'llm: { timeout_ms: 2000, max_attempts: 2, backoff_base_ms: 10 }',
      '',
    ].join('\n'),
  );
}

async function run(root: string) {
  const request = writeFile(root, 'request.txt', 'Summarize this meeting note: Ana sends the budget by Friday.');
  const outcome = await runCli(['run', request, '--root', root, '--json'], {
    env: { GOVFLOW_API_KEY: 'test-key-123456' },
  });
  return { ...outcome, result: outcome.stdout ? JSON.parse(outcome.stdout) : null };
}

describe('a model call that hangs', () => {
  it('is retried up to max_attempts, then the session fails with TIMEOUT, recoverable', async () => {
    server = await startResponderLlmServer(() => ({ kind: 'hang' }));
    const root = rootFor(server.url);
    const { code, stderr, result } = await run(root);
    expect(code, stderr).toBe(1);
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((request) => agentOf(systemPromptOf(request.body)))).toEqual([
      'objective_agent',
      'objective_agent',
    ]);
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ error_code: 'TIMEOUT', recoverable: true });
    expect(result.error.error_message).toMatch(/timed out after 2000 ms .*after 2 attempts/);
    const entries = await auditEntries(root);
    expect(entries.map((entry) => entry.agent)).toEqual(['objective_agent']);
  }, 30_000);

  it('hanging once, then answering: the retry answers and the session succeeds', async () => {
    server = await startResponderLlmServer(({ system, index }) =>
      index === 0 ? { kind: 'hang' } : exampleAppReply(system),
    );
    const root = rootFor(server.url);
    const { code, stderr, result } = await run(root);
    expect(code, stderr).toBe(0);
    expect(result.status).toBe('success');
    expect(result.messages).toBe(6);
    expect(server.requests).toHaveLength(7);
    expect(server.requests.slice(0, 2).map((request) => agentOf(systemPromptOf(request.body)))).toEqual([
      'objective_agent',
      'objective_agent',
    ]);
  }, 30_000);
});
