/**
 * The store seam (src/store/session-store.ts) as only the files store keeps it: the journal record
 * on disk before the audit entry is appended, results and reports in the outbox without temporary
 * files, session folders; and the session runner runs a whole session through another
 * implementation (in memory) without touching a session file — it depends on the interface only.
 * What every backend promises is session-store-contract.test.ts.
 */
import { existsSync, readFileSync, readdirSync, watch } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LoggedMessagesIndex } from '../../src/audit/logged-messages-index.js';
import { AuditLogWriter } from '../../src/audit/audit-log-writer.js';
import { complianceViolations } from '../../src/message/compliance-violations.js';
import { loadConfig } from '../../src/config/config-loader.js';
import { GovernanceSource } from '../../src/daemon/governance-source.js';
import { SessionRunner } from '../../src/pipeline/session-runner.js';
import { FilesSessionStore } from '../../src/store/files-session-store.js';
import { type MessageRecord, type SessionRecord } from '../../src/store/session-journal.js';
import { SessionJournal } from '../../src/store/journal-reader.js';
import { JOURNAL_FORMAT } from '../../src/store/journal-format.js';
import { makeMessage } from '../audit/audit-test-helpers.js';
import {
  REQUEST_TEXT,
  TWO_TASKS,
  exampleRoot,
  happyResponses,
  removeTempDirs,
  scripted,
} from '../pipeline/pipeline-test-helpers.js';
import { makeTempFolder } from '../support/temp-dirs.js';
import { MemorySessionStore } from './memory-session-store.js';

afterEach(removeTempDirs);

const SESSION: SessionRecord = {
  v: JOURNAL_FORMAT,
  type: 'session',
  session_id: 'sess-store-1',
  request_id: 'req-store-1',
  request: { text: 'hello', user: null, metadata: null },
  source_file: 'request.txt',
  claimed_path: null,
  created_at: '2026-03-08T06:30:00.000Z',
  entry_agent: 'objective_agent',
};

function messageRecord(id: string, sequence: number): MessageRecord {
  return {
    v: JOURNAL_FORMAT,
    type: 'message',
    kind: 'chain',
    message: makeMessage({ id, sequence, session: SESSION.session_id }),
    task_id: null,
    plan_message_id: null,
    loop_key: `objective_agent:${id}`,
    governance_hash: 'g'.repeat(64),
    corrections: [],
    violations: [],
    notes: [],
    raw_output: null,
    final: false,
    plan: null,
    on_failure: null,
  };
}

async function filesStore() {
  const root = makeTempFolder('govflow-store-');
  const sessionsDir = path.join(root, 'sessions');
  const outboxDir = path.join(root, 'outbox');
  const logsDir = path.join(root, 'logs');
  const writer = await AuditLogWriter.open({ logsDir, stateDir: path.join(root, 'state'), timezone: 'UTC' });
  const journalFile = path.join(sessionsDir, SESSION.session_id, 'journal.jsonl');
  /** What the journal held when each audit entry was appended. */
  const journalAtAppend: string[] = [];
  const store = new FilesSessionStore({
    sessionsDir,
    outboxDir,
    durable: true,
    audit: {
      append: (input) => {
        journalAtAppend.push(readFileSync(journalFile, 'utf8'));
        return writer.append(input);
      },
    },
    auditedMessages: (sessionId) => new LoggedMessagesIndex(logsDir).messagesOf(sessionId),
    snapshotsDir: path.join(root, 'snapshots'),
  });
  const { mkdirSync } = await import('node:fs');
  mkdirSync(outboxDir, { recursive: true });
  return { store, writer, journalFile, journalAtAppend, outboxDir, sessionsDir };
}

