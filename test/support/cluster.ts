/**
 * A govflow cluster for tests and benchmarks (SPEC §15), driven only from outside: N roots, each
 * with its own govflow.config.yaml (`store: {kind: postgres}` on one shared schema, a scripted
 * model), N `govflow start` child processes, kill -9 and restart, requests dropped into any
 * daemon's inbox, results read from the outboxes, and the projected audit logs read back.
 *
 * Every daemon reaches Postgres through its own TCP proxy (`PgLink`), so a test can cut one
 * daemon's link (a network partition) without touching the others.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  DaemonProcess,
  cleanupAll,
  answer,
  dropJson,
  exampleScript,
  listDir,
  makeRoot,
  readAuditEntries,
  runCli,
  startDaemon,
  waitFor,
  writeScript,
  type AuditEntryJson,
  type CliResult,
  type ResultFile,
} from '../daemon/daemon-helpers.js';
import type { PgTestSchema } from './postgres.js';

export interface ClusterOptions {
  nodes?: number;
  /** cluster.lease_ms; small in tests so takeovers are quick. */
  leaseMs?: number;
  /** The scripted model's delay before every answer. */
  latencyMs?: number;
  /** intake.concurrency per daemon. */
  concurrency?: number;
  /** Serve HTTP on 127.0.0.1 (a free port per daemon). */
  http?: boolean;
  /** http.max_queued (with `http`). */
  maxQueued?: number;
  /** More YAML appended to every root's config. */
  extraConfig?: string;
  /** A password in the store URL (the test server trusts local connections and ignores it): it must never be printed. */
  password?: string;
  /** Scripted answers per agent replacing the example app's (each node signs its final answer anyway). */
  responses?: Record<string, unknown[]>;
}

/** The final answer of a session whose last step ran on `node`: results tell which daemon finished it. */
export function finalAnswerOf(node: string): string {
  return `Done by ${node}.`;
}

/**
 * The scripted model of the node called `node` (looping): the example app's answers, `responses`
 * replacing some agents' lists, and a final answer naming the node.
 */
export function nodeScript(
  node: string,
  options: { latencyMs?: number; responses?: Record<string, unknown[]> } = {},
): string {
  const final = answer({ content: { answer: finalAnswerOf(node) }, contentType: 'final_report', next: null });
  return exampleScript({
    latencyMs: options.latencyMs ?? 0,
    loop: true,
    responses: { final_output_agent: [{ json: final }], ...options.responses },
  });
}

/**
 * A TCP proxy between one daemon and Postgres, which a test can break two ways until `heal()`:
 * `cut()` severs every open connection and refuses new ones (the daemon sees resets), `stall()`
 * keeps every connection open but carries no byte either way (a black hole: no reset, no answer,
 * as when a network path silently drops packets). The other daemons keep their links.
 */
