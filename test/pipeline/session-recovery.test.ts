/**
 * Crash recovery: a session's files cut at every step boundary (and mid-write) resume to the
 * same end as an uninterrupted run, redoing no committed step and auditing every message once.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEntries } from '../../src/audit/audit-entry-parse.js';
import { HEAD_RECORD_FORMAT, HeadRecordFile } from '../../src/audit/audit-chain-tail.js';
import type { ScriptedResponse } from '../../src/llm/scripted-provider.js';
import { SessionInterruptedError } from '../../src/pipeline/runner-contract.js';
import type { JournalRecord, MessageRecord } from '../../src/store/session-journal.js';
import {
  REQUEST_TEXT,
  auditEntries,
  exampleRoot,
  happyResponses,
  journalOf,
  messageRecords,
  readResult,
  removeTempDirs,
  runRequest,
  scripted,
  sessionsDir,
  verifyRoot,
  withRuntime,
  type PlanTaskSpec,
} from './pipeline-test-helpers.js';
import { openRuntime } from '../../src/daemon/runtime.js';
import type { LlmProvider, LlmRequest, LlmResponse } from '../../src/llm/provider.js';

afterEach(removeTempDirs);

interface FullRun {
  sessionId: string;
  requestId: string;
  journalLines: string[];
  records: JournalRecord[];
  logFile: string;
  auditBlocks: string[];
  messages: MessageRecord[];
  config: string;
}

async function uninterruptedRun(tasks: PlanTaskSpec[], config: string): Promise<FullRun> {
  const root = exampleRoot(config);
  const provider = scripted(happyResponses(tasks));
  const requestId = 'req-recovery';
  const outcome = await runRequest(root, provider, REQUEST_TEXT, { requestId });
  provider.assertAllUsed();
  expect(outcome.status).toBe('success');
  const journalText = readFileSync(path.join(sessionsDir(root), outcome.sessionId, 'journal.jsonl'), 'utf8');
  const logs = readdirSync(path.join(root, 'system', 'logs'));
  expect(logs).toHaveLength(1);
  const logText = readFileSync(path.join(root, 'system', 'logs', logs[0]), 'utf8');
  const records = journalOf(root, outcome.sessionId);
  return {
    sessionId: outcome.sessionId,
    requestId,
    journalLines: journalText.split(/(?<=\n)/),
    records,
    logFile: logs[0],
    auditBlocks: logText.split(/(?<=\n---\n)/).filter((block) => block.length > 0),
    messages: messageRecords(records),
    config: readFileSync(path.join(root, 'govflow.config.yaml'), 'utf8'),
  };
}

interface Cut {
  /** Message records kept in the journal. */
  messages: number;
  /** Audit entries kept (messages, or messages - 1: a crash between journal and audit). */
  audited: number;
  /** A half-written line after the journal cut and a half-written entry after the audit cut. */
  torn: boolean;
}

/** A fresh root holding the files a crash at `cut` leaves behind. */
function crashedRoot(full: FullRun, cut: Cut): string {
  const root = exampleRoot(full.config);
  let kept = 0;
  let end = 0;
  if (cut.messages > 0) {
    for (; end < full.journalLines.length; end++) {
      if ((JSON.parse(full.journalLines[end]) as JournalRecord).type === 'message' && ++kept === cut.messages) break;
    }
    end++;
  } else {
    end = 1; // the session record only
  }
  let journal = full.journalLines.slice(0, end).join('');
  const nextLine = full.journalLines[end];
  if (cut.torn && nextLine) journal += nextLine.slice(0, Math.floor(nextLine.length / 2));
  const sessionFolder = path.join(sessionsDir(root), full.sessionId);
  mkdirSync(sessionFolder, { recursive: true });
  writeFileSync(path.join(sessionFolder, 'journal.jsonl'), journal);

  const logsDir = path.join(root, 'system', 'logs');
  const stateDir = path.join(root, 'system', 'state');
  mkdirSync(logsDir, { recursive: true });
  mkdirSync(stateDir, { recursive: true });
  let log = full.auditBlocks.slice(0, cut.audited).join('');
  const nextEntry = full.auditBlocks[cut.audited];
  if (cut.torn && cut.audited < cut.messages && nextEntry) log += nextEntry.slice(0, Math.floor(nextEntry.length / 2));
  if (log.length > 0) writeFileSync(path.join(logsDir, full.logFile), log);
  const entries = parseEntries(full.auditBlocks.slice(0, cut.audited).join('')).entries;
  const last = entries.at(-1);
  if (last) {
    const head = new HeadRecordFile(stateDir);
    head.write({
      format: HEAD_RECORD_FORMAT,
      file: full.logFile,
      entries: entries.length,
      hash: last.hash,
      message_id: last.messageId,
    });
    head.close();
  }
  return root;
}