describe('the files store', () => {
  it('commits a message as journal record first, then its durable audit entry', async () => {
    const { store, writer, journalFile, journalAtAppend } = await filesStore();
    try {
      expect(store.exists('../escape')).toBe(false);
      const session = await store.create(SESSION);
      const { entryHash } = await session.commitMessage(messageRecord('m1', 1), {
        message: makeMessage({ id: 'm1', session: SESSION.session_id }),
        governanceHash: 'g'.repeat(64),
        corrections: [],
        complianceViolations: [],
        notes: [],
      });
      expect(entryHash).toMatch(/^[0-9a-f]{64}$/);
      expect(journalAtAppend).toHaveLength(1);
      expect(journalAtAppend[0]).toContain('"message_id":"m1"');
      await session.close();
      expect(readFileSync(journalFile, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    } finally {
      await writer.close();
    }
  });

  it('writes the result and its report to the outbox, and nothing else there', async () => {
    const { store, writer, outboxDir } = await filesStore();
    try {
      const session = await store.create(SESSION);
      await session.pause({ requestId: 'req-store-1', json: '{"status":"pending"}\n', report: '# pending\n' });
      expect(readFileSync(path.join(outboxDir, 'req-store-1.json'), 'utf8')).toBe('{"status":"pending"}\n');
      expect(readFileSync(path.join(outboxDir, 'req-store-1.md'), 'utf8')).toBe('# pending\n');
      await session.finish(
        { requestId: 'req-store-1', json: '{"status":"success"}\n', report: '# done\n' },
        { v: JOURNAL_FORMAT, type: 'finished', status: 'success', at: SESSION.created_at },
      );
      await session.close();
      expect(readFileSync(path.join(outboxDir, 'req-store-1.json'), 'utf8')).toBe('{"status":"success"}\n');
      expect(readFileSync(path.join(outboxDir, 'req-store-1.md'), 'utf8')).toBe('# done\n');
      expect(readdirSync(outboxDir).sort()).toEqual(['req-store-1.json', 'req-store-1.md']);
    } finally {
      await writer.close();
    }
  });

  it('never shows a temporary file in the outbox: results are written through system/ (SPEC §9)', async () => {
    const { store, writer, outboxDir } = await filesStore();
    const seen = new Set<string>();
    const watcher = watch(outboxDir, (_event, name) => {
      if (name !== null) seen.add(name);
    });
    try {
      const session = await store.create(SESSION);
      await session.pause({ requestId: 'req-store-1', json: '{"status":"pending"}\n', report: '# pending\n' });
      await session.finish(
        { requestId: 'req-store-1', json: '{"status":"success"}\n', report: '# done\n' },
        { v: JOURNAL_FORMAT, type: 'finished', status: 'success', at: SESSION.created_at },
      );
      await session.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect([...seen].sort()).toEqual(['req-store-1.json', 'req-store-1.md']);
      expect(readdirSync(path.dirname(outboxDir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      watcher.close();
      await writer.close();
    }
  });

  it('lists no hidden folder as a session, and makes a new session after sessions/ was removed under it', async () => {
    const { mkdirSync, rmSync } = await import('node:fs');
    const { store, writer, sessionsDir } = await filesStore();
    try {
      const first = await store.create(SESSION);
      mkdirSync(path.join(sessionsDir, '.hidden-0abc'));
      expect(SessionJournal.list(sessionsDir)).toEqual([SESSION.session_id]);
      await first.close();
      rmSync(sessionsDir, { recursive: true });
      const again = await store.create(SESSION);
      await again.commitMessage(messageRecord('m1', 1), {
        message: makeMessage({ id: 'm1', session: SESSION.session_id }),
        governanceHash: 'g'.repeat(64),
        corrections: [],
        complianceViolations: [],
        notes: [],
      });
      expect(SessionJournal.read(path.join(sessionsDir, SESSION.session_id)).map((record) => record.type)).toEqual([
        'session',
        'message',
      ]);
      expect(SessionJournal.list(sessionsDir)).toEqual([SESSION.session_id]);
      await again.close();
    } finally {
      await writer.close();
    }
  });
});

describe('the session runner behind the seam', () => {
  it('runs a whole session through an in-memory store and writes no session, audit or result file', async () => {
    const root = exampleRoot();
    const config = loadConfig(root, {});
    const { source } = GovernanceSource.load(config);
    const store = new MemorySessionStore();
    const provider = scripted(happyResponses(TWO_TASKS));
    const runner = new SessionRunner({
      config,
      governance: () => source.current(),
      provider,
      store,
      complianceViolations,
      costUsd: () => 0,
    });
    const outcome = await runner.startSession(
      { requestId: 'req-memory', text: REQUEST_TEXT, sourceFile: 'request.txt', claimedPath: null },
      new AbortController().signal,
    );
    provider.assertAllUsed();
    expect(outcome.status).toBe('success');
    const session = store.sessions.get(outcome.sessionId)!;
    const messages = session.records.filter((record) => record.type === 'message');
    expect(messages).toHaveLength(6);
    expect(session.audit.map((entry) => entry.message.metadata.sequence_number)).toEqual([1, 2, 3, 4, 5, 6]);
    // Each audit entry came after its own journal record (the interface's order).
    session.audit.forEach((entry, index) => {
      const recorded = session.records
        .slice(0, session.recordsAtAudit[index])
        .filter((record) => record.type === 'message') as MessageRecord[];
      expect(recorded.map((record) => record.message.message_id)).toContain(entry.message.message_id);
    });
    expect(session.records.at(-1)?.type).toBe('finished');
    expect(session.results.map((result) => result.kind)).toEqual(['finish']);
    expect(JSON.parse(session.results[0]!.files.json)).toMatchObject({
      request_id: 'req-memory',
      status: 'success',
      messages: 6,
    });
    expect(session.closed).toBe(1);
    expect(store.prompts.size).toBeGreaterThan(0);
    // (system/snapshots/ holds the governance snapshot the governance source saved, not the runner's.)
    expect(existsSync(path.join(root, 'system', 'snapshots', 'prompts'))).toBe(false);
    for (const folder of ['sessions', 'outbox', 'logs']) {
      const full = path.join(root, 'system', folder);
      expect(existsSync(full) ? readdirSync(full) : [], folder).toEqual([]);
    }

    // Recovery reads the same store: a finished session only gets its result again.
    const again = await runner.recoverSession(outcome.sessionId, new AbortController().signal);
    expect(again.status).toBe('success');
    expect(session.audit).toHaveLength(6);
    expect(session.results.map((result) => result.kind)).toEqual(['finish', 'finish']);
  });
});
