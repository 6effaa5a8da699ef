/**
 * `govflow status` names the daemons alive, not only those holding leases (issue 32): two idle
 * daemons both show as alive with no sessions; one killed with kill -9 shows as stale once its
 * heartbeat is older than three renewals; one stopped cleanly is gone at once.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../daemon/daemon-helpers.js';
import { type Cluster, type ClusterNode, clusterForTests } from '../support/cluster.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_heartbeat');
/** Heartbeats every 666 ms, stale after two seconds: quick, with room for a loaded machine. */
const LEASE_MS = 2000;

interface DaemonJson {
  daemon_id: string;
  host: string;
  pid: number;
  http_url: string | null;
  sessions: string[];
  started_at: string;
  last_seen: string;
  seconds_since_seen: number;
}

interface StatusJson {
  daemons: DaemonJson[];
  stale_daemons: DaemonJson[];
}

async function statusOf(node: ClusterNode): Promise<{ json: StatusJson; text: string }> {
  const json = await node.cli(['status', '--json']);
  expect(json.code, json.stderr).toBe(0);
  const text = await node.cli(['status']);
  expect(text.code, text.stderr).toBe(0);
  return { json: JSON.parse(json.stdout) as StatusJson, text: text.stdout };
}

const ids = (daemons: DaemonJson[]) => daemons.map((daemon) => daemon.daemon_id).sort();

describe.skipIf(!pg)('cluster mode: govflow status lists the daemons alive and the stale ones', () => {
  let cluster: Cluster;

  clusterForTests(pg, { nodes: 2, leaseMs: LEASE_MS, http: true }, (created) => {
    cluster = created;
  });

  it('shows two idle daemons alive, a killed one stale, and forgets one stopped cleanly', async () => {
    const [node0, node1] = cluster.nodes;
    await cluster.startAll();
    const [id0, id1] = [node0.daemonId, node1.daemonId];

    // Both idle: neither holds a lease, both stay alive past the stale window (their heartbeats
    // go on after registering), each with its pid and HTTP address.
    const missing: string[] = [];
    const idle = await waitFor(
      'both daemons alive, seen more than a lease after they started',
      async () => {
        const status = await statusOf(node1);
        if (ids(status.json.daemons).join() !== [id0, id1].sort().join()) missing.push(status.text);
        return status.json.daemons.every(
          (daemon) => Date.parse(daemon.last_seen) - Date.parse(daemon.started_at) > LEASE_MS,
        )
          ? status
          : null;
      },
      { timeoutMs: 15_000, intervalMs: 200, detail: () => missing.join('\n') },
    );
    expect(missing, 'statuses not listing both daemons as alive').toEqual([]);
    expect(idle.json.stale_daemons).toEqual([]);
    for (const node of [node0, node1]) {
      const id = node.daemonId;
      const row = idle.json.daemons.find((daemon) => daemon.daemon_id === id);
      expect(row, idle.text).toMatchObject({ pid: node.daemon!.pid, sessions: [] });
      expect(row!.http_url?.replace(/\/$/, '')).toBe(node.httpUrl);
      expect(idle.text).toMatch(
        new RegExp(`^  ${id}  host=\\S+  pid=${node.daemon!.pid}  .*sessions=none  http=`, 'm'),
      );
    }
    expect(idle.text).toContain('daemons alive (2):');
    expect(idle.text).not.toContain('daemons stale');

    // kill -9: no clean stop, so the row stays and goes stale after three missed renewals.
    await node1.kill9();
    const afterKill = await waitFor(
      'the killed daemon listed as stale',
      async () => {
        const status = await statusOf(node0);
        return ids(status.json.stale_daemons).includes(id1) ? status : null;
      },
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(ids(afterKill.json.daemons), afterKill.text).toEqual([id0]);
    expect(ids(afterKill.json.stale_daemons)).toEqual([id1]);
    expect(afterKill.json.stale_daemons[0].seconds_since_seen).toBeGreaterThanOrEqual(1);
    expect(afterKill.text).toContain('daemons alive (1):');
    expect(afterKill.text).toMatch(new RegExp(`daemons stale \\(1; [^\\n]*presumed dead[^\\n]*\\n  ${id1}  `));

    // A clean stop removes the row at once: no wait for it to go stale.
    await node0.stop();
    const afterStop = await statusOf(node0);
    expect(ids(afterStop.json.daemons), afterStop.text).toEqual([]);
    expect(ids(afterStop.json.stale_daemons)).toEqual([id1]);
    expect(afterStop.text).toContain('daemons alive (0):');
    expect(afterStop.text).not.toContain(id0);
  }, 120_000);
});
