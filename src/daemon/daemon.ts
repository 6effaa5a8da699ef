/**
 * The daemon: a small state machine (starting → running → draining → stopped) that recovers
 * unfinished sessions, feeds inbox files to the session runner, hot-reloads governance, and
 * stops gracefully (a grace period for running steps, then a hard stop that still leaves every
 * journal consistent).
 */
import { setMaxListeners } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { resumeOrphanedRuns } from './orphaned-runs.js';
import { replyApplied, sessionStartedByClaim } from './claim-journals.js';
import { RecoveryProgress } from './recovery-progress.js';
import { readClaimedFile, recoverClaimedFiles, type IntakeItem, type IntakeReply, type IntakeRequest } from '../intake/claimed-file.js';
import { claimedAtOf, sessionIdForClaim } from '../intake/claim-name.js';
import { moveToFailed } from '../intake/failed-files.js';
import { InboxIntake } from '../intake/inbox-intake.js';
import { releaseUnacknowledged, repairInterruptedSubmissions } from '../intake/request-submission.js';
import { RequestIdRegistry } from '../intake/request-id-registry.js';
import type { LlmProvider } from '../llm/provider.js';
import { ReplyRejectedError, SessionInterruptedError, type OperationalLog } from '../pipeline/session-runner.js';
import type { SessionOutcome } from '../pipeline/runner-contract.js';
import { errorMessage } from '../errors.js';
import { runShutdownSteps, type ShutdownStep } from './shutdown-steps.js';
import { diskWaits } from '../store/disk-waits.js';
import { DiskGuard } from './disk-guard.js';
import { watchConfig } from './config-watch.js';
import { watchGovernance } from './governance-watch.js';
import { openRuntime, type Runtime } from './runtime.js';
import { SessionRuns } from './session-runs.js';
import type { HttpApi } from '../http/http-server.js';
import { costCalculator } from '../llm/create-provider.js';

export type DaemonState = 'starting' | 'running' | 'draining' | 'stopped';

export interface DaemonOptions {
  env?: NodeJS.ProcessEnv;
  log: OperationalLog;
  /** Where the single `ready` line goes (stdout in the CLI). */
  announce: (line: string) => void;
  provider?: LlmProvider;
  /** `HOST:PORT` for the HTTP API (`govflow start --http`); wins over config `http.listen`. */
  httpListen?: string;
}

export class GovflowDaemon {
  private state: DaemonState = 'starting';
  private readonly abort = new AbortController();
  private readonly sessionRuns: SessionRuns;
  private readonly registry: RequestIdRegistry;
  private intake!: InboxIntake;
  private diskGuard: DiskGuard | null = null;
  private stopWatchingGovernance: (() => Promise<void>) | null = null;
  private stopWatchingConfig: (() => Promise<void>) | null = null;
  private recovery: Promise<void> = Promise.resolve();
  private stopping: Promise<void> | null = null;
  private http: HttpApi | null = null;

  private constructor(
    private readonly runtime: Runtime,
    private readonly options: DaemonOptions,
  ) {
    this.registry = new RequestIdRegistry(runtime.config.paths, { durable: runtime.config.daemon.fsync });
    this.sessionRuns = new SessionRuns(runtime.config.paths.sessions);
    // Every running model call listens on the shutdown signal (and removes its listener when it
    // settles): past 10 concurrent calls Node's leak warning would be a false alarm on stderr.
    setMaxListeners(0, this.abort.signal);
    // The runner reports which claimed files are done; the intake owns their move to the archive.
    runtime.events.on('request_files_done', (event) => this.intake.archive(event.files));
  }

  static async start(root: string, options: DaemonOptions): Promise<GovflowDaemon> {
    const runtime = await openRuntime(root, { env: options.env, log: options.log, provider: options.provider, owner: 'daemon' });
    const daemon = new GovflowDaemon(runtime, options);
    try {
      await daemon.boot();
    } catch (error) {
      await daemon.http?.close().catch(() => undefined);
      await runtime.close().catch(() => undefined);
      throw error;
    }
    return daemon;
  }

  get currentState(): DaemonState {
    return this.state;
  }

  private setState(next: DaemonState): void {
    this.options.log.info(`daemon ${this.state} → ${next}`);
    this.state = next;
  }

