/**
 * Helpers for the daemon integration tests: temp roots holding a copy of the example app, the
 * real `govflow start` as a child process (ready line, signals, kill -9, /proc figures), the CLI
 * for one-shot commands, and strict readers for what the daemon leaves on disk.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPOSITORY_ROOT } from './build-once.js';
import { copyExampleAppInto } from '../support/example-app.js';

export { REPOSITORY_ROOT };
export const CLI = path.join(REPOSITORY_ROOT, 'bin', 'govflow.js');

const createdRoots: string[] = [];
const runningDaemons = new Set<DaemonProcess>();

/** The environment for children: no GOVFLOW_* from the developer's shell may change the root's config. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('GOVFLOW_')) env[name] = value;
  return { ...env, ...extra };
}

/** A temp root with a copy of the example app; `config` (YAML) is written only when given. */
export function makeRoot(config?: string, prefix = 'govflow-daemon-'): string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  createdRoots.push(root);
  copyExampleAppInto(root);
  if (config !== undefined) writeFileSync(path.join(root, 'govflow.config.yaml'), config);
  return root;
}

export async function cleanupAll(): Promise<void> {
  await Promise.all([...runningDaemons].map((daemon) => daemon.kill9()));
  const roots = createdRoots.splice(0);
  // GOVFLOW_KEEP_ROOTS=1 keeps the temp roots for a post-mortem.
  if (process.env.GOVFLOW_KEEP_ROOTS) return;
  for (const root of roots) rmSync(root, { recursive: true, force: true });
}

export function inboxOf(root: string): string {
  return path.join(root, 'system', 'inbox');
}

/** Drops a request the way a careful operator does: write `.name.tmp`, then rename. */
export function dropFile(root: string, name: string, content: string | Buffer): string {
  const inbox = inboxOf(root);
  mkdirSync(inbox, { recursive: true });
  const temporary = path.join(inbox, `.${name}.tmp`);
  writeFileSync(temporary, content);
  const target = path.join(inbox, name);
  renameSync(temporary, target);
  return target;
}

export function dropJson(root: string, name: string, document: unknown): string {
  return dropFile(root, name, JSON.stringify(document));
}

/** The intake's line for an inbox file left waiting because http.max_queued requests wait (once per file, `file` names it). */
export const INBOX_WAITS = 'waits in the inbox: the queue is full';

/**
 * True once the daemon's operational log (JSON lines on stderr) has an entry whose message
 * contains `text` and whose fields equal `fields`.
 */
export function loggedLine(stderr: string, text: string, fields: Record<string, unknown> = {}): boolean {
  return stderr.split('\n').some((line) => {
    if (!line.includes(text)) return false;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      return (
        String(entry.message).includes(text) && Object.entries(fields).every(([key, value]) => entry[key] === value)
      );
    } catch {
      return false; // not a JSON line
    }
  });
}

/** Polls `probe` until it returns a truthy value; the failure names what was awaited and shows `detail()`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | Promise<T>,
  options: { timeoutMs?: number; intervalMs?: number; detail?: () => string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = options.detail ? `\n${options.detail()}` : '';
      const cause = lastError ? `\nlast error: ${String(lastError)}` : '';
      throw new Error(`timed out after ${options.timeoutMs ?? 15_000} ms waiting for ${what}${cause}${detail}`);
    }
    await sleep(options.intervalMs ?? 50);
  }
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running `govflow start` child process. */
export class DaemonProcess {
  readonly exited: Promise<ExitStatus>;
  private stdoutText = '';
  private stderrText = '';
  private exitStatus: ExitStatus | null = null;
  readyLine = '';

