/**
 * Helpers for the run-control tests (docs/run-control.md): a root of the example app whose model
 * is the loopback server speaking the OpenAI wire (the real AI SDK adapter path of the conformance
 * matrix), a responder that answers by agent with per-test overrides (a hang, a question, tool
 * calls), and readers for journals, control records and the requests each session made.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  cleanupAll,
  dropJson,
  makeRoot,
  startDaemon,
  waitForResult,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';
import type { ScriptedReply } from '../llm/loopback-llm-server.js';
import { toolResultsOf } from '../llm/loopback-wire.js';
import { agentOf, answerFor, usageFor } from '../providers/example-app-responder.js';
import { KINDS, providerLines } from '../providers/provider-kinds.js';
import {
  startResponderLlmServer,
  type IncomingLlmRequest,
  type ResponderLlmServer,
} from '../providers/responder-llm-server.js';
import { removeTempFolders } from '../support/temp-dirs.js';

export { sessionOfRequest } from '../daemon/daemon-helpers.js';

/** After a file's tests: every daemon killed, the model server closed, the temp folders removed. */
export async function stopModelTests(server: ResponderLlmServer | undefined): Promise<void> {
  await cleanupAll();
  await server?.close();
  removeTempFolders();
}

/** openai-compatible: the OpenAI wire, its key from GATEWAY_TOKEN. */
export const KIND = KINDS.find((kind) => kind.kind === 'openai-compatible')!;

/** An answer override: a reply for this request, or undefined for the example app's own answer. */
export type Override = (
  agent: string,
  request: IncomingLlmRequest,
) => ScriptedReply | Promise<ScriptedReply> | undefined;

/** The loopback model: the example app's answers, unless `override()` (read at each request) says otherwise. */
export async function startModel(override: () => Override | null): Promise<ResponderLlmServer> {
  return startResponderLlmServer((request) => {
    const agent = agentOf(request.system) ?? 'unknown';
    const overridden = override()?.(agent, request);
    if (overridden) return overridden;
    return { kind: 'text', text: JSON.stringify(answerFor(agent)), usage: usageFor(agent) };
  });
}

/** A root of the example app on the loopback model; `extra` is appended YAML. */
export function modelRoot(server: ResponderLlmServer, extra = ''): string {
  return makeRoot(
    [
      'timezone: UTC',
      ...providerLines(KIND, `${server.url}${KIND.basePath}`),
      'llm: { timeout_ms: 600000, max_attempts: 1 }',
      extra,
      '',
    ].join('\n'),
  );
}

export function startModelDaemon(root: string, env: Record<string, string> = {}): Promise<DaemonProcess> {
  return startDaemon(root, { env: { [KIND.keyEnv]: KIND.key, ...env } });
}

/** The agent of the `index`-th request that arrived (forwarded or still waiting behind a slow one). */
export function agentOfArrival(server: ResponderLlmServer, index: number): string | undefined {
  return agentOf(server.arrivedSystems[index] ?? '');
}

/** Model requests the daemon sent to `agent` so far. */
export function callsTo(server: ResponderLlmServer, agent: string): number {
  return server.arrivedSystems.filter((system) => agentOf(system) === agent).length;
}

/** A message answering `agent` (the example app's content), with another status. */
export function answerWithStatus(agent: string, status: 'pending' | 'failed', message: string): ScriptedReply {
  const answer = answerFor(agent) as Record<string, unknown>;
  return {
    kind: 'text',
    text: JSON.stringify({
      ...answer,
      next_agent: { name: null, reason: null },
      status: { code: status, message },
      ...(status === 'failed'
        ? {
            error: {
              has_error: true,
              error_code: 'PROCESSING_ERROR',
              error_message: message,
              retry_count: 0,
              recoverable: true,
            },
          }
        : {}),
    }),
    usage: usageFor(agent),
  };
}

/** True when the request carries tool results (a later turn of a tool loop). */
export function hasToolResults(request: IncomingLlmRequest): boolean {
  return toolResultsOf(request.body).length > 0;
}

/** Drops a control file into the inbox. */
export function dropControl(root: string, name: string, document: Record<string, unknown>): string {
  return dropJson(root, name, document);
}

/** The control records of a session's journal. */
export function controlRecords(root: string, sessionId: string): Array<Record<string, unknown>> {
  const text = readFileSync(path.join(root, 'system', 'sessions', sessionId, 'journal.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => record.type === 'control');
}

/** Rewrites an example-app agent's frontmatter with `lines` added (tools, approval). */
export function addAgentLines(root: string, agent: string, lines: string[]): void {
  const file = path.join(root, 'governance', 'agents', `${agent}.md`);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(/\n---\n/, `\n${lines.join('\n')}\n---\n`));
}

/** Waits until `requestId`'s result in `root` has `status`; on a timeout, the result and the daemon's stderr. */
export async function resultWith(
  root: string,
  daemon: DaemonProcess,
  requestId: string,
  status: string,
  timeoutMs = 30_000,
): Promise<Record<string, unknown>> {
  return { ...(await waitForResult(root, requestId, { daemon, status, timeoutMs })) };
}

/** The audit entries of `sessionId` in `root`'s day logs, as written. */
export function sessionLogEntries(root: string, sessionId: string): string[] {
  const logs = path.join(root, 'system', 'logs');
  return readdirSync(logs)
    .filter((name) => name.endsWith('.log'))
    .flatMap((name) => readFileSync(path.join(logs, name), 'utf8').split('\n---\n'))
    .filter((entry) => entry.includes(`[SESSION_ID: ${sessionId}]`));
}
