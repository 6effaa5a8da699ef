/**
 * Delivery of signed checkpoints to the witnesses (docs/audit-log.md), for both modes: a folder gets
 * the line appended to `<day>.jsonl`, a URL a POST. A witness that is down is retried with backoff,
 * never blocking a session, through govflow's one delivery backlog (src/store/delivery-backlog.ts):
 * checkpoints waiting survive a restart; its lags go to `system/state/witnesses.json` for status and /metrics.
 */
import { readStatusFile, writeStatusFile } from '../store/status-file.js';
import { GovflowError } from '../errors.js';
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_BACKOFF } from '../backoff.js';
import { DeliveryBacklog, type DeliveryTarget, type TargetLag } from '../store/delivery-backlog.js';
import type { Checkpoint } from './checkpoint-format.js';
import { postJson } from '../notify/json-post.js';

/** A witness's backlog, for status and metrics. */
export interface WitnessLag {
  witness: string;
  /** Checkpoints signed, not yet delivered. */
  pending: number;
  lastError: string | null;
}

const WITNESS_STATUS_FILE = 'witnesses.json';

export interface WitnessStatus {
  pid: number;
  updated_at: string;
  witnesses: WitnessLag[];
}

/** The witnesses' backlog as the daemon `pid` (the root's owner) last wrote it; [] when it wrote none. */
export function witnessLag(stateDir: string, pid: number | undefined): WitnessLag[] {
  return pid === undefined ? [] : (readStatusFile<WitnessStatus>(stateDir, WITNESS_STATUS_FILE, pid)?.witnesses ?? []);
}

/** `govflow status` lines (files and cluster mode): one per witness. */
export function witnessLines(lags: WitnessLag[]): string[] {
  return lags.map(
    (lag) =>
      `witness ${lag.witness}: ${lag.pending === 0 ? 'up to date' : `${lag.pending} checkpoints waiting`}${
        lag.lastError ? ` (last ` + `error: ${lag.lastError})` : ''
      }`,
  );
}

type Log = (message: string, fields?: Record<string, unknown>) => void;

/** Where the witnesses' backlog lives (src/store/delivery-backlog.ts). */
export function witnessBacklogFolder(stateDir: string): string {
  return path.join(stateDir, 'deliveries', 'witnesses');
}

/** A witness: a folder gets the line appended to `<day>.jsonl`, a URL a POST of it. */
function witnessTarget(target: string): DeliveryTarget<Checkpoint> {
  return {
    name: target,
    async send(record, signal) {
      const checkpoint = record.payload;
      const line = JSON.stringify(checkpoint);
      if (/^https?:\/\//.test(target)) {
        const status = await postJson(target, line, { timeoutMs: 10_000, signal });
        if (status < 200 || status > 299) throw new GovflowError('provider', `HTTP ${status} from ${target}`);
        return;
      }
      await mkdir(target, { recursive: true });
      await appendFile(path.join(target, `${checkpoint.day}.jsonl`), `${line}\n`);
    },
  };
}

export class CheckpointWitnesses {
  private readonly backlog: DeliveryBacklog<Checkpoint> | null;

  constructor(options: { stateDir: string; witnesses: string[]; durable?: boolean; log?: Log }) {
    const { stateDir, log } = options;
    this.backlog =
      options.witnesses.length === 0
        ? null
        : new DeliveryBacklog<Checkpoint>({
            folder: witnessBacklogFolder(stateDir),
            targets: options.witnesses.map(witnessTarget),
            // A witness's file keeps the checkpoints in the order they were signed.
            ordered: true,
            giveUpAfterMs: null,
            backoff: DEFAULT_BACKOFF,
            durable: options.durable ?? true,
            noun: 'checkpoint',
            targetNoun: 'audit witness',
            log: (level, message, fields) => {
              if (level === 'warn') log?.(message, fields);
            },
            onChange: (lags) => {
              const status: WitnessStatus = {
                pid: process.pid,
                updated_at: new Date().toISOString(),
                witnesses: lags.map(lagOf),
              };
              writeStatusFile(stateDir, WITNESS_STATUS_FILE, status);
            },
          }).open();
  }

  deliver(checkpoint: Checkpoint): void {
    void this.backlog?.enqueue(
      `${checkpoint.day}-${checkpoint.entries}-${checkpoint.at.replace(/[^0-9]/g, '')}`,
      checkpoint,
    );
  }

  lag(): WitnessLag[] {
    return this.backlog?.lag().map(lagOf) ?? [];
  }

  /** One more try of each witness's backlog, then no more retries (at stop); what is left waits for the next start. */
  async close(): Promise<void> {
    await this.backlog?.close(10_000);
  }
}

function lagOf(lag: TargetLag): WitnessLag {
  return { witness: lag.target, pending: lag.waiting, lastError: lag.lastError };
}
