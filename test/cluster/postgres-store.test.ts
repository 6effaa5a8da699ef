/**
 * The Postgres store in-process (SPEC §15): sessions run by the real runner on a real Postgres,
 * journal and chain committed together, group commit, fencing, and `verify --store`.
 */
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { openClusterStore, type ClusterStore } from '../../src/cluster/cluster-store.js';
import { ChainProjection } from '../../src/cluster/chain-projection.js';
import { verifyStore } from '../../src/cluster/store-verify.js';
import { LeaseLostError } from '../../src/cluster/store-committer.js';
import { openRuntime, type Runtime } from '../../src/daemon/runtime.js';
import type { AuditEntryInput } from '../../src/store/session-store.js';
import type { MessageRecord, SessionRecord } from '../../src/store/session-journal.js';
import { JOURNAL_FORMAT } from '../../src/store/journal-format.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';
import { copyExampleAppInto } from '../support/example-app.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('store');
let cluster: ClusterStore;
let runtime: Runtime;
let root: string;

beforeAll(async () => {
  if (!pg) return;
  root = makeTempFolder('govflow-pgstore-');
  copyExampleAppInto(root);
  writeFileSync(
    path.join(root, 'govflow.config.yaml'),
    `timezone: UTC\nstore:\n  kind: postgres\n  url: ${pg.url}\n  schema: ${pg.schema}\n`,
  );
  const config = loadConfig(root, {});
  cluster = await openClusterStore(config);
  runtime = await openRuntime(root, { env: {}, store: cluster.store });
});
afterAll(async () => {
  await runtime?.close();
  await cluster?.close();
  await pg?.drop();
  removeTempFolders();
});

/** Enqueues, claims and runs one request the way a daemon's worker does. */
async function runRequest(requestId: string): Promise<string> {
  await cluster.leases.enqueue({
    sessionId: `sess-${requestId}`,
    requestId,
    text: `request ${requestId}`,
    user: null,
    metadata: null,
    sourceFile: `${requestId}.txt`,
    claimedPath: null,
  });
  const claimed = await cluster.leases.claimNext();
  expect(claimed?.sessionId).toBe(`sess-${requestId}`);
  cluster.store.hold(claimed!.sessionId, claimed!.epoch);
  try {
    const outcome = await runtime.runner.startSession(
      {
        requestId,
        sessionId: claimed!.sessionId,
        text: claimed!.request.text,
        sourceFile: claimed!.request.source_file,
        claimedPath: null,
      },
      new AbortController().signal,
    );
    expect(outcome.status).toBe('success');
  } finally {
    cluster.store.release(claimed!.sessionId);
  }
  return claimed!.sessionId;
}

function auditInputOf(record: MessageRecord): AuditEntryInput {
  return {
    message: record.message,
    governanceHash: record.governance_hash,
    corrections: record.corrections,
    complianceViolations: record.violations,
    notes: record.notes,
    user: 'local',
  };
}

