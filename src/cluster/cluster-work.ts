/**
 * The Postgres backend's work under the one daemon (docs/cluster.md): intake only enqueues;
 * `intake.concurrency` workers claim sessions and run them under fenced leases, renewed every
 * `cluster.lease_ms / 3` (a lease lost, or unrenewed for a whole lease, aborts its run here); the
 * results of requests this daemon took go to its outbox; the chain is projected to system/logs/.
 * LISTEN/NOTIFY wakes the loops; a poll every second covers lost notifications.
 */
import { setMaxListeners } from 'node:events';
import type { GovflowConfig } from '../config/config-loader.js';
import { errorMessage } from '../errors.js';
import type { ShutdownStep, WorkContext, WorkSource } from '../daemon/work-source.js';
import { recoverClaimedFiles, readClaimedFile, type IntakeControl, type IntakeItem } from '../intake/claimed-file.js';
import { claimInboxControls } from '../intake/control-peek.js';
import { heldCancels, StoreControls } from './store-controls.js';
import { runClaimedSession } from './claimed-run.js';
import { tablesOf } from './postgres-connection.js';
import { readJournalRows } from './postgres-session-store.js';
import { moveToFailed } from '../intake/failed-files.js';
import { SessionInterruptedError } from '../pipeline/runner-contract.js';
import type { OperationalLog } from '../log-contract.js';
import { ChainProjection } from './chain-projection.js';
import { StoreListener } from './store-listener.js';
import { StoreCheckpoints } from './store-checkpoints.js';
import { GovernanceVersions } from './governance-versions.js';
import type { ClusterStore } from './cluster-store.js';
import { withoutCredentials } from './postgres-connection.js';
import type { ClaimedSession } from './session-leases.js';
import { LeaseLostError, type ResultNotice } from './store-committer.js';
import { ClusterReads } from './cluster-reads.js';
import { outboxDelivery } from './outbox-delivery.js';
import { StoreIntake } from './store-intake.js';
import { OutageLog } from './outage-log.js';
import { DaemonHeartbeat, renewalIntervalMs } from './daemon-heartbeat.js';
import { RemoteSessionEvents } from './remote-session-events.js';
import { SessionEvents, type SessionEventName } from '../pipeline/session-events.js';
import type { HttpApi } from '../http/http-server.js';
import type { InboxIntake } from '../intake/inbox-intake.js';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { postgresRateLimitStore } from './store-rate-limits.js';
import { StoreRetention } from './store-retention.js';

const EVENT_NAMES: readonly SessionEventName[] = [
  'session_started',
  'step_started',
  'model_call_started',
  'content_chunk',
  'model_call_finished',
  'tool_call_start',
  'tool_call_result',
  'message',
  'pending',
  'session_finished',
  'error',
];

const POLL_MS = 1000;
const PROJECTION_DELAY_MS = 20;
const HEARTBEAT = "record this daemon's heartbeat in the store";

export class ClusterWork implements WorkSource {
  readonly intakeConcurrency: number;
  /** What the HTTP API streams: this daemon's own events, and those of sessions running elsewhere. */
  readonly events = new SessionEvents();
  readonly reads: ClusterReads;
  /** http.rate_limit counted in the store: one user's calls and an address's failed tokens across every daemon. */
  readonly rateLimitStore: FastifyRateLimitStoreCtor;
  readonly label: string;
  readonly stopSteps: { taking: ShutdownStep[]; finishing: ShutdownStep[]; closing: ShutdownStep[] };
  /** Sessions running here: their lease epoch and the controller that stops them. */
  private readonly running = new Map<string, { epoch: number; controller: AbortController; work: Promise<void> }>();
  private projection: ChainProjection | null = null;
  private listener: StoreListener | null = null;
  private timers: NodeJS.Timeout[] = [];
  private lastRenewal = Date.now();
  private http: HttpApi | null = null;
  private readonly deliverOutbox: () => Promise<void>;
  private readonly storeIntake: StoreIntake;
  private readonly controls: StoreControls;
  /** Cancels waiting in the store for sessions held here, handed to their runs. */
  private readonly checkControls: () => Promise<void>;
  private projecting: Promise<void> | null = null;
  private readonly remoteEvents: RemoteSessionEvents;
  private readonly outages: OutageLog;
  private readonly heartbeat: DaemonHeartbeat;
  private readonly checkpoints: StoreCheckpoints | null;
  private readonly retention: StoreRetention;
  private readonly claimWork: () => Promise<void>;
  /** Says this daemon is alive, with the sessions it runs; stops once draining (the row goes at stop). */
  private readonly beat: () => Promise<void>;
  private readonly projectNow: () => Promise<void>;
  private intake: InboxIntake | null = null;
  /** Sessions queued in the store at the last poll (http.max_queued; counted only when it is set). */
  private queuedInStore = 0;
  private readonly countQueued: () => Promise<void>;
  readonly queuedElsewhere = () => this.queuedInStore;
  readonly refreshQueued = () => this.countQueued();

