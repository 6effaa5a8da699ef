/**
 * A daemon root for delegation on the real adapter path (SPEC §26): `govflow start` with the
 * openai-compatible provider against a concurrent loopback model server. `lead_agent` (the entry)
 * may delegate to `specialist_agent`, which writes files and may delegate to itself. What each
 * model answers is a scenario picked by the `case=<name>` tag in the request text (lead) or in the
 * objective (children), so one daemon serves every test of a file.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ScriptedReply } from '../llm/loopback-llm-server.js';
import {
  startConcurrentLlmServer,
  type ConcurrentLlmServer,
  type ConcurrentRequest,
} from '../support/concurrent-llm-server.js';
import {
  answer,
  dropJson,
  makeRoot,
  readSessions,
  startDaemon,
  waitForResult,
  type DaemonProcess,
  type JournalLine,
  type ResultFile,
  type SessionOnDisk,
} from './daemon-helpers.js';

export type Reply = Extract<ScriptedReply, { kind: 'text' | 'tool_calls' }>;

/** How the models of one case answer: the lead by its request, children by theirs. */
export interface Scenario {
  lead(request: ConcurrentRequest): Reply;
  child?(request: ConcurrentRequest): { reply: Reply; delayMs?: number };
}

export function toolCalls(calls: Array<{ id: string; name: string; input: unknown }>): Reply {
  return {
    kind: 'tool_calls',
    calls: calls.map((call) => ({ id: call.id, name: call.name, arguments: JSON.stringify(call.input) })),
  };
}

export function finalAnswer(content: unknown, status: 'success' | 'failed' = 'success'): Reply {
  const message = answer({ content, contentType: 'report', status, message: `${status}: report` });
  if (status === 'failed')
    message.error = {
      has_error: true,
      error_code: 'INVALID_INPUT',
      error_message: 'the receipt cannot be read',
      retry_count: 0,
      recoverable: false,
    };
  return { kind: 'text', text: JSON.stringify(message) };
}

/** A `delegate` call to specialist_agent. */
export function delegate(id: string, objective: string, extra: Record<string, unknown> = {}) {
  return { id, name: 'delegate', input: { agent: 'specialist_agent', objective, ...extra } };
}

/** The lead: the given calls on its first turn, then an answer. */
export function leadCalling(...calls: Array<ReturnType<typeof delegate>>): Scenario['lead'] {
  return (request) => (request.toolResults.length === 0 ? toolCalls(calls) : finalAnswer({ report: 'lead done' }));
}

export function agentOf(request: ConcurrentRequest): string {
  return /You are "([a-z_]+)"/.exec(request.system)?.[1] ?? '';
}

export interface DelegationDaemon {
  root: string;
  server: ConcurrentLlmServer;
  daemon: DaemonProcess;
  scenarios: Map<string, Scenario>;
  close(): Promise<void>;
}

/** Starts the loopback model server and the daemon; `limits` is the YAML flow map of `limits:`. */
export async function startDelegationDaemon(
  limits = '{ max_depth: 2, max_fan_out: 3, delegation_deadline_ms: 60000, max_tokens_per_delegation: 5000 }',
): Promise<DelegationDaemon> {
  const scenarios = new Map<string, Scenario>();
  const server = await startConcurrentLlmServer((request) => {
    const tag = /case=([a-z0-9-]+)/.exec(request.user)?.[1] ?? '';
    const scenario = scenarios.get(tag);
    if (!scenario) throw new Error(`no scenario "${tag}" for ${agentOf(request)}`);
    if (agentOf(request) === 'lead_agent') return { reply: scenario.lead(request) };
    if (!scenario.child) throw new Error(`scenario "${tag}" has no child`);
    return scenario.child(request);
  });
  const root = makeRoot(
    [
      'timezone: UTC',
      'provider:',
      '  kind: openai-compatible',
      '  model: loopback-model',
      `  base_url: ${server.url}/v1`,
      '  api_key_env: GATEWAY_TOKEN',
      'pii: { redact: [email] }',
      `limits: ${limits}`,
      '',
    ].join('\n'),
  );
  const agents = path.join(root, 'governance', 'agents');
  for (const file of readdirSync(agents)) rmSync(path.join(agents, file));
  const agent = (lines: string[]) =>
    ['---', ...lines, 'next: []', 'content_type: report', '---', '# Agent\nDo the job.\n'].join('\n');
  writeFileSync(
    path.join(agents, 'lead_agent.md'),
    agent([
      'name: lead_agent',
      'type: operational',
      'description: Leads.',
      'entry: true',
      'tools: [write_file]',
      'delegates: [specialist_agent]',
    ]),
  );
  writeFileSync(
    path.join(agents, 'specialist_agent.md'),
    agent([
      'name: specialist_agent',
      'type: executional',
      'description: Specialises.',
      'tools: [write_file, read_file]',
      'delegates: [specialist_agent]',
    ]),
  );
  const daemon = await startDaemon(root, { env: { GATEWAY_TOKEN: 'loopback-key' } });
  return {
    root,
    server,
    daemon,
    scenarios,
    close: async () => {
      await daemon.stop();
      await server.close();
    },
  };
}

