/**
 * One session, one PII vault, wherever it runs (SPEC §15, §12, §18): a session with an address in
 * its request is killed with kill -9 on node0 mid-run, resumed on node1 and forked on node2; every
 * daemon keeps its placeholders ([EMAIL_1] stays jane), the outboxes get the originals back, and no
 * table of the store nor any file under system/ holds an original but the sealed vault. A reply
 * taken by a daemon that never ran the session is redacted with its vault before the store keeps
 * it; `govflow migrate` rotates the key.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answer, dropJson, makeRoot, runCli, waitFor } from '../daemon/daemon-helpers.js';
import { Cluster, clusterForTests, nodeScript } from '../support/cluster.js';
import { pgTestSchema } from '../support/postgres.js';
import { unsealVault } from '../../src/privacy/vault-cipher.js';

const pg = await pgTestSchema('cluster_vault');
const KEY = randomBytes(32);
const JANE = 'jane.doe@example.com';
const BOB = 'bob.roe@example.org';
const FINAL = `Sent to ${JANE}; copied ${BOB}.`;

/** Every file under `dir`, with its path. */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) found.push(...filesUnder(file));
    else found.push(file);
  }
  return found;
}

/** Every row of every table of the store, as JSON text. */
async function everyRow(): Promise<Array<{ table: string; text: string }>> {
  const tables = await pg!.query<{ table_name: string }>(
    'select table_name from information_schema.tables where table_schema = $1',
    [pg!.schema],
  );
  const rows: Array<{ table: string; text: string }> = [];
  for (const { table_name: table } of tables) {
    const text = (await pg!.query<{ row: string }>(`select row_to_json(t)::text as row from "${table}" t`))
      .map((row) => row.row)
      .join('\n');
    rows.push({ table, text });
  }
  return rows;
}

