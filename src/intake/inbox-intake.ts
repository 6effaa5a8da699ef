/**
 * The daemon's front door (README "Folder layout"): a request file's life from the inbox to the archive.
 * Files are claimed into system/processing/ as soon as they are complete (inbox-claimer.ts), and
 * submissions are written there as claims (request-submission.ts): processing/ is the durable
 * queue that crash recovery reads. Claims wait in memory as names only, first claimed first run;
 * a claim is read, parsed and its request id registered (claim-handler.ts) only when one of
 * `concurrency` slots takes it, so 10,000 waiting requests hold 10,000 names, not their texts.
 * Invalid files and duplicate ids go to system/failed/; done files to system/archive/YYYYMMDD/
 * (request-archive.ts).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage, GovflowError } from '../errors.js';
import type { RequestFileRef } from './claimed-file.js';
import { ClaimHandler, type ClaimHandlerOptions } from './claim-handler.js';
import { claimSubmittedFolder, type FolderSubmission } from './folder-submission.js';
import { FileQueue } from './file-queue.js';
import { InboxClaimer, type IntakeLog } from './inbox-claimer.js';
import { archiveRequestFiles } from './request-archive.js';
import { RequestIdRegistry } from './request-id-registry.js';
import { writeClaimedSubmission, type Submission, type SubmissionOutcome } from './request-submission.js';
import { peekControlText } from './control-peek.js';

export interface InboxIntakeOptions extends ClaimHandlerOptions {
  /** intake.settle_ms: how long a file written in place must stay unchanged. */
  settleMs: number;
  /** intake.rescan_interval_ms: the full scan that catches whatever the watcher missed. */
  rescanIntervalMs: number;
  /** intake.concurrency: items handled (sessions running) at once. */
  concurrency: number;
  /** The configured timezone: the archive's day folders follow it. */
  timezone: string;
  log?: IntakeLog;
  /** Defaults to the registry in system/state/requests/. */
  registry?: RequestIdRegistry;
  /** Use the filesystem watcher (default true). Without it, only scans find files. */
  watch?: boolean;
  /**
   * http.max_queued: at this many accepted requests waiting to start, no inbox file is claimed
   * (they wait in the inbox) until one starts. Null: no bound.
   */
  maxQueued?: number | null;
  /** Accepted requests waiting elsewhere (cluster mode: queued in the store), counted with the claims here. */
  queuedElsewhere?: () => number;
}

/** Life cycle; every change is logged. */
export type IntakeState = 'created' | 'starting' | 'running' | 'stopping' | 'stopped';

export class InboxIntake {
  private state: IntakeState = 'created';
  private readonly options: InboxIntakeOptions;
  private readonly processing: string;
  private readonly registry: RequestIdRegistry;
  private readonly log: IntakeLog;
  private readonly claimer: InboxClaimer;
  private readonly claims: ClaimHandler;
  /** Claim names (in system/processing/) waiting for a slot, first claimed first. */
  private readonly waiting = new FileQueue();
  /** Texts of waiting submitted claims, by claim name (not read back; `submit` registered their ids); null: a folder, read back. */
  private readonly submitted = new Map<string, string | null>();
  /** Waiting claims a crash left, run by their own handler (`adopt`), by claim name. */
  private readonly adopted = new Map<string, (claimedPath: string) => Promise<void>>();
  /** Settles each `adopt` once its claims ran or stop() dropped them. */
  private adoptionsDropped: Array<() => void> = [];
  private readonly slots = new Set<Promise<void>>();
  /** Controls being applied (outside the slots). */
  private readonly controls = new Set<Promise<void>>();
  private idleWaiters: Array<() => void> = [];
  private stopping: Promise<void> | undefined;
  private held = false;
  /** True while http.max_queued requests wait to start: the claimer holds. */
  private queueFull = false;
  /** Requests a fork, retry or re-run is submitting (reserveQueued), counted as waiting from the check on. */
  private reserved = 0;

