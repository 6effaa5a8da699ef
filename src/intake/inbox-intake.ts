/**
 * The daemon's front door: watches system/inbox/, claims each request file exactly once, and
 * hands it to the daemon as an IntakeItem (SPEC §2).
 *
 * Design, in the order a file meets it:
 * - **Finding files.** chokidar (depth 0) is only a hint for speed; a full scan at start and
 *   every `rescanIntervalMs` is the truth, so events lost to a busy or restarted watcher never
 *   lose a request. A name is queued once (FIFO; a scan queues by mtime, then name).
 * - **Bounded work.** A file is looked at only when one of `concurrency` slots is free, so a flood
 *   of thousands of files holds only their names in memory and a few open files at a time.
 * - **Settling.** A file still being written in place is left alone until it stops changing
 *   (settle-check.ts); the slot is freed while it waits.
 * - **Claiming.** An atomic rename into system/processing/ under a unique name. Of two daemons
 *   on one root exactly one rename succeeds; the other gets ENOENT and moves on. Symlinks and
 *   folders are claimed too (the link itself, never its target) and then rejected.
 * - **After the claim.** Parse; invalid files and duplicate request ids go to system/failed/
 *   with an error record; valid items go to `handle`. A failing handler is logged, never fatal.
 */
import { watch, type FSWatcher } from 'chokidar';
import { existsSync, lstatSync, mkdirSync, renameSync } from 'node:fs';
import { lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SystemPaths } from '../config/system-paths.js';
import { errorMessage } from '../errors.js';
import { claimNameFor } from './claim-name.js';
import { readClaimedFile, type IntakeItem, type IntakeRejection } from './claimed-file.js';
import { moveToFailed } from './failed-files.js';
import { FileQueue } from './file-queue.js';
import { isIgnoredName } from './request-file.js';
import { RequestIdRegistry } from './request-id-registry.js';
import { settleVerdict, type EarlierSighting } from './settle-check.js';

export type IntakeLogLevel = 'info' | 'warn' | 'error';
export type IntakeLog = (level: IntakeLogLevel, message: string, fields?: object) => void;

export interface InboxIntakeOptions {
  paths: SystemPaths;
  /** intake.max_bytes: larger files are rejected without being read past the limit. */
  maxBytes: number;
  /** intake.settle_ms: how long a file written in place must stay unchanged. */
  settleMs: number;
  /** intake.rescan_interval_ms: the full scan that catches whatever the watcher missed. */
  rescanIntervalMs: number;
  /** intake.concurrency: items being claimed or handled at once. */
  concurrency: number;
  /** Runs one item. The intake logs a rejection of this promise and carries on. */
  handle: (item: IntakeItem) => Promise<void>;
  onRejected?: (rejection: { file: string; reason: string }) => void;
  log?: IntakeLog;
  /** Defaults to the registry in system/state/requests/. */
  registry?: RequestIdRegistry;
  /** fsync markers and error records (default true; daemon.fsync). */
  durable?: boolean;
  /** Use the filesystem watcher (default true). Without it, only scans find files. */
  watch?: boolean;
}


/** Life cycle; every change is logged. */
export type IntakeState = 'created' | 'starting' | 'running' | 'stopping' | 'stopped';

/** What the watcher told us about a name since it last appeared: used to skip the settle wait. */
type Arrival = 'appeared' | 'written';