  private async boot(): Promise<void> {
    const { config, governance, provider, warnings } = this.runtime;
    const log = this.options.log;
    for (const warning of warnings) log.warn(`governance: ${warning}`);
    if (provider.kind === 'dry-run') {
      log.warn('provider is dry-run: no LLM is called; every agent answers with a placeholder message (set provider.kind in govflow.config.yaml to use a model)');
    }
    this.intake = new InboxIntake({
      paths: config.paths,
      registry: this.registry,
      durable: config.daemon.fsync,
      maxBytes: config.intake.max_bytes,
      settleMs: config.intake.settle_ms,
      rescanIntervalMs: config.intake.rescan_interval_ms,
      concurrency: config.intake.concurrency,
      timezone: config.timezone,
      handle: (item) => this.handle(item),
      onRejected: (rejection) => log.warn('request file rejected: moved to system/failed/', { file: rejection.file, reason: rejection.reason }),
      log: (level, message, fields) => log[level](message, fields as Record<string, unknown> | undefined),
    });
    mkdirSync(config.paths.processing, { recursive: true });
    const repaired = repairInterruptedSubmissions(config.paths, this.registry, config.intake.max_bytes);
    if (repaired > 0) log.warn('intake: finished submissions a crash interrupted after their request id was claimed', { requests: repaired });
    // Listed before anything new is claimed: from then on processing/ also holds this daemon's own
    // fresh claims (inbox files, HTTP submissions), which recovery must not run a second time.
    const leftovers = await recoverClaimedFiles(config.paths);
    const listen = this.options.httpListen ?? config.http.listen;
    if (listen) {
      // Before the intake starts: a request posted now is claimed and waits for it.
      // Loaded only when wanted: Fastify and prom-client stay out of every other command's start.
      const { HttpApi } = await import('../http/http-server.js');
      this.http = await HttpApi.start({
        config,
        listen,
        events: this.runtime.events,
        registry: this.registry,
        submit: (submission) => this.intake.submit(submission),
        log,
        cancellation: this.runtime.cancellation,
        readiness: () => this.readiness(),
        metrics: { audit: this.runtime.audit as unknown as { append: (...args: never[]) => Promise<unknown> }, costUsd: costCalculator(config) },
      });
    }
    this.recovery = this.recover(leftovers)
      .then(() => resumeOrphanedRuns(config.paths.state, this.runtime.runner, this.abort.signal, log))
      .then(() => undefined)
      .catch((error: unknown) => {
        log.error('crash recovery failed; what it did not finish is retried at the next start', { error: errorMessage(error) });
      });
    // The disk alarm is decided before the first claim; below the floor the inbox just waits.
    this.diskGuard = new DiskGuard({
      paths: config.paths,
      minFreeBytes: config.intake.min_free_bytes,
      log,
      onClaimingChange: (mayClaim) => this.intake.setClaiming(mayClaim),
    });
    this.diskGuard.start();
    await this.intake.start();
    this.stopWatchingGovernance = await watchGovernance(this.runtime.config.root, this.runtime.governance, this.options.log);
    this.stopWatchingConfig = await watchConfig({ config, env: this.options.env ?? process.env, log, http: this.http });
    this.setState('running');
    this.options.announce(
      `govflow ready: watching ${config.paths.inbox}${this.http ? `, HTTP API on ${this.http.url}` : ''} (provider ${provider.kind}, ${governance.current().agents.size} agents, governance ${governance.current().hash.slice(0, 12)})`,
    );
  }

  /** For `/readyz`: ready once running. */
  private readiness(): { ready: boolean; reason: string } {
    if (this.state !== 'running') return { ready: false, reason: `govflow is ${this.state}` };
    // Recovery shares the intake's pace: new requests are taken meanwhile (govflow status shows how far it got).
    return { ready: true, reason: 'ready' };
  }

