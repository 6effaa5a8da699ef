/**
 * Helpers for pipeline tests: temp roots holding a copy of the example app, readable agent
 * messages for scripts, a runtime around a scripted provider, and readers for what a session
 * leaves on disk (journal, audit log, outbox).
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { verifyAuditChain } from '../../src/audit/audit-chain-verify.js';
import { readLogEntries, type LoggedEntry } from '../../src/audit/audit-log-reader.js';
import { AuditLogWriter } from '../../src/audit/audit-log-writer.js';
import { LoggedMessagesIndex } from '../../src/audit/logged-messages-index.js';
import { main } from '../../src/cli/main.js';
import type { CommandIo } from '../../src/cli/command-context.js';
import { loadConfig } from '../../src/config/config-loader.js';
import { openRuntime, type Runtime } from '../../src/daemon/runtime.js';
import type { LlmProvider, LlmRequest, LlmResponse } from '../../src/llm/provider.js';
import { ScriptedProvider, type ScriptedResponse } from '../../src/llm/scripted-provider.js';
import type { SessionOutcome } from '../../src/pipeline/runner-contract.js';
import type { ResultDocument } from '../../src/pipeline/session-result.js';
import type { DiskFaults } from '../../src/store/disk-io.js';
import { FilesSessionStore } from '../../src/store/files-session-store.js';
import { type ExchangeRecord, type JournalRecord, type MessageRecord } from '../../src/store/session-journal.js';
import { SessionJournal } from '../../src/store/journal-reader.js';
import { REPOSITORY_ROOT, copyExampleAppInto } from '../support/example-app.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

export { REPOSITORY_ROOT };

export function makeTempDir(prefix = 'govflow-pipeline-'): string {
  return makeTempFolder(prefix);
}

export const removeTempDirs = removeTempFolders;

/** Writes `text` at `relative` under `root`, creating folders. */
export function writeFile(root: string, relative: string, text: string): string {
  const full = path.join(root, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
}

/** A temp root with a copy of the example app and a config (UTC unless `config` says otherwise). */
export function exampleRoot(config = ''): string {
  const root = makeTempDir();
  copyExampleAppInto(root);
  writeFile(root, 'govflow.config.yaml', /^timezone:/m.test(config) ? config : `timezone: UTC\n${config}`);
  return root;
}

/**
 * A root with one agent, the entry, declared by `agentLines` (frontmatter after `name`), a short
 * context file and a UTC config.
 */
export function singleAgentRoot(name: string, agentLines: string[], prefix = 'govflow-single-agent-'): string {
  const root = makeTempDir(prefix);
  writeFile(root, 'govflow.config.yaml', 'timezone: UTC\n');
  writeFile(root, 'context/application.md', '# Application\nAnswers questions and writes reports.\n');
  writeFile(
    root,
    `governance/agents/${name}.md`,
    agentFile([`name: ${name}`, 'type: executional', 'entry: true', ...agentLines]),
  );
  return root;
}

/** Frontmatter + body of an agent file. */
export function agentFile(lines: string[], body = '# Agent\nDo the job.\n'): string {
  return ['---', ...lines, '---', body].join('\n');
}

export interface AgentAnswer {
  content: unknown;
  contentType: string;
  next?: string | null;
  status?: 'success' | 'partial' | 'failed' | 'pending';
  message?: string;
  error?: { code: string; message: string; recoverable?: boolean } | null;
  files?: string[];
}

/** The JSON an agent would write: LLM-owned fields filled, orchestrator-owned fields null. */
export function agentMessage(answer: AgentAnswer): string {
  const status = answer.status ?? 'success';
  return JSON.stringify({
    message_id: null,
    timestamp: null,
    agent: null,
    input: null,
    output: { content: answer.content, content_type: answer.contentType },
    next_agent: { name: answer.next ?? null, reason: answer.next ? `hand over to ${answer.next}` : 'end of chain' },
    status: { code: status, message: answer.message ?? `${status}: ${answer.contentType}` },
    error: answer.error
      ? {
          has_error: true,
          error_code: answer.error.code,
          error_message: answer.error.message,
          retry_count: null,
          recoverable: answer.error.recoverable ?? false,
        }
      : { has_error: false, error_code: null, error_message: null, retry_count: null, recoverable: false },
    metadata: null,
    audit: {
      compliance_notes: 'checked against context/application.md',
      governance_files_consulted: answer.files ?? ['context/application.md'],
    },
  });
}

export interface PlanTaskSpec {
  id: string;
  agent: 'summarizer_agent' | 'action_item_agent';
  depends_on?: string[];
}

export const REQUEST_TEXT =
  'Summarize this meeting note and list its action items: Alice will send the budget by Friday. Bob reviews the draft.';

export const SUMMARY_CONTENT = { summary: 'Alice sends the budget by Friday; Bob reviews the draft.', decisions: [] };
export const ACTION_ITEMS_CONTENT = {
  action_items: [
    { task: 'Send the budget', owner: 'Alice', due: 'Friday' },
    { task: 'Review the draft', owner: 'Bob', due: null },
  ],
};
export const FINAL_CONTENT = { answer: 'Summary and two action items.' };

/** Answers of the example app's agents, one per agent in chain order (a happy path). */
export function happyResponses(tasks: PlanTaskSpec[]): Record<string, Array<string | ScriptedResponse>> {
  const responses: Record<string, Array<string | ScriptedResponse>> = {
    objective_agent: [
      agentMessage({
        content: ['Summarize the note', 'List the action items'],
        contentType: 'objectives',
        next: 'goal_agent',
      }),
    ],
    goal_agent: [
      agentMessage({
        content: { source_text: REQUEST_TEXT, objectives: [{ objective: 'Summarize', goals: ['faithful'] }] },
        contentType: 'goals',
        next: 'planning_agent',
      }),
    ],
    planning_agent: [
      agentMessage({
        content: {
          tasks: tasks.map((task) => ({
            id: task.id,
            agent: task.agent,
            instruction: `${task.agent}: ${REQUEST_TEXT}`,
            depends_on: task.depends_on ?? [],
          })),
        },
        contentType: 'plan',
        next: 'final_output_agent',
      }),
    ],
    final_output_agent: [agentMessage({ content: FINAL_CONTENT, contentType: 'final_report', next: null })],
  };
  for (const task of tasks) {
    const answer =
      task.agent === 'summarizer_agent'
        ? agentMessage({ content: SUMMARY_CONTENT, contentType: 'summary' })
        : agentMessage({ content: ACTION_ITEMS_CONTENT, contentType: 'action_items' });
    (responses[task.agent] ??= []).push(answer);
  }
  return responses;
}

export const TWO_TASKS: PlanTaskSpec[] = [
  { id: 't1', agent: 'summarizer_agent' },
  { id: 't2', agent: 'action_item_agent' },
];

/** Wraps a provider to record how many calls were made, and in flight at once. */
export class ConcurrencyProbe implements LlmProvider {
  readonly kind: string;
  readonly interfaceVersion;
  calls = 0;
  inFlight = 0;
  maxInFlight = 0;

  constructor(readonly inner: LlmProvider) {
    this.kind = inner.kind;
    this.interfaceVersion = inner.interfaceVersion;
  }

  async generate(request: LlmRequest): Promise<LlmResponse> {
    this.calls++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      return await this.inner.generate(request);
    } finally {
      this.inFlight--;
    }
  }
}

