/**
 * The store seam's contract (src/store/session-store.ts, src/store/session-reads.ts), one set of
 * cases run against every backend: the files store and the Postgres store (cluster mode). What
 * only one backend does is tested in its own file: the files store's disk order and faults
 * (session-store.test.ts, disk-failures.test.ts), Postgres fencing, group commit and the chain
 * (test/cluster/postgres-store.test.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntryInput } from '../../src/store/session-store.js';
import type {
  ControlRecord,
  CrashRecord,
  ExchangeRecord,
  FinishedRecord,
  JournalRecord,
  MessageRecord,
  ReplyRecord,
  SessionRecord,
  VoidRecord,
} from '../../src/store/session-journal.js';
import { JOURNAL_FORMAT, JournalFormatError } from '../../src/store/journal-format.js';
import type {
  ApprovalRequestRecord,
  ToolResultRecord,
  ToolStartRecord,
  ToolTurnRecord,
} from '../../src/store/tool-journal-records.js';
import { makeMessage } from '../audit/audit-test-helpers.js';
import { operatorAuditInput } from '../../src/pipeline/operator-entry.js';
import { pgTestSchema } from '../support/postgres.js';
import { removeTempFolders } from '../support/temp-dirs.js';
import {
  openFilesBackend,
  openPostgresBackend,
  openPostgresSeam,
  type PostgresSeam,
  type SeamBackend,
} from './store-seam-backends.js';

const pgSchema = await pgTestSchema('seam');
let postgres: PostgresSeam | undefined;
beforeAll(async () => {
  if (pgSchema) postgres = await openPostgresSeam(pgSchema);
});
afterAll(async () => {
  await postgres?.close();
  await pgSchema?.drop();
});

const BACKENDS = [
  { name: 'files', available: true, open: openFilesBackend },
  { name: 'postgres', available: pgSchema !== null, open: async () => openPostgresBackend(postgres!) },
];

const AT = '2026-03-08T06:30:00.000Z';
const GOVERNANCE = 'g'.repeat(64);

/** Ids unique in the file: the Postgres backend's tests share one schema. */
function newSession(): SessionRecord {
  const id = randomBytes(4).toString('hex');
  return {
    v: JOURNAL_FORMAT,
    type: 'session',
    session_id: `sess-seam-${id}`,
    request_id: `req-seam-${id}`,
    request: { text: 'hello', user: 'ada', metadata: { team: 'ops' } },
    source_file: 'request.txt',
    claimed_path: null,
    created_at: AT,
    entry_agent: 'objective_agent',
  };
}

function message(
  session: SessionRecord,
  id: string,
  sequence: number,
  agent = 'objective_agent',
): { record: MessageRecord; audit: AuditEntryInput } {
  const body = makeMessage({ id, sequence, agent, session: session.session_id });
  const record: MessageRecord = {
    v: JOURNAL_FORMAT,
    type: 'message',
    kind: 'chain',
    message: body,
    task_id: null,
    plan_message_id: null,
    loop_key: `${agent}:${id}`,
    governance_hash: GOVERNANCE,
    corrections: [],
    violations: [],
    notes: [`note ${id}`],
    raw_output: null,
    final: false,
    plan: null,
    on_failure: null,
  };
  return {
    record,
    audit: {
      message: body,
      governanceHash: GOVERNANCE,
      corrections: [],
      complianceViolations: [],
      notes: [`note ${id}`],
      user: 'ada',
    },
  };
}

function exchange(step: string): ExchangeRecord {
  return {
    v: JOURNAL_FORMAT,
    type: 'exchange',
    agent: 'objective_agent',
    step,
    attempt: 1,
    provider: 'scripted',
    model: 'm',
    temperature: null,
    max_tokens: null,
    system_sha256: 's'.repeat(64),
    prompt: `prompt ${step}`,
    history: [],
    response: '{}',
    error: null,
    usage: { input_tokens: 3, output_tokens: 2, cached_input_tokens: 0, cost_usd: 0.5 },
    duration_ms: 7,
    at: AT,
  };
}

