/** The connection pool of cluster mode, and the error (exit 2) when Postgres cannot be reached at start. */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { GovflowConfig } from '../config/config-loader.js';
import { GovflowError, errorMessage } from '../errors.js';

/** Postgres did not answer (or refused us) within `cluster.connect_timeout_ms`: exit 2. */
export class StoreUnreachableError extends GovflowError {
  override readonly name = 'StoreUnreachableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('config', message, options);
  }
}

/** `host:port` of a Postgres URL, for messages (never user or password). */
export function storeAddress(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
    return `${host}:${parsed.port || '5432'}`;
  } catch {
    return 'an unparsable store.url';
  }
}

/** An error's text with any URL credentials in it masked. */
export function withoutCredentials(text: string): string {
  return text.replace(/(postgres(?:ql)?:\/\/)[^@\s/]*@/gi, '$1***@');
}

/** The connection settings of a root with `store.kind: postgres`; throws StoreUnreachableError for any other. */
export function storeSettings(config: GovflowConfig): {
  url: string;
  schema: string;
  poolSize: number;
  connectTimeoutMs: number;
} {
  if (config.store.kind !== 'postgres' || !config.store.url)
    throw new StoreUnreachableError(
      'store.kind is not postgres: set store: { kind: postgres, url: ... } in govflow.config.yaml',
    );
  return {
    url: config.store.url,
    schema: config.store.schema,
    poolSize: config.cluster.pool_size,
    connectTimeoutMs: config.cluster.connect_timeout_ms,
  };
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function tablesOf(schema: string): (name: string) => string {
  const quoted = quoteIdentifier(schema);
  return (name) => `${quoted}.${name}`;
}

/**
 * A hot query as a named prepared statement: each pooled connection parses and plans it once, not
 * at every call as an unnamed one (issue 55: planning was a tenth of Postgres's CPU in a cluster
 * session). The name is derived from the text, so two texts never share one.
 */
/** Postgres's SQLSTATE for a unique violation (also what the trigger refusing a deleted request's id raises). */
export const UNIQUE_VIOLATION = '23505';

export function prepared(text: string): { name: string; text: string } {
  return { name: `govflow_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`, text };
}

/** Runs `work` in one transaction on one client: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const value = await work(client);
    await client.query('commit');
    return value;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** A pool proven with one query within the connect timeout; idle-client errors go to `onError` instead of crashing the process. */
export async function openPool(
  settings: ReturnType<typeof storeSettings> & { applicationName?: string },
  onError: (message: string) => void = () => {},
): Promise<pg.Pool> {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.poolSize,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    application_name: settings.applicationName ?? 'govflow',
  });
  pool.on('error', (error) => onError(withoutCredentials(errorMessage(error))));
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StoreUnreachableError(
      `cannot reach the Postgres store at ${storeAddress(settings.url)}: ${withoutCredentials(errorMessage(error))}; check that the server ` +
        `runs and store.url is right`,
      { cause: error },
    );
  }
  return pool;
}
