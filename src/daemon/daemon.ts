/**
 * The daemon: one state machine (DaemonState) over a backend (docs/cluster.md), owning the intake,
 * HTTP API, watchers, disk guard and a graceful stop (a grace period, then a hard stop). The work
 * source decides what a claim becomes (inbox-work.ts, src/cluster/cluster-work.ts).
 */
import { setMaxListeners } from 'node:events';
import { loadConfig } from '../config/config-loader.js';
import { errorMessage } from '../errors.js';
import { startOutcomeSweep } from '../intake/control-outcome.js';
import { InboxIntake } from '../intake/inbox-intake.js';
import { RequestIdRegistry } from '../intake/request-id-registry.js';
import type { LlmProvider } from '../llm/provider.js';
import { SessionInterruptedError } from '../pipeline/runner-contract.js';
import type { OperationalLog } from '../log-contract.js';
import type { HttpApi } from '../http/http-server.js';
import { costCalculator } from '../llm/create-provider.js';
import { diskWaits } from '../store/disk-waits.js';
import { watchConfig } from './config-watch.js';
import { DiskGuard } from './disk-guard.js';
import { watchGovernance } from './governance-watch.js';
import { InboxWork } from './inbox-work.js';
import { openRuntime, type Runtime } from './runtime.js';
import type { Backend, DaemonState, ShutdownStep, WorkSource } from './work-source.js';

export interface DaemonOptions {
  env?: NodeJS.ProcessEnv;
  log: OperationalLog;
  /** Where the single `ready` line goes (stdout in the CLI). */
  announce: (line: string) => void;
  provider?: LlmProvider;
  /** `HOST:PORT` for the HTTP API (`govflow start --http`); wins over config `http.listen`. */
  httpListen?: string;
}

const FILES_BACKEND: Backend = { runtimeOptions: {}, work: (context) => new InboxWork(context), close: async () => {} };

/** How long past the grace period a stop may take before the steps still waiting are left behind. */
const STOP_OVERRUN_MS = 2500;
/** What each step still gets once that time is over (closing the audit log, the root lock). */
const LATE_STEP_MS = 200;

export class GovflowDaemon {
  private state: DaemonState = 'starting';
  private readonly abort = new AbortController();
  private readonly registry: RequestIdRegistry;
  private readonly work: WorkSource;
  private intake: InboxIntake | null = null;
  private diskGuard: DiskGuard | null = null;
  private stopWatchingGovernance: (() => Promise<void>) | null = null;
  private stopWatchingConfig: (() => Promise<void>) | null = null;
  private stopOutcomeSweep: (() => void) | null = null;
  private stopping: Promise<void> | null = null;
  private http: HttpApi | null = null;

  private constructor(
    private readonly runtime: Runtime,
    backend: Backend,
    private readonly options: DaemonOptions,
  ) {
    this.registry = new RequestIdRegistry(runtime.config.paths, { durable: runtime.config.daemon.fsync });
    // Every running model call listens on the shutdown signal (and removes its listener when it
    // settles): past 10 concurrent calls Node's leak warning would be a false alarm on stderr.
    setMaxListeners(0, this.abort.signal);
    this.work = backend.work({
      runtime,
      log: options.log,
      registry: this.registry,
      signal: this.abort.signal,
      state: () => this.state,
    });
    // The runner reports which claimed files are done; the intake owns their move to the archive.
    runtime.events.on('request_files_done', (event) => this.intake?.archive(event.files));
    // A caller's header forwarded to MCP servers lives as long as the session its request started.
    runtime.events.on('session_finished', (event) => runtime.tools.mcp.forwarded.release(event.sessionId));
  }

