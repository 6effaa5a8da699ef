/**
 * What becomes of one claim in system/processing/ once the intake takes it: read and parsed, its
 * request id registered (a duplicate is refused), then handed to the daemon's handler; a control
 * goes to its own handler; whatever is invalid moves to system/failed/ with its reason.
 * When a claim runs is the intake's (inbox-intake.ts).
 */
import { existsSync } from 'node:fs';
import type { SystemPaths } from '../config/system-paths.js';
import { errorMessage } from '../errors.js';
import {
  claimedItem,
  claimTargetOf,
  readClaimedFile,
  type IntakeControl,
  type IntakeItem,
  type IntakeRejection,
} from './claimed-file.js';
import { CONTROL_KEY, looksLikeControl } from './control-peek.js';
import { moveToFailed } from './failed-files.js';
import type { IntakeLog } from './inbox-claimer.js';
import type { AttachmentLimits } from './request-folder.js';
import type { RequestIdRegistry } from './request-id-registry.js';

export interface ClaimHandlerOptions {
  paths: SystemPaths;
  /** intake.max_bytes: larger files are rejected without being read past the limit. */
  maxBytes: number;
  /** intake.attachments: a folder within them is a request folder (docs/attachments.md); without it every folder is refused. */
  attachments?: AttachmentLimits;
  /** Runs one item. The intake logs a rejection of this promise and carries on. */
  handle: (item: IntakeItem) => Promise<void>;
  /**
   * Applies a control (docs/run-control.md) at once, in no slot: a cancel must not wait behind
   * the sessions it may be meant to stop. Without it controls take a slot like any item.
   */
  handleControl?: (item: IntakeControl) => Promise<void>;
  onRejected?: (rejection: { file: string; reason: string }) => void;
  /** fsync claims, markers and error records (default true; daemon.fsync). */
  durable?: boolean;
}

export class ClaimHandler {
  constructor(
    private readonly options: ClaimHandlerOptions,
    private readonly registry: RequestIdRegistry,
    private readonly log: IntakeLog,
  ) {}

  /**
   * The work of a claim that goes to the controls' own lane: applying it, or refusing it when it
   * is a control that cannot be. Null: no control for that lane (it takes a slot like any claim).
   */
  controlWork(claimedPath: string, text: string): Promise<void> | null {
    if (!this.options.handleControl || !CONTROL_KEY.test(text)) return null;
    const item = claimedItem(claimedPath, Buffer.from(text, 'utf8'), this.options.maxBytes);
    if (item.kind === 'control') return this.options.handleControl(item);
    if (item.kind === 'rejected' && looksLikeControl(text)) return this.reject(item);
    return null;
  }

  /** `submitted`: a submission's text, null for a submitted folder (its request id is registered: only a dropped file's is claimed here). */
  async process(claimedPath: string, submitted?: string | null): Promise<void> {
    // Handled while it waited (a cancel of its queued session archived it): nothing left to do.
    if (!existsSync(claimedPath)) return;
    let item: IntakeItem | IntakeRejection;
    try {
      item =
        typeof submitted === 'string'
          ? claimedItem(claimedPath, Buffer.from(submitted, 'utf8'), this.options.maxBytes)
          : await readClaimedFile(claimedPath, this.options.maxBytes, this.options.attachments);
    } catch (error) {
      this.log(
        'error',
        `intake: cannot read the claimed file ${claimedPath}; it stays in system/processing/ and is recovered at the next start: ${errorMessage(error)}`,
      );
      return;
    }
    if (item.kind === 'rejected') return this.reject(item);
    if (item.kind === 'request' && submitted === undefined) {
      let outcome;
      try {
        outcome = await this.registry.claim(item.requestId, claimTargetOf(item));
      } catch (error) {
        this.log(
          'error',
          `intake: cannot record request id "${item.requestId}"; the file stays in system/processing/ and is recovered at the next ` +
            `start: ${errorMessage(error)}`,
        );
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

  /** Moves a claim that cannot be an item to system/failed/ with its reason; logs, never throws. */
  async reject(rejection: IntakeRejection): Promise<void> {
    try {
      await moveToFailed(this.options.paths, rejection.claimedPath, rejection.file, rejection.reason, {
        durable: this.options.durable ?? true,
      });
    } catch (error) {
      this.log(
        'error',
        `intake: cannot move "${rejection.file}" to system/failed/; it stays in system/processing/: ${errorMessage(error)}`,
      );
    }
    this.log('warn', `intake: rejected "${rejection.file}": ${rejection.reason}`, {
      file: rejection.file,
      reason: rejection.reason,
    });
    try {
      this.options.onRejected?.({ file: rejection.file, reason: rejection.reason });
    } catch (error) {
      this.log('error', `intake: the onRejected callback failed: ${errorMessage(error)}`);
    }
  }
}
