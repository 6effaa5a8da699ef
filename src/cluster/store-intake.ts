/**
 * Intake in cluster mode: a claimed item is committed to the store, then archived; a duplicate or a
 * reply that cannot apply goes to system/failed/. While Postgres does not answer, the item is kept
 * (its file stays in system/processing/) for `retry()`.
 */
import type { GovflowConfig } from '../config/config-loader.js';
import { errorMessage } from '../errors.js';
import type { IntakeItem } from '../intake/claimed-file.js';
import { moveToFailed } from '../intake/failed-files.js';
import { compactInTimeZone } from '../message/zoned-time.js';
import { generateSessionId } from '../pipeline/session-runner.js';
import type { OperationalLog } from '../log-contract.js';
import { archiveRequestFile } from '../intake/request-archive.js';
import { withoutCredentials } from './postgres-connection.js';
import type { SessionLeases } from './session-leases.js';
import { coalesced } from './coalesced-run.js';

export class StoreIntake {
  /** Claimed items the store did not take yet (the link was down), by claimed path. */
  private readonly unqueued = new Map<string, IntakeItem>();

  constructor(
    private readonly config: GovflowConfig,
    private readonly leases: SessionLeases,
    private readonly log: OperationalLog,
  ) {}

  /** Commits one claimed item (or keeps it for `retry`); never throws. */
  async handle(item: IntakeItem): Promise<void> {
    try {
      await this.enqueue(item);
      this.unqueued.delete(item.claimedPath);
    } catch (error) {
      if (!this.unqueued.has(item.claimedPath)) {
        this.log.warn('cannot commit a request to the store; it waits in system/processing/ and is retried', {
          file: item.sourceFile,
          error: withoutCredentials(errorMessage(error)),
        });
      }
      this.unqueued.set(item.claimedPath, item);
    }
  }

  /** Tries the kept items again (the daemon's poll calls this). */
  readonly retry = coalesced(async () => {
    for (const item of [...this.unqueued.values()]) await this.handle(item);
  });

  private async enqueue(item: IntakeItem): Promise<void> {
    const { config } = this;
    const archive = () =>
      archiveRequestFile(
        config.paths.archive,
        compactInTimeZone(new Date(), config.timezone),
        item.claimedPath,
        item.sourceFile,
      );
    const reject = async (reason: string) => {
      await moveToFailed(config.paths, item.claimedPath, item.sourceFile, reason, { durable: config.daemon.fsync });
      this.log.warn('request file rejected: moved to system/failed/', { file: item.sourceFile, reason });
    };
    if (item.kind === 'reply') {
      const refused = await this.leases.enqueueReply(item.sessionId, {
        text: item.reply,
        source_file: item.sourceFile,
        ...(item.approval ? { approval: item.approval } : {}),
      });
      if (refused) return reject(refused);
      archive();
      return;
    }
    const { requestId, text, user, metadata, sourceFile, claimedPath } = item;
    // The request id is the key: a session id made here again after a crash never makes a second session.
    const sessionId = item.sessionId ?? generateSessionId(item.receivedAt, config.timezone);
    const outcome = await this.leases.enqueue({
      sessionId,
      requestId,
      text,
      user,
      metadata,
      sourceFile,
      claimedPath,
      ...(item.attachments ? { attachments: { folder: claimedPath, files: item.attachments.files } } : {}),
    });
    if (outcome.kind === 'duplicate' && !outcome.ours) {
      return reject(
        outcome.column === 'request_id'
          ? `duplicate request_id "${item.requestId}": it was already accepted; use a new request_id`
          : `session_id "${item.sessionId}" is already in use; omit session_id or choose a new one`,
      );
    }
    archive();
  }
}