/** How many lstat calls a scan runs at once, so a huge inbox does not flood the thread pool. */
const SCAN_STAT_PARALLELISM = 16;

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export class InboxIntake {
  private state: IntakeState = 'created';
  private readonly options: InboxIntakeOptions;
  private readonly inbox: string;
  private readonly registry: RequestIdRegistry;
  private readonly log: IntakeLog;
  private readonly queue = new FileQueue();
  /** Names waiting out their settle time, each with the timer that re-queues it. */
  private readonly settling = new Map<string, NodeJS.Timeout>();
  private readonly sightings = new Map<string, EarlierSighting>();
  /** Names in a slot that are not claimed yet. */
  private readonly inspecting = new Set<string>();
  private readonly arrivals = new Map<string, Arrival>();
  private readonly slots = new Set<Promise<void>>();
  private watcher: FSWatcher | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private idleWaiters: Array<() => void> = [];
  private stopping: Promise<void> | undefined;

  constructor(options: InboxIntakeOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new Error(`intake concurrency must be a whole number of at least 1, got ${options.concurrency}: fix intake.concurrency`);
    }
    this.options = options;
    this.inbox = path.resolve(options.paths.inbox);
    this.registry = options.registry ?? new RequestIdRegistry(options.paths, { durable: options.durable ?? true });
    this.log = options.log ?? (() => {});
  }

  /** Items claimed or being claimed right now (at most `concurrency`). */
  get running(): number {
    return this.slots.size;
  }

  /** Names found but not yet in a slot: queued, or waiting for their writer to finish. */
  get queued(): number {
    return this.queue.size + this.settling.size;
  }

  get currentState(): IntakeState {
    return this.state;
  }

  /** Creates the system/ folders, starts the watcher and queues what the inbox already holds. */
  async start(): Promise<void> {
    if (this.state !== 'created') {
      throw new Error(`start() was called on an intake that is ${this.state}: create a new InboxIntake instead`);
    }
    this.changeState('starting');
    const { paths } = this.options;
    for (const folder of [paths.inbox, paths.processing, paths.failed, paths.state, paths.outbox, paths.archive]) {
      await mkdir(folder, { recursive: true });
    }
    if (this.options.watch ?? true) await this.startWatcher();
    if (this.stopRequested()) return;
    await this.scan();
    if (this.stopRequested()) return;
    this.rescanTimer = setInterval(() => void this.scan(), this.options.rescanIntervalMs);
    this.changeState('running');
    this.pump();
    this.settleIdleWaiters();
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

  private async shutDown(): Promise<void> {
    this.changeState('stopping');
    if (this.rescanTimer) clearInterval(this.rescanTimer);
    for (const timer of this.settling.values()) clearTimeout(timer);
    this.settling.clear();
    this.queue.clear();
    this.sightings.clear();
    this.arrivals.clear();
    try {
      await this.watcher?.close();
    } catch (error) {
      this.log('warn', `intake: closing the inbox watcher failed: ${errorMessage(error)}`);
    }
    try {
      await this.scanning;
    } catch {
      // A failed scan was logged where it failed.
    }
    while (this.slots.size > 0) await Promise.allSettled([...this.slots]);
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

  private isAccepting(): boolean {
    return this.state === 'starting' || this.state === 'running';
  }

  private isIdle(): boolean {
    if (this.state === 'stopped') return true;
    return this.queue.size === 0 && this.settling.size === 0 && this.slots.size === 0 && this.scanning === undefined;
  }

  private settleIdleWaiters(): void {
    if (!this.isIdle() || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private async startWatcher(): Promise<void> {
    const watcher = watch(this.inbox, {
      depth: 0,
      ignoreInitial: true, // our own scan queues what is already there, in mtime order
      followSymlinks: false,
      atomic: false,
      // chokidar watches only the inbox folder itself: the folder's raw events already name every
      // child that is created, renamed in or written, while a watcher per file would spend one
      // inotify watch per file of a flood (and hit the system limit).
      ignored: (candidate: string) => path.resolve(candidate) !== this.inbox,
    });
    this.watcher = watcher;
    const onPath = (changedPath: string) => {
      if (path.dirname(path.resolve(changedPath)) === this.inbox) this.enqueue(path.basename(changedPath));
    };
    watcher.on('add', onPath);
    watcher.on('addDir', onPath);
    watcher.on('change', onPath);
    watcher.on('raw', (event: string, eventPath: string | null, details: unknown) =>
      this.onRawEvent(event, eventPath, (details as { watchedPath?: string } | undefined)?.watchedPath),
    );
    watcher.on('error', (error: unknown) => {
      this.log('warn', `intake: the inbox watcher reported an error; the next scan still finds every file: ${errorMessage(error)}`);
      void this.scan();
    });
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  /**
   * Raw fs.watch events come before chokidar's own (which wait for a stat), so they make claims
   * faster, and they tell a file that appeared whole (a rename in) from one being written.
   */
  private onRawEvent(event: string, eventPath: string | null, watchedPath: string | undefined): void {
    if (!watchedPath) return;
    const watched = path.resolve(watchedPath);
    let name: string;
    if (watched === this.inbox && eventPath) name = path.basename(eventPath);
    else if (path.dirname(watched) === this.inbox) name = path.basename(watched);
    else return;
    if (isIgnoredName(name) || !this.isAccepting()) return;
    if (event === 'change') this.arrivals.set(name, 'written');
    else if (!this.arrivals.has(name)) this.arrivals.set(name, 'appeared');
    this.enqueue(name);
  }

  /** Queues a name unless it is ignored or already somewhere in the pipeline. */
  private enqueue(name: string): void {
    if (!this.isAccepting() || isIgnoredName(name)) return;
    if (this.queue.has(name) || this.settling.has(name) || this.inspecting.has(name)) return;
    this.queue.push(name);
    this.pump();
  }

  /** Lists the inbox and queues every new name, oldest first. Concurrent calls share one scan. */
  private scan(): Promise<void> {
    this.scanning ??= this.scanInbox()
      .catch((error: unknown) => {
        this.log('error', `intake: scanning ${this.inbox} failed; retrying at the next rescan: ${errorMessage(error)}`);
      })
      .finally(() => {
        this.scanning = undefined;
        this.settleIdleWaiters();
      });
    return this.scanning;
  }

  private async scanInbox(): Promise<void> {
    const names = (await readdir(this.inbox)).filter(
      (name) => !isIgnoredName(name) && !this.queue.has(name) && !this.settling.has(name) && !this.inspecting.has(name),
    );
    const found: Array<{ name: string; mtimeMs: number }> = [];
    for (let start = 0; start < names.length && this.isAccepting(); start += SCAN_STAT_PARALLELISM) {
      const batch = names.slice(start, start + SCAN_STAT_PARALLELISM);
      const stats = await Promise.allSettled(batch.map((name) => lstat(path.join(this.inbox, name))));
      stats.forEach((result, index) => {
        if (result.status === 'fulfilled') found.push({ name: batch[index], mtimeMs: result.value.mtimeMs });
      });
    }
    found.sort((left, right) => left.mtimeMs - right.mtimeMs || (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    for (const { name } of found) this.enqueue(name);
  }

  /**
   * Holds claiming (false: the disk alarm rose; no file leaves the inbox, nothing is rejected) or
   * lets it go on (true), taking up the files that waited.
   */
  setClaiming(allowed: boolean): void {
    this.claimingHeld = !allowed;
    if (allowed) this.pump();
  }

  private claimingHeld = false;

  /** Fills free slots from the queue. */
  private pump(): void {
    while (this.state === 'running' && !this.claimingHeld && this.slots.size < this.options.concurrency && this.queue.size > 0) {
      const name = this.queue.shift()!;
      this.inspecting.add(name);
      const slot: Promise<void> = this.runSlot(name)
        .catch((error: unknown) => {
          this.log('error', `intake: unexpected failure while taking "${name}" from the inbox: ${errorMessage(error)}`, { file: name });
        })
        .finally(() => {
          this.inspecting.delete(name);
          this.slots.delete(slot);
          this.pump();
          this.settleIdleWaiters();
        });
      this.slots.add(slot);
    }
  }

  /** Forgets everything known about a name, so a new file under it starts fresh. */
  private forget(name: string): void {
    this.inspecting.delete(name);
    this.sightings.delete(name);
    this.arrivals.delete(name);
  }

  private async runSlot(name: string): Promise<void> {
    const inboxPath = path.join(this.inbox, name);
    let stats;
    try {
      // lstat and rename cost microseconds: done here, they save two thread-pool round trips.
      stats = lstatSync(inboxPath, { bigint: true });
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') this.log('warn', `intake: cannot inspect "${name}": ${errorMessage(error)}`, { file: name });
      this.forget(name); // gone: claimed by another daemon, or removed by its owner
      return;
    }
    if (stats.isFile()) {
      // Let raw watcher events already delivered by the OS reach `arrivals` before deciding.
      await nextTurn();
      const verdict = settleVerdict({
        sighting: stats,
        earlier: this.sightings.get(name),
        nowMs: Date.now(),
        settleMs: this.options.settleMs,
        arrivedWhole: this.arrivals.get(name) === 'appeared',
      });
      if (!verdict.ready) {
        const earlier = this.sightings.get(name);
        if (!earlier || earlier.mtimeNs !== stats.mtimeNs || earlier.size !== stats.size) {
          this.sightings.set(name, { size: stats.size, mtimeNs: stats.mtimeNs, seenAtMs: Date.now() });
        }
        this.waitForWriter(name, verdict.waitMs);
        return;
      }
    }
    if (this.state !== 'running') return; // stopping: claim nothing new
    if (this.claimingHeld) {
      // The disk alarm rose meanwhile: the name waits with the others.
      this.inspecting.delete(name);
      if (!this.queue.has(name)) this.queue.push(name);
      return;
    }

    const claimedPath = path.join(path.resolve(this.options.paths.processing), claimNameFor(name));
    try {
      try {
        renameSync(inboxPath, claimedPath);
      } catch (error) {
        // system/processing/ was removed under the daemon: make it again (with a warning) and claim.
        const folder = path.dirname(claimedPath);
        if (errorCode(error) !== 'ENOENT' || existsSync(folder) || !existsSync(inboxPath)) throw error;
        mkdirSync(folder, { recursive: true });
        this.log('warn', `intake: folder ${folder} was removed while the daemon ran; made it again`, { folder });
        renameSync(inboxPath, claimedPath);
      }
    } catch (error) {
      this.forget(name);
      if (errorCode(error) === 'ENOENT') return; // another daemon claimed it first
      this.log('warn', `intake: cannot claim "${name}"; the next scan retries it: ${errorMessage(error)}`, { file: name });
      return;
    }
    this.forget(name);
    this.log('info', `intake: claimed "${name}"`, { file: name, claimedPath });
    await this.processClaimed(claimedPath);
  }

  /** Frees the slot and looks at the name again once its writer may be done. */
  private waitForWriter(name: string, waitMs: number): void {
    this.inspecting.delete(name);
    if (!this.isAccepting()) return;
    const timer = setTimeout(() => {
      this.settling.delete(name);
      this.enqueue(name);
      this.settleIdleWaiters();
    }, waitMs);
    this.settling.set(name, timer);
  }

  private async processClaimed(claimedPath: string): Promise<void> {
    let item: IntakeItem | IntakeRejection;
    try {
      item = await readClaimedFile(claimedPath, this.options.maxBytes);
    } catch (error) {
      this.log('error', `intake: cannot read the claimed file ${claimedPath}; it stays in system/processing/ and is recovered at the next start: ${errorMessage(error)}`);
      return;
    }
    if (item.kind === 'rejected') return this.reject(item);
    if (item.kind === 'request') {
      let outcome;
      try {
        outcome = await this.registry.claim(item.requestId, claimedPath);
      } catch (error) {
        this.log('error', `intake: cannot record request id "${item.requestId}"; the file stays in system/processing/ and is recovered at the next start: ${errorMessage(error)}`);
        return;
      }
      if (outcome === 'duplicate') {
        return this.reject({
          kind: 'rejected',
          file: item.sourceFile,
          claimedPath,
          reason: `duplicate request_id "${item.requestId}": it was already processed; use a new request_id`,
        });
      }
    }
    try {
      await this.options.handle(item);
    } catch (error) {
      this.log('error', `intake: the handler failed for "${item.sourceFile}": ${errorMessage(error)}`, {
        file: item.sourceFile,
        claimedPath,
      });
    }
  }

  private async reject(rejection: IntakeRejection): Promise<void> {
    try {
      await moveToFailed(this.options.paths, rejection.claimedPath, rejection.file, rejection.reason, {
        durable: this.options.durable ?? true,
      });
    } catch (error) {
      this.log('error', `intake: cannot move "${rejection.file}" to system/failed/; it stays in system/processing/: ${errorMessage(error)}`);
    }
    this.log('warn', `intake: rejected "${rejection.file}": ${rejection.reason}`, { file: rejection.file, reason: rejection.reason });
    try {
      this.options.onRejected?.({ file: rejection.file, reason: rejection.reason });
    } catch (error) {
      this.log('error', `intake: the onRejected callback failed: ${errorMessage(error)}`);
    }
  }
}
