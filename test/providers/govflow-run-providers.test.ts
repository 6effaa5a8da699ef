/**
 * `govflow run` end to end with each real provider kind (openai, openai-compatible, ollama,
 * anthropic, google) pointed at an in-process loopback server speaking that provider's wire
 * format. The CLI runs as a real child process (`node bin/govflow.js run req.txt --root <tmp>
 * --json`) over a copy of the example app, so config loading, key resolution, the AI SDK
 * adapters, the pipeline and the files it writes are all the shipped ones.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedReply } from '../llm/loopback-llm-server.js';
import { EXAMPLE_AGENTS, REQUEST_TEXT, agentOf, answerFor, exampleAppReply } from './example-app-responder.js';
import {
  startResponderLlmServer,
  systemPromptOf,
  type Responder,
  type ResponderLlmServer,
} from './responder-llm-server.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { KINDS, providerLines, type KindCase } from './provider-kinds.js';
import { REPOSITORY_ROOT, copyExampleAppInto } from '../support/example-app.js';

const BIN = path.join(REPOSITORY_ROOT, 'bin/govflow.js');
const CHILD_TIMEOUT_MS = 45_000;
const TEST_TIMEOUT_MS = 60_000;

const byKind = (kind: KindCase['kind']): KindCase => KINDS.find((entry) => entry.kind === kind)!;

const tempRoots: string[] = [];
let server: ResponderLlmServer | undefined;

beforeAll(async () => {
  // The one build of this vitest run, shared with every suite that runs the CLI: a second tsc
  // writing dist/ while another suite's daemon loads it would hand that daemon half a module.
  await buildDistOnce();
  expect(existsSync(path.join(REPOSITORY_ROOT, 'dist/bundle/main.js'))).toBe(true);
}, 240_000);

afterEach(async () => {
  await server?.close();
  server = undefined;
});

afterAll(() => {
  for (const root of tempRoots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A temp copy of the example app with a provider config and a request file. */
function exampleRoot(testCase: KindCase, baseUrl: string, options: { providerInConfig?: boolean } = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), `govflow-providers-${testCase.kind}-`));
  tempRoots.push(root);
  copyExampleAppInto(root);
  const yaml = [
    ...(options.providerInConfig === false ? [] : providerLines(testCase, baseUrl)),
    'llm:',
    '  timeout_ms: 15000',
    '  backoff_base_ms: 10',
    '  backoff_max_ms: 50',
  ];
  writeFileSync(path.join(root, 'govflow.config.yaml'), `${yaml.join('\n')}\n`);
  writeFileSync(path.join(root, 'req.txt'), REQUEST_TEXT);
  return root;
}