let requestCounter = 0;

export function nextRequestId(): string {
  requestCounter++;
  return `req-test-${process.pid}-${requestCounter}`;
}

/** Runs one request to its end (or pause) in process, closing the runtime after. */
export async function runRequest(
  root: string,
  provider: LlmProvider,
  text = REQUEST_TEXT,
  options: { requestId?: string; now?: () => Date; faults?: DiskFaults } = {},
): Promise<SessionOutcome> {
  // With `faults`, the root's audit writer and files store are made here to be given them.
  const faulty = options.faults ? await faultyFilesStore(root, options.faults) : null;
  const runtime = await openRuntime(root, {
    provider,
    env: {},
    now: options.now,
    ...(faulty ? { store: faulty.store } : {}),
  });
  try {
    return await runtime.runner.startSession(
      { requestId: options.requestId ?? nextRequestId(), text, sourceFile: 'request.txt', claimedPath: null },
      new AbortController().signal,
    );
  } finally {
    await runtime.close();
    await faulty?.audit.close();
  }
}

async function faultyFilesStore(
  root: string,
  faults: DiskFaults,
): Promise<{ store: FilesSessionStore; audit: AuditLogWriter }> {
  const { paths, timezone } = loadConfig(root, {});
  const audit = await AuditLogWriter.open({ logsDir: paths.logs, stateDir: paths.state, timezone, faults });
  const logged = new LoggedMessagesIndex(paths.logs);
  const store = new FilesSessionStore({
    sessionsDir: paths.sessions,
    outboxDir: paths.outbox,
    snapshotsDir: paths.snapshots,
    durable: true,
    audit,
    // As the runtime's own store: recovery re-appends only the entries the log lacks.
    auditedMessages: (sessionId, _since, from) => logged.messagesOf(sessionId, undefined, from),
    faults,
  });
  return { store, audit };
}