  /**
   * Crash recovery from the claimed files, which are the truth: a claimed request maps to its
   * session id deterministically, so its session resumes from the journal when one exists and
   * starts otherwise; replies follow once their sessions have run.
   */
  private async recover(leftoverClaims: string[]): Promise<void> {
    const { config } = this.runtime;
    const log = this.options.log;
    // Claims are read one at a time by the workers, so a flood left claimed holds names, not texts.
    const claims = [...leftoverClaims];
    const replies: IntakeReply[] = [];
    if (claims.length > 0) log.info('recovering requests left by an earlier run', { claims: claims.length });
    const progress = new RecoveryProgress(config.paths, claims.length, (error) => log.warn('cannot write the recovery status for govflow status', { error: errorMessage(error) }));
    try {
      await this.recoverClaims(claims, replies, leftoverClaims, progress);
    } finally {
      progress.finish();
    }
  }

  private async recoverClaims(claims: string[], replies: IntakeReply[], leftoverClaims: string[], progress: RecoveryProgress): Promise<void> {
    const { config, runner } = this.runtime;
    const log = this.options.log;
    const worker = async () => {
      for (let claimedPath = claims.shift(); claimedPath; claimedPath = claims.shift()) {
        if (this.abort.signal.aborted || this.state === 'draining') return;
        // A reply is counted when it runs, below.
        let counted = true;
        // One damaged journal (JournalFormatError names file:line) must not stop the others.
        try {
          const item = await readClaimedFile(claimedPath, config.intake.max_bytes);
          if (item.kind === 'rejected') {
            const released = releaseUnacknowledged(this.registry, claimedPath);
            const reason = released === null ? item.reason : `${item.reason} (an HTTP submission a power loss cut before it was acknowledged: request_id "${released}" may be submitted again)`;
            await moveToFailed(config.paths, claimedPath, item.file, reason);
            continue;
          }
          if (item.kind === 'reply') {
            replies.push(item);
            counted = false;
            continue;
          }
          const sessionId = this.sessionIdFor(item);
          if (sessionStartedByClaim(config.paths.sessions, sessionId, item.claimedPath)) {
            await this.runSession((track) => {
              track(sessionId);
              return runner.recoverSession(sessionId, this.abort.signal);
            });
          } else if ((await this.registry.claim(item.requestId, item.claimedPath)) === 'duplicate') {
            await moveToFailed(config.paths, item.claimedPath, item.sourceFile, `duplicate request_id "${item.requestId}": it was already processed; use a new request_id`);
          } else {
            await this.handle(item, true);
          }
        } catch (error) {
          log.error('cannot recover this request; its file stays in system/processing/ until the problem is fixed and the daemon restarts', {
            file: claimedPath,
            error: errorMessage(error),
          });
        } finally {
          if (counted) progress.advance();
        }
      }
    };
    await Promise.all(Array.from({ length: config.intake.concurrency }, worker));
    // Replies in the order they were claimed, once their sessions have run.
    replies.sort((left, right) => leftoverClaims.indexOf(left.claimedPath) - leftoverClaims.indexOf(right.claimedPath));
    for (const reply of replies) {
      if (this.abort.signal.aborted || this.state === 'draining') return;
      progress.advance();
      if (!existsSync(reply.claimedPath)) continue; // its session applied and archived it
      let applied: boolean;
      try {
        applied = replyApplied(config.paths.sessions, reply.sessionId, reply.claimedPath);
      } catch (error) {
        log.error('cannot recover this reply; its file stays in system/processing/ until the problem is fixed and the daemon restarts', {
          file: reply.claimedPath,
          error: errorMessage(error),
        });
        continue;
      }
      if (applied) {
        await this.runSession((track) => {
          track(reply.sessionId);
          return runner.recoverSession(reply.sessionId, this.abort.signal);
        });
      } else {
        await this.handle(reply, true);
      }
    }
  }

  /** The session of a request: the one it names, else one derived from its claim (stable across restarts). */
  private sessionIdFor(item: IntakeRequest): string {
    return item.sessionId ?? sessionIdForClaim(item.claimedPath, this.runtime.config.timezone);
  }

  /** Runs one session's work; the runner logs how it ended, this logs how it broke off. */
  private async runSession(work: (track: (sessionId: string) => void) => Promise<SessionOutcome>): Promise<void> {
    let tracked: string | null = null;
    let ended = () => {};
    try {
      await work((sessionId) => {
        tracked = sessionId;
        ended = this.sessionRuns.begin(sessionId);
      });
    } catch (error) {
      if (error instanceof SessionInterruptedError) {
        this.options.log.warn('session interrupted by shutdown; it resumes at next start', { session: tracked });
        return;
      }
      this.options.log.error('session crashed; it resumes from its journal at next start', { session: tracked, error: errorMessage(error) });
    } finally {
      ended();
    }
  }