describe.skipIf(!pg)('cluster mode: the PII vault in the store', () => {
  let cluster: Cluster;

  clusterForTests(
    pg,
    {
      nodes: 3,
      latencyMs: 500,
      leaseMs: 2000,
      extraConfig: 'pii: { redact: [email], restore_in_result: true }\nprivacy: { vault_key_file: vault.key }',
      responses: {
        // A new address written by the model on the daemon that resumed the session: [EMAIL_2] only if it has the vault.
        summarizer_agent: [
          {
            json: answer({
              content: { summary: `Reply to ${BOB} and [EMAIL_1].`, decisions: [] },
              contentType: 'summary',
            }),
          },
        ],
        final_output_agent: [
          {
            json: answer({
              content: { answer: 'Sent to [EMAIL_1]; copied [EMAIL_2].' },
              contentType: 'final_report',
            }),
          },
        ],
      },
    },
    (created) => {
      cluster = created;
      // The key as a file on each root: 64 hex characters on two, 44 base64 with whitespace on the third.
      const forms = [KEY.toString('hex'), `${KEY.toString('hex')}\n`, `  ${KEY.toString('base64')}\n`];
      cluster.nodes.forEach((node, index) => writeFileSync(path.join(node.root, 'vault.key'), forms[index]));
    },
  );

  it('refuses to start with pii.redact and no vault key, naming both settings (exit 2)', async () => {
    const config = readFileSync(path.join(cluster.nodes[0].root, 'govflow.config.yaml'), 'utf8');
    const root = makeRoot(config.replace('privacy: { vault_key_file: vault.key }', ''), 'govflow-nokey-');
    const started = await runCli(['start', '--root', root], { timeoutMs: 30_000 });
    expect(started.code, started.stderr).toBe(2);
    expect(started.stderr).toContain('GOVFLOW_VAULT_KEY');
    expect(started.stderr).toContain('privacy.vault_key_file');
  });

  it('keeps every placeholder across a kill -9, a resumption and a fork on other daemons', async () => {
    const [node0, node1, node2] = cluster.nodes;
    await node0.start();
    node0.drop('vault-a', `Please write to ${JANE} about the quarterly report.`);
    await waitFor('node0 to log the first message', () => node0.logText().includes('[REQUEST_ID: vault-a]'), {
      timeoutMs: 30_000,
      intervalMs: 20,
      detail: () => cluster.describe(['vault-a']),
    });
    await node0.kill9();
    await node1.start();
    const sessionId = (await node1.auditEntries()).find((entry) => entry.requestId === 'vault-a')!.sessionId;
    const rows = () => pg!.query<{ state: string }>('select state from sessions where session_id = $1', [sessionId]);
    await waitFor('node1 to resume and finish the session', async () => (await rows())[0]?.state === 'finished', {
      timeoutMs: 60_000,
      intervalMs: 200,
      detail: () => cluster.describe(['vault-a']),
    });
    const entries = (await node1.auditEntries()).filter((entry) => entry.sessionId === sessionId);
    const summary = entries.find((entry) => entry.agent === 'summarizer_agent')!;
    expect(entries[0].agent, 'node0 logged the first message before it was killed').toBe('objective_agent');

    // The journal in the store: the address the model wrote on node1 is the session's second, not a new first.
    const journal = (
      await pg!.query<{ record: string }>('select record from journal where session_id = $1 order by seq', [sessionId])
    ).map((row) => row.record);
    const summarized = journal.find((record) => record.includes('"summarizer_agent"') && record.includes('Reply to'));
    expect(summarized).toContain('Reply to [EMAIL_2] and [EMAIL_1].');
    const vault = await pg!.query<{ sealed: Buffer }>('select sealed from pii_vaults where session_id = $1', [
      sessionId,
    ]);
    expect(unsealVault(KEY, sessionId, vault[0].sealed).map((entry) => [entry.placeholder, entry.value])).toEqual([
      ['EMAIL_1', JANE],
      ['EMAIL_2', BOB],
    ]);

    // The fork, taken by node2 alone, from the summarizer's message: its vault is the original's.
    await node1.stop();
    await node2.start();
    dropJson(node2.root, 'fork-vault.json', {
      control: 'fork',
      session_id: sessionId,
      from: summary.sequence,
      reason: 'again',
    });
    await waitFor(
      'the fork to finish in node2 outbox',
      () => node2.results().get('vault-a-fork-1')?.status === 'success',
      {
        timeoutMs: 60_000,
        intervalMs: 200,
        detail: () => cluster.describe(['vault-a-fork-1']),
      },
    );
    const fork = node2.results().get('vault-a-fork-1')!;
    expect(JSON.stringify(fork.output)).toContain(FINAL);
    const forkJournal = (
      await pg!.query<{ record: string }>('select record from journal where session_id = $1 order by seq', [
        fork.session_id,
      ])
    ).map((row) => row.record);
    expect(forkJournal.some((record) => record.includes('Reply to [EMAIL_2] and [EMAIL_1].'))).toBe(true);

    // The request's result reaches node0's outbox once it is back, with the originals.
    await node2.stop();
    await node0.start();
    await waitFor('the result in node0 outbox', () => node0.results().get('vault-a')?.status === 'success', {
      timeoutMs: 30_000,
      intervalMs: 200,
      detail: () => cluster.describe(['vault-a']),
    });
    expect(JSON.stringify(node0.results().get('vault-a')!.output)).toContain(FINAL);
    await node0.stop();

    // No original in any table but the sealed vault, nor in any file but the outbox results.
    for (const { table, text } of await everyRow())
      for (const original of [JANE, BOB]) expect(text, `table ${table}`).not.toContain(original);
    const stored = await pg!.query<{ result_json: string }>('select result_json from sessions where session_id = $1', [
      sessionId,
    ]);
    expect(stored[0].result_json).toContain('Sent to [EMAIL_1]; copied [EMAIL_2].');
    for (const node of cluster.nodes) {
      for (const file of filesUnder(path.join(node.root, 'system'))) {
        if (/[/\\]outbox[/\\][^/\\]+\.json$/.test(file)) continue;
        const text = readFileSync(file, 'utf8');
        for (const original of [JANE, BOB]) expect(text, file).not.toContain(original);
      }
      expect(node.output(), `${node.name} output`).not.toContain(JANE);
    }
  }, 240_000);

  it('redacts a reply with the session vault before the store keeps it, wherever the session paused', async () => {
    const [node0, node1] = cluster.nodes;
    const question = 'Whom else should I write to?';
    const pending = answer({
      content: { question },
      contentType: 'objectives',
      status: 'pending',
      message: question,
      next: null,
    });
    const script = path.join(node1.root, 'script.json');
    const usual = readFileSync(script, 'utf8');
    writeFileSync(script, nodeScript('node1', { responses: { objective_agent: [{ json: pending }] } }));
    await node1.start();
    node1.drop('vault-ask', `Please write to ${JANE} about the invoice.`);
    const paused = await waitFor('the pending result', () => node1.results().get('vault-ask'), {
      timeoutMs: 30_000,
      intervalMs: 100,
      detail: () => cluster.describe(['vault-ask']),
    });
    expect(paused.status).toBe('pending');
    await node1.stop();
    writeFileSync(script, usual);
    // The reply goes in through node0, which never saw the session: bob is new, jane is [EMAIL_1] already.
    await node0.start();
    dropJson(node0.root, 'reply-ask.json', { session_id: paused.session_id, reply: `Also ${BOB}, and ${JANE} again.` });
    const replies = () =>
      pg!.query<{ reply: { text: string } }>('select reply from replies where session_id = $1', [paused.session_id]);
    await waitFor('the reply in the store', async () => (await replies()).length === 1, { timeoutMs: 30_000 });
    expect((await replies())[0].reply.text).toBe('Also [EMAIL_2], and [EMAIL_1] again.');
    await waitFor(
      'the session to finish',
      async () =>
        (await pg!.query<{ state: string }>('select state from sessions where session_id = $1', [paused.session_id]))[0]
          ?.state === 'finished',
      { timeoutMs: 60_000, intervalMs: 200, detail: () => cluster.describe(['vault-ask']) },
    );
    await node0.stop();
    const journal = (
      await pg!.query<{ record: string }>('select record from journal where session_id = $1 order by seq', [
        paused.session_id,
      ])
    ).map((row) => row.record);
    expect(
      journal.some(
        (record) => record.includes('"type":"reply"') && record.includes('Also [EMAIL_2], and [EMAIL_1] again.'),
      ),
    ).toBe(true);
    // The message that read the reply counts what the intake replaced in it.
    expect(node0.logText()).toContain('[PII_REDACTED]: {"email":2}');
    for (const { table, text } of await everyRow())
      for (const original of [JANE, BOB]) expect(text, `table ${table}`).not.toContain(original);
    for (const node of [node0, node1])
      for (const file of filesUnder(path.join(node.root, 'system'))) {
        if (/[/\\]outbox[/\\][^/\\]+\.json$/.test(file)) continue;
        for (const original of [JANE, BOB]) expect(readFileSync(file, 'utf8'), file).not.toContain(original);
      }
  }, 180_000);

  it('govflow migrate seals every vault again under a new key (GOVFLOW_VAULT_KEY_PREVIOUS)', async () => {
    const next = randomBytes(32);
    const before = await pg!.query<{ session_id: string; sealed: Buffer }>('select session_id, sealed from pii_vaults');
    expect(before.length, 'the vaults of the tests above').toBeGreaterThan(0);
    const rotated = await runCli(['migrate', '--root', cluster.nodes[0].root], {
      env: { GOVFLOW_VAULT_KEY: next.toString('hex'), GOVFLOW_VAULT_KEY_PREVIOUS: KEY.toString('base64') },
    });
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain(`sealed again under the key`);
    for (const row of await pg!.query<{ session_id: string; sealed: Buffer }>(
      'select session_id, sealed from pii_vaults',
    )) {
      const entries = unsealVault(next, row.session_id, row.sealed);
      const old = before.find((earlier) => earlier.session_id === row.session_id)!;
      expect(entries).toEqual(unsealVault(KEY, old.session_id, old.sealed));
      expect(() => unsealVault(KEY, row.session_id, row.sealed)).toThrow(/cannot be opened with this key/);
    }
  });
});