export class PgLink {
  private readonly sockets = new Set<net.Socket>();
  private severed = false;
  private stalled = false;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async open(target: { host: string; port: number }): Promise<PgLink> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const link = new PgLink(server, (server.address() as net.AddressInfo).port);
    server.on('connection', (client) => link.accept(client, target));
    return link;
  }

  cut(): void {
    this.severed = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  stall(): void {
    this.stalled = true;
    for (const socket of this.sockets) socket.pause();
  }

  heal(): void {
    this.severed = false;
    this.stalled = false;
    for (const socket of this.sockets) socket.resume();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket, target: { host: string; port: number }): void {
    if (this.severed) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    for (const [socket, peer] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(socket);
      socket.on('error', () => peer.destroy());
      socket.on('close', () => {
        this.sockets.delete(socket);
        peer.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
    if (this.stalled) {
      client.pause();
      upstream.pause();
    }
  }
}

/** One daemon of the cluster: its root, its link to Postgres, and its process while it runs. */
export class ClusterNode {
  daemon: DaemonProcess | null = null;
  /** Every process this node ran, for failure messages. */
  readonly history: DaemonProcess[] = [];

  constructor(
    readonly name: string,
    readonly root: string,
    readonly link: PgLink,
  ) {}

  get running(): boolean {
    return this.daemon !== null && !this.daemon.hasExited;
  }

  /** The id this root's daemon has in the store (system/state/cluster-daemon-id, made at its first start). */
  get daemonId(): string {
    return readFileSync(path.join(this.root, 'system', 'state', 'cluster-daemon-id'), 'utf8').trim();
  }

  /** The HTTP API's base URL from the ready line (with `http: true`). */
  get httpUrl(): string {
    const match = /HTTP API on (http:\/\/[^\s,)]+)/.exec(this.daemon?.readyLine ?? '');
    if (!match)
      throw new Error(`${this.name}: no HTTP URL in the ready line ${JSON.stringify(this.daemon?.readyLine)}`);
    return match[1].replace(/\/$/, '');
  }

  /** `env`: more environment for the daemon (secrets the config names). */
  async start(env?: Record<string, string>): Promise<DaemonProcess> {
    if (this.running) throw new Error(`${this.name} is running already`);
    this.daemon = await startDaemon(this.root, { readyTimeoutMs: 30_000, ...(env ? { env } : {}) });
    this.history.push(this.daemon);
    return this.daemon;
  }

  async kill9(): Promise<void> {
    await this.daemon?.kill9();
  }

  async stop(): Promise<void> {
    if (this.running) await this.daemon!.stop('SIGTERM', 30_000);
  }

  /** Drops a JSON request (`request_id` = `requestId`) into this daemon's inbox. */
  drop(requestId: string, request = `Please summarise request ${requestId}.`): void {
    dropJson(this.root, `${requestId}.json`, { request, request_id: requestId });
  }

  inbox(): string[] {
    return listDir(path.join(this.root, 'system', 'inbox')).filter((name) => !name.startsWith('.'));
  }

  outbox(): string[] {
    return listDir(path.join(this.root, 'system', 'outbox'));
  }

  /** The results in this daemon's outbox, by request id (a half-written file reads as absent). */
  results(): Map<string, ResultFile> {
    const results = new Map<string, ResultFile>();
    const outbox = path.join(this.root, 'system', 'outbox');
    for (const name of this.outbox()) {
      if (!name.endsWith('.json')) continue;
      try {
        const result = JSON.parse(readFileSync(path.join(outbox, name), 'utf8')) as ResultFile;
        results.set(result.request_id, result);
      } catch {
        // a file the test should never see: the full check names it
      }
    }
    return results;
  }

  /** system/logs/*.log by file name, as bytes (hex-free comparisons use Buffer.equals). */
  logFiles(): Map<string, Buffer> {
    const logs = path.join(this.root, 'system', 'logs');
    const files = new Map<string, Buffer>();
    for (const name of existsSync(logs) ? readdirSync(logs).sort() : []) {
      if (name.endsWith('.log')) files.set(name, readFileSync(path.join(logs, name)));
    }
    return files;
  }

  /** Every log file's text, oldest day first. */
  logText(): string {
    return [...this.logFiles().values()].map((bytes) => bytes.toString('utf8')).join('');
  }

  cli(args: string[], timeoutMs = 60_000): Promise<CliResult> {
    return runCli([...args, '--root', this.root], { timeoutMs });
  }

  auditEntries(): Promise<AuditEntryJson[]> {
    return readAuditEntries(this.root);
  }

  /** Everything every process of this node printed. */
  output(): string {
    return this.history.map((daemon) => `${daemon.stdout}${daemon.stderr}`).join('');
  }

  stderrTail(lines = 30): string {
    return this.history
      .map(
        (daemon) =>
          `--- ${this.name} pid ${daemon.pid}${daemon.hasExited ? ' (exited)' : ''}:\n${daemon.stderrTail(lines)}`,
      )
      .join('\n');
  }
}

/** Config YAML of one node: scripted model, the shared schema through the node's own link. */
function clusterConfig(pg: PgTestSchema, link: PgLink, options: ClusterOptions): string {
  const url = new URL(pg.url);
  url.hostname = '127.0.0.1';
  url.port = String(link.port);
  if (options.password) {
    url.username ||= 'root';
    url.password = options.password;
  }
  return [
    'timezone: UTC',
    'provider:',
    '  kind: scripted',
    '  script: script.json',
    `intake: { concurrency: ${options.concurrency ?? 2} }`,
    `store: { kind: postgres, url: "${url.toString()}", schema: ${pg.schema} }`,
    `cluster: { lease_ms: ${options.leaseMs ?? 2000} }`,
    ...(options.http
      ? [`http: { listen: "127.0.0.1:0"${options.maxQueued ? `, max_queued: ${options.maxQueued}` : ''} }`]
      : []),
    options.extraConfig ?? '',
  ].join('\n');
}

/** Where the test server listens (the links forward there). */
function pgTarget(pg: PgTestSchema): { host: string; port: number } {
  const url = new URL(pg.url);
  return { host: url.hostname || '127.0.0.1', port: Number(url.port || 5432) };
}

/**
 * One cluster for a test file (call it inside its `describe.skipIf(!pg)`): before the tests, the
 * built CLI and the nodes' roots, handed to `ready` (which may start or adjust them); after them,
 * every daemon killed, the temp folders removed and the schema dropped.
 */
export function clusterForTests(
  pg: PgTestSchema | null,
  options: ClusterOptions,
  ready: (cluster: Cluster) => void | Promise<void>,
): void {
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    await buildDistOnce();
    cluster = await Cluster.create(pg!, options);
    await ready(cluster);
  }, 180_000);
  afterAll(async () => {
    await cluster?.destroy();
    await cleanupAll();
    await pg?.drop();
  });
}

