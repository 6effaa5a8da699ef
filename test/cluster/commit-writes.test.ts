/**
 * `commit_writes` (migration 11, set-based): a group commit whose writes touch one session several
 * times and include a fenced one gives the same outcome as applying the writes one after the other.
 * The committer's window: a write waits for the other held sessions' writes, up to the window.
 */
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { openClusterStore, type ClusterStore } from '../../src/cluster/cluster-store.js';
import { LeaseLostError, StoreCommitter, channelsOf, type StoreWrite } from '../../src/cluster/store-committer.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';
import { copyExampleAppInto } from '../support/example-app.js';
import { pgTestSchema } from '../support/postgres.js';

const db = await pgTestSchema('commit');
let cluster: ClusterStore;

beforeAll(async () => {
  if (!db) return;
  const root = makeTempFolder('govflow-commit-writes-');
  copyExampleAppInto(root);
  writeFileSync(
    path.join(root, 'govflow.config.yaml'),
    `timezone: UTC\nstore:\n  kind: postgres\n  url: ${db.url}\n  schema: ${db.schema}\n`,
  );
  cluster = await openClusterStore(loadConfig(root, {}));
});
afterAll(async () => {
  await cluster?.close();
  await db?.drop();
  removeTempFolders();
});

async function claimed(id: string): Promise<number> {
  await cluster.leases.enqueue({
    sessionId: id,
    requestId: `req-${id}`,
    text: id,
    user: null,
    metadata: null,
    sourceFile: `${id}.txt`,
    claimedPath: null,
  });
  const claim = await cluster.leases.claimNext();
  expect(claim?.sessionId).toBe(id);
  return claim!.epoch;
}

function record(note: string): string {
  return JSON.stringify({ v: 1, type: 'crash', error: note, at: new Date().toISOString() });
}

describe.skipIf(!db)('commit_writes', () => {
  it('folds one batch’s changes per session in write order; a fenced write in it changes nothing', async () => {
    const mine = await claimed('fold-a');
    const lost = await claimed('fold-b');
    await db!.query("update sessions set owner = 'other-daemon', epoch = epoch + 1 where session_id = 'fold-b'");
    const listener = new pg.Client({ connectionString: db!.url });
    await listener.connect();
    const notices: unknown[] = [];
    listener.on('notification', (message) => notices.push(JSON.parse(message.payload!)));
    await listener.query(`listen "${channelsOf(db!.schema).results}"`);
    try {
      const before = cluster.committer.stats.transactions;
      const write = (sessionId: string, epoch: number, firstSeq: number, change: StoreWrite['change']) =>
        cluster.committer.commit({ sessionId, epoch, records: [record(`w${firstSeq}`)], firstSeq, audit: [], change });
      // The first write commits alone; the three that arrive meanwhile share the next transaction.
      const first = write('fold-a', mine, 1, { state: 'running', manifest: { step: 0 } });
      const paused = write('fold-a', mine, 2, {
        state: 'paused',
        result_json: '{"n":1}',
        result_report: '# one',
        result_status: 'pending',
        message: 'a question',
        manifest: { step: 1 },
      });
      const fenced = write('fold-b', lost, 1, { result_json: '{"lost":true}', result_status: 'success' });
      const final = write('fold-a', mine, 3, {
        state: 'finished',
        result_json: '{"n":2}',
        result_status: 'success',
        governance_hash: 'h2',
        manifest: { step: 2 },
        release: true,
      });
      await Promise.all([first, paused, final]);
      await expect(fenced).rejects.toBeInstanceOf(LeaseLostError);
      expect(cluster.committer.stats.transactions - before).toBe(2);
      const rows = await db!.query(
        `select session_id, state, owner, result_json, result_report, result_status, result_version, manifest, governance_hash,
                (select array_agg(seq order by seq) from journal j where j.session_id = s.session_id) as seqs
           from sessions s where session_id in ('fold-a', 'fold-b') order by session_id`,
      );
      expect(rows).toEqual([
        {
          session_id: 'fold-a',
          // The last value of each column given (the final write gives no report), both results counted.
          state: 'finished',
          owner: null,
          result_json: '{"n":2}',
          result_report: '# one',
          result_status: 'success',
          result_version: 2,
          manifest: { step: 2 },
          governance_hash: 'h2',
          seqs: [1, 2, 3],
        },
        {
          session_id: 'fold-b',
          state: 'running',
          owner: 'other-daemon',
          result_json: null,
          result_report: null,
          result_status: null,
          result_version: 0,
          manifest: null,
          governance_hash: null,
          seqs: null,
        },
      ]);
      // One notice per result, in write order.
      await expect.poll(() => notices.length).toBe(2);
      expect(notices).toEqual([
        {
          intake: cluster.daemonId,
          session: 'fold-a',
          request: 'req-fold-a',
          status: 'pending',
          state: 'paused',
          message: 'a question',
        },
        {
          intake: cluster.daemonId,
          session: 'fold-a',
          request: 'req-fold-a',
          status: 'success',
          state: 'finished',
          message: null,
        },
      ]);
    } finally {
      await listener.end();
    }
  });
});

