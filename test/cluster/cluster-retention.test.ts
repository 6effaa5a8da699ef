/**
 * Retention in cluster mode (SPEC §15 "attachment chunks and archived journals follow retention
 * and can be forked", §16): two real daemons whose clocks run days ahead
 * (test/support/shifted-clock.mjs). A session with an address and an attachment runs on day 0.
 * Past keep_days each daemon archives its own projection's day file and outbox result, verify
 * reads the archive, and the session (its journal in the store) can still be re-run with its
 * placeholders. Past delete_after_days nothing goes while any daemon's root holds a legal hold;
 * once it is lifted one daemon deletes day 0 from the store — entries, session, journal, vault,
 * attachment chunks, in one transaction with a signed deletion record — and every daemon follows:
 * the record in its deleted.jsonl, its files of that day gone, verify and verify --store --key
 * starting the chain there, the request answered as deleted and a re-run refused saying why.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compactInTimeZone } from '../../src/message/zoned-time.js';
import { answer, runCli, waitFor } from '../daemon/daemon-helpers.js';
import { Cluster, clusterForTests, type ClusterNode } from '../support/cluster.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_retention');
const JANE = 'jane.doe@example.com';
const SHIFTED_CLOCK = fileURLToPath(new URL('../support/shifted-clock.mjs', import.meta.url));
const KEY = randomBytes(32).toString('hex');
const keysDir = mkdtempSync(path.join(tmpdir(), 'govflow-retention-keys-'));
const signingKey = path.join(keysDir, 'audit.key');
const publicKey = `${signingKey}.pub`;
afterAll(() => rmSync(keysDir, { recursive: true, force: true }));

function daysAhead(days: number): Record<string, string> {
  return { GOVFLOW_VAULT_KEY: KEY, NODE_OPTIONS: `--import ${SHIFTED_CLOCK}`, SHIFT_CLOCK_DAYS: String(days) };
}

function archiveOf(node: ClusterNode): string {
  return path.join(node.root, 'system', 'logs', 'archive');
}

function names(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder).sort() : [];
}

async function rowsOf(table: string, where: string, value: string): Promise<number> {
  return (await pg!.query(`select 1 from "${table}" where ${where} = $1`, [value])).length;
}

async function verifies(node: ClusterNode, args: string[]): Promise<string> {
  const result = await runCli(['verify', '--root', node.root, ...args]);
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return result.stdout;
}

describe.skipIf(!pg)('cluster mode: audit retention archives each root and deletes from the store', () => {
  let cluster: Cluster;

  clusterForTests(
    pg,
    {
      nodes: 2,
      http: true,
      // The final answer names the placeholder: restored in the outbox, it shows the vault followed the session.
      responses: {
        final_output_agent: [
          { json: answer({ content: { answer: 'Sent to [EMAIL_1].' }, contentType: 'final_report', next: null }) },
        ],
      },
      extraConfig:
        'pii: { redact: [email], restore_in_result: true }\n' +
        `audit: { signing_key: ${JSON.stringify(signingKey)}, retention: { keep_days: 30, delete_after_days: 40 } }`,
    },
    async (created) => {
      cluster = created;
      const made = await runCli(['keygen', '--out', signingKey]);
      expect(made.code, made.stderr).toBe(0);
    },
  );

  it('archives, holds, deletes once and is followed by every daemon', async () => {
    const [node0, node1] = cluster.nodes;
    const day0 = compactInTimeZone(new Date(), 'UTC');

    // Day 0: a request with an address and an attachment, on node0.
    await node0.start({ GOVFLOW_VAULT_KEY: KEY });
    const form = new FormData();
    form.append('request', JSON.stringify({ request: `Please write to ${JANE} about the annex.`, request_id: 'old' }));
    form.append('file', new Blob(['Either party may end this contract.\n']), 'annex/clause.txt');
    const posted = await fetch(`${node0.httpUrl}/v1/requests`, { method: 'POST', body: form });
    expect(posted.status, await posted.clone().text()).toBe(202);
    await waitFor('the day-0 result', () => node0.results().get('old')?.status === 'success', {
      timeoutMs: 60_000,
      detail: () => node0.stderrTail(),
    });
    const sessionId = node0.results().get('old')!.session_id;
    expect(JSON.stringify(node0.results().get('old')!.output)).toContain(`Sent to ${JANE}.`);
    expect(await rowsOf('attachment_chunks', 'session_id', sessionId)).toBeGreaterThan(0);
    expect(await rowsOf('pii_vaults', 'session_id', sessionId)).toBe(1);
    await node0.stop();

    // Day 35: a newer day is written, so day 0 is no longer the newest; node0's next start archives it.
    await node1.start(daysAhead(35));
    node1.drop('mid');
    await waitFor('the day-35 result', () => node1.results().get('mid')?.status === 'success', {
      timeoutMs: 60_000,
      detail: () => node1.stderrTail(),
    });
    await node0.start(daysAhead(35));
    // The day file is moved first (gzipped copy synced, then the source removed), then its results.
    await waitFor(
      'node0 to archive day 0 with its result',
      () =>
        names(archiveOf(node0)).includes(`${day0}.log.gz`) &&
        !names(path.join(node0.root, 'system', 'logs')).includes(`${day0}.log`) &&
        !node0.results().has('old'),
      { detail: () => node0.stderrTail() },
    );
    expect(names(path.join(archiveOf(node0), day0, 'outbox'))).toContain('old.json.gz');
    expect(await verifies(node0, ['--store', '--key', publicKey])).toMatch(/store audit chain intact/);
    await verifies(node0, []);

    // An archived session can still be re-run, keeping its placeholders: the rerun's result names jane.
    const rerun = await fetch(`${node1.httpUrl}/v1/sessions/${sessionId}/rerun`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request_id: 'old-rerun', reason: 'after archiving' }),
    });
    expect(rerun.status, await rerun.clone().text()).toBe(202);
    await waitFor('the re-run result', () => node1.results().get('old-rerun')?.status === 'success', {
      timeoutMs: 60_000,
      detail: () => cluster.describe(['old-rerun']),
    });
    expect(JSON.stringify(node1.results().get('old-rerun')!.output)).toContain(`Sent to ${JANE}.`);
    await node0.stop();
    await node1.stop();

    // Day 45: day 0 is past delete_after_days, but node1's root holds a legal hold.
    const hold = path.join(node1.root, 'system', 'state', 'legal-hold');
    writeFileSync(hold, 'case 1234\n');
    await node1.start(daysAhead(45));
    await waitFor('the hold in the store', async () => (await pg!.query('select 1 from legal_holds')).length === 1, {
      detail: () => node1.stderrTail(),
    });
    await node0.start(daysAhead(45));
    await waitFor(
      'node0 to see the hold',
      () => /legal-hold exists on the root of daemon/.test(node0.stderrTail(200)),
      {
        detail: () => node0.stderrTail(),
      },
    );
    expect(await pg!.query('select 1 from audit_deletions')).toHaveLength(0);
    expect(await rowsOf('sessions', 'session_id', sessionId)).toBe(1);

    // The hold lifted, node1's next start deletes day 0 in the store.
    rmSync(hold);
    await node1.stop();
    await node1.start(daysAhead(45));
    const [deletion] = await waitFor('the deletion record', async () => {
      const rows = await pg!.query<{ line: string; day: string }>('select line, day from audit_deletions');
      return rows.length > 0 ? rows : null;
    });
    const record = JSON.parse(deletion.line) as Record<string, unknown>;
    expect(record).toMatchObject({ day: day0, days: [day0], sessions: [sessionId], requests: ['old'] });
    expect(typeof record.sig).toBe('string');
    for (const table of ['sessions', 'journal', 'attachment_chunks', 'pii_vaults', 'audit_entries'])
      expect(await rowsOf(table, 'session_id', sessionId), table).toBe(0);
    expect(await pg!.query('select 1 from audit_entries where day = $1', [day0])).toHaveLength(0);
    await waitFor('node1 to follow', () => existsSync(path.join(archiveOf(node1), 'deleted.jsonl')));

    // node0 follows at its next pass: the record copied, its files of day 0 removed.
    await node0.stop();
    await node0.start(daysAhead(45));
    await waitFor('node0 to follow', () => existsSync(path.join(archiveOf(node0), 'deleted.jsonl')), {
      detail: () => node0.stderrTail(),
    });
    for (const node of [node0, node1]) {
      expect(readFileSync(path.join(archiveOf(node), 'deleted.jsonl'), 'utf8')).toBe(`${deletion.line}\n`);
      expect(names(archiveOf(node)).filter((name) => name.startsWith(day0))).toEqual([]);
      expect(await verifies(node, ['--store', '--key', publicKey])).toMatch(/deleted by audit retention/);
      expect(await verifies(node, [])).toMatch(/audit chain intact/);
    }
    const gone = await fetch(`${node0.httpUrl}/v1/requests/old`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toMatch(/audit retention deleted/);
    // Its request id stays taken, as in files mode.
    const again = await fetch(`${node1.httpUrl}/v1/requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: 'Once more.', request_id: 'old' }),
    });
    expect(again.status, await again.clone().text()).toBe(409);
    const refused = await fetch(`${node0.httpUrl}/v1/sessions/${sessionId}/rerun`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request_id: 'old-rerun-2' }),
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await refused.text()).toMatch(/audit retention deleted/);

    // A deletion record without its signature is named by verify --store --key.
    await pg!.query('update audit_deletions set line = $1', [
      JSON.stringify({ ...record, sig: undefined, key: undefined }),
    ]);
    const forged = await runCli(['verify', '--root', node0.root, '--store', '--key', publicKey]);
    expect(forged.code).toBe(1);
    expect(forged.stdout).toMatch(/record of days deleted through .*not signed/);
  }, 240_000);
});