  constructor(
    private readonly config: GovflowConfig,
    private readonly cluster: ClusterStore,
    private readonly versions: GovernanceVersions,
    private readonly context: WorkContext,
  ) {
    const log = context.log;
    // Intake only commits to the store, so it is not bounded by the running sessions.
    this.intakeConcurrency = Math.max(config.intake.concurrency, 8);
    this.label = `cluster mode: daemon ${cluster.daemonId}, store ${cluster.schema}, `;
    this.controls = new StoreControls(cluster.pool, cluster.schema);
    const table = tablesOf(cluster.schema);
    this.storeIntake = new StoreIntake(config, cluster.leases, log, {
      store: this.controls,
      records: async (sessionId) => (await readJournalRows(cluster.pool, table, sessionId)).records,
      events: this.events,
    });
    this.checkControls = heldCancels(
      this.controls,
      () => cluster.store.heldLeases().keys(),
      (sessionId, order) => context.runtime.runner.cancelRunning(sessionId, order),
    );
    this.outages = new OutageLog(log);
    this.deliverOutbox = outboxDelivery(cluster, config.paths.outbox, config.daemon.fsync, log, {
      // With pii.restore_in_result the outbox copy (and only it) gets the originals back from the vault.
      restore: config.pii.restore_in_result ? cluster.vaults : null,
    });
    this.remoteEvents = new RemoteSessionEvents(this.events, (sessionId) => this.running.has(sessionId));
    this.heartbeat = new DaemonHeartbeat(
      cluster.pool,
      cluster.schema,
      cluster.daemonId,
      renewalIntervalMs(config.cluster.lease_ms),
    );
    this.reads = new ClusterReads(cluster.pool, cluster.schema, cluster.leases, config.paths, config.timezone);
    this.rateLimitStore = postgresRateLimitStore(cluster.pool, cluster.schema);
    this.checkpoints = StoreCheckpoints.forCluster(config, cluster, log);
    this.retention = new StoreRetention(config, cluster, log);
    this.claimWork = this.outages.coalesced('claim work from the store', async () => {
      // Every free place in one statement (one transaction, one WAL flush), until the store has no more.
      while (this.active && this.running.size < config.intake.concurrency) {
        const free = config.intake.concurrency - this.running.size;
        const claimed = await cluster.leases.claim(free);
        for (const session of claimed) this.run(session);
        if (claimed.length < free) break;
      }
    });
    this.beat = this.outages.coalesced(HEARTBEAT, async () => {
      if (this.active) await this.heartbeat.beat(this.http?.url ?? null, [...this.running.keys()]);
    });
    this.countQueued = this.outages.coalesced('count the queued sessions (http.max_queued)', async () => {
      if (config.http.max_queued === null) return;
      this.queuedInStore = await cluster.leases.countQueued();
      this.intake?.checkQueue();
    });
    this.projectNow = this.outages.coalesced('project the audit chain to system/logs/', async () =>
      this.projection?.catchUp(),
    );
    this.stopSteps = {
      taking: [['store timers', () => this.timers.forEach(clearInterval)]],
      finishing: [
        // Running sessions go back to the queue.
        ['running sessions', () => Promise.allSettled([...this.running.values()].map((entry) => entry.work))],
        ['outbox', () => this.deliverOutbox()],
        ['projection', () => this.projection?.catchUp()],
        ['signed checkpoints', () => this.checkpoints?.close()],
        // After a beat in flight, which would otherwise write the row again.
        [
          'heartbeat',
          async () => {
            await this.beat();
            await this.heartbeat.remove();
          },
        ],
        ['store notifications', () => this.listener?.release()],
      ],
      closing: [['postgres pool', () => this.cluster.close()]],
    };
  }

