/**
 * Claims inbox files into system/processing/ as soon as they are complete (settle-check.ts), slot
 * free or not: a lstat and a rename, so a flood leaves the inbox at once. `fs.watch` is a hint; a
 * scan at start and every `rescanIntervalMs` is the truth. Not chokidar: it re-listed the folder
 * and lstat-ed every waiting file on each change, which under a flood cost more than the claims.
 * Folders settle as a whole (request folders, docs/attachments.md) and are copied into the daemon's
 * own files before they leave the inbox (folder-receipt.ts), one at a time; symlinks are claimed
 * too (never followed) and rejected after the claim.
 */
import { existsSync, lstatSync, mkdirSync, renameSync, watch, type BigIntStats, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { errorCode, errorMessage } from '../errors.js';
import { claimNameFor, originalNameOf } from './claim-name.js';
import { FileQueue } from './file-queue.js';
import { ParkedNames } from './parked-names.js';
import { finishReceipts, receiveFolder, type Receipt, type ReceiptOptions } from './folder-receipt.js';
import { isIgnoredName } from './request-file.js';
import { folderSighting, settleVerdict, type EarlierSighting, type FileSighting } from './settle-check.js';

export type IntakeLogLevel = 'info' | 'warn' | 'error';
export type IntakeLog = (level: IntakeLogLevel, message: string, fields?: object) => void;

export interface InboxClaimerOptions {
  inbox: string;
  processing: string;
  settleMs: number;
  rescanIntervalMs: number;
  /** Use the filesystem watcher; without it only scans find files. */
  watch: boolean;
  log: IntakeLog;
  /** Hears every claim, in claim order, with its name in system/processing/. */
  onClaimed: (claimName: string) => void;
  /** Hears that the claimer may have become idle. */
  onProgress: () => void;
  /** Set when folders are request folders: each is copied into the daemon's own files at its claim. */
  receipt?: ReceiptOptions;
  /** Hears a request folder refused at its claim: the caller moves `claimedPath` to system/failed/. */
  onRefused?: (refusal: { file: string; claimedPath: string; reason: string }) => void;
  /** True for an inbox file claimed while http.max_queued holds the queue (a control: a cancel applies at once, a fork is refused). */
  passesQueueHold?: (inboxPath: string) => boolean;
}

/** What the watcher told us about a name since it last appeared: used to skip the settle wait. */
type Arrival = 'appeared' | 'written';

/** How many lstat calls a scan runs at once, so a huge inbox does not flood the thread pool. */
const SCAN_STAT_PARALLELISM = 16;
/** Entries of an inbox folder looked at per sighting: far past any intake.attachments.max_files. */
const FOLDER_SIGHTING_ENTRIES = 10_000;
/** Time one event-loop turn may spend claiming (about a thousand files): running sessions go on between. */
const CLAIM_TURN_BUDGET_MS = 25;

export class InboxClaimer {
  private readonly inbox: string;
  private readonly processing: string;
  private readonly names = new FileQueue();
  /** Names waiting out their settle time, each with the timer that queues it again. */
  private readonly settling = new Map<string, NodeJS.Timeout>();
  private readonly sightings = new Map<string, EarlierSighting>();
  private readonly arrivals = new Map<string, Arrival>();
  private watcher: FSWatcher | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private claimTurn: NodeJS.Immediate | undefined;
  /** Names lstat-ed in the last claim turn, decided in the next. */
  private sighted: Array<{ name: string; stats: BigIntStats }> = [];
  private active = false;
  private held = false;
  /** True while http.max_queued requests wait: only files that pass the hold (controls) are claimed. */
  private queueFull = false;
  /** Settled names left in the inbox while the queue is full, looked at again once it is not. */
  private readonly parked: ParkedNames;
  /** Inbox folders being copied at their claim (names), and the chain that copies them one at a time. */
  private readonly receiving = new Set<string>();
  private receipts: Promise<void> = Promise.resolve();

  constructor(private readonly options: InboxClaimerOptions) {
    this.inbox = path.resolve(options.inbox);
    this.processing = path.resolve(options.processing);
    this.parked = new ParkedNames(options.log);
  }

  /** Names found but not claimed yet: queued, or waiting for their writer to finish. */
  get pending(): number {
    return this.names.size + this.settling.size + this.receiving.size + this.parked.size;
  }

  isIdle(): boolean {
    return (
      this.pending === 0 && this.sighted.length === 0 && this.scanning === undefined && this.claimTurn === undefined
    );
  }

  /** Starts the watcher, claims what the inbox already holds, and rescans every rescanIntervalMs. */
  async start(): Promise<void> {
    this.active = true;
    const receipt = this.options.receipt;
    if (receipt)
      await finishReceipts(receipt, (claimName, done) =>
        this.settleReceipt(originalNameOf(claimName), claimName, done),
      ).catch((error: unknown) =>
        this.options.log(
          'error',
          `intake: cannot finish the request folders a crash left being copied in ${this.processing}; the next start tries again: ` +
            errorMessage(error),
        ),
      );
    this.startWatcher();
    await this.scan();
    if (!this.active) return;
    this.rescanTimer = setInterval(() => void this.scan(), this.options.rescanIntervalMs);
  }

  /** Claims nothing more; closes the watcher and timers. Files not claimed stay in the inbox. */
  async stop(): Promise<void> {
    this.active = false;
    if (this.rescanTimer) clearInterval(this.rescanTimer);
    if (this.claimTurn) clearImmediate(this.claimTurn);
    this.claimTurn = undefined;
    this.sighted = [];
    for (const timer of this.settling.values()) clearTimeout(timer);
    this.settling.clear();
    this.parked.clear();
    this.names.clear();
    this.sightings.clear();
    this.arrivals.clear();
    this.watcher?.close();
    this.watcher = undefined;
    try {
      await this.scanning;
    } catch {
      // A failed scan was logged where it failed.
    }
    await this.receipts;
  }

  /** true: the disk alarm rose — no file leaves the inbox; false: claim what waited. */
  setHeld(held: boolean): void {
    this.held = held;
    this.scheduleClaims();
  }

  /** true: http.max_queued requests wait — only controls leave the inbox; false: claim what waited. */
  setQueueFull(full: boolean): void {
    this.queueFull = full;
    if (!full) {
      for (const name of this.parked.release()) this.enqueue(name);
    }
    this.scheduleClaims();
  }

  private startWatcher(): void {
    if (!this.options.watch || this.watcher || !this.active) return;
    try {
      this.watcher = watch(this.inbox, { persistent: true }, (event, fileName) => this.onEvent(event, fileName));
    } catch (error) {
      this.options.log(
        'warn',
        `intake: cannot watch ${this.inbox}; scans still find every file, and the next one tries again: ${errorMessage(error)}`,
      );
      return;
    }
    this.watcher.on('error', (error: unknown) => {
      this.options.log(
        'warn',
        `intake: the inbox watcher stopped with an error; scans still find every file, and the next one restarts it: ${errorMessage(error)}`,
      );
      this.watcher?.close();
      this.watcher = undefined;
      void this.scan();
    });
  }

  /** An inotify event: `rename` for a name that appeared (or left), `change` for a write. */
  private onEvent(event: string, fileName: string | null): void {
    if (!this.active) return;
    if (!fileName) {
      void this.scan(); // the kernel's event queue overflowed: look at everything
      return;
    }
    if (event === 'rename' && fileName === path.basename(this.inbox) && !existsSync(this.inbox)) {
      // The inbox itself was removed: this watch is dead. The disk guard makes the folder again;
      // the next scan restarts the watcher (until then scans alone find files).
      this.options.log('warn', `intake: ${this.inbox} was removed; watching it again at the next scan`);
      this.watcher?.close();
      this.watcher = undefined;
      return;
    }
    if (isIgnoredName(fileName)) return;
    if (event === 'change') this.arrivals.set(fileName, 'written');
    else if (!this.arrivals.has(fileName)) this.arrivals.set(fileName, 'appeared');
    this.enqueue(fileName);
  }

  private enqueue(name: string): void {
    if (
      !this.active ||
      isIgnoredName(name) ||
      this.names.has(name) ||
      this.settling.has(name) ||
      this.receiving.has(name) ||
      this.parked.has(name)
    )
      return;
    this.names.push(name);
    this.scheduleClaims();
  }

  /**
   * Claims in slices over two turns: one lstat-s names, the next decides, after a poll phase has
   * delivered the inotify events of writes before those lstats — else a file first written just
   * before its lstat would look "appeared whole" and be claimed half-written.
   */
  private scheduleClaims(): void {
    if (this.claimTurn || !this.active || this.held || (this.names.size === 0 && this.sighted.length === 0)) return;
    this.claimTurn = setImmediate(() => {
      this.claimTurn = undefined;
      const deadline = performance.now() + CLAIM_TURN_BUDGET_MS;
      const ready = this.sighted;
      this.sighted = [];
      for (const [index, sighted] of ready.entries()) {
        if (!this.active || this.held) {
          for (const { name } of ready.slice(index)) this.names.push(name);
          break;
        }
        this.decide(sighted.name, sighted.stats);
      }
      while (this.active && !this.held && performance.now() < deadline) {
        const name = this.names.shift();
        if (name === undefined) break;
        this.sight(name);
      }
      this.scheduleClaims();
      this.options.onProgress();
    });
  }

  /** Lists the inbox and queues every new name, oldest first. Concurrent calls share one scan. */
  private scan(): Promise<void> {
    this.scanning ??= this.scanInbox()
      .catch((error: unknown) => {
        this.options.log(
          'error',
          `intake: scanning ${this.inbox} failed; retrying at the next rescan: ${errorMessage(error)}`,
        );
      })
      .finally(() => {
        this.scanning = undefined;
        this.options.onProgress();
      });
    return this.scanning;
  }

  private async scanInbox(): Promise<void> {
    this.startWatcher();
    const names = (await readdir(this.inbox)).filter(
      (name) => !isIgnoredName(name) && !this.names.has(name) && !this.settling.has(name),
    );
    const found: Array<{ name: string; mtimeMs: number }> = [];
    for (let start = 0; start < names.length && this.active; start += SCAN_STAT_PARALLELISM) {
      const batch = names.slice(start, start + SCAN_STAT_PARALLELISM);
      const stats = await Promise.allSettled(batch.map((name) => lstat(path.join(this.inbox, name))));
      stats.forEach((result, index) => {
        if (result.status === 'fulfilled') found.push({ name: batch[index], mtimeMs: result.value.mtimeMs });
      });
    }
    found.sort(
      (left, right) => left.mtimeMs - right.mtimeMs || (left.name < right.name ? -1 : left.name > right.name ? 1 : 0),
    );
    for (const { name } of found) this.enqueue(name);
  }

  /** Forgets everything known about a name, so a new file under it starts fresh. */
  private forget(name: string): void {
    this.sightings.delete(name);
    this.arrivals.delete(name);
    this.parked.forget(name);
  }

  /** lstat-s a queued name; a file, folder or link found goes to `sighted` for the next turn. */
  private sight(name: string): void {
    try {
      this.sighted.push({ name, stats: lstatSync(path.join(this.inbox, name), { bigint: true }) });
    } catch (error) {
      if (errorCode(error) !== 'ENOENT')
        this.options.log('warn', `intake: cannot inspect "${name}": ${errorMessage(error)}`, { file: name });
      this.forget(name); // gone: claimed already, or removed by its owner
    }
  }

  /** Claims a sighted name unless it may still be written to (then it waits for its writer). */
  private decide(name: string, stats: BigIntStats): void {
    const inboxPath = path.join(this.inbox, name);
    if (stats.isFile() || stats.isDirectory()) {
      const earlier = this.sightings.get(name);
      // A folder (a request folder) is one sighting of everything in it; the watcher sees no
      // writes inside it, so only its stamps say whether it arrived whole.
      const folder = stats.isDirectory();
      let sighting: FileSighting = stats;
      if (folder) {
        try {
          sighting = folderSighting(inboxPath, FOLDER_SIGHTING_ENTRIES);
        } catch {
          this.forget(name);
          return; // gone meanwhile
        }
      }
      const verdict = settleVerdict({
        sighting,
        earlier,
        nowMs: Date.now(),
        settleMs: this.options.settleMs,
        arrivedWhole: !folder && this.arrivals.get(name) === 'appeared',
      });
      if (!verdict.ready) {
        if (!earlier || earlier.mtimeNs !== sighting.mtimeNs || earlier.size !== sighting.size) {
          this.sightings.set(name, { size: sighting.size, mtimeNs: sighting.mtimeNs, seenAtMs: Date.now() });
        }
        this.waitForWriter(name, verdict.waitMs);
        return;
      }
    }
    if (this.queueFull && !(stats.isFile() && this.options.passesQueueHold?.(inboxPath))) {
      this.parked.park(name);
      return;
    }
    const claimName = claimNameFor(name);
    const claimedPath = path.join(this.processing, claimName);
    this.forget(name);
    if (stats.isDirectory() && this.options.receipt) {
      this.receive(name, claimName);
      return;
    }
    try {
      try {
        renameSync(inboxPath, claimedPath);
      } catch (error) {
        // system/processing/ was removed under the daemon: make it again (with a warning) and claim.
        if (errorCode(error) !== 'ENOENT' || existsSync(this.processing) || !existsSync(inboxPath)) throw error;
        mkdirSync(this.processing, { recursive: true });
        this.options.log('warn', `intake: folder ${this.processing} was removed while the daemon ran; made it again`, {
          folder: this.processing,
        });
        renameSync(inboxPath, claimedPath);
      }
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return; // claimed by someone else first
      this.options.log('warn', `intake: cannot claim "${name}"; the next scan retries it: ${errorMessage(error)}`, {
        file: name,
      });
      return;
    }
    this.options.log('info', `intake: claimed "${name}"`, { file: name, claimedPath });
    this.options.onClaimed(claimName);
  }

  /** Copies a settled folder into the daemon's own files and claims it (folder-receipt.ts), after the folders before it. */
  private receive(name: string, claimName: string): void {
    this.receiving.add(name);
    this.receipts = this.receipts
      .then(async () => {
        if (!this.active) return; // stopping: the folder waits in the inbox for the next start
        const receipt = await receiveFolder(path.join(this.inbox, name), claimName, this.options.receipt!);
        if (receipt) this.settleReceipt(name, claimName, receipt);
      })
      .catch((error: unknown) => {
        this.options.log(
          'warn',
          `intake: cannot take the folder "${name}"; the next scan (or, once claimed, the next start) retries it: ${errorMessage(error)}`,
          { file: name },
        );
      })
      .finally(() => {
        this.receiving.delete(name);
        this.options.onProgress();
      });
  }

  private settleReceipt(name: string, claimName: string, receipt: Receipt): void {
    if (receipt.kind === 'refused')
      return this.options.onRefused?.({ file: name, claimedPath: receipt.claimedPath, reason: receipt.reason });
    this.options.log('info', `intake: claimed "${name}" (copied into the daemon's own files)`, {
      file: name,
      claimedPath: path.join(this.processing, claimName),
    });
    this.options.onClaimed(claimName);
  }

  /** Looks at the name again once its writer may be done. */
  private waitForWriter(name: string, waitMs: number): void {
    if (!this.active || this.settling.has(name)) return;
    const timer = setTimeout(() => {
      this.settling.delete(name);
      this.enqueue(name);
      this.options.onProgress();
    }, waitMs);
    this.settling.set(name, timer);
  }
}