/** Submits a request tagged `case=<name>` as alice and waits for its result. */
export async function runCase(setup: DelegationDaemon, name: string, scenario: Scenario, timeoutMs = 60_000) {
  setup.scenarios.set(name, scenario);
  const requestId = `req-${name}`;
  dropJson(setup.root, `${requestId}.json`, {
    request: `Handle case=${name} for me.`,
    request_id: requestId,
    user: 'alice',
  });
  const result = (await waitForResult(setup.root, requestId, { daemon: setup.daemon, timeoutMs })) as ResultFile &
    Record<string, any>;
  const sessions = readSessions(setup.root);
  const parent = sessions.find((session) => session.requestId === requestId)!;
  return { result, parent, sessions, requestId };
}

/** The parent's `delegate` results, in journal order, parsed. */
export function delegateResults(parent: SessionOnDisk): Array<JournalLine & { document: any }> {
  return parent.records
    .filter((record) => record.type === 'tool_result' && record.name === 'delegate')
    .map((record) => {
      let document: unknown = null;
      try {
        document = JSON.parse(record.output as string);
      } catch {
        // A refusal is plain text.
      }
      return { ...record, document };
    });
}

/** The sessions whose id starts with `parentId.d` (its children). */
export function childrenOf(sessions: SessionOnDisk[], parentId: string): SessionOnDisk[] {
  return sessions.filter(
    (session) =>
      session.sessionId.startsWith(`${parentId}.d`) && !session.sessionId.slice(parentId.length + 2).includes('.'),
  );
}

/** Every raw audit entry block (text without its `---`) of the root's day files. */
export function auditBlocks(root: string): string[] {
  const logs = path.join(root, 'system', 'logs');
  if (!existsSync(logs)) return [];
  return readdirSync(logs)
    .filter((name) => name.endsWith('.log'))
    .sort()
    .flatMap((name) => readFileSync(path.join(logs, name), 'utf8').split('\n---\n'))
    .filter((block) => block.trim() !== '');
}

/** The entries of one session, in log order. */
export function entriesOf(root: string, sessionId: string): string[] {
  return auditBlocks(root).filter((block) => block.includes(`\n[SESSION_ID: ${sessionId}]\n`));
}

/** The JSON of a `[TAG]: value` line of an entry, or undefined. */
export function sectionOf(entry: string, tag: string): any {
  const line = entry.split('\n').find((text) => text.startsWith(`[${tag}]: `));
  return line === undefined ? undefined : JSON.parse(line.slice(tag.length + 4));
}

/** When a session was created and when it finished (its journal's session and finished records). */
export function spanOf(session: SessionOnDisk): { start: number; end: number } {
  const finished = session.records.find((record) => record.type === 'finished');
  return {
    start: Date.parse(session.records[0].created_at as string),
    end: Date.parse((finished?.at as string | undefined) ?? 'invalid'),
  };
}