  /** Opens the root's backend (files, or Postgres with `store.kind: postgres`) and boots; throws what stopped it. */
  static async start(root: string, options: DaemonOptions): Promise<GovflowDaemon> {
    const config = loadConfig(root, options.env);
    // Cluster mode is loaded only when configured, like the HTTP server.
    const backend =
      config.store.kind === 'postgres'
        ? await (await import('../cluster/cluster-backend.js')).openClusterBackend(config, options.log)
        : FILES_BACKEND;
    let runtime: Runtime;
    try {
      runtime = await openRuntime(root, {
        env: options.env,
        log: options.log,
        provider: options.provider,
        owner: 'daemon',
        ...backend.runtimeOptions,
      });
    } catch (error) {
      await backend.close();
      throw error;
    }
    const daemon = new GovflowDaemon(runtime, backend, options);
    try {
      await daemon.boot();
    } catch (error) {
      daemon.setState('failed');
      await daemon.runShutdownSteps(Date.now() + runtime.config.daemon.shutdown_grace_ms + STOP_OVERRUN_MS);
      throw error;
    }
    return daemon;
  }

  private setState(next: DaemonState): void {
    this.options.log.info(`daemon ${this.state} → ${next}`);
    this.state = next;
  }

  private async boot(): Promise<void> {
    const { config, governance, provider, warnings } = this.runtime;
    const log = this.options.log;
    for (const warning of warnings) log.warn(`governance: ${warning}`);
    // Outcomes of controls nobody read (docs/run-control.md) go after a day: at start, then hourly.
    this.stopOutcomeSweep = startOutcomeSweep(config.paths, log);
    if (provider.kind === 'dry-run') {
      log.warn(
        'provider is dry-run: no LLM is called; every agent answers with a placeholder message (set provider.kind in govflow.config.yaml to use a model)',
      );
    }
    const intake = new InboxIntake({
      paths: config.paths,
      registry: this.registry,
      durable: config.daemon.fsync,
      maxBytes: config.intake.max_bytes,
      attachments: config.intake.attachments,
      settleMs: config.intake.settle_ms,
      rescanIntervalMs: config.intake.rescan_interval_ms,
      concurrency: this.work.intakeConcurrency,
      maxQueued: config.http.max_queued,
      ...(this.work.queuedElsewhere ? { queuedElsewhere: this.work.queuedElsewhere } : {}),
      timezone: config.timezone,
      handle: (item) => this.work.handle(item),
      handleControl: (item) => this.work.handleControl(item),
      onRejected: (rejection) =>
        log.warn('request file rejected: moved to system/failed/', { file: rejection.file, reason: rejection.reason }),
      log: (level, message, fields) => log[level](message, fields as Record<string, unknown> | undefined),
    });
    this.intake = intake;
    await this.work.prepare(intake);
    const listen = this.options.httpListen ?? config.http.listen;
    if (listen) {
      // Before the intake starts: a request posted now is claimed and waits for it.
      // Loaded only when wanted: Fastify and prom-client stay out of every other command's start.
      const [{ HttpApi }, { webView }] = await Promise.all([
        import('../http/http-server.js'),
        import('../web/web-routes.js'),
      ]);
      this.http = await HttpApi.start({
        config,
        listen,
        events: this.work.events,
        registry: this.registry,
        submit: (submission) => intake.submit(submission),
        submitFolder: (submission) => intake.submitFolder(submission),
        log,
        readiness: () =>
          this.state === 'running'
            ? { ready: true, reason: 'ready' }
            : { ready: false, reason: `govflow is ${this.state}` },
        metrics: {
          audit: this.runtime.audit as unknown as { append: (...args: never[]) => Promise<unknown> } | null,
          costUsd: costCalculator(config),
          ...(this.runtime.webhooks ? { webhooks: () => this.runtime.webhooks!.lag() } : {}),
        },
        ...(this.work.reads ? { reads: this.work.reads } : {}),
        ...(this.work.rateLimitStore ? { rateLimitStore: this.work.rateLimitStore } : {}),
        web: webView,
        ...(Object.values(config.mcp.servers).some((server) => server.forward_authorization === true)
          ? { forwarding: this.runtime.tools.mcp.forwarded }
          : {}),
        queued: async () => {
          await this.work.refreshQueued?.();
          return intake.waitingToStart;
        },
        governance: () => this.runtime.governance.current(),
      });
    }
    await this.work.recover();
    // The disk alarm is decided before the first claim; below the floor the inbox just waits.
    this.diskGuard = new DiskGuard({
      paths: config.paths,
      minFreeBytes: config.intake.min_free_bytes,
      log,
      onClaimingChange: (mayClaim) => intake.setClaiming(mayClaim),
    });
    this.diskGuard.start();
    await intake.start();
    const claudeCodeDir = config.agentSettings.claude_code_dir;
    this.stopWatchingGovernance = await watchGovernance(
      config.root,
      governance,
      log,
      claudeCodeDir === null ? [] : [claudeCodeDir],
    );
    this.stopWatchingConfig = await watchConfig(config, this.options.env ?? process.env, log, this.http);
    this.setState('running');
    await this.work.started(this.http);
    const current = governance.current();
    this.options.announce(
      `govflow ready: watching ${config.paths.inbox}${this.http ? `, HTTP API on ${this.http.url}` : ''} ` +
        `(${this.work.label}provider ${provider.kind}, ${current.agents.size} agents, governance ${current.hash.slice(0, 12)})`,
    );
  }