  private get log(): OperationalLog {
    return this.context.log;
  }

  private get active(): boolean {
    return this.context.state() === 'running';
  }

  describeError(error: unknown): string {
    return withoutCredentials(errorMessage(error));
  }

  handle(item: IntakeItem): Promise<void> {
    return this.storeIntake.handle(item);
  }

  /** A control goes to the store at once (the holder of its session applies a cancel). */
  handleControl(item: IntakeControl): Promise<void> {
    return this.storeIntake.handle(item);
  }

  async prepare(intake: InboxIntake): Promise<void> {
    const { config, cluster } = this;
    this.intake = intake;
    const { events } = this.context.runtime;
    for (const name of EVENT_NAMES) {
      // A session's end is told once its result is in this daemon's outbox, when the request is ours (as in files mode).
      if (name === 'session_finished')
        events.on(name, (payload) => void this.deliverOutbox().then(() => this.events.emit(name, payload)));
      else events.on(name, (payload) => this.events.emit(name, payload as never));
    }
    // Model text streams only where its session runs (remote-session-events.ts): a call here
    // streams while an HTTP client of this daemon reads that session's chunks, else it generates.
    events.followChunkReaders(this.events);
    this.projection = new ChainProjection(
      cluster.pool,
      cluster.schema,
      config.paths.logs,
      config.daemon.fsync,
      (entries) => {
        if (this.http) this.remoteEvents.entries(entries);
      },
    );
    // Days the store deleted leave this root first, so the projection resumes after them.
    await this.retention.syncDeletions();
    const { repaired } = await this.projection.open();
    if (repaired)
      this.log.warn('audit log: cut a torn entry left by a crash; the projection writes it again', { file: repaired });
    await this.projection.catchUp();
    this.listener = new StoreListener(
      cluster.pool,
      cluster.schema,
      {
        work: (payload) => {
          this.pump();
          if (payload !== undefined && this.cluster.store.heldLeases().has(payload))
            void this.checkControls().catch(() => undefined);
        },
        audit: () => void this.projectChain(),
        results: (payload) => this.resultNotice(payload),
      },
      {
        log: this.log,
        retryMs: POLL_MS,
        active: () => this.context.state() === 'running' || this.context.state() === 'starting',
      },
    );
    await this.listener.listen();
  }

  /** Files claimed before a crash are enqueued again (a duplicate of our own enqueue is archived); our own leases go back. */
  async recover(): Promise<void> {
    const { config, cluster } = this;
    // Controls dropped while this daemon was down go to the store before it claims any work (docs/run-control.md).
    const claims = [
      ...(await recoverClaimedFiles(config.paths)),
      ...claimInboxControls(config.paths, config.intake.max_bytes),
    ];
    for (const claimedPath of claims) {
      const item = await readClaimedFile(claimedPath, config.intake.max_bytes, config.intake.attachments);
      if (item.kind === 'rejected') await moveToFailed(config.paths, claimedPath, item.file, item.reason);
      else await this.storeIntake.handle(item);
    }
    const released = await cluster.leases.releaseOwn();
    if (released > 0)
      this.log.info(
        `${released} session(s) this daemon ran when it last stopped resume now, without waiting for cluster.lease_ms`,
      );
  }

  async started(http: HttpApi | null): Promise<void> {
    this.http = http;
    await this.heartbeat.register(http?.url ?? null).catch((error: unknown) => this.outages.failed(HEARTBEAT, error));
    const leaseMs = this.config.cluster.lease_ms;
    this.timers.push(
      setInterval(() => {
        void this.beat();
        void this.renewLeases();
      }, renewalIntervalMs(leaseMs)),
      // The poll, every quarter lease at most: an expired lease is noticed well within cluster.lease_ms.
      setInterval(
        () => {
          void this.storeIntake.retry();
          void this.countQueued();
          this.pump();
          void this.checkControls().catch(() => undefined);
          void this.projectChain();
          void this.deliverOutbox();
        },
        Math.min(POLL_MS, Math.max(100, Math.floor(leaseMs / 4))),
      ),
    );
    if (this.retention.enabled) {
      void this.retention.pass(true);
      this.timers.push(setInterval(() => void this.retention.pass(false), 3_600_000));
    }
    this.pump();
    void this.deliverOutbox();
  }

