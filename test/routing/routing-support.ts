/**
 * A governance root for SPEC §24 tests run by a real daemon (`govflow start`, a child process) whose
 * model is a loopback server in a real wire format: the answers are computed from each request's
 * agent (the system prompt's `You are "<agent>"`) by a test-supplied function.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type MessageRecord } from '../../src/store/session-journal.js';
import { SessionJournal } from '../../src/store/journal-reader.js';
import { dropJson, makeRoot, waitFor } from '../daemon/daemon-helpers.js';
import type { ScriptedReply } from '../llm/loopback-llm-server.js';
import { agentOf } from '../providers/example-app-responder.js';
import type { IncomingLlmRequest } from '../providers/responder-llm-server.js';

/** A root with only the given agent files (name → frontmatter lines and body), the model at `modelUrl`. */
export function routedRoot(
  modelUrl: string,
  agents: Record<string, { frontmatter: string[]; body?: string }>,
  extraConfig = '',
  kind = 'openai-compatible',
): string {
  const root = makeRoot(
    `timezone: UTC\nllm: { backoff_base_ms: 1, backoff_max_ms: 5, timeout_ms: 20000 }\n` +
      `provider: { kind: ${kind}, model: m, base_url: "${modelUrl}" }\n${extraConfig}`,
    'govflow-routes-',
  );
  rmSync(path.join(root, 'governance', 'agents'), { recursive: true });
  mkdirSync(path.join(root, 'governance', 'agents'));
  for (const [name, agent] of Object.entries(agents)) writeAgent(root, name, agent.frontmatter, agent.body);
  return root;
}

export function writeAgent(root: string, name: string, frontmatter: string[], body = `# ${name}\nDo the job.\n`): void {
  writeFileSync(path.join(root, 'governance', 'agents', `${name}.md`), ['---', ...frontmatter, '---', body].join('\n'));
}

/** A Sentient answer as a model writes it. */
export function sentient(options: {
  content: unknown;
  contentType: string;
  next?: string | null;
  status?: 'success' | 'partial' | 'failed' | 'pending';
  message?: string;
  error?: { code: string; message: string };
}): Record<string, unknown> {
  const status = options.status ?? 'success';
  return {
    message_id: null,
    timestamp: null,
    agent: null,
    input: null,
    output: { content: options.content, content_type: options.contentType },
    next_agent: { name: options.next ?? null, reason: options.next ? `the model chose ${options.next}` : null },
    status: { code: status, message: options.message ?? `${status}: ${options.contentType}` },
    error: options.error
      ? {
          has_error: true,
          error_code: options.error.code,
          error_message: options.error.message,
          retry_count: 0,
          recoverable: false,
        }
      : { has_error: false, error_code: null, error_message: null, retry_count: 0, recoverable: false },
    metadata: null,
    audit: { compliance_notes: 'loopback test answer', governance_files_consulted: [] },
  };
}

/** The agent of a system prompt: its protocol line, or (a free-text agent has none) its agent file's marker. */
export function agentNamed(system: string): string {
  return agentOf(system) ?? /\[FILE: governance\/agents\/([a-z0-9_]+)\.md\]/.exec(system)?.[1] ?? 'unknown';
}

/** A text reply computed per agent; the whole request body is passed for tests that read the request text. */
export function byAgent(
  answers: (agent: string, request: IncomingLlmRequest) => unknown,
): (request: IncomingLlmRequest) => ScriptedReply {
  return (request) => {
    const agent = agentNamed(request.system);
    const value = answers(agent, request);
    return { kind: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) };
  };
}

/** The user turns of a request body as JSON text (OpenAI Chat, Responses, Anthropic or Gemini shapes). */
export function userText(request: IncomingLlmRequest): string {
  const body = request.body ?? {};
  const turns: unknown[] = body.messages ?? body.contents ?? (Array.isArray(body.input) ? body.input : [body.input]);
  return JSON.stringify(turns.filter((turn: any) => turn?.role === 'user'));
}

export function resultOf(root: string, requestId: string): Record<string, any> | null {
  const file = path.join(root, 'system', 'outbox', `${requestId}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>) : null;
}

export async function waitForResult(root: string, requestId: string, timeoutMs = 60_000): Promise<Record<string, any>> {
  return waitFor(
    `the result of ${requestId}`,
    () => {
      const result = resultOf(root, requestId);
      return result && result.status !== 'running' ? result : null;
    },
    { timeoutMs },
  );
}

/** The audit log's entries as text blocks, in order (every day file). */
export function auditBlocks(root: string): string[] {
  const folder = path.join(root, 'system', 'logs');
  return readdirSync(folder)
    .filter((name) => /^\d{8}\.log$/.test(name))
    .sort()
    .flatMap((name) => readFileSync(path.join(folder, name), 'utf8').split('\n---\n'))
    .filter((block) => block.trim() !== '');
}

/** The JSON value of a `[TAG]: {...}` line of an audit block, or undefined. */
export function auditLine(block: string, tag: string): unknown {
  const line = block.split('\n').find((text) => text.startsWith(`[${tag}]: `));
  return line === undefined ? undefined : JSON.parse(line.slice(tag.length + 4));
}

/** The journal's message records of a session. */
export function journalMessages(root: string, sessionId: string): MessageRecord[] {
  return SessionJournal.read(path.join(root, 'system', 'sessions', sessionId)).filter(
    (record): record is MessageRecord => record.type === 'message',
  );
}

export function dropRequest(
  root: string,
  requestId: string,
  request: string,
  metadata?: Record<string, unknown>,
): void {
  dropJson(root, `${requestId}.json`, { request, request_id: requestId, ...(metadata ? { metadata } : {}) });
}