export class Cluster {
  private constructor(readonly nodes: ClusterNode[]) {}

  /** Makes the roots (not started): one per node, each with a copy of the example app. */
  static async create(pg: PgTestSchema, options: ClusterOptions = {}): Promise<Cluster> {
    const nodes: ClusterNode[] = [];
    for (let index = 0; index < (options.nodes ?? 3); index += 1) {
      const link = await PgLink.open(pgTarget(pg));
      const root = makeRoot(clusterConfig(pg, link, options), `govflow-cluster-${index}-`);
      const name = `node${index}`;
      writeScript(root, nodeScript(name, options));
      nodes.push(new ClusterNode(name, root, link));
    }
    return new Cluster(nodes);
  }

  async startAll(): Promise<void> {
    // One after the other: the first one applies the migrations.
    for (const node of this.nodes) await node.start();
  }

  /** Kills every daemon (kill -9) and closes the links; safe to call twice. */
  async destroy(): Promise<void> {
    for (const node of this.nodes) {
      await node.kill9();
      await node.link.close().catch(() => {});
    }
  }

  /** Every result file of every outbox: request id → the nodes whose outbox holds it. */
  resultsByRequest(): Map<string, Array<{ node: ClusterNode; result: ResultFile }>> {
    const all = new Map<string, Array<{ node: ClusterNode; result: ResultFile }>>();
    for (const node of this.nodes) {
      for (const [requestId, result] of node.results()) {
        all.set(requestId, [...(all.get(requestId) ?? []), { node, result }]);
      }
    }
    return all;
  }

  /** Waits until each of `requestIds` has a result in some outbox. */
  async waitForResults(requestIds: string[], timeoutMs: number): Promise<void> {
    await waitFor(
      `results of ${requestIds.length} requests`,
      () => {
        const results = this.resultsByRequest();
        return requestIds.every((id) => results.has(id));
      },
      { timeoutMs, intervalMs: 200, detail: () => this.describe(requestIds) },
    );
  }

  /** Waits until every node's system/logs holds the same files with the same bytes, `minEntries` entries or more. */
  async waitForIdenticalLogs(minEntries: number, timeoutMs = 30_000): Promise<Map<string, Buffer>> {
    let last = new Map<string, Buffer>();
    await waitFor(
      `identical audit logs on all ${this.nodes.length} daemons (${minEntries}+ entries)`,
      () => {
        const [first, ...others] = this.nodes.map((node) => node.logFiles());
        last = first;
        const entries = [...first.values()].reduce(
          (sum, bytes) => sum + bytes.toString('utf8').split('\n---\n').length - 1,
          0,
        );
        if (entries < minEntries) return false;
        return others.every((files) => sameFiles(first, files));
      },
      { timeoutMs, intervalMs: 200, detail: () => this.describeLogs() },
    );
    return last;
  }

  describe(requestIds: string[] = []): string {
    const results = this.resultsByRequest();
    const missing = requestIds.filter((id) => !results.has(id));
    return [
      `missing results (${missing.length}): ${missing.slice(0, 20).join(', ')}`,
      ...this.nodes.map(
        (node) =>
          `${node.name}: ${node.running ? 'running' : 'stopped'}, inbox ${node.inbox().length}, outbox ${node.outbox().length}`,
      ),
      ...this.nodes.map((node) => node.stderrTail(15)),
    ].join('\n');
  }

  describeLogs(): string {
    return this.nodes
      .map(
        (node) =>
          `${node.name}: ${
            [...node.logFiles()]
              .map(
                ([name, bytes]) =>
                  `${name} ${bytes.length} bytes, ` + `${bytes.toString('utf8').split('\n---\n').length - 1} entries`,
              )
              .join('; ') || 'no logs'
          }`,
      )
      .join('\n');
  }
}

function sameFiles(a: Map<string, Buffer>, b: Map<string, Buffer>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, bytes] of a) if (!b.get(name)?.equals(bytes)) return false;
  return true;
}