  constructor(
    readonly root: string,
    readonly child: ChildProcessWithoutNullStreams,
  ) {
    child.stdout.on('data', (chunk: Buffer) => (this.stdoutText += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        this.exitStatus = { code, signal };
        runningDaemons.delete(this);
        if (process.env.GOVFLOW_KEEP_ROOTS) {
          try {
            writeFileSync(path.join(root, `daemon-${child.pid}.stderr`), this.stderrText);
          } catch {
            // the root is gone already
          }
        }
        resolve(this.exitStatus);
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  get stdout(): string {
    return this.stdoutText;
  }

  get stderr(): string {
    return this.stderrText;
  }

  get hasExited(): boolean {
    return this.exitStatus !== null;
  }

  /** The last `lines` lines of stderr, for failure messages. */
  stderrTail(lines = 40): string {
    return this.stderrText.split('\n').slice(-lines).join('\n');
  }

  signal(signal: NodeJS.Signals): void {
    if (!this.hasExited) this.child.kill(signal);
  }

  /** Sends `signal` and waits for the exit; fails (after a kill -9) when it takes longer than `timeoutMs`. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 20_000): Promise<ExitStatus> {
    this.signal(signal);
    const timer = sleep(timeoutMs).then(() => null);
    const status = await Promise.race([this.exited, timer]);
    if (status === null) {
      await this.kill9();
      throw new Error(
        `govflow start (pid ${this.pid}) did not exit within ${timeoutMs} ms of ${signal}\nstderr:\n${this.stderrTail()}`,
      );
    }
    return status;
  }

  async kill9(): Promise<void> {
    if (this.hasExited) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** Resident memory in kB, from /proc/<pid>/status. */
  rssKb(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (!match) throw new Error(`no VmRSS in /proc/${this.pid}/status`);
    return Number(match[1]);
  }

  openFileDescriptors(): number {
    return readdirSync(`/proc/${this.pid}/fd`).length;
  }
}

/**
 * Spawns `node bin/govflow.js ARGS` in `root` and returns at once (for commands that run on:
 * `start`, a `run` waiting for its result). `cleanupAll` kills it if the test does not.
 */
export function spawnCli(root: string, args: string[], env?: Record<string, string>): DaemonProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: root,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as unknown as ChildProcessWithoutNullStreams;
  const daemon = new DaemonProcess(root, child);
  runningDaemons.add(daemon);
  return daemon;
}

/**
 * Spawns `node bin/govflow.js start --root <root>` and waits for the line containing `ready` on
 * stdout. Fails with stderr when the process exits first or the line does not come in time.
 */
export async function startDaemon(
  root: string,
  options: { env?: Record<string, string>; readyTimeoutMs?: number } = {},
): Promise<DaemonProcess> {
  const daemon = spawnCli(root, ['start', '--root', root], options.env);
  const timeoutMs = options.readyTimeoutMs ?? 20_000;
  const outcome = await Promise.race([
    waitFor('the ready line', () => daemon.stdout.split('\n').find((line) => line.includes('ready')) ?? null, {
      timeoutMs: timeoutMs + 1000,
      intervalMs: 10,
    }).then(
      (line) => ({ line }),
      () => ({ line: null }),
    ),
    daemon.exited.then((status) => ({ status })),
    sleep(timeoutMs).then(() => ({ timeout: true })),
  ]);
  if ('line' in outcome && outcome.line) {
    daemon.readyLine = outcome.line;
    return daemon;
  }
  await daemon.kill9();
  const why =
    'status' in outcome
      ? `exited early (code ${outcome.status.code}, signal ${outcome.status.signal})`
      : `printed no "ready" line within ${timeoutMs} ms`;
  throw new Error(`govflow start --root ${root} ${why}\nstdout:\n${daemon.stdout}\nstderr:\n${daemon.stderrTail(60)}`);
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one CLI command to completion (asynchronously, so daemons' pipes keep draining). */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        env: cleanEnv(options.env),
        timeout: options.timeoutMs ?? 30_000,
        maxBuffer: 256 * 1024 * 1024,
        ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      },
      (error, stdout, stderr) => {
        const code = error
          ? typeof (error as { code?: unknown }).code === 'number'
            ? (error as { code: number }).code
            : -1
          : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Readers

export interface ResultFile {
  request_id: string;
  session_id: string;
  source_file: string;
  status: string;
  output: unknown;
  message: string;
  error: unknown;
  messages: number;
  started_at: string;
  finished_at: string;
}

/** Every result JSON in the outbox (temp files of atomic writes are skipped). */
export function readResults(root: string): ResultFile[] {
  const outbox = path.join(root, 'system', 'outbox');
  if (!existsSync(outbox)) return [];
  const results: ResultFile[] = [];
  for (const name of readdirSync(outbox)) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    results.push(JSON.parse(readFileSync(path.join(outbox, name), 'utf8')) as ResultFile);
  }
  return results;
}

export function readResult(root: string, requestId: string): ResultFile | null {
  const file = path.join(root, 'system', 'outbox', `${requestId}.json`);
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ResultFile;
  } catch {
    return null;
  }
}

/**
 * Waits for `requestId`'s result in `root` (one with `status` when given); on a timeout, the
 * failure shows the result as it was and the daemon's stderr.
 */
export function waitForResult(
  root: string,
  requestId: string,
  options: { daemon: DaemonProcess; status?: string; timeoutMs?: number },
): Promise<ResultFile> {
  const what = options.status === undefined ? `the result of ${requestId}` : `${requestId} to be ${options.status}`;
  return waitFor(
    what,
    () => {
      const result = readResult(root, requestId);
      return options.status === undefined || result?.status === options.status ? result : null;
    },
    {
      timeoutMs: options.timeoutMs ?? 30_000,
      detail: () => `${JSON.stringify(readResult(root, requestId))}\n${options.daemon.stderrTail()}`,
    },
  );
}

/** The session of `requestId` on disk, or undefined. */
export function sessionOfRequest(root: string, requestId: string): SessionOnDisk | undefined {
  return readSessions(root).find((session) => session.requestId === requestId);
}

export interface JournalLine {
  type: string;
  [key: string]: unknown;
}

export interface SessionOnDisk {
  sessionId: string;
  requestId: string;
  text: string;
  records: JournalLine[];
  /** message_id and sequence_number of every committed message, in journal order. */
  messages: Array<{ messageId: string; sequence: number; agent: string; inputSource: string }>;
}

/**
 * Reads every session journal strictly: each line must be complete JSON ending with a newline
 * (a torn line left behind after a restart is a failure).
 */
export function readSessions(root: string): SessionOnDisk[] {
  const folder = path.join(root, 'system', 'sessions');
  if (!existsSync(folder)) return [];
  const sessions: SessionOnDisk[] = [];
  for (const sessionId of readdirSync(folder)) {
    const file = path.join(folder, sessionId, 'journal.jsonl');
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    if (text.length === 0) continue; // a running daemon created it this instant; its session record comes next
    if (!text.endsWith('\n'))
      throw new Error(
        `journal ${file} ends with a torn line: ${JSON.stringify(text.slice(text.lastIndexOf('\n') + 1).slice(0, 200))}`,
      );
    const records = text
      .split('\n')
      .filter((line) => line !== '')
      .map((line, index) => {
        try {
          return JSON.parse(line) as JournalLine;
        } catch {
          throw new Error(`journal ${file} line ${index + 1} is not JSON: ${line.slice(0, 200)}`);
        }
      });
    const first = records[0] as { type: string; request_id?: string; request?: { text: string } } | undefined;
    if (!first || first.type !== 'session') throw new Error(`journal ${file} does not start with a session record`);
    const messages = records
      .filter((record) => record.type === 'message')
      .map((record) => {
        const message = record.message as {
          message_id: string;
          metadata: { sequence_number: number };
          agent: { name: string };
          input: { source: string };
        };
        return {
          messageId: message.message_id,
          sequence: message.metadata.sequence_number,
          agent: message.agent.name,
          inputSource: message.input.source,
        };
      });
    sessions.push({ sessionId, requestId: first.request_id!, text: first.request!.text, records, messages });
  }
  return sessions;
}

export interface AuditEntryJson {
  agent: string;
  inputSource: string;
  input: unknown;
  status: { code: string; message: string };
  messageId: string;
  sessionId: string;
  requestId: string;
  sequence: number;
  governanceVersion: string;
  file: string;
}

/** `govflow logs --json` for the whole root (every day file). */
export async function readAuditEntries(root: string, extra: string[] = []): Promise<AuditEntryJson[]> {
  const result = await runCli(['logs', '--root', root, '--json', ...extra]);
  if (result.code !== 0) throw new Error(`govflow logs --json exited ${result.code}: ${result.stderr}${result.stdout}`);
  return JSON.parse(result.stdout) as AuditEntryJson[];
}

/**
 * Checks the raw audit files for torn or malformed entries: every file ends right after `---`,
 * every entry starts with `[TIMESTAMP: ` and ends with `[ENTRY_HASH: <64 hex>]`.
 */
export function assertNoTornAuditEntries(root: string): number {
  const logs = path.join(root, 'system', 'logs');
  let count = 0;
  for (const name of existsSync(logs) ? readdirSync(logs) : []) {
    if (!name.endsWith('.log')) continue;
    const text = readFileSync(path.join(logs, name), 'utf8');
    if (text === '') continue;
    if (!text.endsWith('\n---\n'))
      throw new Error(`audit log ${name} does not end with a complete entry: …${JSON.stringify(text.slice(-200))}`);
    const blocks = text.slice(0, -'\n---\n'.length).split('\n---\n');
    for (const [index, block] of blocks.entries()) {
      const lines = block.split('\n');
      if (!lines[0].startsWith('[TIMESTAMP: ') || !/^\[ENTRY_HASH: [0-9a-f]{64}\]$/.test(lines.at(-1)!)) {
        throw new Error(`audit log ${name} entry ${index + 1} is malformed or torn:\n${block.slice(0, 600)}`);
      }
      count += 1;
    }
  }
  return count;
}

export function listDir(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder).sort() : [];
}

// ---------------------------------------------------------------------------------------------
// Scripted provider

export interface Answer {
  content: unknown;
  contentType: string;
  next?: string | null;
  status?: 'success' | 'partial' | 'failed' | 'pending';
  message?: string;
}

/** The JSON object an agent answers with: LLM-owned fields filled, orchestrator-owned ones null. */
export function answer(value: Answer): Record<string, unknown> {
  const status = value.status ?? 'success';
  return {
    message_id: null,
    timestamp: null,
    agent: null,
    input: null,
    output: { content: value.content, content_type: value.contentType },
    next_agent: { name: value.next ?? null, reason: value.next ? `hand over to ${value.next}` : 'end of chain' },
    status: { code: status, message: value.message ?? `${status}: ${value.contentType}` },
    error: { has_error: false, error_code: null, error_message: null, retry_count: 0, recoverable: false },
    metadata: null,
    audit: { compliance_notes: 'scripted test answer', governance_files_consulted: [] },
  };
}

/** One valid answer per agent of the example app (objective → goal → plan(t1, t2) → final). */
export const EXAMPLE_ANSWERS = {
  objective_agent: answer({
    content: { objectives: ['summarise the text'] },
    contentType: 'objectives',
    next: 'goal_agent',
  }),
  goal_agent: answer({
    content: { source_text: 'text', objectives: [{ objective: 'summarise', goals: ['a summary exists'] }] },
    contentType: 'goals',
    next: 'planning_agent',
  }),
  planning_agent: answer({
    content: {
      tasks: [
        { id: 't1', agent: 'summarizer_agent', instruction: 'Summarise the text.', depends_on: [] },
        { id: 't2', agent: 'action_item_agent', instruction: 'List the action items.', depends_on: [] },
      ],
    },
    contentType: 'plan',
    next: 'final_output_agent',
  }),
  summarizer_agent: answer({
    content: { summary: 'A short summary.', decisions: [] },
    contentType: 'summary',
    next: null,
  }),
  action_item_agent: answer({
    content: { action_items: [{ task: 'send the report', owner: 'Bob', due: null }] },
    contentType: 'action_items',
    next: null,
  }),
  final_output_agent: answer({ content: { answer: 'Done.' }, contentType: 'final_report', next: null }),
} as const;

/** A script (JSON is valid YAML) replaying `EXAMPLE_ANSWERS`, with overrides per agent. */
export function exampleScript(
  options: { latencyMs?: number; loop?: boolean; responses?: Record<string, unknown[]> } = {},
): string {
  const responses: Record<string, unknown[]> = {};
  for (const [agent, message] of Object.entries(EXAMPLE_ANSWERS)) responses[agent] = [{ json: message }];
  Object.assign(responses, options.responses ?? {});
  return JSON.stringify({ latency_ms: options.latencyMs ?? 0, loop: options.loop ?? false, responses }, null, 2);
}

/** A config for a scripted root; `extra` is appended YAML. */
export function scriptedConfig(extra = ''): string {
  return `timezone: UTC\nprovider:\n  kind: scripted\n  script: script.json\n${extra}`;
}

export function writeScript(root: string, script: string): void {
  writeFileSync(path.join(root, 'script.json'), script);
}