  constructor(options: InboxIntakeOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new GovflowError(
        'config',
        `intake concurrency must be a whole number of at least 1, got ${options.concurrency}: fix intake.concurrency`,
      );
    }
    this.options = options;
    this.processing = path.resolve(options.paths.processing);
    this.registry = options.registry ?? new RequestIdRegistry(options.paths, { durable: options.durable ?? true });
    this.log = options.log ?? (() => {});
    this.claims = new ClaimHandler(options, this.registry, this.log);
    this.claimer = new InboxClaimer({
      inbox: options.paths.inbox,
      processing: options.paths.processing,
      settleMs: options.settleMs,
      rescanIntervalMs: options.rescanIntervalMs,
      watch: options.watch ?? true,
      log: this.log,
      onClaimed: (claimName) => this.enqueue(claimName),
      onProgress: () => this.settleIdleWaiters(),
      ...(options.handleControl ? { passesQueueHold: (inboxPath: string) => !!peekControlText(inboxPath) } : {}),
      ...(options.attachments
        ? {
            receipt: {
              processing: this.processing,
              limits: options.attachments,
              maxRequestBytes: options.maxBytes,
              durable: options.durable ?? true,
            },
            onRefused: (refusal) => void this.claims.reject({ kind: 'rejected', ...refusal }),
          }
        : {}),
    });
  }

  /** Items being handled right now (at most `concurrency`). */
  get running(): number {
    return this.slots.size;
  }

  /** Requests not yet handled: claimed and waiting for a slot, or found in the inbox and not claimed yet. */
  get queued(): number {
    return this.waiting.size + this.claimer.pending;
  }

  /** Accepted requests waiting to start (what http.max_queued bounds): claims here, and those queued elsewhere. */
  get waitingToStart(): number {
    return this.waiting.size + this.reserved + (this.options.queuedElsewhere?.() ?? 0);
  }

  /**
   * A place in the queue for a request about to be submitted (a fork, retry or re-run: SPEC §20
   * counts them as requests), taken at once so concurrent ones cannot all pass the check; null
   * while http.max_queued requests wait. `submit` gives it back as the claim is queued; release it
   * too when no submission is made (calling it again is a no-op).
   */
  reserveQueued(): (() => void) | null {
    const max = this.options.maxQueued ?? null;
    if (max !== null && this.waitingToStart >= max) return null;
    this.reserved += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.reserved -= 1;
      this.checkQueue();
    };
  }

  /** Holds or frees the claimer as the queue fills and drains (also after `queuedElsewhere` changed). */
  checkQueue(): void {
    const max = this.options.maxQueued ?? null;
    const full = max !== null && this.waitingToStart >= max;
    if (full === this.queueFull) return;
    this.queueFull = full;
    this.log(
      'info',
      full
        ? `intake: ${max} accepted requests wait to start (http.max_queued): new inbox files wait in the inbox until some start (controls are still taken)`
        : 'intake: the queue is below http.max_queued again: claiming inbox files',
    );
    this.claimer.setQueueFull(full);
  }

  /** Creates the system/ folders, starts the watcher and claims what the inbox already holds. */
  async start(): Promise<void> {
    if (this.state !== 'created') {
      throw new GovflowError(
        'internal',
        `start() was called on an intake that is ${this.state}: create a new InboxIntake instead`,
      );
    }
    this.changeState('starting');
    const { paths } = this.options;
    for (const folder of [paths.inbox, paths.processing, paths.failed, paths.state, paths.outbox, paths.archive]) {
      await mkdir(folder, { recursive: true });
    }
    await this.claimer.start();
    if (this.stopRequested()) return;
    this.changeState('running');
    this.pump();
    this.settleIdleWaiters();
  }

  /**
   * Takes a request that is no inbox file (the HTTP API): scheduled once its claim is in place,
   * resolved once durable; 'duplicate' for an id seen before. Outside start()–stop() the claim
   * waits for the next start's recovery.
   */
  async submit(submission: Submission, reservation?: () => void): Promise<SubmissionOutcome> {
    return writeClaimedSubmission(this.options.paths, this.registry, submission, {
      durable: this.options.durable ?? true,
      onClaimed: (claimName) => {
        this.enqueue(claimName, submission.text);
        // Counted as waiting from now on: the place reserveQueued held for it is given back in the same turn.
        reservation?.();
      },
    });
  }

  /** A request folder staged by the HTTP API (multipart): claimed like `submit`, its id claimed with its request file. */
  async submitFolder(submission: FolderSubmission): Promise<SubmissionOutcome> {
    return claimSubmittedFolder(this.options.paths, this.registry, submission, {
      durable: this.options.durable ?? true,
      onClaimed: (claimName) => this.enqueue(claimName, null),
    });
  }

  /**
   * Claims a crash left, queued ahead of newer ones and run by `run` in the same slots, without the
   * request id check (the caller recovers each). Resolves once all ran, or stop() dropped them.
   */
  adopt(claimedPaths: readonly string[], run: (claimedPath: string) => Promise<void>): Promise<void> {
    if (claimedPaths.length === 0 || this.stopRequested()) return Promise.resolve();
    let left = claimedPaths.length;
    return new Promise<void>((resolve) => {
      this.adoptionsDropped.push(resolve);
      const ran = async (claimedPath: string) => {
        try {
          await run(claimedPath);
        } finally {
          if (--left === 0) resolve();
        }
      };
      for (const claimedPath of claimedPaths) {
        const claimName = path.basename(claimedPath);
        this.adopted.set(claimName, ran);
        this.enqueue(claimName);
      }
    });
  }

  /** Moves the claimed files the runner reported done into system/archive/YYYYMMDD/. */
  archive(files: readonly RequestFileRef[]): void {
    // A queued claim that ended without a slot (a cancel) waits no more: it frees its place under http.max_queued.
    let freed = false;
    for (const file of files) freed = this.waiting.remove(path.basename(file.claimedPath)) || freed;
    if (freed) this.checkQueue();
    try {
      archiveRequestFiles(this.options.paths.archive, this.options.timezone, files);
    } catch (error) {
      this.log(
        'error',
        `intake: cannot archive ${files.map((file) => file.sourceFile).join(', ')}; the files stay in system/processing/ and are archived at ` +
          `the next start: ${errorMessage(error)}`,
      );
    }
  }

  /** Stops claiming, closes the watcher and timers, and waits for the running handlers. Safe to call twice. */
  stop(): Promise<void> {
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  /** Resolves once nothing is queued, settling, scanning or running (tests and graceful drains). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** false (the disk alarm rose): no file leaves the inbox, no session starts; true: go on. */
  setClaiming(allowed: boolean): void {
    this.held = !allowed;
    this.claimer.setHeld(this.held);
    this.pump();
  }

  private async shutDown(): Promise<void> {
    this.changeState('stopping');
    // Claims still waiting stay in system/processing/: the next start's recovery runs them.
    this.waiting.clear();
    this.submitted.clear();
    this.adopted.clear();
    for (const dropped of this.adoptionsDropped.splice(0)) dropped();
    try {
      await this.claimer.stop();
    } catch (error) {
      this.log('warn', `intake: stopping the inbox claimer failed: ${errorMessage(error)}`);
    }
    while (this.slots.size > 0 || this.controls.size > 0) await Promise.allSettled([...this.slots, ...this.controls]);
    this.changeState('stopped');
    this.settleIdleWaiters();
  }

  private changeState(next: IntakeState): void {
    this.log('info', `intake: ${this.state} -> ${next}`, { from: this.state, to: next });
    this.state = next;
  }

  /** True once stop() was called; a method so TypeScript does not narrow the state across awaits. */
  private stopRequested(): boolean {
    return this.stopping !== undefined;
  }

  private isIdle(): boolean {
    if (this.state === 'stopped') return true;
    return this.waiting.size === 0 && this.slots.size === 0 && this.controls.size === 0 && this.claimer.isIdle();
  }

  private settleIdleWaiters(): void {
    if (!this.isIdle() || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private enqueue(claimName: string, submittedText?: string | null): void {
    if (this.stopRequested()) return;
    if (this.options.handleControl && !this.adopted.has(claimName) && claimName.toLowerCase().endsWith('.json')) {
      // A submission's text is at hand; a dropped file is read at once (one open, one read: a flood stays fast).
      const text = submittedText ?? peekControlText(path.join(this.processing, claimName));
      if (text !== null && this.takeControl(claimName, text)) return;
    }
    this.waiting.push(claimName);
    if (submittedText !== undefined) this.submitted.set(claimName, submittedText);
    this.pump();
  }

  private pump(): void {
    while (
      this.state === 'running' &&
      !this.held &&
      this.slots.size < this.options.concurrency &&
      this.waiting.size > 0
    ) {
      const claimName = this.waiting.shift()!;
      const submitted = this.submitted.has(claimName) ? this.submitted.get(claimName)! : undefined;
      this.submitted.delete(claimName);
      const adopted = this.adopted.get(claimName);
      this.adopted.delete(claimName);
      const claimedPath = path.join(this.processing, claimName);
      const slot: Promise<void> = (adopted ? adopted(claimedPath) : this.claims.process(claimedPath, submitted))
        .catch((error: unknown) => {
          this.log(
            'error',
            `intake: unexpected failure while handling the claim "${claimName}": ${errorMessage(error)}`,
            { file: claimName },
          );
        })
        .finally(() => {
          this.slots.delete(slot);
          this.pump();
          this.settleIdleWaiters();
        });
      this.slots.add(slot);
    }
    this.checkQueue();
  }

  /**
   * A control goes to its own lane at its claim: true when `claimName` was one (applied now, or
   * refused now when it is a control that cannot be). A control over CONTROL_PEEK_BYTES takes a slot.
   */
  private takeControl(claimName: string, text: string): boolean {
    const work = this.claims.controlWork(path.join(this.processing, claimName), text);
    if (!work) return false;
    const running: Promise<void> = work
      .catch((error: unknown) =>
        this.log('error', `intake: applying the control "${claimName}" failed: ${errorMessage(error)}`, {
          file: claimName,
        }),
      )
      .finally(() => {
        this.controls.delete(running);
        this.settleIdleWaiters();
      });
    this.controls.add(running);
    return true;
  }
}