  /** A session paused or finished somewhere: outbox duty when it is ours, live events for the HTTP streams. */
  private resultNotice(payload: string | undefined): void {
    let notice: ResultNotice;
    try {
      notice = JSON.parse(payload ?? '') as ResultNotice;
    } catch {
      return;
    }
    const delivered = notice.intake === this.cluster.daemonId ? this.deliverOutbox() : null;
    // After the projection, so a stream sees the session's last messages before its end, and the outbox its result.
    if (this.http) void Promise.all([this.projectChain(), delivered]).then(() => this.remoteEvents.result(notice));
  }

  private pump(): void {
    void this.claimWork();
  }

  private run(claimed: ClaimedSession): void {
    const { sessionId, epoch } = claimed;
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    const onAbort = () => controller.abort(this.context.signal.reason);
    this.context.signal.addEventListener('abort', onAbort, { once: true });
    this.cluster.store.hold(sessionId, epoch);
    const work = this.runClaimed(claimed, controller.signal)
      .catch((error: unknown) => {
        if (error instanceof SessionInterruptedError || controller.signal.aborted) {
          // Lost lease, lost link or shutdown: whatever committed is in the journal; the next holder resumes it.
          const reason = controller.signal.aborted ? errorMessage(controller.signal.reason) : errorMessage(error);
          this.log.warn(
            this.context.state() === 'draining' && !(error instanceof LeaseLostError)
              ? 'session interrupted by shutdown; it goes back to the queue'
              : 'session dropped here: another daemon resumes it',
            { session: sessionId, reason: withoutCredentials(reason) },
          );
        } else {
          this.log.error('session crashed; its lease runs out and a daemon resumes it from the journal', {
            session: sessionId,
            error: errorMessage(error),
          });
        }
      })
      .finally(async () => {
        this.context.signal.removeEventListener('abort', onAbort);
        this.cluster.store.release(sessionId);
        this.versions.unpin(sessionId);
        this.running.delete(sessionId);
        this.remoteEvents.ended(sessionId);
        if (this.context.state() === 'draining')
          await this.cluster.leases.giveBack(sessionId, epoch).catch(() => undefined);
        this.pump();
      });
    this.running.set(sessionId, { epoch, controller, work });
  }

  private async runClaimed(claimed: ClaimedSession, signal: AbortSignal): Promise<void> {
    await this.versions.pin(claimed.sessionId, claimed.governanceHash);
    await runClaimedSession(this.context.runtime.runner, claimed, signal, this.log, this.controls);
  }

  /** Renews every lease held here; lost ones (or all, when Postgres has not answered for a lease) stop. */
  private async renewLeases(): Promise<void> {
    if (this.running.size === 0) {
      this.lastRenewal = Date.now();
      return;
    }
    // The sessions running here and the children they delegated to.
    const held = this.cluster.store.heldLeases();
    try {
      const kept = await this.cluster.leases.renew(held);
      this.lastRenewal = Date.now();
      for (const [sessionId, { controller }] of this.running) {
        if (held.has(sessionId) && !kept.has(sessionId))
          controller.abort(new LeaseLostError(`session ${sessionId}: lease lost to another daemon`, { sessionId }));
      }
    } catch (error) {
      this.log.warn('cannot renew leases: Postgres does not answer', {
        error: withoutCredentials(errorMessage(error)),
      });
      if (Date.now() - this.lastRenewal > this.config.cluster.lease_ms) {
        for (const [sessionId, { controller }] of this.running)
          controller.abort(
            new LeaseLostError(`session ${sessionId}: no lease renewal for ${this.config.cluster.lease_ms} ms`, {
              sessionId,
            }),
          );
      }
    }
  }

  /** At most once per PROJECTION_DELAY_MS: every commit in the cluster notifies every daemon, and one pass serves them all. */
  private projectChain(): Promise<void> {
    this.projecting ??= new Promise<void>((resolve) => setTimeout(resolve, PROJECTION_DELAY_MS)).then(() => {
      this.projecting = null;
      return this.projectNow();
    });
    return this.projecting;
  }
}