/** Model calls per agent in the journal a crash left in `root` (a torn last line is no call). */
function journaledCalls(root: string, sessionId: string): Map<string, number> {
  const calls = new Map<string, number>();
  const file = path.join(sessionsDir(root), sessionId, 'journal.jsonl');
  if (!existsSync(file)) return calls;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    let record: JournalRecord;
    try {
      record = JSON.parse(line) as JournalRecord;
    } catch {
      continue;
    }
    if (record.type === 'exchange') calls.set(record.agent, (calls.get(record.agent) ?? 0) + 1);
  }
  return calls;
}

/**
 * The script of the process that recovers `root`: per agent, the calls the crashed process made
 * (the journal shows them, and the scripted provider goes on after them) when it is asked again, then
 * the responses the messages after the first `committed` still need. A step whose call was journaled but whose
 * message was not asks the model again, so it gets a response of its own.
 */
function remainingResponses(
  root: string,
  full: FullRun,
  tasks: PlanTaskSpec[],
  committed: number,
): Record<string, Array<string | ScriptedResponse>> {
  const all = happyResponses(tasks);
  const used = new Map<string, number>();
  for (const record of full.messages.slice(0, committed))
    used.set(record.message.agent.name, (used.get(record.message.agent.name) ?? 0) + 1);
  const answeredBefore = journaledCalls(root, full.sessionId);
  const left: Record<string, Array<string | ScriptedResponse>> = {};
  for (const [agent, list] of Object.entries(all)) {
    const needed = list.slice(used.get(agent) ?? 0);
    // An agent that is not asked again never reaches its list: nothing of it is skipped.
    left[agent] =
      needed.length === 0
        ? []
        : [...Array.from({ length: answeredBefore.get(agent) ?? 0 }, () => 'answered before the crash'), ...needed];
  }
  return left;
}

async function expectRecoveredLikeFull(root: string, full: FullRun, cut: Cut, tasks: PlanTaskSpec[]) {
  const provider = scripted(remainingResponses(root, full, tasks, cut.messages));
  const outcome = await withRuntime(root, provider, (runtime) =>
    runtime.runner.recoverSession(full.sessionId, new AbortController().signal),
  );
  const label = JSON.stringify(cut);
  // No committed step is redone: only the agents of the missing messages are called.
  provider.assertAllUsed();
  expect(provider.calls.map((call) => call.agent).sort(), label).toEqual(
    full.messages
      .slice(cut.messages)
      .map((record) => record.message.agent.name)
      .sort(),
  );
  expect(outcome.status, label).toBe('success');

  const messages = messageRecords(journalOf(root, full.sessionId));
  expect(messages, label).toHaveLength(full.messages.length);
  expect(messages.slice(0, cut.messages).map((record) => record.message.message_id)).toEqual(
    full.messages.slice(0, cut.messages).map((record) => record.message.message_id),
  );
  expect(
    messages.map((record) => record.message.metadata.sequence_number),
    label,
  ).toEqual(full.messages.map((_, index) => index + 1));
  expect(messages.map((record) => record.message.agent.name).sort()).toEqual(
    full.messages.map((record) => record.message.agent.name).sort(),
  );

  // Every message audited exactly once, in commit order, chain intact.
  const entries = await auditEntries(root);
  const ids = entries.map((entry) => entry.messageId);
  expect(new Set(ids).size, label).toBe(ids.length);
  expect(ids, label).toEqual(messages.map((record) => record.message.message_id));
  const verified = await verifyRoot(root);
  expect(verified.ok, `${label} ${JSON.stringify(verified.firstProblem)}`).toBe(true);
  expect(verified.entries).toBe(full.messages.length);

  const result = readResult(root, full.requestId);
  expect(result, label).toMatchObject({
    status: 'success',
    messages: full.messages.length,
    session_id: full.sessionId,
  });
  const finished = journalOf(root, full.sessionId).filter((record) => record.type === 'finished');
  expect(finished, label).toHaveLength(1);
}

const PLANS: Array<{ name: string; tasks: PlanTaskSpec[]; config: string }> = [
  {
    name: 'dependent tasks',
    tasks: [
      { id: 't1', agent: 'summarizer_agent' },
      { id: 't2', agent: 'action_item_agent', depends_on: ['t1'] },
    ],
    config: '',
  },
  {
    name: 'independent tasks run in parallel',
    tasks: [
      { id: 't1', agent: 'summarizer_agent' },
      { id: 't2', agent: 'action_item_agent' },
    ],
    config: '',
  },
];