/** The parent's environment without anything that could pick a provider, key or proxy. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^GOVFLOW_|_API_KEY$|^(http|https|all)_proxy$|^NODE_OPTIONS$|^VITEST/i.test(name)) continue;
    env[name] = value;
  }
  return { ...env, NO_PROXY: '127.0.0.1,localhost', ...extra };
}

interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node bin/govflow.js run req.txt --root <root> --json`, asynchronously so the in-process server can answer. */
function govflowRun(root: string, env: NodeJS.ProcessEnv): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'run', 'req.txt', '--root', root, '--json'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`govflow run did not finish within ${CHILD_TIMEOUT_MS} ms\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    }, CHILD_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(full));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}

/** The key, whole or as any 12-character run of it, in output or in any file of the root. */
function expectKeyNowhere(key: string, root: string, child: ChildResult): void {
  const fragments = [key];
  for (let start = 0; start + 12 <= key.length; start += 4) fragments.push(key.slice(start, start + 12));
  const places: Array<[string, string]> = [
    ['stdout', child.stdout],
    ['stderr', child.stderr],
    ...filesUnder(root).map((file): [string, string] => [path.relative(root, file), readFileSync(file, 'utf8')]),
  ];
  const leaks = places.flatMap(([where, text]) =>
    fragments.filter((fragment) => text.includes(fragment)).map((fragment) => `${where}: ${fragment}`),
  );
  expect(leaks).toEqual([]);
}

/** The files the run must have written (so the leak check is not vacuous). */
function expectRunFiles(root: string, requestId: string): void {
  const system = path.join(root, 'system');
  expect(existsSync(path.join(system, 'outbox', `${requestId}.json`))).toBe(true);
  expect(existsSync(path.join(system, 'outbox', `${requestId}.md`))).toBe(true);
  const logs = readdirSync(path.join(system, 'logs'));
  expect(logs.some((name) => /^\d{8}\.log$/.test(name))).toBe(true);
  expect(filesUnder(path.join(system, 'sessions')).length).toBeGreaterThan(0);
}

function textReplies(replies: ScriptedReply[]): Array<Extract<ScriptedReply, { kind: 'text' }>> {
  return replies.filter((reply): reply is Extract<ScriptedReply, { kind: 'text' }> => reply.kind === 'text');
}

function expectUsageSummed(result: any, replies: ScriptedReply[]): void {
  const texts = textReplies(replies);
  expect(texts).toHaveLength(6);
  const input = texts.reduce((sum, reply) => sum + reply.usage!.inputTokens, 0);
  const output = texts.reduce((sum, reply) => sum + reply.usage!.outputTokens, 0);
  expect(result.usage.input_tokens).toBe(input);
  expect(result.usage.output_tokens).toBe(output);
}

function credentialSeen(request: RecordedRequest, header: KindCase['keyHeader']): string | undefined {
  const value = request.headers[header];
  return Array.isArray(value) ? value.join(',') : value;
}

/** Checks common to every request the server saw in a run with `testCase`. */
function expectRequestsShaped(testCase: KindCase, requests: RecordedRequest[]): void {
  for (const request of requests) {
    expect(request.wire).toBe(testCase.wire);
    expect(request.model).toBe(testCase.model);
    expect(request.url.startsWith(`${testCase.basePath}/`)).toBe(true);
    // Nobody reads chunks in `govflow run`: a plain call, no stream (the event stream's case is
    // test/providers/conformance-http.test.ts).
    expect(request.stream).toBe(false);
    expect(systemPromptOf(request.body)).toContain('[FILE: context/application.md]');
    const credential = credentialSeen(request, testCase.keyHeader);
    expect(credential).toBe(testCase.keyHeader === 'authorization' ? `Bearer ${testCase.key}` : testCase.key);
  }
}

const exampleResponder: Responder = ({ system }) => exampleAppReply(system);

describe('govflow run with each provider kind against a loopback server', () => {
  it.each(KINDS)(
    '$kind: runs the example app to success over its own wire format',
    async (testCase) => {
      server = await startResponderLlmServer(exampleResponder);
      const baseUrl = server.url + testCase.basePath;
      const root = exampleRoot(testCase, baseUrl);
      const child = await govflowRun(root, childEnv({ [testCase.keyEnv]: testCase.key }));

      expect(child.code, `stderr: ${child.stderr}\nstdout: ${child.stdout}`).toBe(0);
      const result = JSON.parse(child.stdout);
      expect(result.status).toBe('success');
      expect(result.messages).toBe(6);
      expect(result.error).toBeNull();
      expect(result.output).toEqual((answerFor('final_output_agent').output as { content: unknown }).content);

      expect(server.requests).toHaveLength(6);
      const agents = server.requests.map((request) => agentOf(systemPromptOf(request.body)));
      expect([...agents].sort()).toEqual([...EXAMPLE_AGENTS].sort());
      expect(agents.slice(0, 3)).toEqual(['objective_agent', 'goal_agent', 'planning_agent']);
      expect(agents[5]).toBe('final_output_agent');
      expectRequestsShaped(testCase, server.requests);
      expectUsageSummed(result, server.replies);

      expectRunFiles(root, result.request_id);
      expectKeyNowhere(testCase.key, root, child);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'takes kind, model, base_url (trailing slash) and key from GOVFLOW_* env alone',
    async () => {
      const testCase = byKind('anthropic');
      server = await startResponderLlmServer(exampleResponder);
      const baseUrl = `${server.url}${testCase.basePath}/`;
      const root = exampleRoot(testCase, baseUrl, { providerInConfig: false });
      const child = await govflowRun(
        root,
        childEnv({
          GOVFLOW_PROVIDER: testCase.kind,
          GOVFLOW_MODEL: testCase.model,
          GOVFLOW_BASE_URL: baseUrl,
          GOVFLOW_API_KEY: testCase.key,
        }),
      );

      expect(child.code, `stderr: ${child.stderr}\nstdout: ${child.stdout}`).toBe(0);
      const result = JSON.parse(child.stdout);
      expect(result.status).toBe('success');
      expect(result.messages).toBe(6);
      expect(server.requests).toHaveLength(6);
      expectRequestsShaped(testCase, server.requests);
      expectUsageSummed(result, server.replies);
      expectKeyNowhere(testCase.key, root, child);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('govflow run: a 429 with Retry-After once, then success', () => {
  it.each([byKind('openai'), byKind('anthropic'), byKind('google')])(
    '$wire wire ($kind): waits the Retry-After second and finishes with success',
    async (testCase) => {
      server = await startResponderLlmServer(({ system, index }) =>
        index === 0 ? { kind: 'status', status: 429, headers: { 'retry-after': '1' } } : exampleAppReply(system),
      );
      const root = exampleRoot(testCase, server.url + testCase.basePath);
      const child = await govflowRun(root, childEnv({ [testCase.keyEnv]: testCase.key }));

      expect(child.code, `stderr: ${child.stderr}\nstdout: ${child.stdout}`).toBe(0);
      const result = JSON.parse(child.stdout);
      expect(result.status).toBe('success');
      expect(result.messages).toBe(6);
      expect(server.requests).toHaveLength(7);
      const agents = server.requests.map((request) => agentOf(systemPromptOf(request.body)));
      expect(agents.slice(0, 2)).toEqual(['objective_agent', 'objective_agent']);
      // backoff_base_ms is 10: a gap of about a second means the server's Retry-After was honoured.
      expect(server.arrivedAt[1]! - server.arrivedAt[0]!).toBeGreaterThanOrEqual(900);
      expectRequestsShaped(testCase, server.requests);
      // Usage counts the six answers; the 429 carried none.
      expectUsageSummed(result, server.replies);
      expectKeyNowhere(testCase.key, root, child);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('govflow run: a 401 fails the first message without retrying', () => {
  it.each([byKind('openai'), byKind('anthropic'), byKind('google')])(
    '$wire wire ($kind): DEPENDENCY_ERROR naming the provider, exit 1, key scrubbed',
    async (testCase) => {
      // The server echoes the key in its error body, as real APIs do with bad keys.
      server = await startResponderLlmServer(() => ({ kind: 'status', status: 401, echoCredential: true }));
      const root = exampleRoot(testCase, server.url + testCase.basePath);
      const child = await govflowRun(root, childEnv({ [testCase.keyEnv]: testCase.key }));

      expect(child.code, `stderr: ${child.stderr}\nstdout: ${child.stdout}`).toBe(1);
      const result = JSON.parse(child.stdout);
      expect(result.status).toBe('failed');
      expect(result.messages).toBe(1);
      expect(result.error.error_code).toBe('DEPENDENCY_ERROR');
      expect(result.error.has_error).toBe(true);
      const explanation = `${result.message}\n${result.error.error_message}`;
      expect(explanation).toContain(testCase.kind);
      expect(explanation).toContain('401');
      expect(explanation).toMatch(/API key/);

      // No retry: 401 fails the same way every time.
      expect(server.requests).toHaveLength(1);
      expect(agentOf(systemPromptOf(server.requests[0]!.body))).toBe('objective_agent');

      // The audit entry of the first agent records the failure.
      const logDir = path.join(root, 'system/logs');
      const log = readdirSync(logDir)
        .map((name) => readFileSync(path.join(logDir, name), 'utf8'))
        .join('');
      expect(log).toContain('[AGENT: objective_agent]');
      expect(log).toContain('[STATUS: failed]');
      expect(log).toContain('[ERROR: DEPENDENCY_ERROR]');

      expectRunFiles(root, result.request_id);
      expectKeyNowhere(testCase.key, root, child);
    },
    TEST_TIMEOUT_MS,
  );
});