describe.skipIf(!pg)('PostgresSessionStore', () => {
  it('commits each message with its audit entry; the result is on the session row; the chain verifies', async () => {
    const sessionIds: string[] = [];
    for (const id of ['a1', 'a2', 'a3']) sessionIds.push(await runRequest(id));
    for (const sessionId of sessionIds) {
      const journal = await pg!.query<{ record: string }>(
        'select record from journal where session_id = $1 order by seq',
        [sessionId],
      );
      const messages = journal
        .map((row) => JSON.parse(row.record) as { type: string; message?: { message_id: string } })
        .filter((record) => record.type === 'message');
      const audited = await pg!.query<{ message_id: string }>(
        'select message_id from audit_entries where session_id = $1 order by position',
        [sessionId],
      );
      expect(audited.map((row) => row.message_id)).toEqual(messages.map((record) => record.message!.message_id));
      const [row] = await pg!.query<{
        state: string;
        owner: string | null;
        result_status: string;
        result_json: string;
      }>('select state, owner, result_status, result_json from sessions where session_id = $1', [sessionId]);
      expect(row).toMatchObject({ state: 'finished', owner: null, result_status: 'success' });
      expect(JSON.parse(row.result_json)).toMatchObject({
        session_id: sessionId,
        status: 'success',
        messages: messages.length,
      });
    }
    const result = await verifyStore(cluster.pool, cluster.schema, path.join(root, 'no-logs'));
    expect(result).toMatchObject({ ok: true, projected: 0 });
    expect(result.entries).toBeGreaterThanOrEqual(9);
  });

  it('group-commits writes that arrive together in one transaction, chained in arrival order', async () => {
    const [record] = (
      await pg!.query<{ record: string }>(
        'select record from journal where session_id = \'sess-a1\' and record like \'%"type":"message"%\' order by seq limit 1',
      )
    ).map((row) => JSON.parse(row.record) as MessageRecord);
    await cluster.leases.enqueue({
      sessionId: 'sess-group',
      requestId: 'group',
      text: 'g',
      user: null,
      metadata: null,
      sourceFile: 'g.txt',
      claimedPath: null,
    });
    const claimed = (await cluster.leases.claimNext())!;
    const before = { ...cluster.committer.stats };
    const writes = Array.from({ length: 5 }, (_, index) =>
      cluster.committer.commit({
        sessionId: claimed.sessionId,
        epoch: claimed.epoch,
        records: [JSON.stringify({ v: 1, type: 'crash', error: `probe ${index}`, at: new Date().toISOString() })],
        firstSeq: index + 1,
        audit: [auditInputOf({ ...record, message: { ...record.message, message_id: `group-${index}` } })],
      }),
    );
    const hashes = await Promise.all(writes);
    // The first write starts a transaction at once; the four that arrive meanwhile share the next.
    expect(cluster.committer.stats.transactions - before.transactions).toBe(2);
    const rows = await pg!.query<{ message_id: string; hash: string }>(
      "select message_id, hash from audit_entries where message_id like 'group-%' order by position",
    );
    expect(rows.map((row) => row.message_id)).toEqual(['group-0', 'group-1', 'group-2', 'group-3', 'group-4']);
    expect(rows.map((row) => row.hash)).toEqual(hashes.map((list) => list[0]));
    expect((await verifyStore(cluster.pool, cluster.schema, path.join(root, 'no-logs'))).ok).toBe(true);
  });

  it("files an entry stamped before the chain's newest day under that newest day (day files stay in chain order)", async () => {
    const [record] = (
      await pg!.query<{ record: string }>(
        'select record from journal where session_id = \'sess-a1\' and record like \'%"type":"message"%\' order by seq limit 1',
      )
    ).map((row) => JSON.parse(row.record) as MessageRecord);
    const claimed = {
      sessionId: 'sess-group',
      epoch: Number(
        (await pg!.query<{ epoch: string }>("select epoch from sessions where session_id = 'sess-group'"))[0].epoch,
      ),
    };
    const stamped = (messageId: string, executedAt: string) =>
      auditInputOf({
        ...record,
        message: {
          ...record.message,
          message_id: messageId,
          timestamp: { ...record.message.timestamp, executed_at: executedAt },
        },
      });
    const [seqRow] = await pg!.query<{ next: number }>(
      "select coalesce(max(seq), 0)::int + 1 as next from journal where session_id = 'sess-group'",
    );
    await cluster.committer.commit({
      sessionId: claimed.sessionId,
      epoch: claimed.epoch,
      records: [],
      firstSeq: seqRow.next,
      audit: [stamped('late-future', '2099-01-02T00:00:01Z'), stamped('late-past', '2099-01-01T23:59:59Z')],
    });
    const rows = await pg!.query<{ message_id: string; day: string }>(
      "select message_id, day from audit_entries where message_id like 'late-%' order by position",
    );
    expect(rows).toEqual([
      { message_id: 'late-future', day: '20990102' },
      { message_id: 'late-past', day: '20990102' },
    ]);
  });

  it('fences: a write under a lease another daemon took over is refused and leaves nothing behind', async () => {
    await cluster.leases.enqueue({
      sessionId: 'sess-fence',
      requestId: 'fence',
      text: 'f',
      user: null,
      metadata: null,
      sourceFile: 'f.txt',
      claimedPath: null,
    });
    const claimed = (await cluster.leases.claimNext())!;
    // Another daemon takes the session over: the epoch moves on.
    await pg!.query("update sessions set owner = 'other-daemon', epoch = epoch + 1 where session_id = 'sess-fence'");
    const counts = async () =>
      (
        await pg!.query<{ j: number; a: number }>(
          "select (select count(*)::int from journal where session_id = 'sess-fence') as j, (select count(*)::int from audit_entries) as a",
        )
      )[0];
    const before = await counts();
    const [record] = (
      await pg!.query<{ record: string }>(
        'select record from journal where session_id = \'sess-a2\' and record like \'%"type":"message"%\' limit 1',
      )
    ).map((row) => JSON.parse(row.record) as MessageRecord);
    await expect(
      cluster.committer.commit({
        sessionId: 'sess-fence',
        epoch: claimed.epoch,
        records: ['{}'],
        firstSeq: 1,
        audit: [auditInputOf(record)],
      }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await counts()).toEqual(before);
    // The lease renewal sees it too: the session is no longer held.
    expect(await cluster.leases.renew(new Map([['sess-fence', claimed.epoch]]))).toEqual(new Set());
  });

  it('gives the lease up with a pause: the handle writes nothing more, and the store holds the session until it is released', async () => {
    const session: SessionRecord = {
      v: JOURNAL_FORMAT,
      type: 'session',
      session_id: 'sess-paused',
      request_id: 'paused',
      request: { text: 'p', user: null, metadata: null },
      source_file: 'p.txt',
      claimed_path: null,
      created_at: new Date().toISOString(),
      entry_agent: 'objective_agent',
    };
    const stored = await cluster.store.create(session);
    await stored.pause({ requestId: 'paused', json: '{"status":"pending"}\n', report: '# pending\n' });
    expect(
      await pg!.query("select state, owner, result_status from sessions where session_id = 'sess-paused'"),
    ).toEqual([{ state: 'paused', owner: null, result_status: 'pending' }]);
    // Unlike a files session, whose handle still appends: a reply's claim leases it again first.
    await expect(
      stored.recordCrash({ v: JOURNAL_FORMAT, type: 'crash', error: 'late', at: session.created_at }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await pg!.query("select seq from journal where session_id = 'sess-paused'")).toEqual([{ seq: 1 }]);
    expect(await stored.close()).toBeNull();
    // exists() is the sessions this daemon holds (the files store: every session it has).
    expect(cluster.store.exists('sess-paused')).toBe(true);
    cluster.store.release('sess-paused');
    expect(cluster.store.exists('sess-paused')).toBe(false);
  });

  it('projects the chain to log files byte for byte; verify --store catches an edited file and an edited store entry', async () => {
    const logs = path.join(root, 'system', 'logs');
    const projection = new ChainProjection(cluster.pool, cluster.schema, logs, false);
    await projection.open();
    await projection.catchUp();
    const entries = (await pg!.query<{ entry: string }>('select entry from audit_entries order by position'))
      .map((row) => row.entry)
      .join('');
    const files = readdirSync(logs).sort();
    expect(files.map((name) => readFileSync(path.join(logs, name), 'utf8')).join('')).toBe(entries);
    expect((await verifyStore(cluster.pool, cluster.schema, logs)).ok).toBe(true);
    // A torn tail is cut when projection reopens, and written again.
    appendFileSync(path.join(logs, files.at(-1)!), '[TIMESTAMP: 00:00:00]\n[AGENT: torn');
    const reopened = new ChainProjection(cluster.pool, cluster.schema, logs, false);
    expect((await reopened.open()).repaired).not.toBeNull();
    await reopened.catchUp();
    expect((await verifyStore(cluster.pool, cluster.schema, logs)).ok).toBe(true);
    // An edited file.
    const file = path.join(logs, files[0]);
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('[AGENT: objective_agent]', '[AGENT: objective_agenT]'));
    const edited = await verifyStore(cluster.pool, cluster.schema, logs);
    expect(edited.ok).toBe(false);
    expect(edited.problem).toMatch(/log file differs from the store at .*:\d+/);
    writeFileSync(file, original);
    // An edited store entry.
    await pg!.query(
      "update audit_entries set entry = replace(entry, '[STATUS: success]', '[STATUS: failed]') where position = 2",
    );
    const tampered = await verifyStore(cluster.pool, cluster.schema, logs);
    expect(tampered).toMatchObject({ ok: false, entries: 1 });
    expect(tampered.problem).toMatch(/position 2 .*hash mismatch/);
  });

  it('queues a burst of requests in grouped inserts, first in first out; a taken or deleted request id is a duplicate', async () => {
    const request = (requestId: string) => ({
      sessionId: `sess-${requestId}`,
      requestId,
      text: `request ${requestId}`,
      user: 'alice',
      metadata: null,
      sourceFile: `${requestId}.txt`,
      claimedPath: null,
    });
    const statements: string[] = [];
    const query = cluster.pool.query.bind(cluster.pool);
    cluster.pool.query = ((config: unknown, values?: unknown) => {
      const text = typeof config === 'string' ? config : (config as { text: string }).text;
      if (text.includes('unnest(')) statements.push(text);
      return query(config as never, values as never);
    }) as typeof cluster.pool.query;
    try {
      const burst = Array.from({ length: 6 }, (_, index) => `burst-${index}`);
      const queued = await Promise.all(burst.map((requestId) => cluster.leases.enqueue(request(requestId))));
      expect(queued).toEqual(burst.map(() => ({ kind: 'queued' })));
      // The first goes at once; the five that arrive while it runs share the next statement.
      expect(statements).toHaveLength(2);
      const claimed = await cluster.leases.claim(10);
      expect(claimed.map((session) => session.requestId)).toEqual(burst);
      expect(claimed.map((session) => session.request.user)).toEqual(burst.map(() => 'alice'));
      // A request id audit retention deleted fails its group's statement (a trigger): the group goes one by one.
      await pg!.query(
        "insert into deleted_requests (request_id, deleted_through) values ('burst-deleted', '20260101')",
      );
      statements.length = 0;
      const mixed = ['burst-first', 'burst-7', 'burst-0', 'burst-deleted', 'burst-8'];
      const outcomes = await Promise.all(mixed.map((requestId) => cluster.leases.enqueue(request(requestId))));
      expect(outcomes).toEqual([
        { kind: 'queued' },
        { kind: 'queued' },
        { kind: 'duplicate', ours: false, column: 'request_id' },
        { kind: 'duplicate', ours: false, column: 'request_id' },
        { kind: 'queued' },
      ]);
      expect(statements).toHaveLength(2 + 4);
      const rows = await pg!.query<{ request_id: string }>(
        "select request_id from sessions where request_id in ('burst-first', 'burst-7', 'burst-8', 'burst-deleted') order by created_at",
      );
      expect(rows.map((row) => row.request_id)).toEqual(['burst-first', 'burst-7', 'burst-8']);
    } finally {
      cluster.pool.query = query;
    }
  });
});