export async function withRuntime<T>(
  root: string,
  provider: LlmProvider,
  body: (runtime: Runtime) => Promise<T>,
): Promise<T> {
  const runtime = await openRuntime(root, { provider, env: {} });
  try {
    return await body(runtime);
  } finally {
    await runtime.close();
  }
}

export function scripted(
  responses: Record<string, Array<string | ScriptedResponse>>,
  extra: { latency_ms?: number } = {},
): ScriptedProvider {
  return new ScriptedProvider({ responses, ...extra });
}

export function sessionsDir(root: string): string {
  return path.join(root, 'system', 'sessions');
}

export function journalOf(root: string, sessionId: string): JournalRecord[] {
  return SessionJournal.read(path.join(sessionsDir(root), sessionId));
}

export function messageRecords(records: JournalRecord[]): MessageRecord[] {
  return records.filter((record): record is MessageRecord => record.type === 'message');
}

export function exchangeRecords(records: JournalRecord[]): ExchangeRecord[] {
  return records.filter((record): record is ExchangeRecord => record.type === 'exchange');
}

export async function auditEntries(root: string): Promise<LoggedEntry[]> {
  return readLogEntries(path.join(root, 'system', 'logs'));
}

export async function verifyRoot(root: string) {
  return verifyAuditChain({ logsDir: path.join(root, 'system', 'logs'), stateDir: path.join(root, 'system', 'state') });
}

export function readResult(root: string, requestId: string): ResultDocument {
  return JSON.parse(readFileSync(path.join(root, 'system', 'outbox', `${requestId}.json`), 'utf8')) as ResultDocument;
}

export function readReport(root: string, requestId: string): string {
  return readFileSync(path.join(root, 'system', 'outbox', `${requestId}.md`), 'utf8');
}

export function logFiles(root: string): string[] {
  return readdirSync(path.join(root, 'system', 'logs')).filter((name) => name.endsWith('.log'));
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `govflow <args>` in process, through main(), with captured output and an empty environment. */
export async function runCli(
  args: string[],
  options: { stdin?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CommandIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: options.env ?? {},
    readStdin: async () => options.stdin ?? '',
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** Keys SPEC §9 requires in a result document. */
export const RESULT_KEYS = [
  'request_id',
  'session_id',
  'source_file',
  'status',
  'output',
  'message',
  'error',
  'messages',
  'started_at',
  'finished_at',
  'usage',
] as const;

/** Wraps a provider and keeps every request it received, history included. */
export class RecordingProvider implements LlmProvider {
  readonly kind: string;
  readonly interfaceVersion;
  readonly requests: Array<Omit<LlmRequest, 'signal' | 'jsonSchema' | 'expectation'>> = [];

  constructor(readonly inner: LlmProvider) {
    this.kind = inner.kind;
    this.interfaceVersion = inner.interfaceVersion;
  }

  generate(request: LlmRequest): Promise<LlmResponse> {
    this.requests.push({
      agent: request.agent,
      system: request.system,
      prompt: request.prompt,
      history: structuredClone(request.history ?? []),
      model: request.model,
    });
    return this.inner.generate(request);
  }
}

/** Writes a scripted-provider file and a config that uses it; returns the script path. */
export function useScriptFile(
  root: string,
  responses: Record<string, Array<string | ScriptedResponse>>,
  name = 'script.json',
  configExtra = '',
): string {
  const file = writeFile(root, name, JSON.stringify({ responses }, null, 2));
  writeFile(
    root,
    'govflow.config.yaml',
    `timezone: UTC\nprovider:\n  kind: scripted\n  script: ${name}\n${configExtra}`,
  );
  return file;
}