describe('recovery from a journal cut at every step boundary', () => {
  for (const plan of PLANS) {
    it(`resumes every cut to the uninterrupted result (${plan.name})`, async () => {
      const full = await uninterruptedRun(plan.tasks, plan.config);
      expect(full.messages).toHaveLength(6);
      for (let k = 0; k <= full.messages.length; k++) {
        for (const lag of k === 0 ? [0] : [0, 1]) {
          for (const torn of [false, true]) {
            const cut = { messages: k, audited: k - lag, torn };
            const root = crashedRoot(full, cut);
            await expectRecoveredLikeFull(root, full, cut, plan.tasks);
          }
        }
      }
    });
  }

  it('cuts a torn journal line before appending, so the journal stays readable', async () => {
    const tasks = PLANS[0].tasks;
    const full = await uninterruptedRun(tasks, '');
    const cut = { messages: 3, audited: 3, torn: true };
    const root = crashedRoot(full, cut);
    await expectRecoveredLikeFull(root, full, cut, tasks);
    const lines = readFileSync(path.join(sessionsDir(root), full.sessionId, 'journal.jsonl'), 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});

/** Aborts the run's signal on call number `abortAt` (1-based), as a shutdown would. */
class ShutdownAtCall implements LlmProvider {
  readonly kind: string;
  readonly interfaceVersion;
  private count = 0;

  constructor(
    private readonly inner: LlmProvider,
    private readonly abortAt: number,
    private readonly controller: AbortController,
  ) {
    this.kind = inner.kind;
    this.interfaceVersion = inner.interfaceVersion;
  }

  async generate(request: LlmRequest): Promise<LlmResponse> {
    this.count++;
    if (this.count >= this.abortAt) {
      this.controller.abort(new Error('shutdown'));
      throw new Error('aborted by shutdown');
    }
    return this.inner.generate(request);
  }
}

describe('recovery after a shutdown interrupted a running session', () => {
  it('continues at every step without redoing committed ones', async () => {
    const tasks: PlanTaskSpec[] = [
      { id: 't1', agent: 'summarizer_agent' },
      { id: 't2', agent: 'action_item_agent', depends_on: ['t1'] },
    ];
    const agents = [
      'objective_agent',
      'goal_agent',
      'planning_agent',
      'summarizer_agent',
      'action_item_agent',
      'final_output_agent',
    ];
    for (let k = 0; k < agents.length; k++) {
      const root = exampleRoot();
      const controller = new AbortController();
      const first = scripted(happyResponses(tasks));
      const runtime = await openRuntime(root, { provider: new ShutdownAtCall(first, k + 1, controller), env: {} });
      let sessionId: string;
      try {
        await expect(
          runtime.runner.startSession(
            {
              requestId: `req-shutdown-${k}`,
              sessionId: `sess-shutdown-${k}`,
              text: REQUEST_TEXT,
              sourceFile: 'request.txt',
              claimedPath: null,
            },
            controller.signal,
          ),
        ).rejects.toBeInstanceOf(SessionInterruptedError);
        sessionId = `sess-shutdown-${k}`;
      } finally {
        await runtime.close();
      }
      expect(messageRecords(journalOf(root, sessionId))).toHaveLength(k);
      expect(await auditEntries(root)).toHaveLength(k);

      const rest = happyResponses(tasks);
      for (const agent of agents.slice(0, k)) rest[agent].shift();
      const second = scripted(rest);
      const outcome = await withRuntime(root, second, (again) =>
        again.runner.recoverSession(sessionId, new AbortController().signal),
      );
      second.assertAllUsed();
      expect(second.calls.map((call) => call.agent)).toEqual(agents.slice(k));
      expect(outcome.status).toBe('success');
      const messages = messageRecords(journalOf(root, sessionId)).map((record) => record.message);
      expect(messages.map((message) => message.metadata.sequence_number)).toEqual([1, 2, 3, 4, 5, 6]);
      const entries = await auditEntries(root);
      expect(entries.map((entry) => entry.messageId)).toEqual(messages.map((message) => message.message_id));
      expect((await verifyRoot(root)).ok).toBe(true);
      expect(readResult(root, `req-shutdown-${k}`)).toMatchObject({ status: 'success', messages: 6 });
    }
  });
});

/**
 * Power loss: the audit log is synced at every message, the journal only at the session's end, so
 * after a power cut the log can hold messages the journal lost. Those entries stay in the chain,
 * are voided in the journal, and their steps run again under the next sequence numbers.
 */
describe('recovery when power loss left the audit log ahead of the journal', () => {
  async function expectVoidedAndRerun(
    root: string,
    full: FullRun,
    kept: number,
    lost: number,
    run: (
      runtime: Awaited<ReturnType<typeof openRuntime>>,
      provider: ReturnType<typeof scripted>,
    ) => Promise<{ status: string }>,
  ) {
    const label = `kept ${kept}, lost ${lost}`;
    const provider = scripted(remainingResponses(root, full, PLANS[0].tasks, kept));
    const outcome = await withRuntime(root, provider, (runtime) => run(runtime, provider));
    provider.assertAllUsed();
    expect(provider.calls.map((call) => call.agent).sort(), label).toEqual(
      full.messages
        .slice(kept)
        .map((record) => record.message.agent.name)
        .sort(),
    );
    expect(outcome.status, label).toBe('success');

    const records = journalOf(root, full.sessionId);
    const voids = records.filter((record) => record.type === 'void');
    const lostMessages = full.messages.slice(kept, kept + lost).map((record) => record.message);
    expect(
      voids.map((record) => record.message_id),
      label,
    ).toEqual(lostMessages.map((message) => message.message_id));
    expect(
      voids.map((record) => record.sequence),
      label,
    ).toEqual(lostMessages.map((message) => message.metadata.sequence_number));

    const messages = messageRecords(records).map((record) => record.message);
    expect(messages, label).toHaveLength(full.messages.length);
    const expectedSequences = [
      ...Array.from({ length: kept }, (_, index) => index + 1),
      ...Array.from({ length: full.messages.length - kept }, (_, index) => kept + lost + index + 1),
    ];
    expect(
      messages.map((message) => message.metadata.sequence_number),
      label,
    ).toEqual(expectedSequences);

    // The log keeps the lost entries; every sequence number of the session appears once, with no gap.
    const entries = await auditEntries(root);
    expect(entries, label).toHaveLength(full.messages.length + lost);
    expect(
      entries.map((entry) => entry.sequence),
      label,
    ).toEqual(Array.from({ length: full.messages.length + lost }, (_, index) => index + 1));
    expect(new Set(entries.map((entry) => entry.messageId)).size, label).toBe(entries.length);
    const replacement = entries[kept + lost];
    for (const message of lostMessages) {
      expect(
        replacement.notes.some((note) => note.includes(`replaces audit entry ${message.message_id}`)),
        label,
      ).toBe(true);
    }
    expect((await verifyRoot(root)).ok, label).toBe(true);
    expect(readResult(root, full.requestId), label).toMatchObject({
      status: 'success',
      messages: full.messages.length,
    });
  }

  it('voids the entries the journal lost and runs their steps again (resume)', async () => {
    const full = await uninterruptedRun(PLANS[0].tasks, '');
    for (const [kept, lost] of [
      [0, 1],
      [1, 1],
      [2, 3],
      [4, 2],
      [5, 1],
    ]) {
      const root = crashedRoot(full, { messages: kept, audited: kept + lost, torn: false });
      await expectVoidedAndRerun(root, full, kept, lost, (runtime) =>
        runtime.runner.recoverSession(full.sessionId, new AbortController().signal),
      );
    }
  });

  it('voids them too when the whole journal was lost and the request starts over', async () => {
    const full = await uninterruptedRun(PLANS[0].tasks, '');
    const lost = 2;
    const root = crashedRoot(full, { messages: 0, audited: lost, torn: false });
    rmSync(path.join(sessionsDir(root), full.sessionId), { recursive: true });
    const session = full.records[0] as Extract<JournalRecord, { type: 'session' }>;
    await expectVoidedAndRerun(root, full, 0, lost, (runtime) =>
      runtime.runner.startSession(
        {
          requestId: full.requestId,
          sessionId: full.sessionId,
          text: REQUEST_TEXT,
          sourceFile: session.source_file,
          claimedPath: null,
          recoveredSince: session.created_at,
        },
        new AbortController().signal,
      ),
    );
  });

  it('voids nothing on an ordinary start, even when the session id has entries', async () => {
    const full = await uninterruptedRun(PLANS[0].tasks, '');
    const root = crashedRoot(full, { messages: 0, audited: 1, torn: false });
    rmSync(path.join(sessionsDir(root), full.sessionId), { recursive: true });
    const provider = scripted(happyResponses(PLANS[0].tasks));
    await withRuntime(root, provider, (runtime) =>
      runtime.runner.startSession(
        {
          requestId: full.requestId,
          sessionId: full.sessionId,
          text: REQUEST_TEXT,
          sourceFile: 'x.txt',
          claimedPath: null,
        },
        new AbortController().signal,
      ),
    );
    expect(journalOf(root, full.sessionId).filter((record) => record.type === 'void')).toHaveLength(0);
  });
});