describe.skipIf(!db)('the commit window', () => {
  /** A committer of this daemon with its own window, holding `held()` sessions. */
  function committerHolding(held: () => number, windowMs: number): StoreCommitter {
    const committer = new StoreCommitter({
      pool: cluster.pool,
      schema: db!.schema,
      daemonId: cluster.daemonId,
      timezone: 'UTC',
      windowMs,
    });
    committer.countSessionsWith(held);
    return committer;
  }
  const write = (committer: StoreCommitter, sessionId: string, epoch: number, firstSeq: number) =>
    committer.commit({ sessionId, epoch, records: [record(`w${firstSeq}`)], firstSeq, audit: [] });

  it('a write waits for the other held sessions and goes as soon as each has one waiting', async () => {
    const [a, b] = [await claimed('window-a'), await claimed('window-b')];
    // A minute's window: only the second session's write can end the wait within the test's time.
    const committer = committerHolding(() => 2, 60_000);
    const first = write(committer, 'window-a', a, 1);
    await write(committer, 'window-b', b, 1);
    await first;
    expect(committer.stats.transactions).toBe(1);
  });

  it('waits no longer than the window for a held session that writes nothing', async () => {
    const [a, b] = [await claimed('window-c'), await claimed('window-d')];
    const committer = committerHolding(() => 3, 50);
    await Promise.all([write(committer, 'window-c', a, 1), write(committer, 'window-d', b, 1)]);
    expect(committer.stats.transactions).toBe(1);
  });

  it('does not wait when the daemon holds no other session', async () => {
    const a = await claimed('window-e');
    const committer = committerHolding(() => 1, 60_000);
    await write(committer, 'window-e', a, 1);
    await write(committer, 'window-e', a, 2);
    expect(committer.stats.transactions).toBe(2);
  });
});

describe.skipIf(!db)('a failed transaction', () => {
  it("drops the writes of its sessions still waiting behind it: a session's writes commit in order or not at all", async () => {
    const [a, b] = [await claimed('broken-a'), await claimed('broken-b')];
    let calls = 0;
    // The first transaction's connection is lost (as a partition does); the pool serves the rest.
    const pool = {
      query: (...args: Parameters<pg.Pool['query']>) => {
        calls += 1;
        if (calls === 1)
          return new Promise((_, reject) =>
            setImmediate(() => reject(new Error('Connection terminated unexpectedly'))),
          );
        return (cluster.pool.query as (...given: unknown[]) => unknown)(...args);
      },
    } as unknown as pg.Pool;
    const committer = new StoreCommitter({ pool, schema: db!.schema, daemonId: cluster.daemonId, timezone: 'UTC' });
    const write = (sessionId: string, epoch: number, firstSeq: number) =>
      committer.commit({ sessionId, epoch, records: [record(`w${firstSeq}`)], firstSeq, audit: [] });
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        () => 'committed',
        (error: Error) => error.name,
      );
    // broken-a's first write goes at once; its second (a parallel task's message) and broken-b's
    // write wait behind that transaction, which fails.
    const first = outcome(write('broken-a', a, 1));
    const second = outcome(write('broken-a', a, 2));
    const other = outcome(write('broken-b', b, 1));
    expect(await Promise.all([first, second, other])).toEqual([
      'StoreUnavailableError',
      'StoreUnavailableError',
      'committed',
    ]);
    const journal = await db!.query<{ session_id: string; seq: number }>(
      "select session_id, seq from journal where session_id in ('broken-a', 'broken-b') order by session_id, seq",
    );
    expect(journal).toEqual([{ session_id: 'broken-b', seq: 1 }]);
    // A write of the same lease made after the failure is not sent either; the next lease's is.
    expect(await outcome(write('broken-a', a, 3))).toBe('StoreUnavailableError');
    expect(calls).toBe(2);
    await db!.query("update sessions set owner = $1, epoch = epoch + 1 where session_id = 'broken-a'", [
      cluster.daemonId,
    ]);
    expect(await outcome(write('broken-a', a + 1, 1))).toBe('committed');
  });
});