  /** Graceful stop; a second call stops at once (running steps are abandoned, journals stay consistent). */
  stop(): Promise<void> {
    if (this.stopping) {
      if (!this.abort.signal.aborted) {
        this.options.log.warn('second stop signal: stopping now');
        this.hardStop('hard stop');
      }
      return this.stopping;
    }
    this.stopping = this.drain();
    return this.stopping;
  }

  private hardStop(reason: string): void {
    this.abort.abort(new SessionInterruptedError(reason));
    diskWaits.abandonAll();
  }

  private async drain(): Promise<void> {
    this.setState('draining');
    this.http?.beginStopping();
    this.runtime.runner.drain();
    const graceMs = this.runtime.config.daemon.shutdown_grace_ms;
    const grace = setTimeout(() => {
      this.options.log.warn(`grace period (${graceMs} ms) over: stopping running steps`);
      this.hardStop('grace period over');
    }, graceMs);
    // However work answers the hard stop, the daemon is gone within the grace period + 5 s (SPEC §21).
    await this.runShutdownSteps(Date.now() + graceMs + STOP_OVERRUN_MS);
    clearTimeout(grace);
    this.setState('stopped');
  }

  /** In order; each tolerates a boot that stopped half-way. */
  private shutdownSteps(): ShutdownStep[] {
    const { taking, finishing, closing } = this.work.stopSteps;
    return [
      ['inbox intake', () => this.intake?.stop()],
      ...taking,
      // Open until running steps are done: meanwhile new work gets 503 and status reads still work.
      ['http api', () => this.http?.close()],
      ['governance watcher', () => this.stopWatchingGovernance?.()],
      ['config watcher', () => this.stopWatchingConfig?.()],
      ['disk guard', () => this.diskGuard?.stop()],
      ['control outcome sweep', () => this.stopOutcomeSweep?.()],
      ...finishing,
      ['audit log and root lock', () => this.runtime.close()],
      ...closing,
    ];
  }

  /** Each step in turn; past `deadline` a step that still waits gets {@link LATE_STEP_MS}, then the next goes on. */
  private async runShutdownSteps(deadline: number): Promise<void> {
    for (const [name, step] of this.shutdownSteps()) {
      try {
        const waited = Math.max(deadline - Date.now(), LATE_STEP_MS);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), waited)));
        const outcome = await Promise.race([Promise.resolve(step()), late]).finally(() => clearTimeout(timer));
        if (outcome === 'late')
          this.options.log.error(`shutdown: ${name} did not finish in time; stopping without it`, {
            waited_ms: waited,
          });
      } catch (error) {
        this.options.log.error(`shutdown: ${name} failed to close`, {
          error: this.work.describeError ? this.work.describeError(error) : errorMessage(error),
        });
      }
    }
  }
}
