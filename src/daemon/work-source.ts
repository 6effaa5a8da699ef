/**
 * The seam between the one daemon (daemon.ts) and a backend below it: files (inbox-work.ts) or
 * Postgres (src/cluster/cluster-work.ts). Types only, so a backend needs nothing else of the daemon.
 */
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { InboxIntake } from '../intake/inbox-intake.js';
import type { IntakeControl, IntakeItem } from '../intake/claimed-file.js';
import type { RequestIdRegistry } from '../intake/request-id-registry.js';
import type { HttpApi } from '../http/http-server.js';
import type { SessionReads } from '../store/session-reads.js';
import type { OperationalLog } from '../log-contract.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import type { Runtime, RuntimeOptions } from './runtime.js';

/** One step of a daemon's shutdown, in order; a step that fails is logged and the next one runs. */
export type ShutdownStep = readonly [name: string, step: () => unknown];

/** starting → running → draining → stopped; starting → failed when boot throws. */
export type DaemonState = 'starting' | 'running' | 'draining' | 'stopped' | 'failed';

/** What a work source may read of its daemon. */
export interface WorkContext {
  runtime: Runtime;
  log: OperationalLog;
  registry: RequestIdRegistry;
  /** Aborted by a hard stop (a second signal, or the grace period over). */
  signal: AbortSignal;
  state(): DaemonState;
}

/** A backend's way of taking work: what a claimed item becomes, and what the HTTP API reads. */
export interface WorkSource {
  /** Items the intake hands over at once (the sessions running, with files). */
  readonly intakeConcurrency: number;
  /** The events the HTTP API streams. */
  readonly events: SessionEvents;
  /** Results and journals read from the store instead of system/ (Postgres). */
  readonly reads?: SessionReads;
  /** The ready line's words about the backend, ending in ", " when any. */
  readonly label: string;
  /** Accepted requests waiting to start outside the intake (the store's queue, as last counted), for http.max_queued. */
  readonly queuedElsewhere?: () => number;
  /** Counts them again now (before POST /v1/requests decides on http.max_queued). */
  readonly refreshQueued?: () => Promise<void>;
  /** Where http.rate_limit counts calls when not in this process (the store: every daemon's calls). */
  readonly rateLimitStore?: FastifyRateLimitStoreCtor;
  handle(item: IntakeItem): Promise<void>;
  /** A control at its claim, outside the intake's slots (docs/run-control.md). */
  handleControl(item: IntakeControl): Promise<void>;
  /** Before the HTTP API opens and anything new is claimed (claims a crash left are listed here). */
  prepare(intake: InboxIntake): Promise<void>;
  /** Before the intake starts: crash recovery, taken up by the intake or the store. */
  recover(): Promise<void>;
  /** Once running: the timers and loops of the backend. */
  started(http: HttpApi | null): Promise<void>;
  /** Shutdown steps: before the HTTP API closes; once the watchers stopped; after the runtime closed. */
  readonly stopSteps: { taking: ShutdownStep[]; finishing: ShutdownStep[]; closing: ShutdownStep[] };
  /** Error text for the operational log (without credentials). */
  describeError?(error: unknown): string;
}

/** A store below the daemon: what the runtime takes from it, and its work source once the runtime is open. */
export interface Backend {
  runtimeOptions: Pick<RuntimeOptions, 'store' | 'governanceFor' | 'spend'>;
  work(context: WorkContext): WorkSource;
  /** Closes what opening the backend made, when the runtime could not open. */
  close(): Promise<void>;
}