const TOOL_TURN: ToolTurnRecord = {
  v: JOURNAL_FORMAT,
  type: 'tool_turn',
  agent: 'objective_agent',
  step: '2',
  attempt: 1,
  text: 'looking',
  calls: [{ id: 'call-1', name: 'read_file', input: { path: 'a.txt' } }],
  at: AT,
};
const TOOL_RESULT: ToolResultRecord = {
  v: JOURNAL_FORMAT,
  type: 'tool_result',
  agent: 'objective_agent',
  step: '2',
  id: 'call-1',
  name: 'read_file',
  output: 'contents',
  truncated: false,
  bytes: 8,
  is_error: false,
  refused: null,
  ms: 4,
  at: AT,
};
const APPROVAL_REQUEST: ApprovalRequestRecord = {
  v: JOURNAL_FORMAT,
  type: 'approval_request',
  agent: 'objective_agent',
  step: '2',
  call_id: 'call-2',
  tool: 'send_mail',
  input: { to: 'x' },
  question: 'send it?',
  at: AT,
};
const VOID: VoidRecord = {
  v: JOURNAL_FORMAT,
  type: 'void',
  message_id: 'lost',
  sequence: 1,
  agent: 'objective_agent',
  at: AT,
};
const CRASH: CrashRecord = { v: JOURNAL_FORMAT, type: 'crash', error: 'provider exploded', at: AT };
const REPLY: ReplyRecord = {
  v: JOURNAL_FORMAT,
  type: 'reply',
  reply: 'yes',
  source_file: 'reply.json',
  claimed_path: null,
  at: AT,
};
const FINISHED: FinishedRecord = { v: JOURNAL_FORMAT, type: 'finished', status: 'success', at: AT };

function result(session: SessionRecord, status: string, extra: Record<string, unknown> = {}) {
  const document = { request_id: session.request_id, session_id: session.session_id, status, ...extra };
  return { requestId: session.request_id, json: `${JSON.stringify(document)}\n`, report: `# ${status}\n` };
}

