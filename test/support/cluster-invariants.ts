/**
 * What must hold for a cluster at rest (SPEC §15), checked from outside: one result per request,
 * in the outbox of the daemon that took it; one audit entry per message, each session's sequence
 * 1..N once; byte-identical projections on every daemon; `govflow verify` on each and
 * `govflow verify --store` passing.
 */
import { expect } from 'vitest';
import type { AuditEntryJson } from '../daemon/daemon-helpers.js';
import type { Cluster, ClusterNode } from './cluster.js';

export interface ClusterCheck {
  /** Audit entries (from the first node's projection) of every session. */
  entries: AuditEntryJson[];
  /** session id → the entries' sequence numbers, in log order. */
  sequences: Map<string, number[]>;
}

/**
 * `takenBy`: request id → the node whose inbox it was dropped into. Expects every one of them
 * finished with `status` (default success) and nothing else in any outbox.
 */
export async function assertClusterConsistent(
  cluster: Cluster,
  takenBy: Map<string, ClusterNode>,
  options: { status?: string } = {},
): Promise<ClusterCheck> {
  const results = cluster.resultsByRequest();
  const strays = [...results.keys()].filter((id) => !takenBy.has(id));
  expect(strays, 'results of requests nobody sent').toEqual([]);
  const wrong: string[] = [];
  for (const [requestId, node] of takenBy) {
    const holders = (results.get(requestId) ?? []).map((holder) => holder.node.name);
    if (holders.length !== 1 || holders[0] !== node.name)
      wrong.push(`${requestId}: taken by ${node.name}, result in [${holders.join(', ')}]`);
  }
  expect(wrong, 'each request has exactly one result, in the outbox of the daemon that took it').toEqual([]);
  const statuses = [...results.values()]
    .map(([holder]) => `${holder.result.request_id}:${holder.result.status}`)
    .filter((text) => !text.endsWith(`:${options.status ?? 'success'}`));
  expect(statuses, `results whose status is not ${options.status ?? 'success'}`).toEqual([]);

  const totalMessages = [...results.values()].reduce((sum, [holder]) => sum + holder.result.messages, 0);
  await cluster.waitForIdenticalLogs(totalMessages);
  // The CLI runs (each a Node process start) side by side; their answers are checked below.
  const [entries, verifyStore, ...verifies] = await Promise.all([
    cluster.nodes[0].auditEntries(),
    cluster.nodes[0].cli(['verify', '--store']),
    ...cluster.nodes.map((node) => node.cli(['verify'])),
  ]);
  expect(entries, 'one audit entry per message of every result').toHaveLength(totalMessages);

  const ids = entries.map((entry) => entry.messageId);
  const twice = ids.filter((id, index) => ids.indexOf(id) !== index);
  expect(twice, 'MESSAGE_IDs logged twice').toEqual([]);

  const sequences = new Map<string, number[]>();
  for (const entry of entries)
    sequences.set(entry.sessionId, [...(sequences.get(entry.sessionId) ?? []), entry.sequence]);
  const broken = [...sequences]
    .filter(([, list]) => list.some((sequence, index) => sequence !== index + 1))
    .map(([id, list]) => `${id}: ${list.join(',')}`);
  expect(broken, 'sessions whose logged sequence is not 1..N once, in order').toEqual([]);
  const sessionOfResult = [...results.values()].map(([holder]) => holder.result);
  const miscounted = sessionOfResult
    .filter((result) => (sequences.get(result.session_id)?.length ?? 0) !== result.messages)
    .map(
      (result) =>
        `${result.request_id}: result says ${result.messages} messages, log has ${sequences.get(result.session_id)?.length ?? 0}`,
    );
  expect(miscounted, 'results whose message count differs from the log').toEqual([]);

  cluster.nodes.forEach((node, index) => {
    const verify = verifies[index];
    expect(verify.code, `govflow verify on ${node.name}: ${verify.stdout}${verify.stderr}`).toBe(0);
  });
  expect(verifyStore.code, `govflow verify --store: ${verifyStore.stdout}${verifyStore.stderr}`).toBe(0);
  return { entries, sequences };
}
