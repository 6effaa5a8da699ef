/** LISTEN on a cluster schema's channels; a dropped connection is replaced after `retryMs`, the daemon's poll covering the gap. */
import type pg from 'pg';
import { errorMessage } from '../errors.js';
import type { OperationalLog } from '../log-contract.js';
import { quoteIdentifier, withoutCredentials } from './postgres-connection.js';
import { channelsOf } from './store-committer.js';

export class StoreListener {
  private client: pg.Client | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
    private readonly handlers: {
      work(payload: string | undefined): void;
      audit(): void;
      results(payload: string | undefined): void;
    },
    private readonly options: { log: OperationalLog; retryMs: number; active: () => boolean },
  ) {}

  async listen(): Promise<void> {
    const channels = channelsOf(this.schema);
    let client: pg.Client;
    try {
      client = (await this.pool.connect()) as unknown as pg.Client;
    } catch (error) {
      this.options.log.warn('cannot LISTEN for store notifications; polling only until it reconnects', {
        error: withoutCredentials(errorMessage(error)),
      });
      return;
    }
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === channels.work) this.handlers.work(message.payload);
      else if (message.channel === channels.audit) this.handlers.audit();
      else if (message.channel === channels.results) this.handlers.results(message.payload);
    });
    client.on('error', (error) => {
      this.options.log.warn('store notifications lost; reconnecting', {
        error: withoutCredentials(errorMessage(error)),
      });
      (client as unknown as pg.PoolClient).release(true);
      this.client = null;
      if (this.options.active()) setTimeout(() => void this.listen(), this.options.retryMs).unref();
    });
    for (const channel of Object.values(channels)) await client.query(`listen ${quoteIdentifier(channel)}`);
  }

  /** Gives the connection back to the pool (at stop). */
  release(): void {
    (this.client as unknown as pg.PoolClient | null)?.release();
    this.client = null;
  }
}