describe.each(BACKENDS)('the store seam, $name backend', ({ name, available, open }) => {
  let backend: SeamBackend;
  afterEach(async () => {
    await backend?.close();
    removeTempFolders();
  });

  /** The session's records through the write seam (open, then close) and through the read seam: they must agree. */
  async function recordsOf(sessionId: string): Promise<JournalRecord[]> {
    const reopened = await backend.store.open(sessionId);
    expect(await reopened.session.close()).toBeNull();
    await backend.reads.prefetch({ sessionId });
    expect(backend.reads.records(sessionId)).toEqual(reopened.records);
    return reopened.records;
  }

  async function resultOf(requestId: string): Promise<Record<string, unknown> | null> {
    await backend.reads.prefetch({ requestId });
    return backend.reads.result(requestId);
  }

  describe.skipIf(!available)(`the contract (${name})`, () => {
    it('creates a session that exists, and reopens it with its first record', async () => {
      backend = await open();
      const session = newSession();
      expect(backend.store.exists(session.session_id)).toBe(false);
      const stored = await backend.store.create(session);
      expect(stored.sessionId).toBe(session.session_id);
      expect(backend.store.exists(session.session_id)).toBe(true);
      expect(backend.store.exists('sess-never-made')).toBe(false);
      expect(await stored.close()).toBeNull();
      expect(await recordsOf(session.session_id)).toEqual([session]);
    });

    it('commits messages with their audit entries; records come back in order, exchange and tool records with the next commit', async () => {
      backend = await open();
      const session = newSession();
      const stored = await backend.store.create(session);
      const first = message(session, 'm1', 1);
      const second = message(session, 'm2', 2, 'planning_agent');
      stored.recordExchange(exchange('1'));
      const hash1 = (await stored.commitMessage(first.record, first.audit)).entryHash;
      stored.recordToolCall(TOOL_TURN);
      stored.recordToolCall(TOOL_RESULT);
      stored.recordExchange(exchange('2'));
      const hash2 = (await stored.commitMessage(second.record, second.audit)).entryHash;
      expect(hash1).toMatch(/^[0-9a-f]{64}$/);
      expect(hash2).toMatch(/^[0-9a-f]{64}$/);
      expect(hash2).not.toBe(hash1);
      expect(await backend.store.auditedMessages(session.session_id, session.created_at)).toEqual(
        new Map([
          ['m1', { sequence: 1, agent: 'objective_agent', hash: hash1 }],
          ['m2', { sequence: 2, agent: 'planning_agent', hash: hash2 }],
        ]),
      );
      // Read before close: what a commit returned for is there for any reader.
      await backend.reads.prefetch({ sessionId: session.session_id });
      expect(backend.reads.records(session.session_id)).toEqual([
        session,
        exchange('1'),
        first.record,
        TOOL_TURN,
        TOOL_RESULT,
        exchange('2'),
        second.record,
      ]);
      expect(await stored.close()).toBeNull();
      expect(await recordsOf(session.session_id)).toEqual([
        session,
        exchange('1'),
        first.record,
        TOOL_TURN,
        TOOL_RESULT,
        exchange('2'),
        second.record,
      ]);
    });

    it('keeps exchange and tool records recorded after the last commit when the session closes', async () => {
      backend = await open();
      const session = newSession();
      const stored = await backend.store.create(session);
      const first = message(session, 'm1', 1);
      await stored.commitMessage(first.record, first.audit);
      stored.recordExchange(exchange('2'));
      stored.recordToolCall(TOOL_TURN);
      expect(await stored.close()).toBeNull();
      expect(await recordsOf(session.session_id)).toEqual([session, first.record, exchange('2'), TOOL_TURN]);
    });

    it('makes voids, crashes and approval requests durable on return, each in order', async () => {
      backend = await open();
      const session = newSession();
      const stored = await backend.store.create(session);
      await stored.voidMessages([]);
      await stored.voidMessages([VOID, { ...VOID, message_id: 'lost-2', sequence: 2 }]);
      await stored.recordCrash(CRASH);
      await stored.recordApproval(APPROVAL_REQUEST);
      await backend.reads.prefetch({ sessionId: session.session_id });
      expect(backend.reads.records(session.session_id)).toEqual([
        session,
        VOID,
        { ...VOID, message_id: 'lost-2', sequence: 2 },
        CRASH,
        APPROVAL_REQUEST,
      ]);
      expect(await stored.close()).toBeNull();
      expect(await recordsOf(session.session_id)).toEqual([
        session,
        VOID,
        { ...VOID, message_id: 'lost-2', sequence: 2 },
        CRASH,
        APPROVAL_REQUEST,
      ]);
    });

    it('makes a tool start durable on return, after the tool turn it carries (at most once, SPEC §15)', async () => {
      backend = await open();
      const session = newSession();
      const stored = await backend.store.create(session);
      stored.recordToolCall(TOOL_TURN);
      const start: ToolStartRecord = {
        v: JOURNAL_FORMAT,
        type: 'tool_start',
        agent: TOOL_TURN.agent,
        step: TOOL_TURN.step,
        id: TOOL_TURN.calls[0].id,
        name: TOOL_TURN.calls[0].name,
        at: AT,
      };
      await stored.recordToolStart(start);
      await backend.reads.prefetch({ sessionId: session.session_id });
      expect(backend.reads.records(session.session_id)).toEqual([session, TOOL_TURN, start]);
      expect(await stored.close()).toBeNull();
      expect(await recordsOf(session.session_id)).toEqual([session, TOOL_TURN, start]);
    });

    it('appends again the audit entry of a journaled message, without a journal record', async () => {
      backend = await open();
      const session = newSession();
      const stored = await backend.store.create(session);
      const first = message(session, 'm1', 1);
      await stored.commitMessage(first.record, first.audit);
      const missing = message(session, 'm2', 2, 'review_agent');
      await stored.reappendAudit(missing.audit);
      expect(await backend.store.auditedMessages(session.session_id, session.created_at)).toEqual(
        new Map([
          ['m1', { sequence: 1, agent: 'objective_agent', hash: expect.stringMatching(/^[0-9a-f]{64}$/) }],
          ['m2', { sequence: 2, agent: 'review_agent', hash: expect.stringMatching(/^[0-9a-f]{64}$/) }],
        ]),
      );
      expect(await stored.close()).toBeNull();
      expect(await recordsOf(session.session_id)).toEqual([session, first.record]);
    });

    it("commits an operator's control (docs/run-control.md): its record, then an entry with no sequence, read back by any reader", async () => {
      backend = await open();
      const session = newSession();
      const stored = await backend.store.create(session);
      const first = message(session, 'm1', 1);
      await stored.commitMessage(first.record, first.audit);
      const record: ControlRecord = {
        v: JOURNAL_FORMAT,
        type: 'control',
        action: 'cancel',
        control_id: 'c0ffee00-0000-5000-8000-000000000001',
        by: 'ops',
        claimed_by: 'someone-else',
        reason: 'wrong request',
        at: AT,
        claimed_at: AT,
        source_file: 'cancel.json',
        claimed_path: null,
        governance_hash: GOVERNANCE,
      };
      const { entryHash } = await stored.commitControl(record, operatorAuditInput(record, session, 'UTC'));
      expect(entryHash).toMatch(/^[0-9a-f]{64}$/);
      expect(await backend.store.auditedMessages(session.session_id, session.created_at)).toEqual(
        new Map([
          ['m1', { sequence: 1, agent: 'objective_agent', hash: expect.stringMatching(/^[0-9a-f]{64}$/) }],
          [record.control_id, { sequence: null, agent: 'operator', hash: entryHash }],
        ]),
      );
      expect(await stored.close()).toBeNull();
      expect(await recordsOf(session.session_id)).toEqual([session, first.record, record]);
      // What a fork reads of its original, without opening it.
      expect(await backend.store.records(session.session_id)).toEqual([session, first.record, record]);
      await expect(backend.store.records('sess-seam-nowhere')).rejects.toThrow(/no session/);
    });

    it('knows no audit entries of a session that committed no message', async () => {
      backend = await open();
      const session = newSession();
      const stored = await backend.store.create(session);
      expect(await backend.store.auditedMessages(session.session_id, session.created_at)).toEqual(new Map());
      await stored.close();
    });

    it('pauses with its pending result and no end record, resumes with a reply, and finishes with the result and then the end record', async () => {
      backend = await open();
      const session = newSession();
      const stored = await backend.store.create(session);
      const first = message(session, 'm1', 1);
      await stored.commitMessage(first.record, first.audit);
      expect(await resultOf(session.request_id)).toBeNull();
      await stored.pause(result(session, 'pending', { question: 'which team?' }));
      expect(await resultOf(session.request_id)).toEqual({
        request_id: session.request_id,
        session_id: session.session_id,
        status: 'pending',
        question: 'which team?',
      });
      expect(await stored.close()).toBeNull();
      expect(await recordsOf(session.session_id)).toEqual([session, first.record]);

      await backend.resume(session.session_id);
      const reopened = await backend.store.open(session.session_id);
      expect(reopened.records).toEqual([session, first.record]);
      await reopened.session.recordReply(REPLY);
      const second = message(session, 'm2', 2);
      await reopened.session.commitMessage(second.record, second.audit);
      await reopened.session.finish(result(session, 'success', { messages: 2 }), FINISHED);
      expect(await resultOf(session.request_id)).toEqual({
        request_id: session.request_id,
        session_id: session.session_id,
        status: 'success',
        messages: 2,
      });
      expect(await reopened.session.close()).toBeNull();
      expect(await recordsOf(session.session_id)).toEqual([session, first.record, REPLY, second.record, FINISHED]);
      expect([...(await backend.store.auditedMessages(session.session_id, session.created_at)).keys()]).toEqual([
        'm1',
        'm2',
      ]);
    });

    it('finishes without an end record when an earlier run recorded it', async () => {
      backend = await open();
      const session = newSession();
      const stored = await backend.store.create(session);
      stored.recordExchange(exchange('1'));
      await stored.finish(result(session, 'failed', { error: 'PROCESSING_ERROR' }), null);
      expect(await stored.close()).toBeNull();
      expect(await resultOf(session.request_id)).toEqual({
        request_id: session.request_id,
        session_id: session.session_id,
        status: 'failed',
        error: 'PROCESSING_ERROR',
      });
      expect(await recordsOf(session.session_id)).toEqual([session, exchange('1')]);
    });

    it('refuses to open a session it does not have, naming it; the read seam has no records or result for it', async () => {
      backend = await open();
      await expect(backend.store.open('sess-missing')).rejects.toThrow(/"sess-missing"/);
      await backend.reads.prefetch({ sessionId: 'sess-missing', requestId: 'req-missing' });
      expect(() => backend.reads.records('sess-missing')).toThrow();
      expect(backend.reads.result('req-missing')).toBeNull();
    });

    it.each([
      [
        'a record of a journal version it does not read',
        JSON.stringify({ ...CRASH, v: 99 }),
        /version v=99 is not one this govflow reads/,
      ],
      ['a damaged record', '{"v":1,"type":"cra', /not a journal record/],
      ['a record without a type', '{"v":1}', /no "type"/],
    ])('reads records through the one parser: %s is a JournalFormatError at its line', async (_what, line, problem) => {
      backend = await open();
      const session = newSession();
      const stored = await backend.store.create(session);
      const first = message(session, 'm1', 1);
      await stored.commitMessage(first.record, first.audit);
      expect(await stored.close()).toBeNull();
      await backend.appendRawRecord(session.session_id, line);
      await backend.appendRawRecord(session.session_id, JSON.stringify(CRASH));
      const opened = backend.store.open(session.session_id);
      await expect(opened).rejects.toBeInstanceOf(JournalFormatError);
      await expect(opened).rejects.toMatchObject({ line: 3, message: expect.stringMatching(problem) as unknown });
      // The read seam throws it from records(), as its interface says: fetching is no error.
      await backend.reads.prefetch({ sessionId: session.session_id });
      expect(() => backend.reads.records(session.session_id)).toThrow(JournalFormatError);
      expect(() => backend.reads.records(session.session_id)).toThrow(
        expect.objectContaining({ line: 3, message: expect.stringMatching(problem) as unknown }) as Error,
      );
    });

    it('keeps a system prompt by its hash, durable with the next commit; keeping it again changes nothing', async () => {
      backend = await open();
      const session = newSession();
      const text = `You are the objective agent ${session.session_id}.`;
      const sha = createHash('sha256').update(text).digest('hex');
      expect(await backend.keptPrompt(sha)).toBeNull();
      backend.store.keepPrompt(sha, text);
      backend.store.keepPrompt(sha, text);
      const stored = await backend.store.create(session);
      const first = message(session, 'm1', 1);
      await stored.commitMessage(first.record, first.audit);
      expect(await backend.keptPrompt(sha)).toBe(text);
      await stored.close();
    });
  });
});