  /** `recovered`: the item was claimed before a crash (its session may have left audit entries); recovery itself runs it. */
  private async handle(item: IntakeItem, recovered = false): Promise<void> {
    const { config, runner } = this.runtime;
    const reject = (reason: string) => moveToFailed(config.paths, item.claimedPath, item.sourceFile, reason).then(() => {
      this.options.log.warn('request file rejected: moved to system/failed/', { file: item.sourceFile, reason });
    });
    if (item.kind === 'reply') {
      // A new reply waits for crash recovery: its session may be among those recovery has yet to
      // resume or is rewriting (a paused one), and one session has one writer.
      if (!recovered) await this.recovery;
      const refused = await this.sessionRuns.replyMayApply(item.sessionId, () => this.options.log.info('reply waits for its session to finish recording its pause', { session: item.sessionId }));
      if (refused !== null) {
        await reject(refused);
        return;
      }
      const ended = this.sessionRuns.begin(item.sessionId);
      try {
        await runner.replyToSession(item.sessionId, { text: item.reply, sourceFile: item.sourceFile, claimedPath: item.claimedPath, ...(item.approval ? { approval: item.approval } : {}) }, this.abort.signal);
      } catch (error) {
        if (error instanceof ReplyRejectedError) await reject(error.message);
        else if (!(error instanceof SessionInterruptedError)) this.options.log.error('reply failed', { session: item.sessionId, error: errorMessage(error) });
      } finally {
        ended();
      }
      return;
    }
    const sessionId = this.sessionIdFor(item);
    if (runner.sessionExists(sessionId)) {
      await reject(`session_id "${sessionId}" is already in use; omit session_id or choose a new one`);
      return;
    }
    await this.runSession(
      (track) =>
        runner.startSession(
          {
            requestId: item.requestId,
            sessionId,
            text: item.text,
            user: item.user,
            metadata: item.metadata,
            sourceFile: item.sourceFile,
            claimedPath: item.claimedPath,
            ...(item.dataDurable ? { claimDurable: item.dataDurable } : {}),
            ...(recovered ? { recoveredSince: (claimedAtOf(item.claimedPath) ?? new Date(0)).toISOString() } : {}),
          },
          this.abort.signal,
          track,
        ),
    );
  }

  /** Graceful stop; a second call stops at once (running steps are abandoned, journals stay consistent). */
  stop(): Promise<void> {
    if (this.stopping) {
      if (!this.abort.signal.aborted) {
        this.options.log.warn('second stop signal: stopping now');
        this.abort.abort(new SessionInterruptedError('hard stop'));
        diskWaits.abandonAll();
      }
      return this.stopping;
    }
    this.stopping = this.drain();
    return this.stopping;
  }

  private async drain(): Promise<void> {
    this.setState('draining');
    this.http?.beginStopping();
    this.runtime.runner.drain();
    const grace = setTimeout(() => {
      this.options.log.warn(`grace period (${this.runtime.config.daemon.shutdown_grace_ms} ms) over: stopping running steps`);
      this.abort.abort(new SessionInterruptedError('grace period over'));
      diskWaits.abandonAll();
    }, this.runtime.config.daemon.shutdown_grace_ms);
    const cleanups: ShutdownStep[] = [
      ['inbox intake', () => this.intake.stop()],
      ['recovery', () => this.recovery],
      // Open until running steps are done: meanwhile new work gets 503 and status reads still work.
      ['http api', () => this.http?.close()],
      ['governance watcher', () => this.stopWatchingGovernance?.()],
      ['config watcher', () => this.stopWatchingConfig?.()],
      ['disk guard', () => this.diskGuard?.stop()],
      ['audit log and root lock', () => this.runtime.close()],
    ];
    await runShutdownSteps(cleanups, this.options.log);
    clearTimeout(grace);
    this.setState('stopped');
  }
}
