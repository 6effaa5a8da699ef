/**
 * Signed checkpoints in cluster mode (docs/cluster.md, docs/audit-log.md): two real daemons on one
 * Postgres schema sign the one chain into one stream of checkpoints — kept in `audit_checkpoints`
 * and delivered to a witness folder — with entry counts and signing times rising together, at
 * most one per `audit.checkpoint_ms` while both run, every signature holding for the public key,
 * and the last one covering the whole chain. `govflow verify --store --key --witness` holds the
 * chain in Postgres against them; once the newest entries are cut from the chain (the head row
 * rewritten to match), it names the checkpoint the cut contradicts, in Postgres and, when the
 * forger removed those rows too, in the witness. A second witness that cannot be written never
 * stops them, and `govflow status` (and --json) on a daemon's root shows its backlog.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkpointSignatureHolds,
  parseCheckpointLine,
  readPublicKey,
  type Checkpoint,
} from '../../src/audit/checkpoint-format.js';
import { runCli, waitFor } from '../daemon/daemon-helpers.js';
import { Cluster, clusterForTests, type ClusterNode } from '../support/cluster.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_checkpoints');
const keysDir = mkdtempSync(path.join(tmpdir(), 'govflow-cluster-keys-'));
const witness = mkdtempSync(path.join(tmpdir(), 'govflow-cluster-witness-'));
// A witness "folder" below a regular file: no process, root included, can create it.
const blocker = path.join(keysDir, 'not-a-folder');
writeFileSync(blocker, 'a file');
const blocked = path.join(blocker, 'witness');
const privateKey = path.join(keysDir, 'cluster.key');
const publicKey = `${privateKey}.pub`;
const INTERVAL_MS = 150;

afterAll(() => {
  rmSync(keysDir, { recursive: true, force: true });
  rmSync(witness, { recursive: true, force: true });
});

type CheckpointRow = {
  entries: string;
  day: string;
  hash: string;
  signed_at: Date;
  daemon: string;
  line: string;
};

function witnessLines(): string[] {
  return readdirSync(witness)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) =>
      readFileSync(path.join(witness, name), 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    );
}

describe.skipIf(!pg)('cluster mode: one stream of signed checkpoints for the one chain', () => {
  let cluster: Cluster;

  clusterForTests(
    pg,
    {
      nodes: 2,
      concurrency: 1,
      latencyMs: 60,
      extraConfig:
        `audit: { signing_key: ${JSON.stringify(privateKey)}, checkpoint_ms: ${INTERVAL_MS}, witnesses: [` +
        `${JSON.stringify(witness)}, ${JSON.stringify(blocked)}] }`,
    },
    async (created) => {
      cluster = created;
      const made = await runCli(['keygen', '--out', privateKey]);
      expect(made.code, made.stderr).toBe(0);
    },
  );

  async function run(nodes: ClusterNode[], prefix: string, perNode: number): Promise<void> {
    const ids: string[] = [];
    for (const node of nodes) {
      for (let index = 0; index < perNode; index++) {
        const id = `${prefix}-${node.name}-${index}`;
        node.drop(id);
        ids.push(id);
      }
    }
    await cluster.waitForResults(ids, 60_000);
  }

  async function databaseNow(): Promise<number> {
    const [row] = await pg!.query<{ now: Date }>('select clock_timestamp() as now');
    return row.now.getTime();
  }

  it('two daemons sign into one monotonic stream; verify --store --key holds the chain against it', async () => {
    const [first, second] = cluster.nodes;
    // Each daemon alone, then both at once: both must sign into the same stream.
    await first.start();
    await run([first], 'alone-first', 2);
    await second.start();
    await first.stop();
    await run([second], 'alone-second', 2);
    await first.start();
    const together = await databaseNow();
    await run([first, second], 'together', 3);
    const apart = await databaseNow();
    // The backlog of the daemon's witnesses, as in files mode: the blocked one waits, with its error.
    const status = await waitFor('the blocked witness in govflow status', async () => {
      const shown = await first.cli(['status']);
      return new RegExp(`^witness ${blocked}: \\d+ checkpoints waiting \\(last error: .*ENOTDIR`, 'm').test(
        shown.stdout,
      )
        ? shown.stdout
        : null;
    });
    expect(status).toMatch(new RegExp(`^witness ${witness}: (up to date|\\d+ checkpoints waiting)$`, 'm'));
    const json = JSON.parse((await first.cli(['status', '--json'])).stdout) as {
      witnesses: Array<{ witness: string; pending: number; lastError: string | null }>;
    };
    expect(json.witnesses.map((lag) => lag.witness)).toEqual([witness, blocked]);
    expect(json.witnesses[1]).toMatchObject({
      pending: expect.any(Number),
      lastError: expect.stringContaining('ENOTDIR'),
    });
    expect(json.witnesses[1].pending).toBeGreaterThan(0);
    await first.stop();
    await second.stop();

    const rows = await pg!.query<CheckpointRow>(
      'select entries, day, hash, signed_at, daemon, line from audit_checkpoints order by entries',
    );
    const [head] = await pg!.query<{ position: string; hash: string }>('select position, hash from audit_head');
    const chain = new Map(
      (await pg!.query<{ position: string; hash: string }>('select position, hash from audit_entries')).map((row) => [
        Number(row.position),
        row.hash,
      ]),
    );
    expect(rows.length, 'checkpoints signed').toBeGreaterThan(2);
    expect(new Set(rows.map((row) => row.daemon)), 'daemons that signed').toEqual(
      new Set([first.daemonId, second.daemonId]),
    );

    const { publicKey: key, keyId } = readPublicKey(publicKey);
    const checkpoints: Checkpoint[] = [];
    for (const row of rows) {
      const checkpoint = parseCheckpointLine(row.line);
      if (typeof checkpoint === 'string') throw new Error(`not a checkpoint (${checkpoint}): ${row.line}`);
      expect(checkpointSignatureHolds(checkpoint, key), `signature of ${row.line}`).toBe(true);
      expect(checkpoint.key).toBe(keyId);
      expect({
        entries: checkpoint.entries,
        hash: checkpoint.hash,
        day: checkpoint.day,
        at: Date.parse(checkpoint.at),
      }).toEqual({
        entries: Number(row.entries),
        hash: chain.get(Number(row.entries)),
        day: row.day,
        at: row.signed_at.getTime(),
      });
      checkpoints.push(checkpoint);
    }
    // One stream: ordered by entries, the signing times never go back.
    for (let index = 1; index < checkpoints.length; index++) {
      const [before, after] = [checkpoints[index - 1], checkpoints[index]];
      expect(Date.parse(after.at), `${JSON.stringify(before)} then ${JSON.stringify(after)}`).toBeGreaterThanOrEqual(
        Date.parse(before.at),
      );
      // While both daemons ran (no stop, which signs at once), one per interval across the cluster.
      const at = Date.parse(after.at);
      if (Date.parse(before.at) >= together && at <= apart && before.day === after.day) {
        expect(
          at - Date.parse(before.at),
          `checkpoints ${before.entries} and ${after.entries} signed while both daemons ran`,
        ).toBeGreaterThanOrEqual(INTERVAL_MS - 1);
      }
    }
    // The stops signed the rest: the newest covers the whole chain.
    expect(checkpoints.at(-1)!.entries).toBe(Number(head.position));
    expect(checkpoints.at(-1)!.hash).toBe(head.hash);
    // Every checkpoint reached the witness, once.
    expect(witnessLines().sort()).toEqual(rows.map((row) => row.line).sort());

    const verified = await first.cli(['verify', '--store', '--key', publicKey, '--witness', witness]);
    expect(verified.code, `${verified.stdout}${verified.stderr}`).toBe(0);
    expect(verified.stdout).toContain(`store audit chain intact: ${head.position} entries`);
    expect(verified.stdout).toContain(
      `signed checkpoints hold: ${rows.length * 2} checked in 2 places, the newest covering ${head.position} entries`,
    );
  }, 180_000);

  it('names the checkpoint a cut of the newest entries in Postgres contradicts', async () => {
    const [node] = cluster.nodes;
    const rows = await pg!.query<CheckpointRow>(
      'select entries, day, hash, signed_at, daemon, line from audit_checkpoints order by entries',
    );
    const [head] = await pg!.query<{ position: string }>('select position from audit_head');
    const kept = Number(head.position) - 3;
    // A consistent cut: the last three entries gone and the head row rewritten to match.
    await pg!.query('delete from audit_entries where position > $1', [kept]);
    await pg!.query(
      'update audit_head set position = $1, hash = (select hash from audit_entries where position = $1)',
      [kept],
    );

    const contradicted = parseCheckpointLine(rows.find((row) => Number(row.entries) > kept)!.line) as Checkpoint;
    const cut = await node.cli(['verify', '--store', '--key', publicKey, '--witness', witness]);
    expect(cut.code, `${cut.stdout}${cut.stderr}`).toBe(1);
    expect(cut.stdout).toContain(
      `signed checkpoint contradicted at ${pg!.schema}.audit_checkpoints (row of ${contradicted.entries} entries): checkpoint of ` +
        `${contradicted.day} (${contradicted.entries} entries, signed ${contradicted.at}): the store's chain holds only ${kept} entries: the ` +
        `last ${contradicted.entries - kept} were cut`,
    );

    // The forger removes those checkpoints from Postgres too: the witness still has them.
    await pg!.query('delete from audit_checkpoints where entries > $1', [kept]);
    const witnessed = await node.cli(['verify', '--store', '--key', publicKey, '--witness', witness]);
    expect(witnessed.code, `${witnessed.stdout}${witnessed.stderr}`).toBe(1);
    expect(witnessed.stdout).toMatch(
      new RegExp(
        `signed checkpoint contradicted at ${witness.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\d{8}\\.jsonl:\\d+: checkpoint of \\d{8}` +
          ` \\((\\d+) entries, signed [^)]+\\): the store's chain holds only ${kept} entries: the last \\d+ were cut`,
      ),
    );
  }, 60_000);
});
