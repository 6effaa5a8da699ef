/**
 * Signs checkpoints of the chain as the audit writer commits entries (docs/audit-log.md): at most
 * one per `audit.checkpoint_ms`, trailing, so the newest entry is covered within that time; one for
 * a day's last entry once the next day begins; one at stop. Nothing here can fail or slow a session.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { signCheckpoint } from './checkpoint-format.js';
import { CheckpointWitnesses, type WitnessLag } from './checkpoint-witnesses.js';

export interface ChainState {
  day: string;
  entries: number;
  hash: string;
}

export interface CheckpointWriterOptions {
  stateDir: string;
  privateKey: KeyObject;
  keyId: string;
  intervalMs: number;
  witnesses: string[];
  /** fsync checkpoints waiting for a witness (daemon.fsync). */
  durable?: boolean;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

export function checkpointsDir(stateDir: string): string {
  return path.join(stateDir, 'checkpoints');
}

export class CheckpointWriter {
  private signed: ChainState | null = null;
  private latest: ChainState | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastSignedAt = 0;
  private writing: Promise<void> = Promise.resolve();
  private readonly witnesses: CheckpointWitnesses;

  constructor(private readonly options: CheckpointWriterOptions) {
    this.witnesses = new CheckpointWitnesses({
      stateDir: options.stateDir,
      witnesses: options.witnesses,
      durable: options.durable,
      log: options.log,
    });
  }

  /** The chain's head after a committed entry (syncs of concurrent appends may report out of order). */
  committed(state: ChainState): void {
    if (this.latest !== null && state.entries <= this.latest.entries) return;
    if (this.latest !== null && this.latest.day !== state.day && this.latest !== this.signed) this.sign(this.latest);
    this.latest = state;
    if (this.timer !== null) return;
    const wait = Math.max(0, this.lastSignedAt + this.options.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.latest !== null && this.latest !== this.signed) this.sign(this.latest);
    }, wait);
    this.timer.unref();
  }

  witnessLag(): WitnessLag[] {
    return this.witnesses.lag();
  }

  /** Signs the newest state if it was not, then waits for the file and one more try of each witness. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.latest !== null && this.latest !== this.signed) this.sign(this.latest);
    await this.writing;
    await this.witnesses.close();
  }

  private sign(state: ChainState): void {
    this.signed = state;
    this.lastSignedAt = Date.now();
    const checkpoint = signCheckpoint(this.options.privateKey, this.options.keyId, state, new Date());
    const folder = checkpointsDir(this.options.stateDir);
    this.writing = this.writing
      .then(async () => {
        await mkdir(folder, { recursive: true });
        await appendFile(path.join(folder, `${state.day}.jsonl`), `${JSON.stringify(checkpoint)}\n`);
      })
      .catch((error: unknown) =>
        this.options.log?.(`could not write a signed checkpoint to ${folder}`, { error: (error as Error).message }),
      );
    this.witnesses.deliver(checkpoint);
  }
}
